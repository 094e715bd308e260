-- Document access lists (migration 00017). Every query runs inside a tenant
-- transaction, whose principals the policies apply.

-- name: LockDocumentAccess :one
SELECT access_id FROM documents WHERE tenant_id = @tenant_id AND id = @id FOR UPDATE;

-- name: AccessListID :one
-- The id of a list of principals in the tenant (0 = empty = tenant-wide),
-- created on first use.
SELECT access_list_id(@tenant_id::uuid, @principals::text[])::int AS id;

-- name: UpdateDocumentAccess :execrows
-- Only access_id: documents_access_sync copies it onto the chunks,
-- embeddings and postings.
UPDATE documents SET access_id = @access_id WHERE tenant_id = @tenant_id AND id = @id;

-- name: DocumentAccessLists :many
SELECT d.id, coalesce(a.principals, '{}'::text[])::text[] AS access
FROM documents d
LEFT JOIN access_lists a ON a.tenant_id = d.tenant_id AND a.id = d.access_id
WHERE d.tenant_id = @tenant_id AND d.id = ANY (@ids::uuid[]);

-- name: VisibleTenantStats :one
-- GET /v1/tenant for a caller who does not see every document: counts over
-- the documents and chunks its principals read (the policies filter), so
-- that no count reveals a hidden document.
SELECT (SELECT count(*) FROM documents d WHERE d.tenant_id = @tenant_id)::bigint AS document_count,
       count(*)::bigint AS chunk_count,
       coalesce(sum(tsv_length(c.tsv)), 0)::bigint AS token_count
FROM chunks c WHERE c.tenant_id = @tenant_id;
