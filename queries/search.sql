-- Retrieval. Every query runs inside a tenant transaction with tenant_id passed
-- explicitly as well (the planner sees the constant; RLS still applies).

-- name: QueryLexemes :many
-- The question's lexemes under the tenant's text-search configuration (always
-- explicit, never default_text_search_config). Stop words yield no lexemes.
SELECT unnest(tsvector_to_array(to_tsvector(CAST(@ts_config::text AS regconfig), @query::text)))::text AS lexeme;

-- name: KeywordSearch :many
-- Okapi BM25 over the tenant's posting lists; see keyword_search() in
-- db/migrations/00001_init.sql.
SELECT chunk_id::uuid AS chunk_id, score::float8 AS score
FROM keyword_search(@tenant_id::uuid, @lexemes::text[], @k1::float8, @b::float8,
                    @per_term_limit::int, @top_n::int, @filtered::bool, @prefix::text, @metadata::jsonb);

-- name: ChunksByIDs :many
SELECT c.id, c.document_id, c.chunk_index, c.heading_path, c.content, c.token_count,
       c.start_offset, c.end_offset, d.source_uri, d.title, d.metadata
FROM chunks c JOIN documents d ON d.tenant_id = c.tenant_id AND d.id = c.document_id
WHERE c.tenant_id = @tenant_id AND c.id = ANY(@ids::uuid[]);

-- name: FilteredChunkIDs :many
-- Chunk ids of documents matching the search filters (source_uri prefix,
-- metadata containment); the vector leg searches exactly within them.
SELECT c.id FROM chunks c JOIN documents d ON d.tenant_id = c.tenant_id AND d.id = c.document_id
WHERE c.tenant_id = @tenant_id AND starts_with(d.source_uri, @prefix::text) AND d.metadata @> @metadata::jsonb;

-- name: TermIDFs :many
-- idf of each query lexeme the tenant's chunks contain (same formula as
-- keyword_search); used to normalise BM25 scores into a confidence.
SELECT t.lexeme, ln(1 + (s.chunk_count - t.df + 0.5) / (t.df + 0.5))::float8 AS idf
FROM term_stats t JOIN tenant_stats s ON s.tenant_id = t.tenant_id
WHERE t.tenant_id = @tenant_id AND t.lexeme = ANY(@lexemes::text[]);

-- name: TenantChunkCount :one
SELECT coalesce((SELECT chunk_count FROM tenant_stats WHERE tenant_id = @tenant_id), 0)::bigint AS chunk_count;
