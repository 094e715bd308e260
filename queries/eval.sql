-- Evaluation sets and runs (internal/eval). Every query runs inside a tenant
-- transaction; tenant_id is also passed explicitly so the planner sees the
-- constant (row-level security still filters on the transaction's tenant).

-- name: InsertEvalSet :one
-- The next version of set name (1 for a new name). Two concurrent loads of one
-- name collide on UNIQUE (tenant_id, name, version) rather than interleave.
INSERT INTO eval_sets (tenant_id, name, version, sha, questions)
SELECT @tenant_id::uuid, @name::text, coalesce(max(s.version), 0) + 1, @sha::bytea, @questions::int
FROM eval_sets s WHERE s.tenant_id = @tenant_id AND s.name = @name
RETURNING id, name, version, sha, questions, created_at;

-- name: InsertEvalQuestions :execrows
-- questions is a JSON array of {"idx", "question", "relevant": [source_uri…],
-- "category"}: one statement for the whole set (a text[] per row cannot be
-- unnested from a 2-D array, whose rows must all have the same length).
INSERT INTO eval_questions (tenant_id, set_id, idx, question, relevant, category)
SELECT @tenant_id::uuid, @set_id::uuid, q.idx, q.question,
       ARRAY(SELECT jsonb_array_elements_text(coalesce(q.relevant, '[]'::jsonb)))::text[],
       coalesce(q.category, '')
FROM jsonb_to_recordset(@questions::jsonb) AS q(idx int, question text, relevant jsonb, category text);

-- name: LatestEvalSet :one
SELECT id, name, version, sha, questions, created_at FROM eval_sets
WHERE tenant_id = @tenant_id AND name = @name
ORDER BY version DESC LIMIT 1;

-- name: GetEvalSetVersion :one
SELECT id, name, version, sha, questions, created_at FROM eval_sets
WHERE tenant_id = @tenant_id AND name = @name AND version = @version;

-- name: GetEvalSet :one
SELECT id, name, version, sha, questions, created_at FROM eval_sets
WHERE tenant_id = @tenant_id AND id = @id;

-- name: ListEvalSets :many
-- The latest version of each of the tenant's sets.
SELECT DISTINCT ON (name) id, name, version, sha, questions, created_at FROM eval_sets
WHERE tenant_id = @tenant_id
ORDER BY name, version DESC;

-- name: EvalQuestions :many
SELECT idx, question, relevant, category FROM eval_questions
WHERE tenant_id = @tenant_id AND set_id = @set_id
ORDER BY idx;

-- name: KnownSourceURIs :many
-- The subset of uris that name one of the tenant's documents.
SELECT source_uri FROM documents
WHERE tenant_id = @tenant_id AND source_uri = ANY(@uris::text[]);

-- name: DocumentPipelines :many
-- The chunking/embedding fingerprints of the tenant's documents, for a run's
-- configuration snapshot.
SELECT pipeline, count(*)::bigint AS documents FROM documents
WHERE tenant_id = @tenant_id
GROUP BY pipeline ORDER BY pipeline;

-- name: InsertEvalRun :one
INSERT INTO eval_runs (tenant_id, set_id, config, metrics, legs, per_question)
VALUES (@tenant_id, @set_id, @config, @metrics, @legs, @per_question)
RETURNING id, created_at;

-- name: GetEvalRun :one
SELECT r.id, r.set_id, s.name AS set_name, s.version AS set_version, s.created_at AS set_created_at, r.created_at,
       r.config, r.metrics, r.legs, r.per_question
FROM eval_runs r JOIN eval_sets s ON s.tenant_id = r.tenant_id AND s.id = r.set_id
WHERE r.tenant_id = @tenant_id AND r.id = @id;

-- name: ListEvalRuns :many
-- The tenant's most recent runs, newest first, without their per-question data.
SELECT r.id, r.set_id, s.name AS set_name, s.version AS set_version, r.created_at, r.metrics
FROM eval_runs r JOIN eval_sets s ON s.tenant_id = r.tenant_id AND s.id = r.set_id
WHERE r.tenant_id = @tenant_id
ORDER BY r.created_at DESC
LIMIT @max_rows;
