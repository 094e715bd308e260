package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

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
	pool := pairPool(t)
	tn := testdb.NewTenant(t, "r59prep", "")
	for range 40 {
		a, b := batchPair("SELECT count(*) FROM documents", "SELECT count(*) FROM documents")
		if err := store.SendTenantBatchPair(ctx, pool, tn.ID, a, true, b, false); err != nil {
			t.Fatal(err)
		}
	}
	total := 0
	c1, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := pool.Acquire(ctx) // both of the pool's connections
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*pgxpool.Conn{c1, c2} {
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
	pool := pairPool(t)
	tn := testdb.NewTenant(t, "r59kill", "")
	warm := func() {
		a, b := batchPair("SELECT 1", "SELECT 1")
		if err := store.SendTenantBatchPair(ctx, pool, tn.ID, a, true, b, false); err != nil {
			t.Fatal(err)
		}
	}
	warm()
	before := pool.Stat().NewConnsCount()
	for i := range 10 {
		a, b := batchPair("SELECT 1/0", "SELECT pg_sleep(0.2)")
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

// TestReview59PairKilledBackendNotUnavailable: a's backend is terminated
// (an operator's pg_terminate_backend, an OOM kill) after it has exported
// its snapshot and before b imports it. b's SET TRANSACTION SNAPSHOT then
// fails with "invalid snapshot identifier" (22023); the pair reports what
// happened, a lost backend: ErrUnavailable (the API's 503), as
// SendTenantBatch does for it.
func TestReview59PairKilledBackendNotUnavailable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pairPool(t)
	// The pool's own backends, by pid: other tests' pairs (in this
	// package and others, on the same database) sit in the same state at
	// times.
	var pids []int32
	var held []*pgxpool.Conn
	for range 2 {
		c, err := pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		pids = append(pids, int32(c.Conn().PgConn().PID()))
	}
	for _, c := range held {
		c.Release()
	}
	tn := testdb.NewTenant(t, "r59kb", "")
	app := testdb.App(t)
	a, b := batchPair("SELECT 1", "SELECT 1")
	hooked := false
	hctx := store.WithPairHook(store.WithPairWait(ctx, time.Minute), func() {
		hooked = true
		var n int
		if err := app.QueryRow(ctx, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE pid = ANY($1) AND query = 'SELECT pg_export_snapshot()' AND state LIKE 'idle in transaction%'", pids).Scan(&n); err != nil || n != 1 {
			t.Errorf("kill: %d %v", n, err)
		}
		// The backend is gone before b starts.
		for range 200 {
			var alive bool
			if err := app.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1) AND query = 'SELECT pg_export_snapshot()')", pids).Scan(&alive); err != nil || !alive {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
	waitSpare(t, pool)
	err := store.SendTenantBatchPair(hctx, pool, tn.ID, a, true, b, false)
	if !hooked {
		t.Fatal("the batches ran in one transaction, not as a pair")
	}
	if !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("a's backend killed: %v; want ErrUnavailable", err)
	}
	// The pool goes on serving.
	a, b = batchPair("SELECT 1", "SELECT 1")
	if err := store.SendTenantBatchPair(ctx, pool, tn.ID, a, true, b, false); err != nil {
		t.Fatalf("after the kill: %v", err)
	}
}
