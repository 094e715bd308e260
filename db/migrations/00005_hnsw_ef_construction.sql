-- HNSW graph quality: ef_construction 64 → 128 for the use-lite index.
-- Measured on the 300,000-row clustered scale corpus (internal/search
-- scale_test.go): with 64, one query of the 25 % tenant could not reach its
-- true neighbours at any ef_search up to 1,000 (recall 0.00 for that query,
-- mean 0.942 < 0.95) — a connectivity gap of the graph, not a search-width
-- problem; with 128 the same data gives mean 0.992, worst 0.90. The build
-- costs about twice as much CPU.

-- +goose Up
DROP INDEX IF EXISTS chunk_embeddings_use_lite_hnsw;
CREATE INDEX chunk_embeddings_use_lite_hnsw ON chunk_embeddings
    USING hnsw ((embedding::vector(512)) vector_cosine_ops) WITH (m = 16, ef_construction = 128)
    WHERE model_id = 1;

-- +goose Down
DROP INDEX IF EXISTS chunk_embeddings_use_lite_hnsw;
CREATE INDEX chunk_embeddings_use_lite_hnsw ON chunk_embeddings
    USING hnsw ((embedding::vector(512)) vector_cosine_ops) WITH (m = 16, ef_construction = 64)
    WHERE model_id = 1;
