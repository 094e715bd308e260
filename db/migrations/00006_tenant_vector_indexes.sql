-- Dedicated vector indexes: one partial HNSW index per (tenant, model) for
-- tenants above the exact-search threshold, instead of one shared index per
-- model (internal/vindex explains the choice; docs/BENCHMARKS.md has
-- the measurements). The shared use-lite index goes; `ragd migrate up` then
-- builds the dedicated indexes of the tenants that need one (`ragd tenant
-- index`); until then the vector leg scans every tenant exactly.

-- +goose Up
DROP INDEX IF EXISTS chunk_embeddings_use_lite_hnsw;

-- +goose Down
-- +goose StatementBegin
DO $$
DECLARE r record;
BEGIN
    FOR r IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
             WHERE i.indrelid = 'chunk_embeddings'::regclass AND starts_with(c.relname, 'ce_hnsw_') LOOP
        EXECUTE format('DROP INDEX %I', r.relname);
    END LOOP;
END $$;
-- +goose StatementEnd
CREATE INDEX chunk_embeddings_use_lite_hnsw ON chunk_embeddings
    USING hnsw ((embedding::vector(512)) vector_cosine_ops) WITH (m = 16, ef_construction = 128)
    WHERE model_id = 1;
