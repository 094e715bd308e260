-- Per-tenant evaluation (internal/eval, docs/EVAL.md): versioned question sets
-- labelled with source_uris, and stored runs with a configuration snapshot.
-- Same isolation design as 00001: tenant_id leads every key and index, FORCE
-- ROW LEVEL SECURITY with the fail-closed tenant_isolation policy, and the
-- application role gets data access only (same DO block as 00002_grants.sql).

-- +goose Up
-- A set is immutable once stored; loading a changed file makes version + 1.
-- sha is the sha256 of the canonical questions, so reloading an identical
-- file is recognised and does not make a new version.
CREATE TABLE eval_sets (
    tenant_id  uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    id         uuid NOT NULL DEFAULT gen_random_uuid(),
    name       text NOT NULL CHECK (name ~ '^[a-z0-9][a-z0-9_.-]{0,99}$'),
    version    int NOT NULL CHECK (version >= 1),
    sha        bytea NOT NULL,
    questions  int NOT NULL CHECK (questions >= 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, id),
    UNIQUE (tenant_id, name, version)
);

-- relevant holds the source_uris (documents, not chunks: labels survive
-- re-chunking) that answer the question; empty = the corpus cannot answer it.
-- category is an optional free label (paraphrase, identifier, …) that reports
-- break the metrics down by.
CREATE TABLE eval_questions (
    tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    set_id    uuid NOT NULL,
    idx       int NOT NULL CHECK (idx >= 0),
    question  text NOT NULL CHECK (length(question) BETWEEN 1 AND 4000),
    relevant  text[] NOT NULL DEFAULT '{}',
    category  text NOT NULL DEFAULT '' CHECK (length(category) <= 100),
    PRIMARY KEY (tenant_id, set_id, idx),
    FOREIGN KEY (tenant_id, set_id) REFERENCES eval_sets (tenant_id, id) ON DELETE CASCADE
);

-- One evaluation run: config is the snapshot of everything that shaped the
-- retrieval (settings, models, chunking pipeline, depth), metrics the
-- production path's aggregate, legs the ablations, per_question the
-- per-question outcomes that `ragd eval compare` diffs.
CREATE TABLE eval_runs (
    tenant_id    uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    id           uuid NOT NULL DEFAULT gen_random_uuid(),
    set_id       uuid NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    config       jsonb NOT NULL DEFAULT '{}'::jsonb,
    metrics      jsonb NOT NULL DEFAULT '{}'::jsonb,
    legs         jsonb NOT NULL DEFAULT '{}'::jsonb,
    per_question jsonb NOT NULL DEFAULT '[]'::jsonb,
    PRIMARY KEY (tenant_id, id),
    FOREIGN KEY (tenant_id, set_id) REFERENCES eval_sets (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX eval_runs_by_set ON eval_runs (tenant_id, set_id, created_at DESC);
CREATE INDEX eval_runs_by_time ON eval_runs (tenant_id, created_at DESC);

ALTER TABLE eval_sets ENABLE ROW LEVEL SECURITY;
ALTER TABLE eval_sets FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON eval_sets
    USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE eval_questions ENABLE ROW LEVEL SECURITY;
ALTER TABLE eval_questions FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON eval_questions
    USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE eval_runs ENABLE ROW LEVEL SECURITY;
ALTER TABLE eval_runs FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON eval_runs
    USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());

-- +goose StatementBegin
DO $$
DECLARE r text := coalesce(nullif(current_setting('ragd.app_role', true), ''), 'ragd_app');
BEGIN
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON eval_sets, eval_questions, eval_runs TO %I', r);
END $$;
-- +goose StatementEnd

-- +goose Down
DROP TABLE IF EXISTS eval_runs, eval_questions, eval_sets;
