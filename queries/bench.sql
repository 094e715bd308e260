-- The benchmark corpus (ragd-bench, internal/bench). These statements run
-- only against the dedicated bench database: the bulk loader writes a whole
-- batch of documents per statement (InsertChunks takes one document per
-- statement), inside the tenant's transaction, so row-level security checks
-- every row and the statement triggers build postings and BM25 statistics as
-- ingestion does (COPY is refused under row-level security).
-- Its catalog reads and DDL are in internal/store/bench.go.

-- name: BenchRegisterModel :exec
INSERT INTO embedding_models (name, dims) VALUES (@name, @dims) ON CONFLICT (name) DO NOTHING;

-- name: BenchCurrentDatabase :one
SELECT current_database()::text;

-- name: BenchCreateTenants :many
INSERT INTO tenants (slug, name)
		SELECT format('bench-%s', lpad(i::text, 4, '0')), @name FROM generate_series(1, @tenants::int) i RETURNING id, slug;

-- name: BenchLoadDocuments :exec
INSERT INTO documents (tenant_id, id, source_uri, title, content_type, content_sha, pipeline, body, chunk_count)
SELECT @tenant_id::uuid, unnest(@ids::uuid[]), unnest(@source_uris::text[]), unnest(@titles::text[]), 'text/plain', unnest(@content_shas::bytea[]), 'bench', unnest(@bodies::text[]), unnest(@chunk_counts::int[]);

-- name: BenchLoadChunks :exec
INSERT INTO chunks (tenant_id, id, document_id, chunk_index, heading_path, content, token_count, start_offset, end_offset, ts_config)
SELECT @tenant_id::uuid, unnest(@ids::uuid[]), unnest(@document_ids::uuid[]), unnest(@chunk_indexes::int[]), unnest(@heading_paths::text[]), unnest(@contents::text[]), unnest(@token_counts::int[]),
       unnest(@start_offsets::int[]), unnest(@end_offsets::int[]), 'english';

-- name: BenchLoadEmbeddings :exec
INSERT INTO chunk_embeddings (tenant_id, chunk_id, model_id, text_sha, embedding)
SELECT @tenant_id::uuid, unnest(@chunk_ids::uuid[]), @model_id::smallint, unnest(@text_shas::bytea[]), unnest(@embeddings::vector[]);

-- name: BenchStatsTenant :exec
-- The statistics of a tenant loaded with the insert trigger disabled, set
-- based: the same rows chunks_index_insert (db/migrations/00001_init.sql)
-- would have written (bm25_impact, migration 00016), except that every
-- posting's impact uses the tenant's final average length (the trigger uses
-- the average at the time of each insert; impact only orders the lists). dl is computed once per chunk
-- (OFFSET 0 keeps the planner from inlining it per posting).
INSERT INTO tenant_stats (tenant_id, chunk_count, token_count)
SELECT $1::uuid, count(*), coalesce(sum(tsv_length(tsv)), 0) FROM chunks WHERE tenant_id = $1::uuid;

-- name: BenchStatsTerms :exec
INSERT INTO term_stats (tenant_id, lexeme, df, max_tf, min_dl)
SELECT $1::uuid, u.lexeme, count(*), max(cardinality(u.positions)), min(d.dl)
FROM chunks c
CROSS JOIN LATERAL (SELECT greatest(tsv_length(c.tsv), 1) AS dl OFFSET 0) d
CROSS JOIN LATERAL unnest(c.tsv) u
WHERE c.tenant_id = $1::uuid GROUP BY u.lexeme;

-- name: BenchStatsPostings :exec
INSERT INTO postings (tenant_id, lexeme, chunk_id, tf, dl, impact)
SELECT c.tenant_id, u.lexeme, c.id, cardinality(u.positions), d.dl,
       bm25_impact(cardinality(u.positions), d.dl, s.token_count::real / greatest(s.chunk_count, 1))
FROM chunks c
CROSS JOIN LATERAL (SELECT greatest(tsv_length(c.tsv), 1) AS dl OFFSET 0) d
JOIN tenant_stats s ON s.tenant_id = c.tenant_id
CROSS JOIN LATERAL unnest(c.tsv) u
WHERE c.tenant_id = $1::uuid;

-- name: BenchCheckStatistics :one
-- Inside one tenant's transaction: whether its statistics equal what its
-- chunks hold (the bulk path must build the same rows as the trigger;
-- df_ok covers each term's df and its bounds, max_tf and min_dl).
SELECT (SELECT coalesce(max(chunk_count), 0) FROM tenant_stats) = (SELECT count(*) FROM chunks) AS chunk_count_ok,
       (SELECT coalesce(max(token_count), 0) FROM tenant_stats) = (SELECT coalesce(sum(tsv_length(tsv)), 0) FROM chunks) AS token_count_ok,
       (SELECT count(*) FROM postings) = (SELECT coalesce(sum(length(tsv)), 0) FROM chunks) AS postings_ok,
       NOT EXISTS (SELECT 1 FROM term_stats t
                   FULL JOIN (SELECT lexeme, count(*) c, max(tf) max_tf, min(dl) min_dl FROM postings GROUP BY lexeme) p USING (lexeme)
                   WHERE t.df IS DISTINCT FROM p.c OR t.max_tf IS DISTINCT FROM p.max_tf OR t.min_dl IS DISTINCT FROM p.min_dl) AS df_ok,
       (SELECT count(*) FROM chunk_embeddings) = (SELECT count(*) FROM chunks) AS embeddings_ok;

-- name: BenchDeleteDocumentsByPrefix :exec
DELETE FROM documents WHERE tenant_id = @tenant_id AND starts_with(source_uri, @prefix);

-- name: BenchExactNeighbours :many
-- The vector ground truth: the tenant's nearest rows by a full scan of them
-- (the distance expression is not the HNSW index's expression, so the index
-- cannot serve it).
SELECT chunk_id FROM chunk_embeddings WHERE tenant_id = @tenant_id AND model_id = @model_id
ORDER BY embedding <=> @embedding, chunk_id LIMIT @max_rows;

-- name: BenchReferenceQuery :exec
-- The naive hybrid query the speedup target is measured against, on ragd's
-- schema, run as the application role inside the tenant's transaction (so
-- row-level security restricts it to the tenant, as it would in ragd): the
-- vector ranking is a row_number() window over every row's distance before
-- the LIMIT, the keyword leg is ts_rank over websearch_to_tsquery, and the
-- fusion LEFT JOINs every chunk to both. Nothing in it can use the HNSW
-- index. It is measured, never used: :exec, because the server still sends
-- every row (the time measured) and nothing reads them.
WITH vector_results AS (
    SELECT e.chunk_id, row_number() OVER (ORDER BY e.embedding <=> $1) AS rank
    FROM chunk_embeddings e
    ORDER BY rank
    LIMIT 20
), keyword_results AS (
    SELECT c.id AS chunk_id, row_number() OVER (ORDER BY ts_rank(c.tsv, q) DESC) AS rank
    FROM chunks c, websearch_to_tsquery('english', $2) q
    WHERE c.tsv @@ q
    ORDER BY rank
    LIMIT 20
)
SELECT c.id, c.content, d.title, d.source_uri,
       coalesce(1.0 / (60 + v.rank), 0) + coalesce(1.0 / (60 + k.rank), 0) AS score
FROM chunks c
JOIN documents d ON d.tenant_id = c.tenant_id AND d.id = c.document_id
LEFT JOIN vector_results v ON v.chunk_id = c.id
LEFT JOIN keyword_results k ON k.chunk_id = c.id
ORDER BY score DESC
LIMIT 5;
