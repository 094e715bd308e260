-- A model may have up to 4,000 dimensions: the per-(tenant, model) HNSW
-- index is over halfvec (internal/store/indexes.go), which pgvector indexes
-- up to 4,000 dimensions; the 2,000 of migration 00001 was the limit of the
-- retired index over vector. OpenAI's text-embedding-3-large (3,072) could
-- not be registered (found by a breaker helper).

-- +goose Up
ALTER TABLE embedding_models DROP CONSTRAINT embedding_models_dims_check,
    ADD CONSTRAINT embedding_models_dims_check CHECK (dims BETWEEN 1 AND 4000);

-- +goose Down
ALTER TABLE embedding_models DROP CONSTRAINT embedding_models_dims_check,
    ADD CONSTRAINT embedding_models_dims_check CHECK (dims BETWEEN 1 AND 2000);
