-- Background ingestion jobs (internal/job, docs/ARCHITECTURE.md "Ingestion
-- jobs"): one ingestion_batches row per run (an API job or a `ragd ingest`
-- run) and one ingestion_items row per document with its stage, outcome,
-- error and attempts. An API job's uploaded bytes are kept in the item until
-- it reaches a final stage, so a restarted server resumes the job.
--
-- Same isolation design as 00001: tenant_id leads every key and index, FORCE
-- ROW LEVEL SECURITY with the fail-closed tenant_isolation policy, data
-- access only for the application role. Workers find work across tenants
-- through one SECURITY DEFINER function, claim_ingestion_item, which returns
-- only the keys of the next item (docs/SECURITY.md); everything else a worker
-- does runs in a normal tenant transaction.

-- +goose Up
CREATE TABLE ingestion_batches (
    tenant_id   uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    id          uuid NOT NULL DEFAULT gen_random_uuid(),
    -- api: POST /v1/ingest/jobs, worked by `ragd serve`; cli: a `ragd ingest`
    -- run, processed in that process and recorded here.
    origin      text NOT NULL CHECK (origin IN ('api', 'cli')),
    -- what was submitted: the archive's or the CLI's paths, for people
    label       text NOT NULL DEFAULT '' CHECK (length(label) <= 2000),
    total       int NOT NULL CHECK (total >= 0),
    -- A job's finish time is its last item's (derived when read: stamping
    -- it here from concurrent workers would need a lock per job).
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, id)
);
CREATE INDEX ingestion_batches_by_time ON ingestion_batches (tenant_id, created_at DESC, id DESC);

-- Stages: queued → extracted → chunked → embedded → stored, or one of the
-- other final stages: unchanged (same content and pipeline: nothing
-- re-embedded), skipped (not a document ragd reads: its type), refused (a
-- policy: over the size limit, an invalid source_uri), failed (an error).
-- error holds the reason of the last three (ingest.KindOf tells them
-- apart). lease_until is the claim's expiry while a worker holds the item
-- (claim is its token) and the not-before time of a retry after a transient
-- failure; an item whose worker died becomes claimable when it passes.
CREATE TABLE ingestion_items (
    tenant_id    uuid NOT NULL,
    batch_id     uuid NOT NULL,
    idx          int NOT NULL CHECK (idx >= 0),
    source_uri   text NOT NULL CHECK (length(source_uri) BETWEEN 1 AND 2048),
    -- declared or detected content type; '' = decided by the pipeline
    content_type text NOT NULL DEFAULT '',
    metadata     jsonb,
    -- the uploaded bytes (API jobs), NULL once the item is final and for
    -- `ragd ingest` runs (the file is on the operator's disk)
    content      bytea,
    size_bytes   bigint NOT NULL DEFAULT 0 CHECK (size_bytes >= 0),
    stage        text NOT NULL DEFAULT 'queued'
                 CHECK (stage IN ('queued', 'extracted', 'chunked', 'embedded', 'stored', 'unchanged', 'skipped', 'refused', 'failed')),
    -- the pipeline's outcome once stored: added, updated or unchanged
    outcome      text NOT NULL DEFAULT '' CHECK (outcome IN ('', 'added', 'updated', 'unchanged')),
    document_id  uuid,
    chunks       int NOT NULL DEFAULT 0,
    error        text NOT NULL DEFAULT '' CHECK (length(error) <= 2000),
    attempts     int NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    claim        uuid,
    lease_until  timestamptz,
    queued_at    timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz,
    PRIMARY KEY (tenant_id, batch_id, idx),
    FOREIGN KEY (tenant_id, batch_id) REFERENCES ingestion_batches (tenant_id, id) ON DELETE CASCADE
);
-- The work queue: only unfinished items, in claim order within a tenant.
-- An unfinished item without content belongs to a `ragd ingest` run, which
-- works its own items in its process: workers never claim it.
CREATE INDEX ingestion_items_open ON ingestion_items (tenant_id, queued_at, batch_id, idx)
    WHERE stage IN ('queued', 'extracted', 'chunked', 'embedded') AND content IS NOT NULL;

-- Per-tenant fairness: when each tenant was last given an item. The claim
-- serves the tenant with work that was served least recently, so turns go
-- round-robin across tenants whatever the size of their jobs.
CREATE TABLE ingestion_turns (
    tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
    served_at timestamptz NOT NULL
);

ALTER TABLE ingestion_batches ENABLE ROW LEVEL SECURITY;
ALTER TABLE ingestion_batches FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON ingestion_batches
    USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE ingestion_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE ingestion_items FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON ingestion_items
    USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE ingestion_turns ENABLE ROW LEVEL SECURITY;
ALTER TABLE ingestion_turns FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON ingestion_turns
    USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
-- The owner role (CURRENT_USER here: the role running migrations) sees the
-- queue across tenants, as it sees tenants (00001's operator policy). The
-- application role reaches that view only through claim_ingestion_item,
-- which runs as the owner and hands out nothing but keys; it reads its own
-- tenant's turn and never writes one.
CREATE POLICY claimer ON ingestion_items TO CURRENT_USER USING (true) WITH CHECK (true);
CREATE POLICY claimer ON ingestion_turns TO CURRENT_USER USING (true) WITH CHECK (true);

-- claim_ingestion_item claims the next item for a worker: among tenants with
-- claimable items (unfinished, with content, lease absent or expired), the one served least
-- recently (never served first, then by id); within it, the oldest job's
-- lowest idx, locked FOR UPDATE SKIP LOCKED so concurrent claimers take
-- different items. The item gets attempts + 1, a new claim token and a lease
-- of p_lease; the tenant's turn is stamped with clock_timestamp(). An item
-- that already used p_max_attempts claims (its workers died or it kept
-- failing) is failed with its last error instead, and the search goes on.
-- p_tenants, when not NULL, limits the search to those tenants (dedicated
-- workers; tests). Returns no row when nothing is claimable.
-- SECURITY DEFINER with a fixed search_path; it returns only keys and the
-- token: the worker reads the item in a tenant transaction, under RLS.
-- +goose StatementBegin
CREATE FUNCTION claim_ingestion_item(p_lease interval, p_max_attempts int, p_tenants uuid[] DEFAULT NULL)
RETURNS TABLE (tenant_id uuid, batch_id uuid, idx int, claim uuid, attempts int)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, public
AS $$
DECLARE
    t   uuid;
    it  record;
    tok uuid;
BEGIN
    IF p_lease IS NULL OR p_lease <= interval '0' OR p_max_attempts IS NULL OR p_max_attempts < 1 THEN
        RAISE EXCEPTION 'claim_ingestion_item: lease must be positive and max attempts at least 1'
            USING ERRCODE = '22023';
    END IF;
    -- The tenants with unfinished items, by a skip scan of the partial
    -- index (one probe per tenant, however long the queues); leases are
    -- checked per tenant below.
    FOR t IN
        WITH RECURSIVE q AS (
            (SELECT i.tenant_id FROM ingestion_items i
             WHERE i.stage IN ('queued', 'extracted', 'chunked', 'embedded') AND i.content IS NOT NULL
               AND (p_tenants IS NULL OR i.tenant_id = ANY (p_tenants))
             ORDER BY i.tenant_id LIMIT 1)
            UNION ALL
            SELECT (SELECT i.tenant_id FROM ingestion_items i
                    WHERE i.stage IN ('queued', 'extracted', 'chunked', 'embedded') AND i.content IS NOT NULL
                      AND (p_tenants IS NULL OR i.tenant_id = ANY (p_tenants)) AND i.tenant_id > q.tenant_id
                    ORDER BY i.tenant_id LIMIT 1)
            FROM q WHERE q.tenant_id IS NOT NULL
        )
        SELECT q.tenant_id
        FROM q
        LEFT JOIN ingestion_turns u ON u.tenant_id = q.tenant_id
        WHERE q.tenant_id IS NOT NULL
        ORDER BY u.served_at NULLS FIRST, q.tenant_id
    LOOP
        LOOP
            SELECT i.batch_id, i.idx, i.attempts, i.error INTO it
            FROM ingestion_items i
            WHERE i.tenant_id = t
              AND i.stage IN ('queued', 'extracted', 'chunked', 'embedded') AND i.content IS NOT NULL
              AND (i.lease_until IS NULL OR i.lease_until <= now())
            ORDER BY i.queued_at, i.batch_id, i.idx
            LIMIT 1
            FOR UPDATE SKIP LOCKED;
            EXIT WHEN NOT FOUND;
            IF it.attempts >= p_max_attempts THEN
                UPDATE ingestion_items i
                SET stage = 'failed', content = NULL, claim = NULL, lease_until = NULL,
                    error = left(format('gave up after %s attempts: %s', it.attempts,
                                        coalesce(nullif(it.error, ''), 'the worker stopped while processing it (crash or restart)')), 2000),
                    updated_at = now(), finished_at = now()
                WHERE i.tenant_id = t AND i.batch_id = it.batch_id AND i.idx = it.idx;
                CONTINUE;
            END IF;
            tok := gen_random_uuid();
            UPDATE ingestion_items i
            SET attempts = i.attempts + 1, claim = tok, lease_until = now() + p_lease, updated_at = now()
            WHERE i.tenant_id = t AND i.batch_id = it.batch_id AND i.idx = it.idx;
            INSERT INTO ingestion_turns AS u (tenant_id, served_at) VALUES (t, clock_timestamp())
            ON CONFLICT ON CONSTRAINT ingestion_turns_pkey DO UPDATE SET served_at = excluded.served_at;
            tenant_id := t;
            batch_id := it.batch_id;
            idx := it.idx;
            claim := tok;
            attempts := it.attempts + 1;
            RETURN NEXT;
            RETURN;
        END LOOP;
    END LOOP;
    RETURN;
END $$;
-- +goose StatementEnd
REVOKE ALL ON FUNCTION claim_ingestion_item(interval, int, uuid[]) FROM PUBLIC;

-- +goose StatementBegin
DO $$
DECLARE r text := coalesce(nullif(current_setting('ragd.app_role', true), ''), 'ragd_app');
BEGIN
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON ingestion_batches, ingestion_items TO %I', r);
    -- its own tenant's turn only (RLS); turns are written by the claim alone
    EXECUTE format('GRANT SELECT ON ingestion_turns TO %I', r);
    EXECUTE format('GRANT EXECUTE ON FUNCTION claim_ingestion_item(interval, int, uuid[]) TO %I', r);
END $$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION IF EXISTS claim_ingestion_item(interval, int, uuid[]);
DROP TABLE IF EXISTS ingestion_turns, ingestion_items, ingestion_batches;
