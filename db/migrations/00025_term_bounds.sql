-- Per-term score bounds for the keyword leg's pruning (keyword_search,
-- MaxScore, migration 00015).
--
-- A term's contribution to a chunk's score was bounded by idf·(k1 + 1),
-- the BM25 term-frequency factor's limit as tf grows without end. Real
-- posting lists are far from it: most tf are 1-3, and the factor also
-- falls with the chunk's length. term_stats now keeps each term's largest
-- tf (max_tf) and smallest chunk length (min_dl) among its postings, and
-- the bound is idf times the factor at (max_tf, min_dl): the factor grows
-- with tf and falls with length for every k1 ≥ 0 and 0 ≤ b ≤ 1, so no
-- posting of the term can exceed it, whatever the tenant's k1, b and
-- average length at query time. The terms are ordered by that bound, and
-- the non-essential ones are those whose bounds sum below θ: with tighter
-- bounds more common terms are non-essential, and their posting lists are
-- probed for the candidates instead of read whole (on the 200,000-chunk
-- tenant of the 1M benchmark, 14-21 % fewer postings read on average for
-- nine-term questions drawn at the corpus's frequencies; the leg's median
-- time 10-12 % lower, its 95th percentile unchanged: docs/BENCHMARKS.md).
-- The result is unchanged: every bound is still an upper bound
-- (search.TestKeywordBoundsStayBounds, TestKeywordLegExact).
--
-- Maintenance: the chunks insert trigger raises max_tf and lowers min_dl
-- with each new chunk (greatest/least in the same upsert as df); deleting a
-- chunk leaves them, so they stay bounds (looser until the term's row is
-- removed with its last posting). NULL means unknown and gives the old
-- bound; it stays NULL on conflict, so a row written without the bounds
-- (by an older loader) never gets a bound that misses its earlier
-- postings. Existing rows are filled from their postings here, tenant by
-- tenant (forced row-level security applies to the owner too: each
-- tenant's rows are read under its own setting, with every document
-- readable).

-- +goose Up
ALTER TABLE term_stats ADD COLUMN max_tf int, ADD COLUMN min_dl int;

-- +goose StatementBegin
DO $$
DECLARE r record;
BEGIN
    FOR r IN SELECT id FROM tenants ORDER BY id LOOP
        PERFORM set_config('app.tenant_id', r.id::text, true), set_config('app.principals', '*', true);
        UPDATE term_stats t SET max_tf = x.max_tf, min_dl = x.min_dl
        FROM (SELECT p.lexeme, max(p.tf) AS max_tf, min(p.dl) AS min_dl
              FROM postings p WHERE p.tenant_id = r.id GROUP BY p.lexeme) x
        WHERE t.tenant_id = r.id AND t.lexeme = x.lexeme;
    END LOOP;
    PERFORM set_config('app.tenant_id', '', true), set_config('app.principals', '', true);
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION chunks_index_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_tenant uuid; -- one tenant per transaction (row-level security)
    v_ids uuid[];  -- the new chunks of restricted documents
    v_acc int[];   -- and their documents' access_id
    v_missing bigint;
BEGIN
    SELECT n.tenant_id INTO v_tenant FROM new_rows n LIMIT 1;
    IF EXISTS (SELECT 1 FROM access_lists a WHERE a.tenant_id = v_tenant) THEN
        -- One pass, one key probe per chunk (LATERAL … LIMIT 1: a probe
        -- under any estimate of the transition table).
        SELECT count(*) FILTER (WHERE x.access_id IS NULL),
               array_agg(n.id) FILTER (WHERE x.access_id <> 0), array_agg(x.access_id) FILTER (WHERE x.access_id <> 0)
        INTO v_missing, v_ids, v_acc
        FROM new_rows n
        LEFT JOIN LATERAL (SELECT d.access_id FROM documents d
                           WHERE d.tenant_id = n.tenant_id AND d.id = n.document_id LIMIT 1) x ON true;
        IF v_missing > 0 THEN
            RAISE EXCEPTION 'chunks of a document this transaction cannot read' USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF v_ids IS NOT NULL THEN
            UPDATE chunks c SET access_id = x.acc
            FROM unnest(v_ids, v_acc) AS x (id, acc)
            WHERE c.tenant_id = v_tenant AND c.id = x.id;
            UPDATE chunk_embeddings e SET access_id = x.acc
            FROM unnest(v_ids, v_acc) AS x (id, acc)
            WHERE e.tenant_id = v_tenant AND e.chunk_id = x.id;
        END IF;
    END IF;

    INSERT INTO postings (tenant_id, lexeme, chunk_id, tf, dl, impact, access_id)
    SELECT n.tenant_id, u.lexeme, n.id, cardinality(u.positions), d.dl,
           bm25_impact(cardinality(u.positions), d.dl,
                       coalesce(s.token_count::real / nullif(s.chunk_count, 0), d.dl)),
           coalesce(x.acc, 0)
    FROM new_rows n
    CROSS JOIN LATERAL (SELECT greatest(tsv_length(n.tsv), 1) AS dl OFFSET 0) d
    LEFT JOIN tenant_stats s ON s.tenant_id = n.tenant_id
    LEFT JOIN unnest(v_ids, v_acc) AS x (id, acc) ON x.id = n.id
    CROSS JOIN LATERAL unnest(n.tsv) u;

    INSERT INTO tenant_stats AS s (tenant_id, chunk_count, token_count)
    SELECT n.tenant_id, count(*), sum(tsv_length(n.tsv))
    FROM new_rows n GROUP BY n.tenant_id ORDER BY n.tenant_id
    ON CONFLICT (tenant_id) DO UPDATE
        SET chunk_count = s.chunk_count + excluded.chunk_count,
            token_count = s.token_count + excluded.token_count;

    -- Each term's largest tf and smallest chunk length only grow and
    -- shrink (deletes leave them: still upper and lower bounds); NULL, an
    -- unknown bound, stays unknown.
    INSERT INTO term_stats AS t (tenant_id, lexeme, df, max_tf, min_dl)
    SELECT n.tenant_id, u.lexeme, count(*), max(cardinality(u.positions)), min(d.dl)
    FROM new_rows n
    CROSS JOIN LATERAL (SELECT greatest(tsv_length(n.tsv), 1) AS dl OFFSET 0) d
    CROSS JOIN LATERAL unnest(n.tsv) u
    GROUP BY n.tenant_id, u.lexeme ORDER BY n.tenant_id, u.lexeme
    ON CONFLICT (tenant_id, lexeme) DO UPDATE
        SET df = t.df + excluded.df,
            max_tf = CASE WHEN t.max_tf IS NULL THEN NULL ELSE greatest(t.max_tf, excluded.max_tf) END,
            min_dl = CASE WHEN t.min_dl IS NULL THEN NULL ELSE least(t.min_dl, excluded.min_dl) END;
    RETURN NULL;
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
CREATE OR REPLACE FUNCTION chunks_index_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_tenant uuid; -- one tenant per transaction (row-level security)
    v_ids uuid[];  -- the new chunks of restricted documents
    v_acc int[];   -- and their documents' access_id
    v_missing bigint;
BEGIN
    SELECT n.tenant_id INTO v_tenant FROM new_rows n LIMIT 1;
    IF EXISTS (SELECT 1 FROM access_lists a WHERE a.tenant_id = v_tenant) THEN
        -- One pass, one key probe per chunk (LATERAL … LIMIT 1: a probe
        -- under any estimate of the transition table).
        SELECT count(*) FILTER (WHERE x.access_id IS NULL),
               array_agg(n.id) FILTER (WHERE x.access_id <> 0), array_agg(x.access_id) FILTER (WHERE x.access_id <> 0)
        INTO v_missing, v_ids, v_acc
        FROM new_rows n
        LEFT JOIN LATERAL (SELECT d.access_id FROM documents d
                           WHERE d.tenant_id = n.tenant_id AND d.id = n.document_id LIMIT 1) x ON true;
        IF v_missing > 0 THEN
            RAISE EXCEPTION 'chunks of a document this transaction cannot read' USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF v_ids IS NOT NULL THEN
            UPDATE chunks c SET access_id = x.acc
            FROM unnest(v_ids, v_acc) AS x (id, acc)
            WHERE c.tenant_id = v_tenant AND c.id = x.id;
            UPDATE chunk_embeddings e SET access_id = x.acc
            FROM unnest(v_ids, v_acc) AS x (id, acc)
            WHERE e.tenant_id = v_tenant AND e.chunk_id = x.id;
        END IF;
    END IF;

    INSERT INTO postings (tenant_id, lexeme, chunk_id, tf, dl, impact, access_id)
    SELECT n.tenant_id, u.lexeme, n.id, cardinality(u.positions), d.dl,
           bm25_impact(cardinality(u.positions), d.dl,
                       coalesce(s.token_count::real / nullif(s.chunk_count, 0), d.dl)),
           coalesce(x.acc, 0)
    FROM new_rows n
    CROSS JOIN LATERAL (SELECT greatest(tsv_length(n.tsv), 1) AS dl OFFSET 0) d
    LEFT JOIN tenant_stats s ON s.tenant_id = n.tenant_id
    LEFT JOIN unnest(v_ids, v_acc) AS x (id, acc) ON x.id = n.id
    CROSS JOIN LATERAL unnest(n.tsv) u;

    INSERT INTO tenant_stats AS s (tenant_id, chunk_count, token_count)
    SELECT n.tenant_id, count(*), sum(tsv_length(n.tsv))
    FROM new_rows n GROUP BY n.tenant_id ORDER BY n.tenant_id
    ON CONFLICT (tenant_id) DO UPDATE
        SET chunk_count = s.chunk_count + excluded.chunk_count,
            token_count = s.token_count + excluded.token_count;

    INSERT INTO term_stats AS t (tenant_id, lexeme, df)
    SELECT n.tenant_id, u.lexeme, count(*)
    FROM new_rows n, unnest(n.tsv) u
    GROUP BY n.tenant_id, u.lexeme ORDER BY n.tenant_id, u.lexeme
    ON CONFLICT (tenant_id, lexeme) DO UPDATE SET df = t.df + excluded.df;
    RETURN NULL;
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

ALTER TABLE term_stats DROP COLUMN max_tf, DROP COLUMN min_dl;
