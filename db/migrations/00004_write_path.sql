-- Write-path fixes measured by the scale benchmark (docs/BENCHMARKS.md,
-- findings 1 and 3).

-- +goose Up
-- Vectors inline instead of TOAST: pgvector's vector has storage EXTERNAL and
-- a 512-d vector (2,056 bytes) crosses the 2 kB TOAST threshold, so every
-- exact scan fetched each row from TOAST (measured 16-24 ms -> 8-11 ms for
-- 4,000 rows). PLAIN fits up to the 2,000 dimensions HNSW allows (8,008 bytes).
ALTER TABLE chunk_embeddings ALTER COLUMN embedding SET STORAGE PLAIN;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION chunks_index_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
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

    -- impact = the BM25 term-frequency factor (k1 = 1.2, b = 0.75) at insert
    -- time; it only orders candidates, scores are recomputed per query.
    INSERT INTO postings (tenant_id, lexeme, chunk_id, tf, dl, impact)
    SELECT n.tenant_id, u.lexeme, n.id, cardinality(u.positions), d.dl,
           cardinality(u.positions)::real /
           (cardinality(u.positions) + 1.2 * (0.25 + 0.75 * d.dl / greatest(s.token_count::real / greatest(s.chunk_count, 1), 1)))
    FROM new_rows n
    -- OFFSET 0 keeps the planner from inlining dl into every posting row:
    -- tsv_length runs once per chunk, not once per posting (measured: a
    -- 4-chunk document's insert 160-230 ms -> 40-65 ms).
    CROSS JOIN LATERAL (SELECT greatest(tsv_length(n.tsv), 1) AS dl OFFSET 0) d
    JOIN tenant_stats s ON s.tenant_id = n.tenant_id
    CROSS JOIN LATERAL unnest(n.tsv) u;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose Down
ALTER TABLE chunk_embeddings ALTER COLUMN embedding SET STORAGE EXTERNAL;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION chunks_index_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
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

    -- impact = the BM25 term-frequency factor (k1 = 1.2, b = 0.75) at insert
    -- time; it only orders candidates, scores are recomputed per query.
    INSERT INTO postings (tenant_id, lexeme, chunk_id, tf, dl, impact)
    SELECT n.tenant_id, u.lexeme, n.id, cardinality(u.positions), d.dl,
           cardinality(u.positions)::real /
           (cardinality(u.positions) + 1.2 * (0.25 + 0.75 * d.dl / greatest(s.token_count::real / greatest(s.chunk_count, 1), 1)))
    FROM new_rows n
    CROSS JOIN LATERAL (SELECT greatest(tsv_length(n.tsv), 1) AS dl) d
    JOIN tenant_stats s ON s.tenant_id = n.tenant_id
    CROSS JOIN LATERAL unnest(n.tsv) u;
    RETURN NULL;
END $$;
-- +goose StatementEnd
