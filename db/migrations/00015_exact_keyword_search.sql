-- The keyword leg ranks by exact Okapi BM25 over every posting of the
-- query's terms, with the filters applied before ranking.
--
-- Before, candidates were each term's p_per_term highest-impact postings
-- (tenant-wide) and the filters were applied to the scored candidates: a
-- chunk outside every term's top list was never scored, and a selective
-- filter could leave a matching chunk unranked (the CLUSTER page's chunk
-- with "table" three times had no keyword rank under its source_uri
-- prefix: "tabl" occurs in 2,335 chunks of the manual).
--
-- Now (dynamic pruning with per-term upper bounds, MaxScore: Turtle &
-- Flood 1995, "Query evaluation: strategies and optimizations"):
--   1. a threshold: the query's p_top_n best chunks by an approximate score
--      over each term's p_per_term highest-impact postings, scored exactly;
--      the p_top_n-th of those exact scores, θ, is a lower bound on the
--      p_top_n-th best score of the tenant (0 when fewer matched);
--   2. a term's contribution is at most idf·(k1 + 1) (the BM25 saturation
--      bound, valid for every tf, dl, k1 ≥ 0 and 0 ≤ b ≤ 1); the terms with
--      the lowest bounds whose bounds sum below θ are non-essential: a chunk
--      that holds none of the other (essential) terms scores below θ and
--      cannot be in the result;
--   3. every posting of the essential terms is read and summed per chunk;
--      a chunk whose partial score plus the non-essential bounds stays
--      below θ is dropped; each remaining chunk's non-essential postings are
--      read by their full key, and the exact scores ranked.
-- The result is the same top p_top_n as scoring every chunk that holds a
-- query term (search.TestKeywordLegExact checks it against a brute-force
-- reference); p_per_term now only decides how good θ is, not the result.
-- The comparisons keep a relative margin of 1e-9, so that rounding in
-- different summation orders never drops a chunk that ties.
--
-- With a filter (source_uri prefix, metadata containment), the chunks of
-- the matching documents are found first and only their postings are
-- scored: exact at any selectivity.
--
-- The function plans every statement for its call (plan_cache_mode =
-- force_custom_plan, set on the function, whatever the session's mode): the
-- arrays it builds at run time (the filtered chunks, the candidates) are
-- then constants, tested by hashing. Under PostgreSQL's default (auto),
-- PL/pgSQL switches to generic plans from a session's sixth call; measured
-- on the manual's tenant, a filtered search matching every document went
-- from 40-60 ms to 250-510 ms a call.
--
-- The query is still its 64 rarest terms (migration 00014).

-- +goose Up
-- +goose StatementBegin
-- filtered_chunks returns the chunks of the documents matching a filter,
-- for both legs' filtered searches: the matching documents, then their
-- chunks, two reads whose every plan reads each row at most once. As one
-- join, a tenant whose rows no ANALYZE had seen yet (right after a bulk
-- ingest; on a large table, until 10 % of it has changed) was estimated at
-- one chunk and planned as a nested loop re-reading all its chunks for each
-- document: 2.8 s for 1,200 documents in the keyword leg, 17 s in the
-- vector leg's (search.TestFilteredLegsReadEachRowOnce). Up to 1,000
-- documents, their chunks are looked up by the (tenant_id, document_id, …)
-- key; beyond, the tenant's chunks are kept by a hashed membership test
-- (the coalesce keeps it out of the estimates: the planner estimates
-- = ANY element by element, 10.7 ms of planning for SciFact's 5,183
-- documents). Under row-level security like its callers (SECURITY
-- INVOKER), planned for each call (its arrays are constants only in a
-- custom plan).
CREATE FUNCTION filtered_chunks(p_tenant uuid, p_prefix text, p_metadata jsonb)
RETURNS uuid[]
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    v_docs uuid[];
BEGIN
    v_docs := ARRAY(
        SELECT d.id FROM documents d
        WHERE d.tenant_id = p_tenant AND starts_with(d.source_uri, p_prefix) AND d.metadata @> p_metadata);
    IF cardinality(v_docs) <= 1000 THEN
        RETURN ARRAY(
            SELECT c.id FROM chunks c
            WHERE c.tenant_id = p_tenant AND c.document_id = ANY (v_docs));
    END IF;
    RETURN ARRAY(
        SELECT c.id FROM chunks c
        WHERE c.tenant_id = p_tenant AND coalesce(c.document_id = ANY (v_docs), false));
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
-- vector_search_filtered is the vector leg with a filter: the exact p_n
-- nearest (cosine distance) of the matching documents' chunks' vectors of
-- model p_model, ties by chunk id. Up to 1,000 chunks, their vectors are
-- looked up by key; beyond, the tenant's vectors are kept by a hashed
-- membership test: every plan reads each vector at most once.
CREATE FUNCTION vector_search_filtered(p_tenant uuid, p_model smallint, p_query vector, p_n int,
                                       p_prefix text, p_metadata jsonb)
RETURNS TABLE (chunk_id uuid, distance float8)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    v_chunks uuid[] := filtered_chunks(p_tenant, p_prefix, p_metadata);
BEGIN
    IF cardinality(v_chunks) <= 1000 THEN
        RETURN QUERY
        SELECT e.chunk_id, (e.embedding <=> p_query)::float8
        FROM chunk_embeddings e
        WHERE e.tenant_id = p_tenant AND e.model_id = p_model AND e.chunk_id = ANY (v_chunks)
        ORDER BY 2, 1 LIMIT p_n;
        RETURN;
    END IF;
    RETURN QUERY
    SELECT e.chunk_id, (e.embedding <=> p_query)::float8
    FROM chunk_embeddings e
    WHERE e.tenant_id = p_tenant AND e.model_id = p_model AND coalesce(e.chunk_id = ANY (v_chunks), false)
    ORDER BY 2, 1 LIMIT p_n;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
DO $$
DECLARE r text := coalesce(nullif(current_setting('ragd.app_role', true), ''), 'ragd_app');
BEGIN
    EXECUTE format('GRANT EXECUTE ON FUNCTION filtered_chunks(uuid, text, jsonb), '
                   'vector_search_filtered(uuid, smallint, vector, int, text, jsonb) TO %I', r);
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION keyword_search(p_tenant uuid, p_lexemes text[], p_k1 float8, p_b float8,
                               p_per_term int, p_top_n int, p_filtered bool, p_prefix text, p_metadata jsonb)
RETURNS TABLE (chunk_id uuid, score float8)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    v_n float8;
    v_avgdl float8;
    v_lex text[];       -- the query's terms, rarest (highest bound) first
    v_idf float8[];
    v_df int[];
    v_theta float8 := 0;
    v_rest float8 := 0; -- the sum of the non-essential terms' bounds
    v_rest_df bigint := 0;
    v_ess int;          -- v_lex[1:v_ess] are essential
    v_cand uuid[];      -- chunks to score exactly, with their partial scores
    v_part float8[];
BEGIN
    SELECT s.chunk_count::float8, s.token_count::float8 / greatest(s.chunk_count, 1)
    INTO v_n, v_avgdl
    FROM tenant_stats s WHERE s.tenant_id = p_tenant;
    IF NOT FOUND OR p_top_n < 1 THEN
        RETURN;
    END IF;
    SELECT array_agg(x.lexeme ORDER BY x.df, x.lexeme), array_agg(x.idf ORDER BY x.df, x.lexeme),
           array_agg(x.df ORDER BY x.df, x.lexeme)
    INTO v_lex, v_idf, v_df
    FROM (SELECT t.lexeme, t.df, ln(1 + (v_n - t.df + 0.5) / (t.df + 0.5))::float8 AS idf
          FROM term_stats t
          WHERE t.tenant_id = p_tenant AND t.lexeme = ANY (p_lexemes)
          ORDER BY t.df, t.lexeme
          LIMIT 64) x;
    IF v_lex IS NULL THEN
        RETURN;
    END IF;

    IF p_filtered THEN
        v_cand := filtered_chunks(p_tenant, p_prefix, p_metadata);
        v_part := array_fill(0::float8, ARRAY[cardinality(v_cand)]);
        v_ess := 0;
    ELSE
        -- 1. θ: the p_top_n-th best partial score over each term's
        -- p_per_term highest-impact postings (a lower bound of each chunk's
        -- score, so of the p_top_n-th best score).
        SELECT coalesce(min(seed.s), 0) INTO v_theta
        FROM (
            SELECT sum(t.idf * h.tf * (p_k1 + 1) / (h.tf + p_k1 * (1 - p_b + p_b * h.dl / v_avgdl))) AS s
            FROM unnest(v_lex, v_idf) AS t (lexeme, idf)
            CROSS JOIN LATERAL (
                SELECT p.chunk_id, p.tf, p.dl FROM postings p
                WHERE p.tenant_id = p_tenant AND p.lexeme = t.lexeme
                ORDER BY p.impact DESC LIMIT p_per_term
            ) h
            GROUP BY h.chunk_id
            ORDER BY 1 DESC
            LIMIT p_top_n
        ) seed
        HAVING count(*) >= p_top_n;
        v_theta := coalesce(v_theta, 0);

        -- 2. The essential terms: the non-essential ones (lowest bounds)
        -- sum below θ.
        v_ess := cardinality(v_lex);
        WHILE v_ess > 1 AND v_rest + v_idf[v_ess] * (p_k1 + 1) < v_theta * (1 - 1e-9) LOOP
            v_rest := v_rest + v_idf[v_ess] * (p_k1 + 1);
            v_ess := v_ess - 1;
        END LOOP;

        -- 3. Partial scores over the essential terms' postings; the chunks
        -- that can still reach θ.
        SELECT array_agg(part.chunk_id), array_agg(part.s)
        INTO v_cand, v_part
        FROM (
            SELECT p.chunk_id, sum(t.idf * p.tf * (p_k1 + 1) / (p.tf + p_k1 * (1 - p_b + p_b * p.dl / v_avgdl))) AS s
            FROM unnest(v_lex[1:v_ess], v_idf[1:v_ess]) AS t (lexeme, idf)
            JOIN postings p ON p.tenant_id = p_tenant AND p.lexeme = t.lexeme
            GROUP BY p.chunk_id
        ) part
        WHERE part.s + v_rest >= v_theta * (1 - 1e-9);
        IF v_cand IS NULL THEN
            RETURN;
        END IF;
        IF v_ess = cardinality(v_lex) THEN
            RETURN QUERY
            SELECT x.c, x.s FROM unnest(v_cand, v_part) AS x (c, s)
            ORDER BY 2 DESC, 1 LIMIT p_top_n;
            RETURN;
        END IF;
    END IF;

    -- 4. The remaining terms' postings of those chunks: looked up by the full
    -- key when that reads fewer entries (about 8 list entries per lookup),
    -- else read as whole lists and kept by a hashed membership test (not an
    -- index condition, hence the coalesce).
    SELECT sum(v_df[i]) INTO v_rest_df FROM generate_subscripts(v_lex, 1) AS i WHERE i > v_ess;
    IF cardinality(v_cand) * (cardinality(v_lex) - v_ess) * 8 < v_rest_df THEN
        -- (A filtered search's chunks start at 0: those that hold no
        -- query term are left out.)
        RETURN QUERY
        SELECT y.c, y.s FROM (
            SELECT x.c, (x.s + coalesce((
                       SELECT sum(t.idf * q.tf * (p_k1 + 1) / (q.tf + p_k1 * (1 - p_b + p_b * q.dl / v_avgdl)))
                       FROM unnest(v_lex[v_ess + 1:], v_idf[v_ess + 1:]) AS t (lexeme, idf)
                       JOIN postings q ON q.tenant_id = p_tenant AND q.lexeme = t.lexeme AND q.chunk_id = x.c), 0))::float8 AS s
            FROM unnest(v_cand, v_part) AS x (c, s)
        ) y
        WHERE y.s > 0
        ORDER BY 2 DESC, 1 LIMIT p_top_n;
    ELSE
        RETURN QUERY
        WITH rest AS (
            SELECT q.chunk_id, sum(t.idf * q.tf * (p_k1 + 1) / (q.tf + p_k1 * (1 - p_b + p_b * q.dl / v_avgdl))) AS s
            FROM unnest(v_lex[v_ess + 1:], v_idf[v_ess + 1:]) AS t (lexeme, idf)
            JOIN postings q ON q.tenant_id = p_tenant AND q.lexeme = t.lexeme
            WHERE coalesce(q.chunk_id = ANY (v_cand), false)
            GROUP BY q.chunk_id
        )
        SELECT x.c, (x.s + coalesce(rest.s, 0))::float8
        FROM unnest(v_cand, v_part) AS x (c, s)
        LEFT JOIN rest ON rest.chunk_id = x.c
        WHERE x.s > 0 OR rest.s IS NOT NULL
        ORDER BY 2 DESC, 1 LIMIT p_top_n;
    END IF;
END
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
        SELECT hits.lexeme, hits.chunk_id, hits.tf, hits.dl FROM hits WHERE NOT hits.truncated
        UNION ALL
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

-- +goose StatementBegin
DROP FUNCTION IF EXISTS vector_search_filtered(uuid, smallint, vector, int, text, jsonb);
DROP FUNCTION IF EXISTS filtered_chunks(uuid, text, jsonb);
-- +goose StatementEnd
