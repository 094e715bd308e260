-- Traffic records (internal/traffic): retrieval events, their feedback, and
-- per-day usage counters. Every query runs inside a tenant transaction;
-- tenant_id is also passed explicitly so the planner sees the constant
-- (row-level security still filters on the transaction's tenant).

-- name: InsertRetrievalEvents :execrows
-- events is a JSON array of rows (the background writer's batch for one
-- tenant): one statement per batch. question_sha is hex. A repeated id (a
-- batch retried after a lost commit acknowledgement) is skipped.
INSERT INTO retrieval_events (tenant_id, id, created_at, operation, request_id, subject, question, question_sha, rewritten,
                              filters, top_k, results, confidence, refused, refusal_reason, degraded, timings_ms, total_ms)
SELECT @tenant_id::uuid, e.id, e.created_at, e.operation, e.request_id, e.subject, e.question, decode(e.question_sha, 'hex'), e.rewritten,
       coalesce(e.filters, '{}'::jsonb), e.top_k, coalesce(e.results, '[]'::jsonb), e.confidence, e.refused, e.refusal_reason,
       e.degraded, coalesce(e.timings_ms, '{}'::jsonb), e.total_ms
FROM jsonb_to_recordset(@events::jsonb) AS e(id uuid, created_at timestamptz, operation text, request_id text, subject text,
     question text, question_sha text, rewritten text, filters jsonb, top_k int, results jsonb, confidence real, refused boolean,
     refusal_reason text, degraded boolean, timings_ms jsonb, total_ms real)
ON CONFLICT (tenant_id, id) DO NOTHING;

-- name: AddTenantUsage :exec
INSERT INTO tenant_usage AS u (tenant_id, day, query_requests, write_requests, admin_requests, rate_limited, shed, embedded_chunks, provider_tokens)
VALUES (@tenant_id, @day, @query_requests, @write_requests, @admin_requests, @rate_limited, @shed, @embedded_chunks, @provider_tokens)
ON CONFLICT (tenant_id, day) DO UPDATE SET
    query_requests  = u.query_requests + excluded.query_requests,
    write_requests  = u.write_requests + excluded.write_requests,
    admin_requests  = u.admin_requests + excluded.admin_requests,
    rate_limited    = u.rate_limited + excluded.rate_limited,
    shed            = u.shed + excluded.shed,
    embedded_chunks = u.embedded_chunks + excluded.embedded_chunks,
    provider_tokens = u.provider_tokens + excluded.provider_tokens;

-- name: PurgeRetrievalEvents :execrows
DELETE FROM retrieval_events WHERE tenant_id = @tenant_id AND created_at < @before;

-- name: PurgeTenantUsage :execrows
DELETE FROM tenant_usage WHERE tenant_id = @tenant_id AND day < @before_day;

-- name: SumTenantUsage :one
SELECT coalesce(sum(query_requests), 0)::bigint AS query_requests,
       coalesce(sum(write_requests), 0)::bigint AS write_requests,
       coalesce(sum(admin_requests), 0)::bigint AS admin_requests,
       coalesce(sum(rate_limited), 0)::bigint AS rate_limited,
       coalesce(sum(shed), 0)::bigint AS shed,
       coalesce(sum(embedded_chunks), 0)::bigint AS embedded_chunks,
       coalesce(sum(provider_tokens), 0)::bigint AS provider_tokens
FROM tenant_usage WHERE tenant_id = @tenant_id AND day >= @since_day;

-- name: GetTenantStorage :one
-- What a write's quota check compares with: documents, chunks, and bytes of
-- extracted text stored, and the stored bytes of the document at
-- source_uri (-1 when there is none: the write adds a document).
-- octet_length of a TOASTed value reads its header, not the value.
SELECT (SELECT count(*) FROM documents d WHERE d.tenant_id = @tenant_id)::bigint AS documents,
       coalesce((SELECT s.chunk_count FROM tenant_stats s WHERE s.tenant_id = @tenant_id), 0)::bigint AS chunks,
       coalesce((SELECT sum(octet_length(d.body)) FROM documents d WHERE d.tenant_id = @tenant_id), 0)::bigint AS bytes,
       coalesce((SELECT octet_length(d.body) FROM documents d WHERE d.tenant_id = @tenant_id AND d.source_uri = @source_uri), -1)::bigint AS existing_bytes;

-- name: ListRetrievalEvents :many
-- Newest first, keyset-paginated on (created_at, id); refused and helpful
-- NULL = either; rated_only keeps events with feedback.
SELECT id, created_at, operation, request_id, subject, question, encode(question_sha, 'hex')::text AS question_sha, rewritten,
       filters, top_k, results, confidence, refused, refusal_reason, degraded, timings_ms, total_ms,
       helpful, feedback_note, right_source_uri, right_chunk_id, feedback_at
FROM retrieval_events
WHERE tenant_id = @tenant_id
  AND created_at >= @since AND created_at < @until
  AND (sqlc.narg(refused)::boolean IS NULL OR refused = sqlc.narg(refused))
  AND (sqlc.narg(helpful)::boolean IS NULL OR helpful = sqlc.narg(helpful))
  AND (NOT @rated_only::boolean OR helpful IS NOT NULL)
  AND (sqlc.narg(after_at)::timestamptz IS NULL OR (created_at, id) < (sqlc.narg(after_at), sqlc.narg(after_id)::uuid))
ORDER BY created_at DESC, id DESC
LIMIT @max_rows;

-- name: SetEventFeedback :execrows
-- A later rating changes only what it names: the note and the right
-- source of an earlier one stay unless it gives new ones (a second rating
-- had erased the source an evaluation set is built from). The right source
-- is one thing: naming a source_uri or a chunk replaces both.
UPDATE retrieval_events
SET helpful = @helpful, feedback_note = coalesce(sqlc.narg(note), feedback_note),
    right_source_uri = CASE WHEN @names_source::bool THEN sqlc.narg(right_source_uri) ELSE right_source_uri END,
    right_chunk_id = CASE WHEN @names_source::bool THEN sqlc.narg(right_chunk_id) ELSE right_chunk_id END, feedback_at = now()
WHERE tenant_id = @tenant_id AND id = @id
  -- Only the principal who asked (the same subject), or an admin
  -- (@any_subject): another user's event is a 404 like an absent one.
  AND (@any_subject::bool OR subject = @subject);

-- name: DocumentSourceExists :one
-- Feedback names the right source: one of the tenant's documents the
-- caller can read (row-level security), or it is refused.
SELECT EXISTS (SELECT 1 FROM documents d WHERE d.tenant_id = @tenant_id AND d.source_uri = @source_uri);

-- name: ChunkSourceURI :one
-- The source_uri of a chunk feedback names ('' when the caller can read no
-- such chunk).
SELECT coalesce((SELECT d.source_uri FROM chunks c JOIN documents d ON d.tenant_id = c.tenant_id AND d.id = c.document_id
                 WHERE c.tenant_id = @tenant_id AND c.id = @chunk_id), '')::text AS source_uri;
