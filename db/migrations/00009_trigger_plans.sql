-- Deleting chunks of a large tenant could run for minutes. The chunks
-- delete trigger joined its transition table (old_rows) with postings and
-- term_stats; on the 1M-chunk bench, deleting 53 freshly ingested documents
-- of the 200,000-chunk tenant in one statement read the tenant's postings heap
-- for minutes (the plan walked postings by tenant_id, not by its full key).
-- The trigger no longer leaves the access path to the planner: postings are
-- deleted chunk by chunk with the full primary key (tenant_id, lexeme =
-- ANY(the chunk's lexemes), chunk_id), and term_stats are updated by
-- (tenant_id, lexeme = ANY(the deleted lexemes)). old_rows holds one tenant's
-- rows (row-level security: the transaction's tenant), and the lock order
-- of migration 00008 is kept: postings, tenant_stats, term_stats.
-- ALTER FUNCTION … RESET ALL: an earlier form of this migration set
-- enable_hashjoin/enable_mergejoin on the function, which did not help.

-- +goose Up
ALTER FUNCTION chunks_index_delete() RESET ALL;
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION chunks_index_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    r record;
    v_tenant uuid;
    v_lexemes text[];
BEGIN
    FOR r IN SELECT o.tenant_id, o.id, tsvector_to_array(o.tsv) AS lexemes FROM old_rows o LOOP
        DELETE FROM postings p
        WHERE p.tenant_id = r.tenant_id AND p.lexeme = ANY (r.lexemes) AND p.chunk_id = r.id;
    END LOOP;
    -- One tenant in practice (the transaction's); a cascade from several
    -- deleted tenants may carry more.
    FOR v_tenant IN SELECT DISTINCT o.tenant_id FROM old_rows o ORDER BY 1 LOOP
        UPDATE tenant_stats s
        SET chunk_count = s.chunk_count - d.c, token_count = s.token_count - d.t
        FROM (SELECT count(*) AS c, sum(tsv_length(o.tsv)) AS t FROM old_rows o WHERE o.tenant_id = v_tenant) d
        WHERE s.tenant_id = v_tenant;

        SELECT array_agg(DISTINCT u.lexeme) INTO v_lexemes
        FROM old_rows o, unnest(tsvector_to_array(o.tsv)) u(lexeme) WHERE o.tenant_id = v_tenant;
        UPDATE term_stats t SET df = t.df - d.c
        FROM (SELECT u.lexeme, count(*) AS c FROM old_rows o, unnest(tsvector_to_array(o.tsv)) u(lexeme)
              WHERE o.tenant_id = v_tenant GROUP BY u.lexeme) d
        WHERE t.tenant_id = v_tenant AND t.lexeme = ANY (v_lexemes) AND t.lexeme = d.lexeme;

        -- A separate statement: one statement cannot both update and delete a row.
        DELETE FROM term_stats t
        WHERE t.tenant_id = v_tenant AND t.lexeme = ANY (v_lexemes) AND t.df <= 0;
    END LOOP;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION chunks_index_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    -- Postings first (rows of the deleted chunks alone), then tenant_stats,
    -- then term_stats, as in chunks_index_insert.
    DELETE FROM postings p
    USING (SELECT o.tenant_id, u.lexeme, o.id FROM old_rows o, unnest(o.tsv) u) d
    WHERE p.tenant_id = d.tenant_id AND p.lexeme = d.lexeme AND p.chunk_id = d.id;

    UPDATE tenant_stats s
    SET chunk_count = s.chunk_count - d.c, token_count = s.token_count - d.t
    FROM (SELECT o.tenant_id, count(*) AS c, sum(tsv_length(o.tsv)) AS t
          FROM old_rows o GROUP BY o.tenant_id) d
    WHERE s.tenant_id = d.tenant_id;

    UPDATE term_stats t SET df = t.df - d.c
    FROM (SELECT o.tenant_id, u.lexeme, count(*) AS c
          FROM old_rows o, unnest(o.tsv) u GROUP BY o.tenant_id, u.lexeme) d
    WHERE t.tenant_id = d.tenant_id AND t.lexeme = d.lexeme;

    -- A separate statement: one statement cannot both update and delete a row.
    DELETE FROM term_stats t
    USING (SELECT DISTINCT o.tenant_id, u.lexeme FROM old_rows o, unnest(o.tsv) u) d
    WHERE t.tenant_id = d.tenant_id AND t.lexeme = d.lexeme AND t.df <= 0;
    RETURN NULL;
END $$;
-- +goose StatementEnd
