-- ragd schema v1: tenants, documents, chunks, embeddings, BM25 statistics.
-- Every tenant table has tenant_id leading its primary key and indexes and is
-- under FORCE ROW LEVEL SECURITY with fail-closed policies (see
-- docs/ARCHITECTURE.md, "Isolation").

-- +goose Up
-- The extension is created by the bootstrap as superuser (scripts/setup-db.sh);
-- this keeps the dependency explicit and is a no-op there.
CREATE EXTENSION IF NOT EXISTS vector;

-- current_tenant() is the tenant of the running transaction, set only through
-- set_config('app.tenant_id', $1, true). Unset → NULL (after a transaction that
-- set it, the value is '' rather than NULL, hence NULLIF) → every policy is
-- false → no rows.
CREATE FUNCTION current_tenant() RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid $$;

CREATE TABLE tenants (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    slug       text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
    name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    ts_config  regconfig NOT NULL DEFAULT 'english',
    status     text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
    settings   jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Model registry: vectors of different models are never compared. Each model
-- gets its own partial HNSW index (WHERE model_id = …) over a cast to its
-- dimensions.
CREATE TABLE embedding_models (
    id         smallint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       text NOT NULL UNIQUE,
    dims       int NOT NULL CHECK (dims BETWEEN 1 AND 2000),
    distance   text NOT NULL DEFAULT 'cosine' CHECK (distance = 'cosine'),
    created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO embedding_models (name, dims) VALUES ('use-lite', 512);

CREATE TABLE documents (
    tenant_id      uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    id             uuid NOT NULL DEFAULT gen_random_uuid(),
    source_uri     text NOT NULL CHECK (length(source_uri) BETWEEN 1 AND 2048),
    title          text NOT NULL DEFAULT '',
    content_type   text NOT NULL,
    -- sha256 of the raw content; pipeline is a fingerprint of the chunking
    -- configuration and embedding model: both equal → the document is unchanged.
    content_sha    bytea NOT NULL,
    pipeline       text NOT NULL,
    metadata       jsonb NOT NULL DEFAULT '{}'::jsonb,
    -- the extracted text that chunk offsets point into
    body           text NOT NULL,
    chunk_count    int NOT NULL DEFAULT 0,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, id),
    UNIQUE (tenant_id, source_uri)
);
CREATE INDEX documents_source_uri_prefix ON documents (tenant_id, source_uri text_pattern_ops);

CREATE TABLE chunks (
    tenant_id    uuid NOT NULL,
    id           uuid NOT NULL DEFAULT gen_random_uuid(),
    document_id  uuid NOT NULL,
    chunk_index  int NOT NULL CHECK (chunk_index >= 0),
    heading_path text NOT NULL DEFAULT '',
    content      text NOT NULL CHECK (length(content) BETWEEN 1 AND 65536),
    token_count  int NOT NULL CHECK (token_count >= 0),
    start_offset int NOT NULL CHECK (start_offset >= 0),
    end_offset   int NOT NULL CHECK (end_offset >= start_offset),
    ts_config    regconfig NOT NULL,
    -- identifiers joined without their underscores (effective_io_concurrency →
    -- effectiveioconcurrency): PostgreSQL's parser splits on "_", so without
    -- this an exact identifier would only match as its common parts.
    keywords     text NOT NULL DEFAULT '',
    tsv          tsvector GENERATED ALWAYS AS (to_tsvector(ts_config, heading_path || E'\n' || content || E'\n' || keywords)) STORED,
    PRIMARY KEY (tenant_id, id),
    UNIQUE (tenant_id, document_id, chunk_index),
    FOREIGN KEY (tenant_id, document_id) REFERENCES documents (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE chunk_embeddings (
    tenant_id uuid NOT NULL,
    chunk_id  uuid NOT NULL,
    model_id  smallint NOT NULL REFERENCES embedding_models (id),
    -- sha256 of the embedded text: the embedding cache key within a tenant
    text_sha  bytea NOT NULL,
    embedding vector NOT NULL,
    PRIMARY KEY (tenant_id, chunk_id, model_id),
    FOREIGN KEY (tenant_id, chunk_id) REFERENCES chunks (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX chunk_embeddings_cache ON chunk_embeddings (tenant_id, model_id, text_sha);
CREATE INDEX chunk_embeddings_use_lite_hnsw ON chunk_embeddings
    USING hnsw ((embedding::vector(512)) vector_cosine_ops) WITH (m = 16, ef_construction = 64)
    WHERE model_id = 1;

-- BM25 statistics (Robertson & Zaragoza 2009), kept by the triggers below in
-- the same transaction as the chunks they describe.
CREATE TABLE tenant_stats (
    tenant_id   uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
    chunk_count bigint NOT NULL DEFAULT 0,
    token_count bigint NOT NULL DEFAULT 0
);

CREATE TABLE term_stats (
    tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    lexeme    text NOT NULL,
    df        int NOT NULL,
    PRIMARY KEY (tenant_id, lexeme)
);

-- Posting lists keyed by (tenant_id, lexeme): equality on these keys is
-- leakproof, so the index serves the keyword leg under RLS (a GIN index on
-- tsv cannot: ts_match_vq is not LEAKPROOF). impact orders each list for
-- candidate generation; scoring is exact BM25 at query time.
CREATE TABLE postings (
    tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    lexeme    text NOT NULL,
    chunk_id  uuid NOT NULL,
    tf        int NOT NULL,
    dl        int NOT NULL,
    impact    real NOT NULL,
    PRIMARY KEY (tenant_id, lexeme, chunk_id)
);
CREATE INDEX postings_impact ON postings (tenant_id, lexeme, impact DESC) INCLUDE (chunk_id, tf, dl);

-- +goose StatementBegin
CREATE FUNCTION tsv_length(v tsvector) RETURNS int
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT coalesce(sum(cardinality(positions)), 0)::int FROM unnest(v) $$;
-- +goose StatementEnd

-- Statement-level triggers keep postings, term_stats and tenant_stats equal to
-- what the chunks hold. tenant_stats is always locked first, so concurrent
-- ingestion into one tenant serialises on it and term_stats rows are never
-- locked in conflicting orders (no deadlocks).
-- +goose StatementBegin
CREATE FUNCTION chunks_index_insert() RETURNS trigger
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

-- +goose StatementBegin
CREATE FUNCTION chunks_index_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tenant_stats s
    SET chunk_count = s.chunk_count - d.c, token_count = s.token_count - d.t
    FROM (SELECT o.tenant_id, count(*) AS c, sum(tsv_length(o.tsv)) AS t
          FROM old_rows o GROUP BY o.tenant_id) d
    WHERE s.tenant_id = d.tenant_id;

    DELETE FROM postings p
    USING (SELECT o.tenant_id, u.lexeme, o.id FROM old_rows o, unnest(o.tsv) u) d
    WHERE p.tenant_id = d.tenant_id AND p.lexeme = d.lexeme AND p.chunk_id = d.id;

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

CREATE TRIGGER chunks_index_insert AFTER INSERT ON chunks
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chunks_index_insert();
CREATE TRIGGER chunks_index_delete AFTER DELETE ON chunks
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION chunks_index_delete();
-- Chunks are immutable: a changed document replaces its chunks.
-- +goose StatementBegin
CREATE FUNCTION chunks_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'chunks are immutable; delete and insert instead' USING ERRCODE = 'feature_not_supported';
END $$;
-- +goose StatementEnd
CREATE TRIGGER chunks_immutable BEFORE UPDATE ON chunks
    FOR EACH ROW EXECUTE FUNCTION chunks_immutable();

-- keyword_search is the keyword leg: Okapi BM25 (Robertson & Zaragoza 2009,
-- "The Probabilistic Relevance Framework: BM25 and Beyond"; Lucene's
-- non-negative idf) over the tenant's posting lists. Candidates are the
-- p_per_term highest-impact postings of each query term (exact for terms with
-- df <= p_per_term); every candidate is then scored exactly, truncated terms
-- included. SECURITY INVOKER: row-level security applies inside, and every
-- access is by (tenant_id, lexeme) equality, which is leakproof, so the
-- indexes serve it. Filters (source_uri prefix, metadata containment) are
-- applied before the limit when p_filtered.
-- +goose StatementBegin
CREATE FUNCTION keyword_search(p_tenant uuid, p_lexemes text[], p_k1 float8, p_b float8,
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

-- Row-level security: FORCE applies it to the owner too; policies fail closed.
ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
ALTER TABLE tenants FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON tenants
    USING (id = current_tenant()) WITH CHECK (id = current_tenant());
-- The operator (the role that runs migrations and the tenant CLI) lists and
-- creates tenants; it sees tenant rows, never their data tables without a
-- tenant transaction.
CREATE POLICY operator ON tenants TO CURRENT_USER USING (true) WITH CHECK (true);

ALTER TABLE documents ENABLE ROW LEVEL SECURITY;
ALTER TABLE documents FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON documents
    USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE chunks ENABLE ROW LEVEL SECURITY;
ALTER TABLE chunks FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON chunks
    USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE chunk_embeddings ENABLE ROW LEVEL SECURITY;
ALTER TABLE chunk_embeddings FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON chunk_embeddings
    USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE tenant_stats ENABLE ROW LEVEL SECURITY;
ALTER TABLE tenant_stats FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON tenant_stats
    USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE term_stats ENABLE ROW LEVEL SECURITY;
ALTER TABLE term_stats FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON term_stats
    USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE postings ENABLE ROW LEVEL SECURITY;
ALTER TABLE postings FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON postings
    USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());

-- +goose Down
DROP TABLE IF EXISTS postings, term_stats, tenant_stats, chunk_embeddings, chunks, documents, embedding_models, tenants CASCADE;
DROP FUNCTION IF EXISTS keyword_search(uuid, text[], float8, float8, int, int, bool, text, jsonb), chunks_index_insert(), chunks_index_delete(), chunks_immutable(), tsv_length(tsvector), current_tenant();
