-- The keyword leg's exact lookups, robust to estimates. keyword_search
-- completes each candidate's score with its postings of the truncated
-- (common) terms; written as a join with an anti-join against the postings
-- already read, it left the access path to the planner, whose estimate of a
-- posting list's length for one (tenant, lexeme) is far too small on a
-- large multi-tenant table (27 rows estimated, 800-1,300 real on the 1M
-- bench). It then scanned whole posting lists and filtered them (1.3 M
-- entries read for ~1,700 lookups; 130-270 ms per query for 10,000-chunk
-- tenants). Now each lookup is a LATERAL subquery with LIMIT 1 on the full
-- primary key, and the anti-join is gone: a truncated term's contribution
-- comes from the lookup for every candidate (the same tf and dl as its top
-- list holds), an untruncated term's from its top list. Same scores, same
-- order; migration 00010's covering key makes each lookup index-only.

-- +goose Up
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

-- +goose Down
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
        SELECT terms.lexeme, p.chunk_id, p.tf, p.dl
        FROM terms CROSS JOIN LATERAL (
            SELECT postings.chunk_id, postings.tf, postings.dl FROM postings
            WHERE postings.tenant_id = p_tenant AND postings.lexeme = terms.lexeme
            ORDER BY postings.impact DESC LIMIT p_per_term
        ) p
    ), cand AS (
        SELECT DISTINCT hits.chunk_id FROM hits
    ), extra AS (
        SELECT terms.lexeme, p.chunk_id, p.tf, p.dl
        FROM terms, cand, postings p
        WHERE terms.truncated
          AND p.tenant_id = p_tenant AND p.lexeme = terms.lexeme AND p.chunk_id = cand.chunk_id
          AND NOT EXISTS (SELECT 1 FROM hits h WHERE h.lexeme = terms.lexeme AND h.chunk_id = cand.chunk_id)
    ), matched AS (
        SELECT hits.lexeme, hits.chunk_id, hits.tf, hits.dl FROM hits
        UNION ALL
        SELECT extra.lexeme, extra.chunk_id, extra.tf, extra.dl FROM extra
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
