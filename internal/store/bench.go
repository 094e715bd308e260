package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// The benchmark database's catalog reads and DDL (ragd-bench, internal/bench;
// its static DML is sqlc's, in queries/bench.sql). They are written here by
// hand because sqlc cannot type them: its catalog is built from
// db/migrations and has none of pg_catalog's relations (pg_database,
// pg_extension, pg_class, pg_index, pg_constraint, pg_attribute), and DDL
// takes no bind parameters — the names in it are quoted with
// pgx.Identifier, and the one literal (a database comment) is quoted by
// doubling its single quotes. Everything here runs as the owner role, and
// only against the dedicated bench database (or, for CREATE DATABASE, the
// database the owner connects to first).

// BenchDatabaseExists reports whether a database named name exists.
func BenchDatabaseExists(ctx context.Context, db DBTX, name string) (bool, error) {
	var exists bool
	err := db.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists)
	return exists, err
}

// CreateBenchDatabase creates database name, closed to PUBLIC and open
// (CONNECT, TEMPORARY) to appRole. Run as a role with CREATEDB.
func CreateBenchDatabase(ctx context.Context, db DBTX, name, appRole string) error {
	ident := pgx.Identifier{name}.Sanitize()
	for _, sql := range []string{
		"CREATE DATABASE " + ident,
		"REVOKE ALL ON DATABASE " + ident + " FROM PUBLIC",
		"GRANT CONNECT, TEMPORARY ON DATABASE " + ident + " TO " + pgx.Identifier{appRole}.Sanitize(),
	} {
		if _, err := db.Exec(ctx, sql); err != nil {
			return err
		}
	}
	return nil
}

// EnsureVectorExtension creates the vector extension in the connected
// database when it is missing. Errors: ErrPermissionDenied when the role
// may not create it (vector is not a trusted extension: a superuser must).
func EnsureVectorExtension(ctx context.Context, db DBTX) error {
	var has bool
	if err := db.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector')").Scan(&has); err != nil || has {
		return err
	}
	_, err := db.Exec(ctx, "CREATE EXTENSION vector")
	return Translate(err)
}

// BenchCorpusMarker returns the connected database's comment: the
// fingerprint of the benchmark corpus it holds ("" when none).
func BenchCorpusMarker(ctx context.Context, db DBTX) (string, error) {
	var c *string
	err := db.QueryRow(ctx, "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = current_database()").Scan(&c)
	if err != nil || c == nil {
		return "", err
	}
	return *c, nil
}

// SetBenchCorpusMarker sets the connected database's comment to fingerprint
// ("" removes it).
func SetBenchCorpusMarker(ctx context.Context, db DBTX, fingerprint string) error {
	name, err := New().BenchCurrentDatabase(ctx, db)
	if err != nil {
		return err
	}
	sql := "COMMENT ON DATABASE " + pgx.Identifier{name}.Sanitize() + " IS NULL"
	if fingerprint != "" {
		sql = "COMMENT ON DATABASE " + pgx.Identifier{name}.Sanitize() + " IS '" + strings.ReplaceAll(fingerprint, "'", "''") + "'"
	}
	_, err = db.Exec(ctx, sql)
	return err
}

// BenchSizesRow are on-disk sizes in MB.
type BenchSizesRow struct {
	Database, Embeddings, HNSW, Chunks, Postings, Documents float64
}

// BenchSizes reads the database's size, chunk_embeddings' (heap + TOAST),
// the HNSW indexes' on it, and chunks', postings' and documents' with their
// indexes, in MB.
func BenchSizes(ctx context.Context, db DBTX) (BenchSizesRow, error) {
	var s BenchSizesRow
	err := db.QueryRow(ctx, `SELECT pg_database_size(current_database()) / 1048576.0,
		pg_table_size('chunk_embeddings') / 1048576.0,
		(SELECT coalesce(sum(pg_relation_size(i.indexrelid)), 0) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		 WHERE i.indrelid = 'chunk_embeddings'::regclass AND c.relam = (SELECT oid FROM pg_am WHERE amname = 'hnsw')) / 1048576.0,
		pg_total_relation_size('chunks') / 1048576.0,
		pg_total_relation_size('postings') / 1048576.0,
		pg_total_relation_size('documents') / 1048576.0`).
		Scan(&s.Database, &s.Embeddings, &s.HNSW, &s.Chunks, &s.Postings, &s.Documents)
	return s, err
}

// ServerVersions returns the server's version and the vector extension's.
func ServerVersions(ctx context.Context, db DBTX) (postgres, pgvector string, err error) {
	err = db.QueryRow(ctx, `SELECT current_setting('server_version'), (SELECT extversion FROM pg_extension WHERE extname = 'vector')`).
		Scan(&postgres, &pgvector)
	return postgres, pgvector, err
}

// embeddingStorages are the storage modes SetEmbeddingStorage accepts.
var embeddingStorages = map[string]bool{"plain": true, "main": true, "external": true, "extended": true}

// EmbeddingStorage returns the storage of chunk_embeddings.embedding:
// plain, main, external or extended.
func EmbeddingStorage(ctx context.Context, db DBTX) (string, error) {
	var storage string
	err := db.QueryRow(ctx, `SELECT CASE attstorage WHEN 'p' THEN 'plain' WHEN 'm' THEN 'main' WHEN 'e' THEN 'external' ELSE 'extended' END
		FROM pg_attribute WHERE attrelid = 'chunk_embeddings'::regclass AND attname = 'embedding'`).Scan(&storage)
	return storage, err
}

// SetEmbeddingStorage sets the storage of chunk_embeddings.embedding for
// rows written from now on. Errors: ErrTemplate for a mode other than plain,
// main, external or extended.
func SetEmbeddingStorage(ctx context.Context, db DBTX, storage string) error {
	if !embeddingStorages[storage] {
		return fmt.Errorf("%w: storage %q", ErrTemplate, storage)
	}
	_, err := db.Exec(ctx, "ALTER TABLE chunk_embeddings ALTER COLUMN embedding SET STORAGE "+storage)
	return err
}

// PostingsEstimate returns the planner's row estimate of postings (exact
// after VACUUM ANALYZE).
func PostingsEstimate(ctx context.Context, db DBTX) (int64, error) {
	var n int64
	err := db.QueryRow(ctx, "SELECT reltuples::bigint FROM pg_class WHERE relname = 'postings'").Scan(&n)
	return n, err
}

// benchPostingsDDL restores what PrepareBenchLoad drops from postings, in
// order, each with the name of the object it creates.
var benchPostingsDDL = []struct{ name, sql string }{
	{"postings_pkey", "ALTER TABLE postings ADD CONSTRAINT postings_pkey PRIMARY KEY (tenant_id, lexeme, chunk_id) INCLUDE (tf, dl, access_id)"},
	{"postings_impact", "CREATE INDEX postings_impact ON postings (tenant_id, lexeme, impact DESC) INCLUDE (chunk_id, tf, dl, access_id)"},
	{"postings_tenant_id_fkey", "ALTER TABLE postings ADD CONSTRAINT postings_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE"},
}

// PrepareBenchLoad empties every tenant table of the bench database and
// drops what is cheaper to build after a bulk load than to maintain during
// it: the postings' foreign key, impact index and primary key; and it
// disables the chunks' insert trigger (the loader writes the statistics and
// postings set-based, BenchStatsTenant/Terms/Postings).
// RestoreBenchSchema puts them back.
func PrepareBenchLoad(ctx context.Context, db DBTX) error {
	for _, sql := range []string{
		`TRUNCATE tenants, documents, chunks, chunk_embeddings, tenant_stats, term_stats, postings, eval_sets, eval_questions, eval_runs CASCADE`,
		"ALTER TABLE postings DROP CONSTRAINT postings_tenant_id_fkey",
		"DROP INDEX postings_impact",
		"ALTER TABLE postings DROP CONSTRAINT postings_pkey",
		"ALTER TABLE chunks DISABLE TRIGGER chunks_index_insert",
	} {
		if _, err := db.Exec(ctx, sql); err != nil {
			return fmt.Errorf("store: prepare the bench load (%s): %w", sql, err)
		}
	}
	return nil
}

// RestoreBenchSchema puts back what PrepareBenchLoad dropped and is still
// missing (after a load, or after a failed one): the postings' keys and
// index, and the chunks' insert trigger.
func RestoreBenchSchema(ctx context.Context, db DBTX) error {
	rows, err := db.Query(ctx, `SELECT conname FROM pg_constraint WHERE conrelid = 'postings'::regclass
		UNION ALL SELECT indexname FROM pg_indexes WHERE tablename = 'postings'`)
	if err != nil {
		return err
	}
	have, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	present := map[string]bool{}
	for _, n := range have {
		present[n] = true
	}
	for _, d := range benchPostingsDDL {
		if !present[d.name] {
			if _, err := db.Exec(ctx, d.sql); err != nil {
				return fmt.Errorf("store: restore %s: %w", d.name, err)
			}
		}
	}
	_, err = db.Exec(ctx, "ALTER TABLE chunks ENABLE TRIGGER chunks_index_insert")
	return err
}

// DropAllVectorIndexes drops every HNSW index on chunk_embeddings (a bench
// load rebuilds the dedicated ones after it).
func DropAllVectorIndexes(ctx context.Context, db DBTX) error {
	_, err := db.Exec(ctx, `DO $$
DECLARE r record;
BEGIN
    FOR r IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
             WHERE i.indrelid = 'chunk_embeddings'::regclass AND c.relam = (SELECT oid FROM pg_am WHERE amname = 'hnsw') LOOP
        EXECUTE format('DROP INDEX %I', r.relname);
    END LOOP;
END $$`)
	return err
}

// VacuumAnalyzeCorpus runs VACUUM (ANALYZE) over the tables a bench load
// writes (outside any transaction).
func VacuumAnalyzeCorpus(ctx context.Context, db DBTX) error {
	_, err := db.Exec(ctx, "VACUUM (ANALYZE) tenants, documents, chunks, chunk_embeddings, tenant_stats, term_stats, postings")
	return err
}
