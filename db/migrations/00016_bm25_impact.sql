-- One definition of a posting's impact: bm25_impact is what the chunks
-- insert trigger writes and what the benchmark's bulk loader writes (it
-- restated the formula). impact = BM25's term-frequency factor at k1 1.2, b
-- 0.75 against an average chunk length; it orders each posting list (the
-- keyword leg's pruning threshold reads each term's highest-impact
-- postings first), while scores are computed per query with the tenant's
-- own k1 and b. The expression, its types and so every stored value are
-- those of migration 00008's trigger; a SQL function this simple is inlined.

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION bm25_impact(p_tf int, p_dl int, p_avgdl float8) RETURNS real
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT p_tf::real / (p_tf + 1.2 * (0.25 + 0.75 * p_dl / greatest(p_avgdl, 1))) $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION chunks_index_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    -- Postings first: their rows belong to the new chunks alone, so no other
    -- writer waits for them. impact (bm25_impact) is against the tenant's
    -- average length before this statement; it only orders each list, the
    -- scores are computed per query.
    INSERT INTO postings (tenant_id, lexeme, chunk_id, tf, dl, impact)
    SELECT n.tenant_id, u.lexeme, n.id, cardinality(u.positions), d.dl,
           bm25_impact(cardinality(u.positions), d.dl,
                       coalesce(s.token_count::real / nullif(s.chunk_count, 0), d.dl))
    FROM new_rows n
    -- OFFSET 0 keeps the planner from inlining dl into every posting row:
    -- tsv_length runs once per chunk, not once per posting.
    CROSS JOIN LATERAL (SELECT greatest(tsv_length(n.tsv), 1) AS dl OFFSET 0) d
    LEFT JOIN tenant_stats s ON s.tenant_id = n.tenant_id
    CROSS JOIN LATERAL unnest(n.tsv) u;

    -- Then the shared statistics, tenant_stats first: every writer of a
    -- tenant locks its row before any term_stats row (no deadlocks), and
    -- holds both until COMMIT.
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

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION chunks_index_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    -- Postings first: their rows belong to the new chunks alone, so no other
    -- writer waits for them. impact = the BM25 term-frequency factor (k1 =
    -- 1.2, b = 0.75) against the tenant's average length before this
    -- statement; it only orders candidates, scores are recomputed per query.
    INSERT INTO postings (tenant_id, lexeme, chunk_id, tf, dl, impact)
    SELECT n.tenant_id, u.lexeme, n.id, cardinality(u.positions), d.dl,
           cardinality(u.positions)::real /
           (cardinality(u.positions) + 1.2 * (0.25 + 0.75 * d.dl /
               greatest(coalesce(s.token_count::real / nullif(s.chunk_count, 0), d.dl), 1)))
    FROM new_rows n
    -- OFFSET 0 keeps the planner from inlining dl into every posting row:
    -- tsv_length runs once per chunk, not once per posting.
    CROSS JOIN LATERAL (SELECT greatest(tsv_length(n.tsv), 1) AS dl OFFSET 0) d
    LEFT JOIN tenant_stats s ON s.tenant_id = n.tenant_id
    CROSS JOIN LATERAL unnest(n.tsv) u;

    -- Then the shared statistics, tenant_stats first: every writer of a
    -- tenant locks its row before any term_stats row (no deadlocks), and
    -- holds both until COMMIT.
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
DROP FUNCTION IF EXISTS bm25_impact(int, int, float8);
