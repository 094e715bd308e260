package store_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestReview59PairPreparesEverySnapshot: b's "SET TRANSACTION SNAPSHOT
// '<id>'" is a new SQL text at every pair, so pgx (the pool's default
// statement-cache mode) prepares it in an extra round trip before b's batch
// and keeps it prepared on the server: after 40 pairs on a pool of two,
// the connections hold a prepared statement per pair.
func TestReview59PairPreparesEverySnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, err := store.Open(ctx, testdb.URL(), store.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	tn := testdb.NewTenant(t, "r59prep", "")
	for range 40 {
		a, b := &pgx.Batch{}, &pgx.Batch{}
		a.Queue("SELECT count(*) FROM documents")
		b.Queue("SELECT count(*) FROM documents")
		if err := store.SendTenantBatchPair(ctx, pool, tn.ID, a, true, b, false); err != nil {
			t.Fatal(err)
		}
	}
	total := 0
	for _, c := range pool.AcquireAllIdle(ctx) {
		var n int
		if err := c.QueryRow(ctx, "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE 'SET TRANSACTION SNAPSHOT%'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		total += n
		c.Release()
	}
	if total > 0 {
		t.Fatalf("%d snapshot statements left prepared on the pool's connections after 40 pairs (one prepare round trip each)", total)
	}
}

// TestReview59PairFailureKillsConnections: a failing statement in one batch
// cancels the errgroup's context under the other batch still running, and
// pgx closes that connection instead of rolling it back (the doc comment
// says "both transactions are rolled back (a connection that cannot roll
// back is closed)"): every failing pair costs a new connection, and the
// closed backend's statement runs on in the server.
func TestReview59PairFailureKillsConnections(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, err := store.Open(ctx, testdb.URL(), store.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	tn := testdb.NewTenant(t, "r59kill", "")
	warm := func() {
		a, b := &pgx.Batch{}, &pgx.Batch{}
		a.Queue("SELECT 1")
		b.Queue("SELECT 1")
		if err := store.SendTenantBatchPair(ctx, pool, tn.ID, a, true, b, false); err != nil {
			t.Fatal(err)
		}
	}
	warm()
	before := pool.Stat().NewConnsCount()
	for i := range 10 {
		a, b := &pgx.Batch{}, &pgx.Batch{}
		a.Queue("SELECT 1/0")
		b.Queue("SELECT pg_sleep(0.2)")
		if i%2 == 1 {
			a, b = b, a
		}
		if err := store.SendTenantBatchPair(ctx, pool, tn.ID, a, true, b, false); err == nil {
			t.Fatal("no error")
		}
	}
	warm()
	if n := pool.Stat().NewConnsCount() - before; n > 0 {
		t.Fatalf("10 failing pairs on a pool of two opened %d new connections (each failure closed the other leg's connection instead of rolling it back)", n)
	}
}
