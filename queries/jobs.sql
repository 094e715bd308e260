-- Ingestion jobs (migration 00019): a batch per run, an item per document.
-- Every query runs inside a tenant transaction (tenant_id is also passed so
-- the planner sees the constant). The claim, which runs on the pool through
-- the SECURITY DEFINER function that finds work across tenants, is in
-- jobs.go (sqlc cannot see a PL/pgSQL function's result columns).

-- name: CreateIngestionBatch :one
INSERT INTO ingestion_batches (tenant_id, origin, label, total, submitter, principals)
VALUES (@tenant_id, @origin, @label, @total, sqlc.narg(submitter), sqlc.narg(principals)::text[])
RETURNING id, created_at;

-- name: InsertIngestionItems :execrows
-- One statement per slice of items (COPY is refused under row-level
-- security). The unnest calls run in lockstep (equal-length arrays).
INSERT INTO ingestion_items (tenant_id, batch_id, idx, source_uri, content_type, metadata, content, size_bytes, stage, error, queued_at)
SELECT @tenant_id::uuid, @batch_id::uuid, unnest(@idxs::int[]), unnest(@source_uris::text[]), unnest(@content_types::text[]),
       unnest(@metadatas::jsonb[]), unnest(@contents::bytea[]), unnest(@sizes::bigint[]), unnest(@stages::text[]), unnest(@errors::text[]),
       @queued_at::timestamptz;

-- name: StampFinalIngestionItems :exec
-- Items created in a final stage (skipped at intake) are finished at once.
UPDATE ingestion_items SET finished_at = now()
WHERE tenant_id = @tenant_id AND batch_id = @batch_id AND finished_at IS NULL
  AND stage NOT IN ('queued', 'extracted', 'chunked', 'embedded');

-- name: GetClaimedIngestionItem :one
-- The claimed item's input, if the claim is still the worker's, with the
-- principals of its job's submitter (NULL: every document visible).
SELECT i.source_uri, i.content_type, i.metadata, i.content, i.attempts, b.principals
FROM ingestion_items i
JOIN ingestion_batches b ON b.tenant_id = i.tenant_id AND b.id = i.batch_id
WHERE i.tenant_id = @tenant_id AND i.batch_id = @batch_id AND i.idx = @idx AND i.claim = @claim::uuid;

-- name: SetIngestionItemStage :execrows
-- A non-final stage reached under the claim; renews the lease. 0 rows: the
-- claim was lost (the lease expired and another worker took the item).
UPDATE ingestion_items
SET stage = @stage, lease_until = now() + make_interval(secs => sqlc.arg(lease_seconds)::float8), updated_at = now()
WHERE tenant_id = @tenant_id AND batch_id = @batch_id AND idx = @idx AND claim = @claim::uuid;

-- name: RenewIngestionLease :execrows
UPDATE ingestion_items
SET lease_until = now() + make_interval(secs => sqlc.arg(lease_seconds)::float8)
WHERE tenant_id = @tenant_id AND batch_id = @batch_id AND idx = @idx AND claim = @claim::uuid;

-- name: FinishIngestionItem :execrows
-- A final stage (stored, unchanged, skipped, refused, failed) under the claim: the
-- uploaded bytes are dropped.
UPDATE ingestion_items
SET stage = @stage, outcome = @outcome, document_id = sqlc.narg(document_id), chunks = @chunks, error = left(@error::text, 2000),
    content = NULL, claim = NULL, lease_until = NULL, updated_at = now(), finished_at = now()
WHERE tenant_id = @tenant_id AND batch_id = @batch_id AND idx = @idx AND claim = @claim::uuid;

-- name: RetryIngestionItem :execrows
-- A transient failure: back to the queue (stage kept: it says how far the
-- last attempt got) after a delay, with the reason kept for the record.
UPDATE ingestion_items
SET error = left(@error::text, 2000), claim = NULL, lease_until = now() + make_interval(secs => sqlc.arg(delay_seconds)::float8), updated_at = now()
WHERE tenant_id = @tenant_id AND batch_id = @batch_id AND idx = @idx AND claim = @claim::uuid;

-- name: ReleaseIngestionItem :execrows
-- A worker stopping (shutdown) hands its item back at once, the attempt not
-- counted.
UPDATE ingestion_items
SET claim = NULL, lease_until = NULL, attempts = greatest(attempts - 1, 0), updated_at = now()
WHERE tenant_id = @tenant_id AND batch_id = @batch_id AND idx = @idx AND claim = @claim::uuid;

-- name: RecordIngestionItem :exec
-- A `ragd ingest` run's outcome for one file (processed in that process).
UPDATE ingestion_items
SET stage = @stage, outcome = @outcome, document_id = sqlc.narg(document_id), chunks = @chunks, error = left(@error::text, 2000),
    attempts = 1, updated_at = now(), finished_at = now()
WHERE tenant_id = @tenant_id AND batch_id = @batch_id AND idx = @idx;

-- name: GetIngestionBatch :one
-- finished_at: the last item's, once every item is final.
SELECT b.id, b.origin, b.label, b.total, b.created_at,
       CASE WHEN bool_and(i.stage NOT IN ('queued', 'extracted', 'chunked', 'embedded')) THEN max(i.finished_at) END::timestamptz AS finished_at,
       count(*) FILTER (WHERE i.stage = 'queued')::int AS queued,
       count(*) FILTER (WHERE i.stage IN ('extracted', 'chunked', 'embedded'))::int AS running,
       count(*) FILTER (WHERE i.stage = 'stored')::int AS stored,
       count(*) FILTER (WHERE i.stage = 'unchanged')::int AS unchanged,
       count(*) FILTER (WHERE i.stage = 'skipped')::int AS skipped,
       count(*) FILTER (WHERE i.stage = 'refused')::int AS refused,
       count(*) FILTER (WHERE i.stage = 'failed')::int AS failed,
       count(*) FILTER (WHERE i.attempts > 0)::int AS worked,
       coalesce(sum(i.chunks), 0)::bigint AS chunks,
       coalesce(sum(i.size_bytes), 0)::bigint AS bytes
FROM ingestion_batches b
LEFT JOIN ingestion_items i ON i.tenant_id = b.tenant_id AND i.batch_id = b.id
WHERE b.tenant_id = @tenant_id AND b.id = @id
GROUP BY b.tenant_id, b.id;

-- name: ListIngestionItems :many
-- A page of a batch's items in idx order (keyset on idx).
SELECT idx, source_uri, content_type, size_bytes, stage, outcome, document_id, chunks, error, attempts, updated_at, finished_at
FROM ingestion_items
WHERE tenant_id = @tenant_id AND batch_id = @batch_id AND idx > @after_idx
ORDER BY idx
LIMIT @page_size;

-- name: ListIngestionBatches :many
-- Newest first, keyset on (created_at, id), with the counts of GetIngestionBatch.
SELECT b.id, b.origin, b.label, b.total, b.created_at, c.finished_at,
       c.queued, c.running, c.stored, c.unchanged, c.skipped, c.refused, c.failed, c.worked, c.chunks, c.bytes
FROM ingestion_batches b
CROSS JOIN LATERAL (
    SELECT CASE WHEN bool_and(i.stage NOT IN ('queued', 'extracted', 'chunked', 'embedded')) THEN max(i.finished_at) END::timestamptz AS finished_at,
           count(*) FILTER (WHERE i.stage = 'queued')::int AS queued,
           count(*) FILTER (WHERE i.stage IN ('extracted', 'chunked', 'embedded'))::int AS running,
           count(*) FILTER (WHERE i.stage = 'stored')::int AS stored,
           count(*) FILTER (WHERE i.stage = 'unchanged')::int AS unchanged,
           count(*) FILTER (WHERE i.stage = 'skipped')::int AS skipped,
           count(*) FILTER (WHERE i.stage = 'refused')::int AS refused,
           count(*) FILTER (WHERE i.stage = 'failed')::int AS failed,
           count(*) FILTER (WHERE i.attempts > 0)::int AS worked,
           coalesce(sum(i.chunks), 0)::bigint AS chunks,
           coalesce(sum(i.size_bytes), 0)::bigint AS bytes
    FROM ingestion_items i WHERE i.tenant_id = b.tenant_id AND i.batch_id = b.id) c
WHERE b.tenant_id = @tenant_id
  AND (NOT sqlc.arg(has_cursor)::bool OR (b.created_at, b.id) < (sqlc.arg(before_time)::timestamptz, sqlc.arg(before_id)::uuid))
ORDER BY b.created_at DESC, b.id DESC
LIMIT @page_size;
-- name: ListIngestionItemsUpdatedSince :many
-- The items whose state changed after (since, after_idx) in (updated_at,
-- idx) order (the events stream), keyset-paginated.
SELECT idx, source_uri, content_type, size_bytes, stage, outcome, document_id, chunks, error, attempts, updated_at, finished_at
FROM ingestion_items
WHERE tenant_id = @tenant_id AND batch_id = @batch_id AND (updated_at, idx) > (@since::timestamptz, @after_idx::int)
ORDER BY updated_at, idx
LIMIT @page_size;
