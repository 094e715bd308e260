-- name: TryVectorIndexLock :one
-- The session advisory lock one vector-index run holds from planning to its
-- last build (vindex.Ensure); false when another session holds
-- it.
SELECT pg_try_advisory_lock(@key::int8);

-- name: VectorIndexUnlock :exec
SELECT pg_advisory_unlock(@key::int8);

-- name: ListEmbeddingModels :many
SELECT id, dims FROM embedding_models;

-- name: CountTenantVectors :many
-- The tenant's vectors per embedding model (inside the tenant's
-- transaction, as row-level security requires).
SELECT model_id, count(*) FROM chunk_embeddings WHERE tenant_id = @tenant_id GROUP BY model_id;

