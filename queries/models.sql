-- The embedding model registry and the per-tenant model switch
-- (internal/model). Registry statements run as the owner role (the
-- application role only reads the registry); the tenant statements run
-- inside the tenant's transaction.

-- name: RegisterEmbeddingModel :one
INSERT INTO embedding_models (name, dims, provider, endpoint, query_prefix, document_prefix, max_input_tokens, vector_weight)
VALUES (@name, @dims, @provider, @endpoint, @query_prefix, @document_prefix, @max_input_tokens, @vector_weight)
RETURNING id, name, dims, distance, vector_weight, provider, endpoint, query_prefix, document_prefix, max_input_tokens, status, created_at;

-- name: ListRegisteredModels :many
SELECT id, name, dims, distance, vector_weight, provider, endpoint, query_prefix, document_prefix, max_input_tokens, status, created_at
FROM embedding_models ORDER BY id;

-- name: GetEmbeddingModelByID :one
SELECT id, name, dims, distance, vector_weight, provider, endpoint, query_prefix, document_prefix, max_input_tokens, status, created_at
FROM embedding_models WHERE id = @id;

-- name: SetEmbeddingModelStatus :one
UPDATE embedding_models SET status = @status WHERE name = @name
RETURNING id, name, dims, distance, vector_weight, provider, endpoint, query_prefix, document_prefix, max_input_tokens, status, created_at;

-- name: LockTenantModels :one
-- The tenant's models, locked against a flip: FOR SHARE in every document
-- write (which then writes embeddings of each model it finds), FOR UPDATE
-- in the flip, so a write and a flip never interleave.
SELECT coalesce(embedding_model_id, 0)::smallint AS embedding_model_id, coalesce(target_model_id, 0)::smallint AS target_model_id
FROM tenants WHERE id = @id FOR SHARE;

-- name: LockTenantModelsForFlip :one
SELECT coalesce(embedding_model_id, 0)::smallint AS embedding_model_id, coalesce(target_model_id, 0)::smallint AS target_model_id
FROM tenants WHERE id = @id FOR UPDATE;

-- name: SetTenantTargetModel :exec
-- Records the model a switch goes to (0: none, the switch is cancelled).
-- A target given up (cancelled, or replaced by another) leaves partial
-- vectors: it becomes the previous model when there is none, so that the
-- grace-period drop deletes them (otherwise the next background run's
-- drop of abandoned models does).
UPDATE tenants
SET previous_model_id = CASE WHEN previous_model_id IS NULL AND target_model_id IS NOT NULL
                                  AND target_model_id IS DISTINCT FROM nullif(@target_model_id::smallint, 0)
                                  AND target_model_id IS DISTINCT FROM embedding_model_id
                             THEN target_model_id ELSE previous_model_id END,
    target_model_id = nullif(@target_model_id::smallint, 0), model_switch_error = ''
WHERE id = @id;

-- name: SetTenantModelSwitchError :exec
UPDATE tenants SET model_switch_error = left(@error::text, 1000) WHERE id = @id;

-- name: FlipTenantModel :execrows
-- The flip: the target becomes the active model; the model it replaces is
-- kept as previous (its vectors stay until the grace period ends).
UPDATE tenants
SET previous_model_id = nullif(@previous_model_id::smallint, 0), embedding_model_id = @target_model_id::smallint,
    target_model_id = NULL, model_switched_at = now(), model_switch_error = ''
WHERE id = @id AND target_model_id = @target_model_id::smallint;

-- name: ClearTenantPreviousModel :exec
UPDATE tenants SET previous_model_id = NULL WHERE id = @id;

-- name: ModelCoverage :one
-- The tenant's chunks and how many have an embedding of the model (the
-- primary key makes it one per chunk and model; the foreign key, a chunk
-- for each).
SELECT coalesce((SELECT s.chunk_count FROM tenant_stats s WHERE s.tenant_id = @tenant_id), 0)::bigint AS chunks,
       (SELECT count(*) FROM chunk_embeddings e WHERE e.tenant_id = @tenant_id AND e.model_id = @model_id)::bigint AS embedded;

-- name: ChunksMissingModel :many
-- The work of a re-embed: chunks without an embedding of the model, in
-- chunk id order after @after (a keyset over the chunks' primary key, so a
-- pass reads each chunk once; a pass from the nil uuid finds whatever is
-- left, which is how a restart continues).
SELECT c.id, c.heading_path, c.content FROM chunks c
WHERE c.tenant_id = @tenant_id AND c.id > @after
  AND NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.tenant_id = c.tenant_id AND e.chunk_id = c.id AND e.model_id = @model_id)
ORDER BY c.id
LIMIT @max_rows;

-- name: InsertReembeddings :execrows
-- A re-embed batch: chunks deleted since they were read are skipped, and a
-- chunk embedded meanwhile (another worker, a write) keeps its embedding.
INSERT INTO chunk_embeddings (tenant_id, chunk_id, model_id, text_sha, embedding)
SELECT @tenant_id::uuid, v.chunk_id, @model_id::smallint, v.text_sha, v.embedding
FROM (SELECT unnest(@chunk_ids::uuid[]) AS chunk_id, unnest(@text_shas::bytea[]) AS text_sha, unnest(@embeddings::vector[]) AS embedding) v
WHERE EXISTS (SELECT 1 FROM chunks c WHERE c.tenant_id = @tenant_id::uuid AND c.id = v.chunk_id)
ON CONFLICT (tenant_id, chunk_id, model_id) DO NOTHING;

-- name: DeleteModelVectors :execrows
-- One batch of a tenant's vectors of a model dropped (batches keep each
-- transaction short on a large tenant).
DELETE FROM chunk_embeddings e
WHERE e.tenant_id = @tenant_id AND e.model_id = @model_id
  AND e.chunk_id IN (SELECT x.chunk_id FROM chunk_embeddings x WHERE x.tenant_id = @tenant_id AND x.model_id = @model_id LIMIT @max_rows);

-- name: TenantVectorModels :many
-- The models the tenant holds vectors of, each once: a loose scan of the
-- (tenant_id, model_id, text_sha) index, one probe a model, however many
-- vectors there are.
WITH RECURSIVE m AS (
    (SELECT e.model_id FROM chunk_embeddings e WHERE e.tenant_id = @tenant_id ORDER BY e.model_id LIMIT 1)
    UNION ALL
    SELECT (SELECT e.model_id FROM chunk_embeddings e WHERE e.tenant_id = @tenant_id AND e.model_id > m.model_id ORDER BY e.model_id LIMIT 1)
    FROM m WHERE m.model_id IS NOT NULL
)
SELECT m.model_id::smallint AS model_id FROM m WHERE m.model_id IS NOT NULL;
