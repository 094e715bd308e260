-- The ingest write transaction inserts a document's embeddings before its
-- chunks, so that the HNSW insertions (the costly part of a large tenant's
-- write) happen before the transaction takes the tenant's tenant_stats row
-- lock, which serialises a tenant's writers (internal/ingest). The foreign
-- key from chunk_embeddings to chunks becomes DEFERRABLE (still INITIALLY
-- IMMEDIATE: every other statement sees it checked at once); the write
-- transaction defers it with SET CONSTRAINTS, and the check runs at COMMIT.
-- ON DELETE CASCADE is not deferred by this (referential actions never are).

-- +goose Up
ALTER TABLE chunk_embeddings ALTER CONSTRAINT chunk_embeddings_tenant_id_chunk_id_fkey DEFERRABLE INITIALLY IMMEDIATE;

-- +goose Down
ALTER TABLE chunk_embeddings ALTER CONSTRAINT chunk_embeddings_tenant_id_chunk_id_fkey NOT DEFERRABLE;
