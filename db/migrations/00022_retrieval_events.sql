-- Traffic records (internal/traffic, docs/ARCHITECTURE.md "Traffic"):
-- retrieval_events holds one row per search or answer (what was asked, what
-- was retrieved with each leg's rank and score, the refusal, the stage
-- latencies, who asked) and the feedback given on it; tenant_usage holds
-- per-tenant, per-day request and provider counters. Both are written off
-- the request path by a background writer in batches, and kept only for the
-- tenant's retention period (settings.event_retention_days, default 30).
-- Same isolation design as 00001: tenant_id leads every key and index, FORCE
-- ROW LEVEL SECURITY with the fail-closed tenant_isolation policy, rows
-- deleted with their tenant (ON DELETE CASCADE), and the application role
-- gets data access only.

-- +goose Up
-- question is NULL when the tenant keeps only question_sha (the sha256 of
-- the question as asked; settings.event_question = "sha256"). results is a
-- JSON array of {rank, chunk_id, document_id, source_uri, score,
-- vector_rank, vector_distance, keyword_rank, keyword_score, rerank_score}.
CREATE TABLE retrieval_events (
    tenant_id      uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    id             uuid NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    operation      text NOT NULL CHECK (operation IN ('search', 'answer')),
    request_id     text NOT NULL DEFAULT '' CHECK (length(request_id) <= 128),
    subject        text NOT NULL DEFAULT '' CHECK (length(subject) <= 512),
    question       text CHECK (length(question) <= 32768),
    question_sha   bytea NOT NULL,
    rewritten      text CHECK (length(rewritten) <= 32768),
    filters        jsonb NOT NULL DEFAULT '{}'::jsonb,
    top_k          int NOT NULL DEFAULT 0,
    results        jsonb NOT NULL DEFAULT '[]'::jsonb,
    confidence     real NOT NULL DEFAULT 0,
    refused        boolean NOT NULL DEFAULT false,
    refusal_reason text NOT NULL DEFAULT '',
    degraded       boolean NOT NULL DEFAULT false,
    timings_ms     jsonb NOT NULL DEFAULT '{}'::jsonb,
    total_ms       real NOT NULL DEFAULT 0,
    -- Feedback on the response (POST /v1/events/{id}/feedback); NULL until given.
    helpful        boolean,
    feedback_note  text CHECK (length(feedback_note) <= 4000),
    right_source_uri text CHECK (length(right_source_uri) <= 2048),
    right_chunk_id uuid,
    feedback_at    timestamptz,
    PRIMARY KEY (tenant_id, id)
);
CREATE INDEX retrieval_events_by_time ON retrieval_events (tenant_id, created_at DESC, id DESC);

CREATE TABLE tenant_usage (
    tenant_id       uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    day             date NOT NULL,
    query_requests  bigint NOT NULL DEFAULT 0,
    write_requests  bigint NOT NULL DEFAULT 0,
    admin_requests  bigint NOT NULL DEFAULT 0,
    rate_limited    bigint NOT NULL DEFAULT 0,
    shed            bigint NOT NULL DEFAULT 0,
    embedded_chunks bigint NOT NULL DEFAULT 0,
    provider_tokens bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, day)
);

ALTER TABLE retrieval_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE retrieval_events FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON retrieval_events
    USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE tenant_usage ENABLE ROW LEVEL SECURITY;
ALTER TABLE tenant_usage FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON tenant_usage
    USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());

-- +goose StatementBegin
DO $$
DECLARE r text := coalesce(nullif(current_setting('ragd.app_role', true), ''), 'ragd_app');
BEGIN
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON retrieval_events, tenant_usage TO %I', r);
END $$;
-- +goose StatementEnd

-- +goose Down
DROP TABLE IF EXISTS retrieval_events, tenant_usage;
