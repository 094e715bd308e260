package tenant_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestPurgeRemovesEveryRow: a tenant with a document, chunks, embeddings and
// BM25 statistics is purged completely, and another tenant is untouched.
func TestPurgeRemovesEveryRow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	app, owner := testdb.App(t), testdb.Owner(t)
	victim, bystander := testdb.NewTenant(t, "purge", ""), testdb.NewTenant(t, "keep", "")
	seed := func(id uuid.UUID) {
		err := store.InTenant(ctx, app, id, func(tx pgx.Tx) error {
			q := store.New()
			doc, err := q.UpsertDocument(ctx, tx, store.UpsertDocumentParams{TenantID: id, SourceUri: "x://doc", ContentType: "text/plain",
				ContentSha: []byte{1}, Pipeline: "p", Metadata: []byte(`{}`), Body: "purge me", ChunkCount: 1})
			if err != nil {
				return err
			}
			_, err = q.InsertChunks(ctx, tx, store.InsertChunksParams{TenantID: id, Ids: []uuid.UUID{uuid.New()}, DocumentID: doc.ID,
				ChunkIndexes: []int32{0}, HeadingPaths: []string{""}, Sections: []string{""}, Contents: []string{"purge these words"}, TokenCounts: []int32{3},
				StartOffsets: []int32{0}, EndOffsets: []int32{8}, TsConfig: "english", Keywords: []string{""}})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	seed(victim.ID)
	seed(bystander.ID)
	n, err := tenant.Purge(ctx, owner, victim.ID)
	if err != nil || n != 1 {
		t.Fatalf("Purge = %d, %v; want 1 tenant deleted", n, err)
	}
	count := func(id uuid.UUID) (rows int) {
		err := store.InTenant(ctx, owner, id, func(tx pgx.Tx) error {
			return tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM documents) + (SELECT count(*) FROM chunks) +
				(SELECT count(*) FROM postings) + (SELECT count(*) FROM term_stats) + (SELECT count(*) FROM tenant_stats)`).Scan(&rows)
		})
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	if got := count(victim.ID); got != 0 {
		t.Errorf("%d rows left for the purged tenant", got)
	}
	if got := count(bystander.ID); got == 0 {
		t.Error("the other tenant's rows were deleted too")
	}
	if _, err := store.New().GetTenantBySlug(ctx, owner, victim.Slug); err != pgx.ErrNoRows {
		t.Errorf("tenant row still there: %v", err)
	}
}

// TestLoadOneRoundTripMatchesInTenant: Load from a pool (one round trip,
// store.SendTenantBatch) returns what it returns from a connection
// (InTenant): the tenant with its chunk count, ErrDisabled with the tenant
// for a disabled one, ErrNotFound for an unknown id.
func TestLoadOneRoundTripMatchesInTenant(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	app, owner := testdb.App(t), testdb.Owner(t)
	active, disabled := testdb.NewTenant(t, "load-active", ""), testdb.NewTenant(t, "load-disabled", "")
	testdb.FillVectors(t, active.ID, 3)
	if _, err := store.New().SetTenantStatus(ctx, owner, store.SetTenantStatusParams{Slug: disabled.Slug, Status: "disabled"}); err != nil {
		t.Fatal(err)
	}
	conn, err := app.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	for _, tc := range []struct {
		id      uuid.UUID
		wantErr error
		chunks  int64
	}{{active.ID, nil, 3}, {disabled.ID, tenant.ErrDisabled, 0}, {uuid.New(), tenant.ErrNotFound, 0}} {
		fromPool, perr := tenant.Load(ctx, app, tc.id)
		fromConn, cerr := tenant.Load(ctx, conn, tc.id)
		if !errors.Is(perr, tc.wantErr) || !errors.Is(cerr, tc.wantErr) {
			t.Errorf("%s: errors %v (pool) and %v (connection), want %v", tc.id, perr, cerr, tc.wantErr)
		}
		if !reflect.DeepEqual(fromPool, fromConn) {
			t.Errorf("%s: pool read %+v, connection read %+v", tc.id, fromPool, fromConn)
		}
		if tc.wantErr != tenant.ErrNotFound && (fromPool.ID != tc.id || fromPool.ChunkCount != tc.chunks) {
			t.Errorf("%s: loaded %s with %d chunks, want %d", tc.id, fromPool.ID, fromPool.ChunkCount, tc.chunks)
		}
	}
}
