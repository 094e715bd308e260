package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/migrate"
	"github.com/ragd-dev/ragd/internal/store"
)

// ErrNoExtension is returned when the bench database lacks the vector
// extension and the owner role cannot create it (it is not a trusted
// extension: creating it needs a superuser).
var ErrNoExtension = errors.New("bench: the bench database has no vector extension")

// WithDatabase returns databaseURL naming database name instead.
// Errors: an unparsable URL.
func WithDatabase(databaseURL, name string) (string, error) {
	u, err := url.Parse(databaseURL)
	if err != nil || u.Scheme == "" {
		return "", fmt.Errorf("bench: parse database URL: %v", err)
	}
	u.Path = "/" + name
	return u.String(), nil
}

func databaseName(databaseURL string) string {
	u, err := url.Parse(databaseURL)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(u.Path, "/")
}

// ensureDatabase creates the bench database if it is missing (the owner role
// has CREATEDB), checks the vector extension and applies the migrations.
// mainAdminURL is any database the owner can connect to, for CREATE DATABASE.
func ensureDatabase(ctx context.Context, mainAdminURL, benchAdminURL, appRole string, log io.Writer) error {
	name := databaseName(benchAdminURL)
	conn, err := pgx.Connect(ctx, mainAdminURL)
	if err != nil {
		return fmt.Errorf("%w: %w", store.ErrUnavailable, err)
	}
	var exists bool
	err = conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists)
	if err == nil && !exists {
		fmt.Fprintf(log, "bench: creating database %s\n", name)
		for _, sql := range []string{
			"CREATE DATABASE " + pgx.Identifier{name}.Sanitize(),
			"REVOKE ALL ON DATABASE " + pgx.Identifier{name}.Sanitize() + " FROM PUBLIC",
			"GRANT CONNECT, TEMPORARY ON DATABASE " + pgx.Identifier{name}.Sanitize() + " TO " + pgx.Identifier{appRole}.Sanitize(),
		} {
			if _, err = conn.Exec(ctx, sql); err != nil {
				break
			}
		}
	}
	conn.Close(ctx)
	if err != nil {
		return fmt.Errorf("bench: create database %s: %w", name, err)
	}
	bc, err := pgx.Connect(ctx, benchAdminURL)
	if err != nil {
		return fmt.Errorf("%w: %w", store.ErrUnavailable, err)
	}
	var hasVector bool
	err = bc.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector')").Scan(&hasVector)
	if err == nil && !hasVector {
		_, err = bc.Exec(ctx, "CREATE EXTENSION vector")
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "42501" {
			err = fmt.Errorf("%w: create it as a superuser — `RAGD_DATABASES=%s scripts/setup-db.sh`, or `sudo -u postgres psql -d %s -c 'CREATE EXTENSION vector'`",
				ErrNoExtension, name, name)
		}
	}
	bc.Close(ctx)
	if err != nil {
		return err
	}
	m, err := migrate.Open(benchAdminURL, appRole)
	if err != nil {
		return err
	}
	defer m.Close()
	return m.Up(ctx, io.Discard)
}

// model is the embedding model the corpus is generated for.
type model struct {
	id   int16
	name string
	dims int
}

// ensureModel returns the registry row for dims: use-lite for 512, otherwise
// a bench model "bench-<dims>" (its tenants get dedicated HNSW indexes as
// use-lite's do).
func ensureModel(ctx context.Context, owner *pgxpool.Pool, dims int) (model, error) {
	m := model{name: "use-lite", dims: dims}
	if dims != 512 {
		m.name = fmt.Sprintf("bench-%d", dims)
		if _, err := owner.Exec(ctx, "INSERT INTO embedding_models (name, dims) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", m.name, dims); err != nil {
			return m, err
		}
	}
	var got int
	if err := owner.QueryRow(ctx, "SELECT id, dims FROM embedding_models WHERE name = $1", m.name).Scan(&m.id, &got); err != nil {
		return m, fmt.Errorf("bench: model %s: %w", m.name, err)
	}
	if got != dims {
		return m, fmt.Errorf("bench: model %s has %d dimensions, want %d", m.name, got, dims)
	}
	return m, nil
}

// marker reads the bench database's comment: the fingerprint of the corpus
// it holds, written as the last step of a load ("" while loading).
func marker(ctx context.Context, owner *pgxpool.Pool) (string, error) {
	var c *string
	err := owner.QueryRow(ctx, "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = current_database()").Scan(&c)
	if err != nil || c == nil {
		return "", err
	}
	return *c, nil
}

func setMarker(ctx context.Context, owner *pgxpool.Pool, fingerprint string) error {
	var name string
	if err := owner.QueryRow(ctx, "SELECT current_database()").Scan(&name); err != nil {
		return err
	}
	sql := "COMMENT ON DATABASE " + pgx.Identifier{name}.Sanitize() + " IS NULL"
	if fingerprint != "" {
		sql = "COMMENT ON DATABASE " + pgx.Identifier{name}.Sanitize() + " IS '" + strings.ReplaceAll(fingerprint, "'", "''") + "'"
	}
	_, err := owner.Exec(ctx, sql)
	return err
}

// Sizes are on-disk sizes in MB.
type Sizes struct {
	DatabaseMB   float64 `json:"database_mb"`
	EmbeddingsMB float64 `json:"embeddings_mb"` // chunk_embeddings heap + TOAST
	HNSWMB       float64 `json:"hnsw_mb"`
	ChunksMB     float64 `json:"chunks_mb"` // chunks with their indexes
	PostingsMB   float64 `json:"postings_mb"`
	DocumentsMB  float64 `json:"documents_mb"`
}

func sizes(ctx context.Context, owner *pgxpool.Pool) (Sizes, error) {
	var s Sizes
	err := owner.QueryRow(ctx, `SELECT pg_database_size(current_database()) / 1048576.0,
		pg_table_size('chunk_embeddings') / 1048576.0,
		(SELECT coalesce(sum(pg_relation_size(i.indexrelid)), 0) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		 WHERE i.indrelid = 'chunk_embeddings'::regclass AND c.relam = (SELECT oid FROM pg_am WHERE amname = 'hnsw')) / 1048576.0,
		pg_total_relation_size('chunks') / 1048576.0,
		pg_total_relation_size('postings') / 1048576.0,
		pg_total_relation_size('documents') / 1048576.0`).
		Scan(&s.DatabaseMB, &s.EmbeddingsMB, &s.HNSWMB, &s.ChunksMB, &s.PostingsMB, &s.DocumentsMB)
	return s, err
}

// serverInfo describes the database server.
func serverInfo(ctx context.Context, owner *pgxpool.Pool) (postgres, pgvector string, err error) {
	err = owner.QueryRow(ctx, `SELECT current_setting('server_version'), (SELECT extversion FROM pg_extension WHERE extname = 'vector')`).
		Scan(&postgres, &pgvector)
	return postgres, pgvector, err
}

// processRSS returns this process's resident and peak resident set in MB
// (Linux /proc; zeros elsewhere).
func processRSS() (rss, peak float64) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(fields[1], 64)
		switch fields[0] {
		case "VmRSS:":
			rss = kb / 1024
		case "VmHWM:":
			peak = kb / 1024
		}
	}
	return rss, peak
}

// postgresPSS sums the proportional set size of the PostgreSQL server's
// processes (shared memory divided among them), in MB; 0 when /proc does not
// let this user read them.
func postgresPSS() float64 {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var total float64
	for _, d := range dirs {
		comm, err := os.ReadFile(filepath.Join(d, "comm"))
		if err != nil || !strings.HasPrefix(strings.TrimSpace(string(comm)), "postgres") {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(d, "smaps_rollup"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(raw), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "Pss:" {
				kb, _ := strconv.ParseFloat(f[1], 64)
				total += kb / 1024
			}
		}
	}
	return total
}
