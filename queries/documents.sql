-- Documents and their chunks. Every query runs inside a tenant transaction;
-- tenant_id is also passed explicitly so the planner sees the constant (row-level
-- security still filters on the transaction's tenant).

-- name: LockDocumentBySourceURI :one
-- The row lock is what makes a same-content write a compare-and-set: the
-- content hash read here cannot change before the transaction ends.
SELECT id, content_sha, pipeline, chunk_count, title, title_given, content_type, metadata, from_files FROM documents
WHERE tenant_id = @tenant_id AND source_uri = @source_uri
FOR UPDATE;

-- name: UpdateDocumentDetails :exec
-- Same content and title, new metadata (or the title now named, or
-- another writer: from_files): no re-chunking needed. Runs in the
-- transaction that locked the row with LockDocumentBySourceURI.
UPDATE documents SET title_given = @title_given, metadata = @metadata, from_files = @from_files,
    updated_at = CASE WHEN sqlc.arg(touched)::bool THEN now() ELSE updated_at END
WHERE tenant_id = @tenant_id AND id = @id;

-- name: UpsertDocument :one
-- A whole new version of the document. Fields a write may leave out keep
-- their stored value when NULL (metadata; '{}' for a new document), read
-- under the row lock the upsert takes, so a concurrent write of them is
-- never lost to this one. The title is computed before the lock (it roots
-- untitled documents' heading paths, which are chunked and embedded): a
-- write that names none assumed the stored title was derived, or was the
-- named one it carries, and the update happens only if that still holds
-- (compare-and-set); no row returned means it did not, and the caller
-- starts over.
INSERT INTO documents (tenant_id, source_uri, title, title_given, content_type, content_sha, pipeline, metadata, body, code_spans, chunk_count, from_files)
VALUES (@tenant_id, @source_uri, @title, @title_given, @content_type, @content_sha, @pipeline,
        COALESCE(sqlc.narg(metadata)::jsonb, '{}'::jsonb), @body, @code_spans::int[], @chunk_count, @from_files)
ON CONFLICT (tenant_id, source_uri) DO UPDATE
SET title = excluded.title, title_given = excluded.title_given, content_type = excluded.content_type,
    content_sha = excluded.content_sha, pipeline = excluded.pipeline,
    metadata = COALESCE(sqlc.narg(metadata)::jsonb, documents.metadata), body = excluded.body,
    code_spans = excluded.code_spans, chunk_count = excluded.chunk_count, from_files = excluded.from_files,
    updated_at = now()
WHERE sqlc.arg(title_named)::bool
   OR (documents.title_given = excluded.title_given AND (NOT documents.title_given OR documents.title = excluded.title))
RETURNING id, (xmax = 0)::bool AS inserted;

-- name: LockTenantStats :exec
-- Locks (creating if needed) the tenant's statistics row, as the chunks
-- triggers do before they touch term_stats.
INSERT INTO tenant_stats (tenant_id) VALUES (@tenant_id)
ON CONFLICT (tenant_id) DO UPDATE SET chunk_count = tenant_stats.chunk_count;

-- name: DeleteChunksByDocument :execrows
DELETE FROM chunks WHERE tenant_id = @tenant_id AND document_id = @document_id;

-- name: InsertChunks :execrows
-- One statement for all of a document's chunks (COPY is refused under row-level
-- security), so the statement-level triggers index them in one pass. The
-- unnest calls run in lockstep (equal-length arrays). A page number of 0
-- (a document without pages) and an empty anchor are stored as NULL.
INSERT INTO chunks (tenant_id, id, document_id, chunk_index, heading_path, content, token_count, start_offset, end_offset, ts_config, keywords,
                    page_start, page_end, sections, anchor, section_anchors, anchor_marks)
SELECT @tenant_id::uuid, unnest(@ids::uuid[]), @document_id::uuid, unnest(@chunk_indexes::int[]),
       unnest(@heading_paths::text[]), unnest(@contents::text[]), unnest(@token_counts::int[]),
       unnest(@start_offsets::int[]), unnest(@end_offsets::int[]), CAST(@ts_config::text AS regconfig),
       unnest(@keywords::text[]), nullif(unnest(@page_starts::int[]), 0), nullif(unnest(@page_ends::int[]), 0),
       string_to_array(unnest(@sections::text[]), E'\n'), nullif(unnest(@anchors::text[]), ''),
       string_to_array(unnest(@section_anchors::text[]), E'\n'),
       string_to_array(nullif(unnest(@anchor_marks::text[]), ''), E'\n');

-- name: InsertEmbeddings :execrows
INSERT INTO chunk_embeddings (tenant_id, chunk_id, model_id, text_sha, embedding)
SELECT @tenant_id::uuid, unnest(@chunk_ids::uuid[]), @model_id::smallint, unnest(@text_shas::bytea[]), unnest(@embeddings::vector[]);

-- name: CachedEmbeddings :many
SELECT DISTINCT ON (text_sha) text_sha, embedding FROM chunk_embeddings
WHERE tenant_id = @tenant_id AND model_id = @model_id AND text_sha = ANY(@text_shas::bytea[]);

-- name: GetDocument :one
SELECT id, source_uri, title, content_type, encode(content_sha, 'hex')::text AS content_sha, metadata, chunk_count, created_at, updated_at
FROM documents WHERE tenant_id = @tenant_id AND id = @id;

-- name: GetDocumentBody :one
SELECT body FROM documents WHERE tenant_id = @tenant_id AND id = @id;

-- name: ListDocuments :many
-- Keyset pagination on source_uri; prefix filter with starts_with (no LIKE
-- metacharacters to escape).
SELECT id, source_uri, title, content_type, encode(content_sha, 'hex')::text AS content_sha, metadata, chunk_count, created_at, updated_at
FROM documents
WHERE tenant_id = @tenant_id
  AND starts_with(source_uri, @prefix::text)
  AND source_uri > @after::text
ORDER BY source_uri
LIMIT @max_rows;

-- name: ListSourceURIs :many
SELECT id, source_uri, from_files FROM documents
WHERE tenant_id = @tenant_id AND starts_with(source_uri, @prefix::text)
ORDER BY source_uri;

-- name: PruneDocument :one
-- A prune's delete: only a document a `ragd ingest` run wrote (or, with
-- unknown, one stored before writers were recorded), checked in the
-- delete itself, so an API write that took the source_uri after the
-- prune listed it is not deleted.
DELETE FROM documents
WHERE tenant_id = @tenant_id AND source_uri = @source_uri
  AND (from_files OR (sqlc.arg(unknown)::bool AND from_files IS NULL))
RETURNING id, source_uri;

-- name: DeleteDocument :one
DELETE FROM documents WHERE tenant_id = @tenant_id AND id = @id RETURNING id, source_uri;

-- name: DeleteDocumentBySourceURI :one
DELETE FROM documents WHERE tenant_id = @tenant_id AND source_uri = @source_uri RETURNING id, source_uri;

-- name: CountDocuments :one
SELECT count(*) FROM documents WHERE tenant_id = @tenant_id AND starts_with(source_uri, @prefix::text);

-- name: UseAutoPlans :exec
-- For the rest of this write transaction only: let foreign-key checks and
-- trigger statements reuse plans (force_custom_plan re-plans each one;
-- measured 10,000 embedding rows 18 s -> 1.1 s). Write transactions run no
-- tenant-sensitive search, which is what force_custom_plan protects.
SELECT set_config('plan_cache_mode', 'auto', true);

-- name: ChunkNeighbourhoods :many
-- For each chunk asked for, the document text from the start of the chunk
-- before it to the end of the chunk after it (the chunk alone at the
-- document's edges), and that byte range. Offsets are byte offsets into
-- documents.body, hence the bytea round trip: substring on text counts
-- characters. first_content is the first chunk of the range: when that chunk
-- starts inside a table, its content begins with the table's header row(s),
-- which the body holds only where the table starts. page_start and page_end
-- are the range's pages (0 for a document without pages). The part_* arrays
-- describe the range's chunks in order (byte range in documents.body, pages,
-- 0 without, heading path, id, anchor ('' without), its sections' anchors
-- joined by newlines ('' when unknown), and the heading paths of the sections its
-- text lies in joined by newlines, '' when unknown), so that a citation can
-- name the chunk its quotation comes from, with its pages and heading, and
-- the answerer knows which of its lines are section titles. code_spans are the
-- document's code blocks (start, end pairs in documents.body; NULL for a
-- document written before they were stored), for the caller to clip.
-- A neighbour joins only when it continues the chunk's section, judged at
-- the boundary the two chunks share (sections: the heading paths of the
-- sections a chunk's text lies in, in order, without definition terms):
-- the earlier chunk's last section is the later one's first (a section
-- cut into windows; one section's definitions), or an ancestor of it (the
-- earlier chunk ends with the intro of the section the later one begins
-- in: a page's intro before its first subsection). Nothing else between
-- them: short sibling entries packed into one chunk, with or without
-- their section's intro before them, are no context of the entry after
-- them (an FAQ answer widened to the entry before it was quoted under that
-- entry's heading). Sibling definitions of one section still join (the
-- manual's settings and psql variables: told apart, its answer checks
-- fell 56 → 53 of 81). Either
-- also joins when one has no path, or when the two are sibling sections
-- each headed by one capitalised word (a reference page's "Notes" and
-- "Examples", "OPTIONS": aspects of the page's one subject); an identifier
-- (MissingGreenlet) or a Chinese or Japanese title heads a topic of its
-- own. Chunks written before sections existed (NULL) are judged by their
-- heading paths: the same path, or the later one under the earlier. A
-- heading's own " > " is stored as " › " (chunk.pathElem), so " > " splits
-- a path into its headings.
SELECT k.id AS chunk_id,
       min(c.start_offset)::int AS start_offset, max(c.end_offset)::int AS end_offset,
       convert_from(substring(convert_to(d.body, 'UTF8') FROM min(c.start_offset) + 1 FOR max(c.end_offset) - min(c.start_offset)), 'UTF8')::text AS body,
       (array_agg(c.content ORDER BY c.chunk_index))[1]::text AS first_content,
       coalesce(min(c.page_start), 0)::int AS page_start, coalesce(max(c.page_end), 0)::int AS page_end,
       array_agg(c.start_offset ORDER BY c.chunk_index)::int[] AS part_starts,
       array_agg(c.end_offset ORDER BY c.chunk_index)::int[] AS part_ends,
       array_agg(coalesce(c.page_start, 0) ORDER BY c.chunk_index)::int[] AS part_page_starts,
       array_agg(coalesce(c.page_end, 0) ORDER BY c.chunk_index)::int[] AS part_page_ends,
       array_agg(c.heading_path ORDER BY c.chunk_index)::text[] AS part_headings,
       array_agg(c.id ORDER BY c.chunk_index)::uuid[] AS part_ids,
       array_agg(coalesce(c.anchor, '') ORDER BY c.chunk_index)::text[] AS part_anchors,
       array_agg(coalesce(array_to_string(c.section_anchors, E'\n'), '') ORDER BY c.chunk_index)::text[] AS part_section_anchors,
       array_agg(coalesce(array_to_string(c.anchor_marks, E'\n'), '') ORDER BY c.chunk_index)::text[] AS part_anchor_marks,
       array_agg(coalesce(array_to_string(c.sections, E'\n'), '') ORDER BY c.chunk_index)::text[] AS part_sections,
       d.code_spans
FROM chunks k
JOIN chunks c ON c.tenant_id = k.tenant_id AND c.document_id = k.document_id
     AND c.chunk_index BETWEEN k.chunk_index - 1 AND k.chunk_index + 1
-- e is the earlier chunk of the pair, l the later; el is the last section of
-- e, lf the first of l (the heading paths where sections is unknown).
CROSS JOIN LATERAL (SELECT x.es, x.ls, x.ep, x.lp, coalesce(x.es[cardinality(x.es)], x.ep) AS el, coalesce(x.ls[1], x.lp) AS lf
                    FROM (SELECT CASE WHEN c.chunk_index < k.chunk_index THEN c.sections ELSE k.sections END AS es,
                                 CASE WHEN c.chunk_index < k.chunk_index THEN k.sections ELSE c.sections END AS ls,
                                 CASE WHEN c.chunk_index < k.chunk_index THEN c.heading_path ELSE k.heading_path END AS ep,
                                 CASE WHEN c.chunk_index < k.chunk_index THEN k.heading_path ELSE c.heading_path END AS lp) x) p
JOIN documents d ON d.tenant_id = k.tenant_id AND d.id = k.document_id
WHERE k.tenant_id = @tenant_id AND k.id = ANY(@chunk_ids::uuid[])
  AND (c.chunk_index = k.chunk_index
       OR p.ep = '' OR p.lp = ''
       OR (cardinality(p.es) > 0 AND cardinality(p.ls) > 0 AND (p.el = p.lf OR starts_with(p.lf, p.el || ' > ')))
       OR ((p.es IS NULL OR p.ls IS NULL) AND (p.ep = p.lp OR starts_with(p.lp, p.ep || ' > ')))
       OR (p.el ~ ' > ([A-Z][a-z]+|[A-Z]+)$' AND p.lf ~ ' > ([A-Z][a-z]+|[A-Z]+)$' AND heading_parent(p.el) = heading_parent(p.lf)))
GROUP BY k.id, d.tenant_id, d.id;

-- name: LockDocumentMetadata :one
-- The document's metadata, its row locked for SetMetadata's update.
SELECT metadata FROM documents WHERE tenant_id = @tenant_id AND id = @id FOR UPDATE;

-- name: UpdateDocumentMetadata :execrows
-- 0 rows when the metadata is already that (jsonb equality: key order and
-- spacing do not count).
UPDATE documents SET metadata = @metadata::jsonb, updated_at = now()
WHERE tenant_id = @tenant_id AND id = @id AND metadata IS DISTINCT FROM @metadata::jsonb;

-- name: TwinsOutsidePrefix :one
-- How many of the documents under prefix have the same content as a
-- document outside it, of how many under it, and one such pair: a corpus
-- ingested again under another base URI (or none, file: URIs) is all
-- twins.
SELECT count(DISTINCT a.id)::int AS twins,
       (SELECT count(*) FROM documents c WHERE c.tenant_id = @tenant_id AND starts_with(c.source_uri, @prefix::text))::int AS under,
       coalesce(min(a.source_uri), '')::text AS example, coalesce(min(b.source_uri), '')::text AS other
FROM documents a
JOIN documents b ON b.tenant_id = a.tenant_id AND b.content_sha = a.content_sha AND b.id <> a.id
WHERE a.tenant_id = @tenant_id AND starts_with(a.source_uri, @prefix::text) AND NOT starts_with(b.source_uri, @prefix::text);
