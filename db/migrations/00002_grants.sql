-- Privileges of the application role: data access only; it owns nothing, so
-- FORCE ROW LEVEL SECURITY always applies to it. The role name comes from the
-- ragd.app_role setting that `ragd migrate` passes (RAGD_APP_ROLE, default
-- ragd_app).

-- +goose Up
-- +goose StatementBegin
DO $$
DECLARE r text := coalesce(nullif(current_setting('ragd.app_role', true), ''), 'ragd_app');
BEGIN
    EXECUTE format('GRANT USAGE ON SCHEMA public TO %I', r);
    -- readiness: the server checks that migrations are current
    EXECUTE format('GRANT SELECT ON goose_db_version TO %I', r);
    EXECUTE format('GRANT SELECT ON embedding_models TO %I', r);
    EXECUTE format('GRANT SELECT, UPDATE (settings) ON tenants TO %I', r);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON documents, chunks, chunk_embeddings, tenant_stats, term_stats, postings TO %I', r);
    EXECUTE format('GRANT EXECUTE ON FUNCTION current_tenant(), tsv_length(tsvector), keyword_search(uuid, text[], float8, float8, int, int, bool, text, jsonb) TO %I', r);
END $$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DO $$
DECLARE r text := coalesce(nullif(current_setting('ragd.app_role', true), ''), 'ragd_app');
BEGIN
    EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA public FROM %I', r);
    EXECUTE format('REVOKE USAGE ON SCHEMA public FROM %I', r);
END $$;
-- +goose StatementEnd
