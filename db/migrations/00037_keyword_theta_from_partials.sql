-- keyword_search prunes with what its essential phase learns. A partial
-- score is a lower bound of the chunk's score, so the p_top_n-th best
-- partial score over the essential terms is a lower bound of the
-- p_top_n-th best score, and θ rises to it (step 1's seeds are each term's
-- p_per_term highest-impact postings only). Where more than one
-- non-essential term remains, they are added to the candidates one at a
-- time, highest bound first, θ rising and the candidates that can no
-- longer reach it dropped after each. Same ranking as before (the
-- exhaustive reference tests); on the 200,000-chunk tenant of the
-- benchmark's largest class, nine-term questions, the function's p50 / p95
-- fell from 11.3–12.0 / 34.1–37.0 ms to 10.2–10.8 / 28.5–30.4 ms
-- (docs/BENCHMARKS.md).
--
-- Every comparison with θ leaves it a slack of 1e-9 relative (the sums'
-- rounding errors) and 1e-9 absolute: scores are returned rounded to
-- 1e-9 and ordered by chunk id within a rounded score, so a chunk up to
-- 1e-9 below θ may tie the p_top_n-th and come first by its id. With
-- the relative slack alone, θ raised to a partial score below 1 pruned
-- such a chunk, and the top 1 was not the first of the top 2 (a review,
-- search.TestReview58RoundedTiePrunedByPartialTheta).

-- +goose Up
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
    v_lex text[];       -- the query's terms, highest bound first
    v_idf float8[];
    v_df int[];
    v_bound float8[];   -- each term's largest contribution to a score
    v_theta float8 := 0;
    v_rest float8 := 0; -- the sum of the non-essential terms' bounds
    v_rest_df bigint := 0;
    v_ess int;          -- v_lex[1:v_ess] are essential
    v_cand uuid[];      -- chunks to score exactly, with their partial scores
    v_part float8[];
    v_hit uuid[];       -- one term's postings of the candidates, and their contributions
    v_add float8[];
BEGIN
    SELECT s.chunk_count::float8, s.token_count::float8 / greatest(s.chunk_count, 1)
    INTO v_n, v_avgdl
    FROM tenant_stats s WHERE s.tenant_id = p_tenant;
    IF NOT FOUND OR p_top_n < 1 THEN
        RETURN;
    END IF;
    -- A term's bound: idf times the term-frequency factor at its largest
    -- tf and smallest chunk length (the factor grows with tf and falls
    -- with length for every k1 ≥ 0 and 0 ≤ b ≤ 1), or idf·(k1 + 1), the
    -- factor's limit, where they are unknown. max_tf is taken as at least
    -- 1: a bound at tf 0 would be 0/0 at k1 = 0, and a larger tf only
    -- loosens it (the denominator is then positive for any length ≥ 0).
    SELECT array_agg(x.lexeme ORDER BY x.bound DESC, x.lexeme), array_agg(x.idf ORDER BY x.bound DESC, x.lexeme),
           array_agg(x.df ORDER BY x.bound DESC, x.lexeme), array_agg(x.bound ORDER BY x.bound DESC, x.lexeme)
    INTO v_lex, v_idf, v_df, v_bound
    FROM (SELECT y.lexeme, y.df, y.idf,
                 y.idf * CASE WHEN y.max_tf IS NULL OR y.min_dl IS NULL THEN p_k1 + 1
                              ELSE y.max_tf * (p_k1 + 1) / (y.max_tf + p_k1 * (1 - p_b + p_b * y.min_dl / v_avgdl)) END AS bound
          FROM (SELECT t.lexeme, t.df, greatest(t.max_tf, 1)::float8 AS max_tf, t.min_dl::float8 AS min_dl,
                       ln(1 + (v_n - t.df + 0.5) / (t.df + 0.5))::float8 AS idf
                FROM term_stats t
                WHERE t.tenant_id = p_tenant AND t.lexeme = ANY (p_lexemes)
                ORDER BY t.df, t.lexeme
                LIMIT 64) y) x;
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
        WHILE v_ess > 1 AND v_rest + v_bound[v_ess] < (v_theta * (1 - 1e-9) - 1e-9) LOOP
            v_rest := v_rest + v_bound[v_ess];
            v_ess := v_ess - 1;
        END LOOP;

        -- 3. Partial scores over the essential terms' postings; the chunks
        -- that can still reach θ.
        SELECT array_agg(part.chunk_id), array_agg(part.s)
        INTO v_cand, v_part
        FROM (
            SELECT p.chunk_id, sum(t.idf * p.tf * (p_k1 + 1) / (p.tf + p_k1 * (1 - p_b + p_b * p.dl / v_avgdl))) AS s
            FROM unnest(v_lex[1:v_ess], v_idf[1:v_ess]) AS t (lexeme, idf)
            CROSS JOIN LATERAL (SELECT p.chunk_id, p.tf, p.dl FROM postings p
                                WHERE p.tenant_id = p_tenant AND p.lexeme = t.lexeme OFFSET 0) p
            GROUP BY p.chunk_id
        ) part
        WHERE part.s + v_rest >= (v_theta * (1 - 1e-9) - 1e-9);
        -- 3a. θ rises to the p_top_n-th best partial score: a partial score
        -- is a lower bound of the chunk's score, and these are exact over
        -- every essential posting, where step 1's were over each term's
        -- p_per_term highest-impact ones.
        IF v_ess < cardinality(v_lex) AND cardinality(v_cand) > p_top_n THEN
            SELECT greatest(v_theta, (SELECT s FROM unnest(v_part) s ORDER BY s DESC OFFSET p_top_n - 1 LIMIT 1)) INTO v_theta;
            SELECT array_agg(x.c), array_agg(x.s) INTO v_cand, v_part
            FROM unnest(v_cand, v_part) AS x (c, s) WHERE x.s + v_rest >= (v_theta * (1 - 1e-9) - 1e-9);
        END IF;
        -- 3b. While more than one term remains, the next one's postings of
        -- the candidates are added, θ rises as in 3a, and the chunks that
        -- can no longer reach it with the remaining terms' bounds are
        -- dropped, before the next term is read (probed by the full key
        -- when that reads fewer entries, as in step 4).
        WHILE v_ess < cardinality(v_lex) - 1 AND cardinality(v_cand) > p_top_n LOOP
            v_ess := v_ess + 1;
            v_rest := v_rest - v_bound[v_ess];
            IF cardinality(v_cand)::int8 * 8 < v_df[v_ess] THEN
                SELECT array_agg(q.chunk_id), array_agg(v_idf[v_ess] * q.tf * (p_k1 + 1) / (q.tf + p_k1 * (1 - p_b + p_b * q.dl / v_avgdl)))
                INTO v_hit, v_add
                FROM postings q WHERE q.tenant_id = p_tenant AND q.lexeme = v_lex[v_ess] AND q.chunk_id = ANY (v_cand);
            ELSE
                SELECT array_agg(q.chunk_id), array_agg(v_idf[v_ess] * q.tf * (p_k1 + 1) / (q.tf + p_k1 * (1 - p_b + p_b * q.dl / v_avgdl)))
                INTO v_hit, v_add
                FROM postings q WHERE q.tenant_id = p_tenant AND q.lexeme = v_lex[v_ess] AND coalesce(q.chunk_id = ANY (v_cand), false);
            END IF;
            IF v_hit IS NOT NULL THEN
                SELECT array_agg(x.c), array_agg(x.s + coalesce(h.s, 0)) INTO v_cand, v_part
                FROM unnest(v_cand, v_part) AS x (c, s)
                LEFT JOIN unnest(v_hit, v_add) AS h (c, s) ON h.c = x.c;
            END IF;
            SELECT greatest(v_theta, (SELECT s FROM unnest(v_part) s ORDER BY s DESC OFFSET p_top_n - 1 LIMIT 1)) INTO v_theta;
            SELECT array_agg(x.c), array_agg(x.s) INTO v_cand, v_part
            FROM unnest(v_cand, v_part) AS x (c, s) WHERE x.s + v_rest >= (v_theta * (1 - 1e-9) - 1e-9);
        END LOOP;
        IF v_cand IS NULL THEN
            RETURN;
        END IF;
        IF v_ess = cardinality(v_lex) THEN
            RETURN QUERY
            SELECT x.c, round(x.s::numeric, 9)::float8 FROM unnest(v_cand, v_part) AS x (c, s)
            ORDER BY 2 DESC, 1 LIMIT p_top_n;
            RETURN;
        END IF;
    END IF;

    -- 4. The remaining terms' postings of those chunks: looked up by the full
    -- key (the chunks as an index condition on the primary key's last
    -- column) when that reads fewer entries (about 8 list entries per
    -- lookup), else read as whole lists and kept by a hashed membership test
    -- (not an index condition, hence the coalesce).
    SELECT sum(v_df[i]) INTO v_rest_df FROM generate_subscripts(v_lex, 1) AS i WHERE i > v_ess;
    IF cardinality(v_cand)::int8 * (cardinality(v_lex) - v_ess) * 8 < v_rest_df THEN
        -- (A filtered search's chunks start at 0: those that hold no
        -- query term are left out.)
        RETURN QUERY
        WITH rest AS (
            SELECT q.chunk_id, sum(t.idf * q.tf * (p_k1 + 1) / (q.tf + p_k1 * (1 - p_b + p_b * q.dl / v_avgdl))) AS s
            FROM unnest(v_lex[v_ess + 1:], v_idf[v_ess + 1:]) AS t (lexeme, idf)
            CROSS JOIN LATERAL (SELECT q.chunk_id, q.tf, q.dl FROM postings q
                                WHERE q.tenant_id = p_tenant AND q.lexeme = t.lexeme AND q.chunk_id = ANY (v_cand) OFFSET 0) q
            GROUP BY q.chunk_id
        )
        SELECT x.c, round((x.s + coalesce(rest.s, 0))::numeric, 9)::float8
        FROM unnest(v_cand, v_part) AS x (c, s)
        LEFT JOIN rest ON rest.chunk_id = x.c
        WHERE x.s > 0 OR rest.s IS NOT NULL
        ORDER BY 2 DESC, 1 LIMIT p_top_n;
    ELSE
        RETURN QUERY
        WITH rest AS (
            SELECT q.chunk_id, sum(t.idf * q.tf * (p_k1 + 1) / (q.tf + p_k1 * (1 - p_b + p_b * q.dl / v_avgdl))) AS s
            FROM unnest(v_lex[v_ess + 1:], v_idf[v_ess + 1:]) AS t (lexeme, idf)
            CROSS JOIN LATERAL (SELECT q.chunk_id, q.tf, q.dl FROM postings q
                                WHERE q.tenant_id = p_tenant AND q.lexeme = t.lexeme AND coalesce(q.chunk_id = ANY (v_cand), false)
                                OFFSET 0) q
            GROUP BY q.chunk_id
        )
        SELECT x.c, round((x.s + coalesce(rest.s, 0))::numeric, 9)::float8
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
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
    v_n float8;
    v_avgdl float8;
    v_lex text[];       -- the query's terms, highest bound first
    v_idf float8[];
    v_df int[];
    v_bound float8[];   -- each term's largest contribution to a score
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
    -- A term's bound: idf times the term-frequency factor at its largest
    -- tf and smallest chunk length (the factor grows with tf and falls
    -- with length for every k1 ≥ 0 and 0 ≤ b ≤ 1), or idf·(k1 + 1), the
    -- factor's limit, where they are unknown. max_tf is taken as at least
    -- 1: a bound at tf 0 would be 0/0 at k1 = 0, and a larger tf only
    -- loosens it (the denominator is then positive for any length ≥ 0).
    SELECT array_agg(x.lexeme ORDER BY x.bound DESC, x.lexeme), array_agg(x.idf ORDER BY x.bound DESC, x.lexeme),
           array_agg(x.df ORDER BY x.bound DESC, x.lexeme), array_agg(x.bound ORDER BY x.bound DESC, x.lexeme)
    INTO v_lex, v_idf, v_df, v_bound
    FROM (SELECT y.lexeme, y.df, y.idf,
                 y.idf * CASE WHEN y.max_tf IS NULL OR y.min_dl IS NULL THEN p_k1 + 1
                              ELSE y.max_tf * (p_k1 + 1) / (y.max_tf + p_k1 * (1 - p_b + p_b * y.min_dl / v_avgdl)) END AS bound
          FROM (SELECT t.lexeme, t.df, greatest(t.max_tf, 1)::float8 AS max_tf, t.min_dl::float8 AS min_dl,
                       ln(1 + (v_n - t.df + 0.5) / (t.df + 0.5))::float8 AS idf
                FROM term_stats t
                WHERE t.tenant_id = p_tenant AND t.lexeme = ANY (p_lexemes)
                ORDER BY t.df, t.lexeme
                LIMIT 64) y) x;
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
        WHILE v_ess > 1 AND v_rest + v_bound[v_ess] < v_theta * (1 - 1e-9) LOOP
            v_rest := v_rest + v_bound[v_ess];
            v_ess := v_ess - 1;
        END LOOP;

        -- 3. Partial scores over the essential terms' postings; the chunks
        -- that can still reach θ.
        SELECT array_agg(part.chunk_id), array_agg(part.s)
        INTO v_cand, v_part
        FROM (
            SELECT p.chunk_id, sum(t.idf * p.tf * (p_k1 + 1) / (p.tf + p_k1 * (1 - p_b + p_b * p.dl / v_avgdl))) AS s
            FROM unnest(v_lex[1:v_ess], v_idf[1:v_ess]) AS t (lexeme, idf)
            CROSS JOIN LATERAL (SELECT p.chunk_id, p.tf, p.dl FROM postings p
                                WHERE p.tenant_id = p_tenant AND p.lexeme = t.lexeme OFFSET 0) p
            GROUP BY p.chunk_id
        ) part
        WHERE part.s + v_rest >= v_theta * (1 - 1e-9);
        IF v_cand IS NULL THEN
            RETURN;
        END IF;
        IF v_ess = cardinality(v_lex) THEN
            RETURN QUERY
            SELECT x.c, round(x.s::numeric, 9)::float8 FROM unnest(v_cand, v_part) AS x (c, s)
            ORDER BY 2 DESC, 1 LIMIT p_top_n;
            RETURN;
        END IF;
    END IF;

    -- 4. The remaining terms' postings of those chunks: looked up by the full
    -- key (the chunks as an index condition on the primary key's last
    -- column) when that reads fewer entries (about 8 list entries per
    -- lookup), else read as whole lists and kept by a hashed membership test
    -- (not an index condition, hence the coalesce).
    SELECT sum(v_df[i]) INTO v_rest_df FROM generate_subscripts(v_lex, 1) AS i WHERE i > v_ess;
    IF cardinality(v_cand)::int8 * (cardinality(v_lex) - v_ess) * 8 < v_rest_df THEN
        -- (A filtered search's chunks start at 0: those that hold no
        -- query term are left out.)
        RETURN QUERY
        WITH rest AS (
            SELECT q.chunk_id, sum(t.idf * q.tf * (p_k1 + 1) / (q.tf + p_k1 * (1 - p_b + p_b * q.dl / v_avgdl))) AS s
            FROM unnest(v_lex[v_ess + 1:], v_idf[v_ess + 1:]) AS t (lexeme, idf)
            CROSS JOIN LATERAL (SELECT q.chunk_id, q.tf, q.dl FROM postings q
                                WHERE q.tenant_id = p_tenant AND q.lexeme = t.lexeme AND q.chunk_id = ANY (v_cand) OFFSET 0) q
            GROUP BY q.chunk_id
        )
        SELECT x.c, round((x.s + coalesce(rest.s, 0))::numeric, 9)::float8
        FROM unnest(v_cand, v_part) AS x (c, s)
        LEFT JOIN rest ON rest.chunk_id = x.c
        WHERE x.s > 0 OR rest.s IS NOT NULL
        ORDER BY 2 DESC, 1 LIMIT p_top_n;
    ELSE
        RETURN QUERY
        WITH rest AS (
            SELECT q.chunk_id, sum(t.idf * q.tf * (p_k1 + 1) / (q.tf + p_k1 * (1 - p_b + p_b * q.dl / v_avgdl))) AS s
            FROM unnest(v_lex[v_ess + 1:], v_idf[v_ess + 1:]) AS t (lexeme, idf)
            CROSS JOIN LATERAL (SELECT q.chunk_id, q.tf, q.dl FROM postings q
                                WHERE q.tenant_id = p_tenant AND q.lexeme = t.lexeme AND coalesce(q.chunk_id = ANY (v_cand), false)
                                OFFSET 0) q
            GROUP BY q.chunk_id
        )
        SELECT x.c, round((x.s + coalesce(rest.s, 0))::numeric, 9)::float8
        FROM unnest(v_cand, v_part) AS x (c, s)
        LEFT JOIN rest ON rest.chunk_id = x.c
        WHERE x.s > 0 OR rest.s IS NOT NULL
        ORDER BY 2 DESC, 1 LIMIT p_top_n;
    END IF;
END
$$;
-- +goose StatementEnd
