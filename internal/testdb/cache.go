package testdb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/migrate"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// Cache is a tenant that tests keep in the test database between runs under
// a fixed slug, because building it takes minutes (the scale corpus, the
// PostgreSQL manual). A test's result must not depend on what an earlier
// run left, so the tenant is trusted only when its marker, the tenant's
// name, is "test cache " + Fingerprint: written after Build (and Check)
// succeeded, naming the Recipe and the schema version it was built with.
// Anything else — no tenant, a build that was interrupted (its name still
// says "building"), another recipe, another schema version, a failed Check —
// is purged and rebuilt from nothing.
type Cache struct {
	// Slug is the tenant's fixed slug.
	Slug string
	// TSConfig is the tenant's text-search configuration ("" = english).
	TSConfig string
	// Recipe names everything the tenant's content depends on: the
	// generator's version or its SQL, sizes, digests of input files, the
	// ingestion pipeline's fingerprint. The schema version is added by
	// Fingerprint.
	Recipe string
	// Build fills the freshly created, empty tenant id.
	Build func(ctx context.Context, id uuid.UUID) error
	// Check, optional, verifies a tenant the marker calls complete (e.g. its
	// row counts); an error means rebuild. It also runs after Build.
	Check func(ctx context.Context, id uuid.UUID) error
	// Drop, optional, removes what purging the tenant's rows leaves (its
	// dedicated vector indexes).
	Drop func(ctx context.Context, id uuid.UUID) error
}

// ErrCacheStale is returned by Cache.Ensure without rebuild when the cached
// tenant is absent or not what the recipe describes.
var ErrCacheStale = errors.New("test cache absent or stale")

// cacheMarker starts the name of a cache tenant; cacheBuilding is the name
// while Build runs.
const (
	cacheMarker   = "test cache "
	cacheBuilding = "test cache building"
)

// Fingerprint is the marker's digest of recipe at schema version (the
// newest migration).
func Fingerprint(recipe string, schema int64) string {
	sum := sha256.Sum256([]byte(recipe + "\nschema " + strconv.FormatInt(schema, 10)))
	return hex.EncodeToString(sum[:])
}

// Ensure returns the cache tenant's id and whether this call built it. The
// check-and-build runs under a session advisory lock keyed by the slug, so
// concurrent test binaries build it once. Without rebuild, a tenant that is
// not valid is left alone and ErrCacheStale returned (for -short runs).
// Errors: ErrCacheStale, Build's, Check's after a fresh build, store errors.
func (c Cache) Ensure(ctx context.Context, t testing.TB, rebuild bool) (uuid.UUID, bool, error) {
	pools(t)
	schema, err := migrate.Latest()
	if err != nil {
		return uuid.Nil, false, err
	}
	want := cacheMarker + Fingerprint(c.Recipe, schema)
	conn, err := ownPool.Acquire(ctx)
	if err != nil {
		return uuid.Nil, false, err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock(hashtextextended($1, 0))", "ragd test cache "+c.Slug); err != nil {
		return uuid.Nil, false, err
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(hashtextextended($1, 0))", "ragd test cache "+c.Slug) //nolint:errcheck // released with the session anyway

	q := store.New()
	row, err := q.GetTenantBySlug(ctx, conn, c.Slug)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return uuid.Nil, false, err
	case row.Name == want && (c.Check == nil || c.Check(ctx, row.ID) == nil):
		return row.ID, false, nil
	default:
		if !rebuild {
			return uuid.Nil, false, ErrCacheStale
		}
		if err := c.purge(ctx, row.ID); err != nil {
			return uuid.Nil, false, fmt.Errorf("purge stale cache %s: %w", c.Slug, err)
		}
	}
	if !rebuild {
		return uuid.Nil, false, ErrCacheStale
	}
	ts := c.TSConfig
	if ts == "" {
		ts = "english"
	}
	created, err := q.CreateTenant(ctx, conn, store.CreateTenantParams{Slug: c.Slug, Name: cacheBuilding, TsConfig: ts})
	if err != nil {
		return uuid.Nil, false, fmt.Errorf("create cache %s: %w", c.Slug, err)
	}
	if err := c.Build(ctx, created.ID); err != nil {
		return uuid.Nil, false, fmt.Errorf("build cache %s: %w", c.Slug, err)
	}
	if c.Check != nil {
		if err := c.Check(ctx, created.ID); err != nil {
			return uuid.Nil, false, fmt.Errorf("cache %s after building it: %w", c.Slug, err)
		}
	}
	err = store.InTenant(ctx, conn, created.ID, func(tx pgx.Tx) error {
		return q.UpdateTenantName(ctx, tx, store.UpdateTenantNameParams{ID: created.ID, Name: want, TsConfig: ts})
	})
	if err != nil {
		return uuid.Nil, false, err
	}
	return created.ID, true, nil
}

// purge deletes the cache tenant with every row it owns, then what Drop
// removes.
func (c Cache) purge(ctx context.Context, id uuid.UUID) error {
	if _, err := tenant.Purge(ctx, ownPool, id); err != nil {
		return err
	}
	if c.Drop != nil {
		return c.Drop(ctx, id)
	}
	return nil
}
