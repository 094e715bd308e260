package testdb

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// chunkCount is the number of chunks tenant id holds (application role).
func chunkCount(t *testing.T, id uuid.UUID) int {
	t.Helper()
	var n int
	err := store.InTenant(context.Background(), App(t), id, func(tx pgx.Tx) error {
		return tx.QueryRow(context.Background(), "SELECT count(*) FROM chunks WHERE tenant_id = $1", id).Scan(&n)
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCacheRebuildsWhatItCannotTrust: a cache tenant is built once and then
// reused; a changed recipe, an interrupted build and a tenant whose content
// no longer passes Check are each purged and rebuilt from nothing, so what
// the tests see never depends on what an earlier run left.
func TestCacheRebuildsWhatItCannotTrust(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	slug := "cache-test-" + uuid.NewString()[:8]
	t.Cleanup(func() {
		if row, err := store.New().GetTenantBySlug(context.WithoutCancel(ctx), Owner(t), slug); err == nil {
			if _, err := tenant.Purge(context.WithoutCancel(ctx), Owner(t), row.ID); err != nil {
				t.Errorf("purge %s: %v", slug, err)
			}
		}
	})
	builds, drops := 0, 0
	var failBuild bool
	c := Cache{
		Slug:   slug,
		Recipe: "fixture v1: 3 chunks",
		Build: func(ctx context.Context, id uuid.UUID) error {
			builds++
			FillVectors(t, id, 3)
			if failBuild {
				return errors.New("interrupted")
			}
			return nil
		},
		Check: func(ctx context.Context, id uuid.UUID) error {
			if n := chunkCount(t, id); n != 3 {
				return fmt.Errorf("%d chunks, want 3", n)
			}
			return nil
		},
		Drop: func(context.Context, uuid.UUID) error { drops++; return nil },
	}
	ensure := func(c Cache, rebuild bool) (uuid.UUID, bool, error) {
		t.Helper()
		return c.Ensure(ctx, t, rebuild)
	}

	// Absent: -short leaves it absent; otherwise it is built.
	if _, _, err := ensure(c, false); !errors.Is(err, ErrCacheStale) {
		t.Fatalf("absent cache without rebuild: %v, want ErrCacheStale", err)
	}
	id, built, err := ensure(c, true)
	if err != nil || !built || builds != 1 || chunkCount(t, id) != 3 {
		t.Fatalf("first Ensure: %s built %v err %v, %d builds; want one build of 3 chunks", id, built, err, builds)
	}
	// Valid: reused as it is, with or without rebuild.
	for _, rebuild := range []bool{true, false} {
		again, built, err := ensure(c, rebuild)
		if err != nil || built || again != id || builds != 1 {
			t.Fatalf("valid cache (rebuild %v): %s built %v err %v, %d builds; want %s reused", rebuild, again, built, err, builds, id)
		}
	}

	// Another recipe: stale; without rebuild it is left alone.
	c2 := c
	c2.Recipe = "fixture v2: 3 chunks"
	if _, _, err := ensure(c2, false); !errors.Is(err, ErrCacheStale) {
		t.Fatalf("other recipe without rebuild: %v, want ErrCacheStale", err)
	}
	if chunkCount(t, id) != 3 {
		t.Fatal("a stale cache was touched without rebuild")
	}
	id2, built, err := ensure(c2, true)
	if err != nil || !built || id2 == id || builds != 2 || drops != 1 {
		t.Fatalf("other recipe: %s built %v err %v, %d builds %d drops; want a new tenant built after one purge", id2, built, err, builds, drops)
	}
	if chunkCount(t, id) != 0 {
		t.Error("the stale tenant's rows survived its purge")
	}

	// An interrupted build leaves a tenant named "building": never trusted,
	// rebuilt from nothing (3 chunks, not 3 more on top of the partial ones).
	c3 := c2
	c3.Recipe = "fixture v3: 3 chunks"
	failBuild = true
	if _, _, err := ensure(c3, true); err == nil {
		t.Fatal("a failing build succeeded")
	}
	row, err := store.New().GetTenantBySlug(ctx, Owner(t), slug)
	if err != nil || row.Name != cacheBuilding {
		t.Fatalf("after the interrupted build: %+v, %v; want the tenant named %q", row, err, cacheBuilding)
	}
	failBuild = false
	id3, built, err := ensure(c3, true)
	if err != nil || !built || id3 == row.ID || chunkCount(t, id3) != 3 {
		t.Fatalf("after an interrupted build: %s built %v err %v; want a fresh build of 3 chunks", id3, built, err)
	}

	// Content that no longer passes Check (rows deleted behind the marker's
	// back): rebuilt.
	err = store.InTenant(ctx, App(t), id3, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "DELETE FROM chunks WHERE tenant_id = $1 AND chunk_index = 0", id3)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	id4, built, err := ensure(c3, true)
	if err != nil || !built || id4 == id3 || chunkCount(t, id4) != 3 {
		t.Fatalf("broken cache: %s built %v err %v; want a fresh build of 3 chunks", id4, built, err)
	}
}

// TestFingerprint: the marker changes with the recipe and with the schema
// version, so a migration invalidates every cache.
func TestFingerprint(t *testing.T) {
	t.Parallel()
	a := Fingerprint("recipe", 9)
	for _, other := range []string{Fingerprint("recipe", 10), Fingerprint("recipe ", 9), Fingerprint("", 9)} {
		if other == a {
			t.Errorf("fingerprints collide: %s", a)
		}
	}
	if Fingerprint("recipe", 9) != a {
		t.Error("Fingerprint is not deterministic")
	}
}
