-- A disabled tenant's ingestion items wait instead of failing. The claim
-- handed them out, and the worker, finding the tenant disabled, failed
-- each one for good ("the tenant is disabled"): disabling a tenant for a
-- few seconds failed 352 of a 400-file job, which enabling it did not
-- resume. claim_ingestion_item now claims only active tenants' items, so a
-- disabled tenant's jobs stay queued and go on when it is enabled again
-- (the worker hands back an item whose tenant was disabled after the
-- claim). The function is otherwise migration 00019's.

-- +goose Up
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION claim_ingestion_item(p_lease interval, p_max_attempts int, p_tenants uuid[] DEFAULT NULL)
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
        JOIN tenants x ON x.id = q.tenant_id AND x.status = 'active'
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

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION claim_ingestion_item(p_lease interval, p_max_attempts int, p_tenants uuid[] DEFAULT NULL)
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
