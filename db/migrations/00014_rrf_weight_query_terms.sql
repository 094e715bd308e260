-- Tenants that migration 00012 kept on Reciprocal Rank Fusion (they had
-- stored vector_weight, keyword_weight or rrf_k) calibrated those against
-- the RRF era's default vector weight, 1. Since 00012 an unset vector
-- weight is the embedding model's prior (0.25 for use-lite), so a tenant
-- that stored only rrf_k or keyword_weight changed meaning: its vector leg
-- counted a quarter of what it did. The RRF era's default is stored
-- explicitly for them. (A tenant that chose rrf after 00012 without a
-- vector weight gets 1 as well, the weight RRF was measured with.)
--
-- The keyword leg scores at most the 64 rarest of the query's terms. Each
-- truncated (common) term is looked up for every candidate, and the
-- candidates grow with the terms, so the work grows with the square of
-- the query's distinct terms: on a 5,000-chunk tenant whose 700 words each
-- occur in about 340 chunks, 100 distinct words cost 0.9 s and 600 (a
-- 3,500-character question) 11.4 s, and a few such requests held the
-- connection pool; with the cap, 0.7 s for 64 words and 1.3 s for 600
-- (measured on the shared 2-core machine). The rarest terms carry nearly all of BM25's evidence
-- (idf falls with df), and questions rarely have more than a few dozen
-- distinct terms.

-- +goose Up
UPDATE tenants SET settings = settings || '{"vector_weight": 1}'::jsonb
WHERE settings->>'fusion' = 'rrf' AND coalesce(settings->'vector_weight', 'null'::jsonb) = 'null'::jsonb;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION keyword_search(p_tenant uuid, p_lexemes text[], p_k1 float8, p_b float8,
                               p_per_term int, p_top_n int, p_filtered bool, p_prefix text, p_metadata jsonb)
RETURNS TABLE (chunk_id uuid, score float8)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
    WITH st AS (
        SELECT chunk_count::float8 AS n, token_count::float8 / greatest(chunk_count, 1) AS avgdl
        FROM tenant_stats WHERE tenant_stats.tenant_id = p_tenant
    ), terms AS (
        SELECT t.lexeme, ln(1 + (st.n - t.df + 0.5) / (t.df + 0.5))::float8 AS idf, (t.df > p_per_term)::bool AS truncated
        FROM term_stats t CROSS JOIN st
        WHERE t.tenant_id = p_tenant AND t.lexeme = ANY(p_lexemes)
        -- the 64 rarest query terms (see the header)
        ORDER BY t.df, t.lexeme
        LIMIT 64
    ), hits AS MATERIALIZED (
        SELECT terms.lexeme, terms.truncated, p.chunk_id, p.tf, p.dl
        FROM terms CROSS JOIN LATERAL (
            SELECT postings.chunk_id, postings.tf, postings.dl FROM postings
            WHERE postings.tenant_id = p_tenant AND postings.lexeme = terms.lexeme
            ORDER BY postings.impact DESC LIMIT p_per_term
        ) p
    ), cand AS MATERIALIZED (
        SELECT DISTINCT hits.chunk_id FROM hits
    ), matched AS (
        -- untruncated terms: their whole posting list was read
        SELECT hits.lexeme, hits.chunk_id, hits.tf, hits.dl FROM hits WHERE NOT hits.truncated
        UNION ALL
        -- truncated terms: each candidate's posting looked up by the full key
        -- (LIMIT 1 keeps the lookup a parameterised primary-key probe; joined
        -- freely, the planner scanned whole posting lists instead)
        SELECT terms.lexeme, cand.chunk_id, x.tf, x.dl
        FROM terms CROSS JOIN cand CROSS JOIN LATERAL (
            SELECT p.tf, p.dl FROM postings p
            WHERE p.tenant_id = p_tenant AND p.lexeme = terms.lexeme AND p.chunk_id = cand.chunk_id
            LIMIT 1
        ) x
        WHERE terms.truncated
    ), contrib AS (
        SELECT m.chunk_id,
               tm.idf * m.tf * (p_k1 + 1) / (m.tf + p_k1 * (1 - p_b + p_b * m.dl / st.avgdl)) AS part
        FROM matched m JOIN terms tm ON tm.lexeme = m.lexeme CROSS JOIN st
    ), scored AS (
        SELECT contrib.chunk_id, sum(contrib.part) AS score FROM contrib GROUP BY contrib.chunk_id
    )
    SELECT s.chunk_id, s.score::float8 AS score
    FROM scored s
    WHERE NOT p_filtered OR EXISTS (
        SELECT 1 FROM chunks c JOIN documents d ON d.tenant_id = c.tenant_id AND d.id = c.document_id
        WHERE c.tenant_id = p_tenant AND c.id = s.chunk_id
          AND starts_with(d.source_uri, p_prefix) AND d.metadata @> p_metadata)
    ORDER BY s.score DESC, s.chunk_id
    LIMIT p_top_n;
$$;
-- +goose StatementEnd

-- +goose Down
-- The stored weight is the one the code before 00012 used anyway: nothing
-- to undo. keyword_search goes back to migration 00011's.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION keyword_search(p_tenant uuid, p_lexemes text[], p_k1 float8, p_b float8,
                               p_per_term int, p_top_n int, p_filtered bool, p_prefix text, p_metadata jsonb)
RETURNS TABLE (chunk_id uuid, score float8)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
    WITH st AS (
        SELECT chunk_count::float8 AS n, token_count::float8 / greatest(chunk_count, 1) AS avgdl
        FROM tenant_stats WHERE tenant_stats.tenant_id = p_tenant
    ), terms AS (
        SELECT t.lexeme, ln(1 + (st.n - t.df + 0.5) / (t.df + 0.5))::float8 AS idf, (t.df > p_per_term)::bool AS truncated
        FROM term_stats t CROSS JOIN st
        WHERE t.tenant_id = p_tenant AND t.lexeme = ANY(p_lexemes)
    ), hits AS MATERIALIZED (
        SELECT terms.lexeme, terms.truncated, p.chunk_id, p.tf, p.dl
        FROM terms CROSS JOIN LATERAL (
            SELECT postings.chunk_id, postings.tf, postings.dl FROM postings
            WHERE postings.tenant_id = p_tenant AND postings.lexeme = terms.lexeme
            ORDER BY postings.impact DESC LIMIT p_per_term
        ) p
    ), cand AS MATERIALIZED (
        SELECT DISTINCT hits.chunk_id FROM hits
    ), matched AS (
        -- untruncated terms: their whole posting list was read
        SELECT hits.lexeme, hits.chunk_id, hits.tf, hits.dl FROM hits WHERE NOT hits.truncated
        UNION ALL
        -- truncated terms: each candidate's posting looked up by the full key
        -- (LIMIT 1 keeps the lookup a parameterised primary-key probe; joined
        -- freely, the planner scanned whole posting lists instead)
        SELECT terms.lexeme, cand.chunk_id, x.tf, x.dl
        FROM terms CROSS JOIN cand CROSS JOIN LATERAL (
            SELECT p.tf, p.dl FROM postings p
            WHERE p.tenant_id = p_tenant AND p.lexeme = terms.lexeme AND p.chunk_id = cand.chunk_id
            LIMIT 1
        ) x
        WHERE terms.truncated
    ), contrib AS (
        SELECT m.chunk_id,
               tm.idf * m.tf * (p_k1 + 1) / (m.tf + p_k1 * (1 - p_b + p_b * m.dl / st.avgdl)) AS part
        FROM matched m JOIN terms tm ON tm.lexeme = m.lexeme CROSS JOIN st
    ), scored AS (
        SELECT contrib.chunk_id, sum(contrib.part) AS score FROM contrib GROUP BY contrib.chunk_id
    )
    SELECT s.chunk_id, s.score::float8 AS score
    FROM scored s
    WHERE NOT p_filtered OR EXISTS (
        SELECT 1 FROM chunks c JOIN documents d ON d.tenant_id = c.tenant_id AND d.id = c.document_id
        WHERE c.tenant_id = p_tenant AND c.id = s.chunk_id
          AND starts_with(d.source_uri, p_prefix) AND d.metadata @> p_metadata)
    ORDER BY s.score DESC, s.chunk_id
    LIMIT p_top_n;
$$;
-- +goose StatementEnd
