// Package testdb gives tests a real PostgreSQL: the application-role pool (RLS
// applies: not owner, not superuser, no BYPASSRLS) and the owner pool, with
// migrations applied once per test binary. Each test makes its own tenants
// (unique slugs) and deletes them in t.Cleanup, so tests run in parallel.
//
// URLs: RAGD_TEST_DATABASE_URL and RAGD_TEST_ADMIN_DATABASE_URL, defaulting to
// the ragd_test database that `make setup` creates. A missing database fails
// the test with the command to run; it never skips.
package testdb

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/migrate"
	"github.com/ragd-dev/ragd/internal/store"
)

// Default URLs after `make setup`.
const (
	DefaultURL      = "postgres://ragd_app:ragd_app@127.0.0.1:5432/ragd_test?sslmode=disable"
	DefaultAdminURL = "postgres://ragd_owner:ragd_owner@127.0.0.1:5432/ragd_test?sslmode=disable"
)

var (
	once             sync.Once
	appPool, ownPool *pgxpool.Pool
	initErr          error
)

// URL returns the application-role test database URL.
func URL() string { return env("RAGD_TEST_DATABASE_URL", DefaultURL) }

// AdminURL returns the owner-role test database URL.
func AdminURL() string { return env("RAGD_TEST_ADMIN_DATABASE_URL", DefaultAdminURL) }

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func setup() {
	ctx := context.Background()
	m, err := migrate.Open(AdminURL(), env("RAGD_APP_ROLE", "ragd_app"))
	if err != nil {
		initErr = err
		return
	}
	defer m.Close()
	if err := m.Up(ctx, io.Discard); err != nil {
		initErr = err
		return
	}
	if appPool, initErr = store.Open(ctx, URL(), store.Options{MaxConns: 8}); initErr != nil {
		return
	}
	ownPool, initErr = store.Open(ctx, AdminURL(), store.Options{MaxConns: 4})
}

func pools(t testing.TB) {
	t.Helper()
	once.Do(setup)
	if initErr != nil {
		t.Fatalf("test database unavailable (run `make setup`, or set RAGD_TEST_DATABASE_URL/RAGD_TEST_ADMIN_DATABASE_URL): %v", initErr)
	}
}

// App returns the shared application-role pool.
func App(t testing.TB) *pgxpool.Pool { pools(t); return appPool }

// Owner returns the shared owner-role pool (operator operations only).
func Owner(t testing.TB) *pgxpool.Pool { pools(t); return ownPool }

// Tenant is a tenant created for one test.
type Tenant struct {
	ID   uuid.UUID
	Slug string
}

// NewTenant creates a tenant with a unique slug (prefix + random suffix) and the
// given text-search configuration ("" = english), deleted with all its rows
// when the test ends.
func NewTenant(t testing.TB, prefix, tsConfig string) Tenant {
	t.Helper()
	pools(t)
	if tsConfig == "" {
		tsConfig = "english"
	}
	slug := strings.ToLower(fmt.Sprintf("%s-%s", prefix, uuid.NewString()[:8]))
	ctx := context.Background()
	row, err := store.New().CreateTenant(ctx, ownPool, store.CreateTenantParams{Slug: slug, Name: slug, TsConfig: tsConfig})
	if err != nil {
		t.Fatalf("create tenant %s: %v", slug, err)
	}
	t.Cleanup(func() {
		if _, err := store.New().DeleteTenant(context.WithoutCancel(ctx), ownPool, row.ID); err != nil {
			t.Errorf("delete tenant %s: %v", slug, err)
		}
	})
	return Tenant{ID: row.ID, Slug: slug}
}

// FillVectors gives tenant id n chunks (one document, content "a", no
// postings worth speaking of) with random 512-dimension use-lite vectors
// (model 1), in one transaction with generic plans for the bulk insert.
func FillVectors(t testing.TB, id uuid.UUID, n int) {
	t.Helper()
	ctx := context.Background()
	err := store.InTenant(ctx, App(t), id, func(tx pgx.Tx) error {
		for _, sql := range []string{
			`INSERT INTO documents (tenant_id, source_uri, content_type, content_sha, pipeline, body, chunk_count)
			 VALUES ($1, 'fill://doc', 'text/plain', '\x00'::bytea, 'fill', 'a', $2)`,
			`INSERT INTO chunks (tenant_id, document_id, chunk_index, content, token_count, start_offset, end_offset, ts_config)
			 SELECT $1, d.id, g, 'a', 1, 0, 1, 'english' FROM generate_series(0, $2::int - 1) g
			 JOIN documents d ON d.tenant_id = $1 AND d.source_uri = 'fill://doc'`,
			`INSERT INTO chunk_embeddings (tenant_id, chunk_id, model_id, text_sha, embedding)
			 SELECT c.tenant_id, c.id, 1, decode(md5(c.id::text), 'hex'),
			        ARRAY(SELECT random() - 0.5 FROM generate_series(1, 512) WHERE c.chunk_index >= 0)::vector
			 FROM chunks c WHERE c.tenant_id = $1 AND $2::int > 0`,
		} {
			if _, err := tx.Exec(ctx, sql, id, n); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("fill vectors: %v", err)
	}
}
