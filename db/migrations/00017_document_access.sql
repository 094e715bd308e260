-- Document permissions inside a tenant, enforced by row-level security.
--
-- A document carries an access list of principals ('user:<sub>',
-- 'group:<name>'); the empty list means everyone in the tenant. Lists are
-- stored once per tenant in access_lists and named by an integer id;
-- access_id 0 is the empty list (tenant-wide) and has no row. The id is
-- denormalised onto every row the retrieval legs, listings and answers read
-- (documents, chunks, chunk_embeddings, postings), so each table's policy
-- tests its own column: no join in a policy, and the postings indexes carry
-- access_id (INCLUDE) so the keyword leg's index-only scans stay index-only.
--
-- Who reads: the transaction-local setting app.principals, set next to
-- app.tenant_id (store.InTenant, store.SendTenantBatch):
--   unset or ''          tenant-wide documents only (fail closed);
--   '{user:a,group:b}'   tenant-wide documents and those whose list shares
--                        a principal with it (a text[] literal, rendered by
--                        PostgreSQL from the bound array);
--   '*'                  every document of the tenant (operators and the
--                        admin role's management routes). '*' is never a
--                        principal: principals start with user: or group:.
-- A malformed value fails the cast: an error, never rows.
--
-- The policies are RESTRICTIVE, so they add to tenant_isolation (AND) on
-- SELECT, UPDATE and DELETE; INSERT stays tenant-only (a new row's access
-- comes from its document, below). PostgreSQL also checks SELECT policies
-- on the rows an INSERT … RETURNING, an ON CONFLICT DO UPDATE or an UPDATE
-- with a WHERE clause produces, so nobody can write a row they could not
-- read back.
--
-- The visible ids are computed once per statement: the policies call
-- visible_access_ids() and sees_all_documents() as uncorrelated sub-selects
-- (InitPlans), and each row is then tested with an integer comparison and an
-- integer = ANY over the caller's few ids. A principal's visible lists are
-- the rows of access_lists sharing one of its principals (&&), read under
-- the tenant policy.
--
-- Synchronisation, in the transaction that changes a document:
--   the chunks insert trigger (statement level) gives new chunks, their
--   embeddings (inserted before their chunks, migration 00007) and their
--   postings their document's access_id (an unreadable document raises
--   instead of defaulting to 0); embeddings inserted after their chunks
--   take the chunk's (chunk_embeddings_access);
--   changing documents.access_id rewrites it on the document's chunks,
--   embeddings and postings (documents_access_sync, AFTER UPDATE OF
--   access_id); chunks stay immutable apart from access_id.
--
-- BM25 statistics (term_stats, tenant_stats) stay per tenant: df counts
-- every chunk, visible or not (docs/SECURITY.md explains what that can and
-- cannot reveal).
--
-- Outside a transaction, so that the postings keys are rebuilt
-- CONCURRENTLY (postings is the largest table); every statement can be
-- re-run, so a failure part-way is completed by running the migration again.

-- +goose NO TRANSACTION
-- +goose Up
CREATE TABLE IF NOT EXISTS access_lists (
    tenant_id  uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    id         int GENERATED ALWAYS AS IDENTITY,
    -- sorted, without duplicates (access_list_id normalises)
    principals text[] NOT NULL CHECK (cardinality(principals) BETWEEN 1 AND 100),
    PRIMARY KEY (tenant_id, id),
    UNIQUE (tenant_id, principals)
);
ALTER TABLE access_lists ENABLE ROW LEVEL SECURITY;
ALTER TABLE access_lists FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS tenant_isolation ON access_lists;
CREATE POLICY tenant_isolation ON access_lists
    USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());

-- A constant default: no table rewrite.
ALTER TABLE documents ADD COLUMN IF NOT EXISTS access_id int NOT NULL DEFAULT 0;
ALTER TABLE chunks ADD COLUMN IF NOT EXISTS access_id int NOT NULL DEFAULT 0;
ALTER TABLE chunk_embeddings ADD COLUMN IF NOT EXISTS access_id int NOT NULL DEFAULT 0;
ALTER TABLE postings ADD COLUMN IF NOT EXISTS access_id int NOT NULL DEFAULT 0;

-- +goose StatementBegin
-- current_principals is the transaction's principals ('{}' when unset, ''
-- or '*').
CREATE OR REPLACE FUNCTION current_principals() RETURNS text[]
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
    SELECT CASE WHEN s IS NULL OR s IN ('', '*') THEN '{}'::text[] ELSE s::text[] END
    FROM (SELECT current_setting('app.principals', true) AS s) x
$$;
-- +goose StatementEnd

-- +goose StatementBegin
-- sees_all_documents: the transaction reads every document of its tenant.
CREATE OR REPLACE FUNCTION sees_all_documents() RETURNS bool
LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT coalesce(current_setting('app.principals', true) = '*', false) $$;
-- +goose StatementEnd

-- +goose StatementBegin
-- visible_access_ids: the ids of the tenant's access lists that share a
-- principal with the transaction's.
CREATE OR REPLACE FUNCTION visible_access_ids() RETURNS int[]
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
    SELECT coalesce(array_agg(a.id), '{}'::int[]) FROM access_lists a
    WHERE a.tenant_id = current_tenant() AND a.principals && current_principals()
$$;
-- +goose StatementEnd

-- +goose StatementBegin
-- access_list_id returns the id of p_principals in p_tenant (0 for the
-- empty list), creating the list on first use. The list is normalised
-- (sorted in byte order, duplicates removed), so equal sets share an id.
CREATE OR REPLACE FUNCTION access_list_id(p_tenant uuid, p_principals text[]) RETURNS int
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    v text[] := ARRAY(SELECT DISTINCT x COLLATE "C" FROM unnest(p_principals) AS x ORDER BY 1);
    v_id int;
BEGIN
    IF cardinality(v) = 0 THEN
        RETURN 0;
    END IF;
    SELECT a.id INTO v_id FROM access_lists a WHERE a.tenant_id = p_tenant AND a.principals = v;
    IF FOUND THEN
        RETURN v_id;
    END IF;
    INSERT INTO access_lists (tenant_id, principals) VALUES (p_tenant, v)
    ON CONFLICT (tenant_id, principals) DO NOTHING
    RETURNING id INTO v_id;
    IF v_id IS NULL THEN -- a concurrent writer created it
        SELECT a.id INTO v_id FROM access_lists a WHERE a.tenant_id = p_tenant AND a.principals = v;
    END IF;
    RETURN v_id;
END
$$;
-- +goose StatementEnd

-- The policies: one expression, on each table's own access_id.
-- +goose StatementBegin
DO $$
DECLARE
    t text;
    visible text := 'access_id = 0 OR (SELECT sees_all_documents()) OR access_id = ANY ((SELECT visible_access_ids())::int[])';
BEGIN
    FOREACH t IN ARRAY ARRAY['documents', 'chunks', 'chunk_embeddings', 'postings'] LOOP
        EXECUTE format('DROP POLICY IF EXISTS document_access_select ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS document_access_update ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS document_access_delete ON %I', t);
        EXECUTE format('CREATE POLICY document_access_select ON %I AS RESTRICTIVE FOR SELECT USING (%s)', t, visible);
        EXECUTE format('CREATE POLICY document_access_update ON %I AS RESTRICTIVE FOR UPDATE USING (%s) WITH CHECK (true)', t, visible);
        EXECUTE format('CREATE POLICY document_access_delete ON %I AS RESTRICTIVE FOR DELETE USING (%s)', t, visible);
    END LOOP;
END $$;
-- +goose StatementEnd

-- An evaluation run's report names the documents its searches found, as
-- the principals that ran it: it is readable only by a transaction that
-- sees at least as much (every principal of the run among its own), or
-- every document. The column's default records the running transaction's
-- principals (NULL when it saw every document: an operator's run), so the
-- write path needs no change. Runs made before access lists existed get
-- '{}' (every document was tenant-wide then).
ALTER TABLE eval_runs ADD COLUMN IF NOT EXISTS principals text[]
    DEFAULT (CASE WHEN sees_all_documents() THEN NULL ELSE current_principals() END);
DROP POLICY IF EXISTS run_access_select ON eval_runs;
CREATE POLICY run_access_select ON eval_runs AS RESTRICTIVE FOR SELECT
    USING ((SELECT sees_all_documents()) OR principals <@ (SELECT current_principals()));

-- +goose StatementBegin
-- chunks_index_insert (migration 00016) with access: in a tenant that has
-- access lists, each new chunk's document is looked up (one key probe per
-- chunk, in the executor), the chunks of restricted documents and their
-- embeddings (inserted earlier in the transaction, migration 00007) get the
-- document's access_id, and the new postings carry it. A chunk whose
-- document this transaction cannot read raises instead of becoming
-- tenant-wide. A tenant without access lists (every document tenant-wide)
-- pays one probe of access_lists per statement. Per-row BEFORE triggers
-- (the first design) cost every tenant a PL/pgSQL call and a probe per
-- row: a bulk insert of 20,000 chunks took 3.9-4.1 s against 2.7-3.0 s
-- without them, and their embeddings 8.5-11.2 s against 6.6-7.8 s (two
-- runs each on the shared 2-core machine).
CREATE OR REPLACE FUNCTION chunks_index_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_tenant uuid; -- one tenant per transaction (row-level security)
    v_ids uuid[];  -- the new chunks of restricted documents
    v_acc int[];   -- and their documents' access_id
    v_missing bigint;
BEGIN
    SELECT n.tenant_id INTO v_tenant FROM new_rows n LIMIT 1;
    IF EXISTS (SELECT 1 FROM access_lists a WHERE a.tenant_id = v_tenant) THEN
        -- One pass, one key probe per chunk (LATERAL … LIMIT 1: a probe
        -- under any estimate of the transition table).
        SELECT count(*) FILTER (WHERE x.access_id IS NULL),
               array_agg(n.id) FILTER (WHERE x.access_id <> 0), array_agg(x.access_id) FILTER (WHERE x.access_id <> 0)
        INTO v_missing, v_ids, v_acc
        FROM new_rows n
        LEFT JOIN LATERAL (SELECT d.access_id FROM documents d
                           WHERE d.tenant_id = n.tenant_id AND d.id = n.document_id LIMIT 1) x ON true;
        IF v_missing > 0 THEN
            RAISE EXCEPTION 'chunks of a document this transaction cannot read' USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF v_ids IS NOT NULL THEN
            UPDATE chunks c SET access_id = x.acc
            FROM unnest(v_ids, v_acc) AS x (id, acc)
            WHERE c.tenant_id = v_tenant AND c.id = x.id;
            UPDATE chunk_embeddings e SET access_id = x.acc
            FROM unnest(v_ids, v_acc) AS x (id, acc)
            WHERE e.tenant_id = v_tenant AND e.chunk_id = x.id;
        END IF;
    END IF;

    INSERT INTO postings (tenant_id, lexeme, chunk_id, tf, dl, impact, access_id)
    SELECT n.tenant_id, u.lexeme, n.id, cardinality(u.positions), d.dl,
           bm25_impact(cardinality(u.positions), d.dl,
                       coalesce(s.token_count::real / nullif(s.chunk_count, 0), d.dl)),
           coalesce(x.acc, 0)
    FROM new_rows n
    CROSS JOIN LATERAL (SELECT greatest(tsv_length(n.tsv), 1) AS dl OFFSET 0) d
    LEFT JOIN tenant_stats s ON s.tenant_id = n.tenant_id
    LEFT JOIN unnest(v_ids, v_acc) AS x (id, acc) ON x.id = n.id
    CROSS JOIN LATERAL unnest(n.tsv) u;

    INSERT INTO tenant_stats AS s (tenant_id, chunk_count, token_count)
    SELECT n.tenant_id, count(*), sum(tsv_length(n.tsv))
    FROM new_rows n GROUP BY n.tenant_id ORDER BY n.tenant_id
    ON CONFLICT (tenant_id) DO UPDATE
        SET chunk_count = s.chunk_count + excluded.chunk_count,
            token_count = s.token_count + excluded.token_count;

    INSERT INTO term_stats AS t (tenant_id, lexeme, df)
    SELECT n.tenant_id, u.lexeme, count(*)
    FROM new_rows n, unnest(n.tsv) u
    GROUP BY n.tenant_id, u.lexeme ORDER BY n.tenant_id, u.lexeme
    ON CONFLICT (tenant_id, lexeme) DO UPDATE SET df = t.df + excluded.df;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
-- chunk_embeddings_access: embeddings inserted after their chunks (bulk
-- loaders; the write path inserts them before) take their chunk's
-- access_id, in tenants that have access lists, one key probe per row.
CREATE OR REPLACE FUNCTION chunk_embeddings_access() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_tenant uuid;
    v_ids uuid[];
    v_acc int[];
BEGIN
    SELECT n.tenant_id INTO v_tenant FROM new_rows n LIMIT 1;
    IF NOT EXISTS (SELECT 1 FROM access_lists a WHERE a.tenant_id = v_tenant) THEN
        RETURN NULL;
    END IF;
    -- The restricted ones first, into arrays, then one probe each: joined
    -- directly with chunk_embeddings, the transition table was re-read per
    -- row (over 10 minutes for 20,000 rows).
    SELECT array_agg(n.chunk_id), array_agg(x.access_id) INTO v_ids, v_acc
    FROM new_rows n
    CROSS JOIN LATERAL (SELECT c.access_id FROM chunks c
                        WHERE c.tenant_id = n.tenant_id AND c.id = n.chunk_id LIMIT 1) x
    WHERE x.access_id <> 0;
    IF v_ids IS NOT NULL THEN
        UPDATE chunk_embeddings e SET access_id = x.acc
        FROM unnest(v_ids, v_acc) AS x (id, acc)
        WHERE e.tenant_id = v_tenant AND e.chunk_id = x.id;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
DROP TRIGGER IF EXISTS chunk_embeddings_access ON chunk_embeddings;
CREATE TRIGGER chunk_embeddings_access AFTER INSERT ON chunk_embeddings
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chunk_embeddings_access();

-- +goose StatementBegin
-- Chunks are immutable apart from access_id (a changed document replaces
-- its chunks; a changed access list is copied onto them). Compared as
-- jsonb so that a column added later is covered without a change here;
-- tsv is left out: a BEFORE trigger's NEW has no generated column values
-- yet (NULL), and tsv is computed from the others.
CREATE OR REPLACE FUNCTION chunks_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF to_jsonb(NEW) - '{access_id,tsv}'::text[] IS DISTINCT FROM to_jsonb(OLD) - '{access_id,tsv}'::text[] THEN
        RAISE EXCEPTION 'chunks are immutable; delete and insert instead' USING ERRCODE = 'feature_not_supported';
    END IF;
    RETURN NEW;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
-- documents_access_sync copies a document's new access_id onto its chunks,
-- their embeddings and their postings, in the statement that changed it.
-- The postings are found by each chunk's lexemes and id, the full primary
-- key, one chunk at a time (as chunks_index_delete does): index probes under
-- any plan.
CREATE OR REPLACE FUNCTION documents_access_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    IF NEW.access_id IS NOT DISTINCT FROM OLD.access_id THEN
        RETURN NULL;
    END IF;
    FOR r IN SELECT c.id, tsvector_to_array(c.tsv) AS lexemes FROM chunks c
             WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id LOOP
        UPDATE postings p SET access_id = NEW.access_id
        WHERE p.tenant_id = NEW.tenant_id AND p.lexeme = ANY (r.lexemes) AND p.chunk_id = r.id;
        UPDATE chunk_embeddings e SET access_id = NEW.access_id
        WHERE e.tenant_id = NEW.tenant_id AND e.chunk_id = r.id;
    END LOOP;
    UPDATE chunks c SET access_id = NEW.access_id
    WHERE c.tenant_id = NEW.tenant_id AND c.document_id = NEW.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd
DROP TRIGGER IF EXISTS documents_access_sync ON documents;
CREATE TRIGGER documents_access_sync AFTER UPDATE OF access_id ON documents
    FOR EACH ROW EXECUTE FUNCTION documents_access_sync();

-- The postings indexes carry access_id, so that the policy is evaluated on
-- the index entry and the keyword leg's scans stay index-only. Built
-- CONCURRENTLY under a new name, then swapped in under the old one (the
-- benchmark's bulk loader drops and recreates them by name,
-- internal/store/bench.go).
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS postings_pkey_access ON postings (tenant_id, lexeme, chunk_id) INCLUDE (tf, dl, access_id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS postings_impact_access ON postings (tenant_id, lexeme, impact DESC) INCLUDE (chunk_id, tf, dl, access_id);
-- +goose StatementBegin
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_class WHERE relname = 'postings_pkey_access') THEN
        ALTER TABLE postings DROP CONSTRAINT postings_pkey, ADD CONSTRAINT postings_pkey PRIMARY KEY USING INDEX postings_pkey_access;
    END IF;
    IF EXISTS (SELECT 1 FROM pg_class WHERE relname = 'postings_impact_access') THEN
        DROP INDEX IF EXISTS postings_impact;
        ALTER INDEX postings_impact_access RENAME TO postings_impact;
    END IF;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
DO $$
DECLARE r text := coalesce(nullif(current_setting('ragd.app_role', true), ''), 'ragd_app');
BEGIN
    EXECUTE format('GRANT SELECT, INSERT ON access_lists TO %I', r);
    EXECUTE format('GRANT EXECUTE ON FUNCTION current_principals(), sees_all_documents(), visible_access_ids(), '
                   'access_list_id(uuid, text[]) TO %I', r);
END $$;
-- +goose StatementEnd

-- +goose Down
-- Down removes the access lists: every document is tenant-wide again.
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS postings_pkey_plain ON postings (tenant_id, lexeme, chunk_id) INCLUDE (tf, dl);
CREATE INDEX CONCURRENTLY IF NOT EXISTS postings_impact_plain ON postings (tenant_id, lexeme, impact DESC) INCLUDE (chunk_id, tf, dl);
-- +goose StatementBegin
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_class WHERE relname = 'postings_pkey_plain') THEN
        ALTER TABLE postings DROP CONSTRAINT postings_pkey, ADD CONSTRAINT postings_pkey PRIMARY KEY USING INDEX postings_pkey_plain;
    END IF;
    IF EXISTS (SELECT 1 FROM pg_class WHERE relname = 'postings_impact_plain') THEN
        DROP INDEX IF EXISTS postings_impact;
        ALTER INDEX postings_impact_plain RENAME TO postings_impact;
    END IF;
END $$;
-- +goose StatementEnd
DROP TRIGGER IF EXISTS documents_access_sync ON documents;
DROP POLICY IF EXISTS run_access_select ON eval_runs;
ALTER TABLE eval_runs DROP COLUMN IF EXISTS principals;
DROP TRIGGER IF EXISTS chunk_embeddings_access ON chunk_embeddings;
-- +goose StatementBegin
DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['documents', 'chunks', 'chunk_embeddings', 'postings'] LOOP
        EXECUTE format('DROP POLICY IF EXISTS document_access_select ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS document_access_update ON %I', t);
        EXECUTE format('DROP POLICY IF EXISTS document_access_delete ON %I', t);
        EXECUTE format('ALTER TABLE %I DROP COLUMN IF EXISTS access_id', t);
    END LOOP;
END $$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION chunks_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'chunks are immutable; delete and insert instead' USING ERRCODE = 'feature_not_supported';
END $$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION chunks_index_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO postings (tenant_id, lexeme, chunk_id, tf, dl, impact)
    SELECT n.tenant_id, u.lexeme, n.id, cardinality(u.positions), d.dl,
           bm25_impact(cardinality(u.positions), d.dl,
                       coalesce(s.token_count::real / nullif(s.chunk_count, 0), d.dl))
    FROM new_rows n
    CROSS JOIN LATERAL (SELECT greatest(tsv_length(n.tsv), 1) AS dl OFFSET 0) d
    LEFT JOIN tenant_stats s ON s.tenant_id = n.tenant_id
    CROSS JOIN LATERAL unnest(n.tsv) u;

    INSERT INTO tenant_stats AS s (tenant_id, chunk_count, token_count)
    SELECT n.tenant_id, count(*), sum(tsv_length(n.tsv))
    FROM new_rows n GROUP BY n.tenant_id ORDER BY n.tenant_id
    ON CONFLICT (tenant_id) DO UPDATE
        SET chunk_count = s.chunk_count + excluded.chunk_count,
            token_count = s.token_count + excluded.token_count;

    INSERT INTO term_stats AS t (tenant_id, lexeme, df)
    SELECT n.tenant_id, u.lexeme, count(*)
    FROM new_rows n, unnest(n.tsv) u
    GROUP BY n.tenant_id, u.lexeme ORDER BY n.tenant_id, u.lexeme
    ON CONFLICT (tenant_id, lexeme) DO UPDATE SET df = t.df + excluded.df;
    RETURN NULL;
END $$;
-- +goose StatementEnd
DROP FUNCTION IF EXISTS documents_access_sync(), chunk_embeddings_access(), access_list_id(uuid, text[]), visible_access_ids(), sees_all_documents(), current_principals();
DROP TABLE IF EXISTS access_lists;
