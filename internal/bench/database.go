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
	exists, err := store.BenchDatabaseExists(ctx, conn, name)
	if err == nil && !exists {
		fmt.Fprintf(log, "bench: creating database %s\n", name)
		err = store.CreateBenchDatabase(ctx, conn, name, appRole)
	}
	conn.Close(ctx)
	if err != nil {
		return fmt.Errorf("bench: create database %s: %w", name, err)
	}
	bc, err := pgx.Connect(ctx, benchAdminURL)
	if err != nil {
		return fmt.Errorf("%w: %w", store.ErrUnavailable, err)
	}
	err = store.EnsureVectorExtension(ctx, bc)
	if errors.Is(err, store.ErrPermissionDenied) {
		err = fmt.Errorf("%w: create it as a superuser — `RAGD_DATABASES=%s scripts/setup-db.sh`, or `sudo -u postgres psql -d %s -c 'CREATE EXTENSION vector'`",
			ErrNoExtension, name, name)
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
	q := store.New()
	if dims != 512 {
		m.name = fmt.Sprintf("bench-%d", dims)
		if err := q.BenchRegisterModel(ctx, owner, store.BenchRegisterModelParams{Name: m.name, Dims: int32(dims)}); err != nil {
			return m, err
		}
	}
	row, err := q.GetEmbeddingModel(ctx, owner, m.name)
	if err != nil {
		return m, fmt.Errorf("bench: model %s: %w", m.name, err)
	}
	m.id = row.ID
	if int(row.Dims) != dims {
		return m, fmt.Errorf("bench: model %s has %d dimensions, want %d", m.name, row.Dims, dims)
	}
	return m, nil
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
	s, err := store.BenchSizes(ctx, owner)
	return Sizes{DatabaseMB: s.Database, EmbeddingsMB: s.Embeddings, HNSWMB: s.HNSW, ChunksMB: s.Chunks, PostingsMB: s.Postings, DocumentsMB: s.Documents}, err
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
