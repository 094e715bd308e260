package search_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

var review59Docs = map[string]string{
	"docs/backup.md": "# Backups\n\nRun pg_dump to write a database into a single archive file. Restore it with pg_restore.",
	"docs/vacuum.md": "# Vacuum\n\nAutovacuum removes dead tuples and updates the planner statistics.",
}

// TestReview59PairOnOneConnectionPool: RAGD_DB_MAX_CONNS=1 (a valid
// setting). spareConnections sees 0 of 1 connections in use and sends the
// hybrid search apart; SendTenantBatchPair holds the pool's only connection
// (a's transaction) while it waits for a second one that can never come.
// The same search in one batch answers at once.
func TestReview59PairOnOneConnectionPool(t *testing.T) {
	t.Parallel()
	tt, s0 := corpusTenant(t, "r59one", "english", review59Docs)
	pool, err := store.Open(context.Background(), testdb.URL(), store.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	s := *s0
	s.Pool = pool
	req := search.Request{Query: "How do I restore a pg_dump archive?", TopK: 5}

	// The idle pool (the first search of the process, or any search
	// after the pool's last release hook has run).
	ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel2()
	start := time.Now()
	_, err = s.Search(ctx2, tt, req) // default ParallelBelow
	failed := err
	elapsed := time.Since(start).Round(time.Millisecond)

	together := s
	together.ParallelBelow = -1
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := together.Search(ctx, tt, req); err != nil {
		t.Fatalf("one batch: %v", err)
	}
	if failed != nil {
		t.Fatalf("default searcher on a one-connection pool: %v after %v; the same search in one batch succeeds", failed, elapsed)
	}
}

// TestReview59PairBurstDeadlocks: the pool at pgx's default size on this
// machine (max(4, cores)), the searcher at its default ParallelBelow, and a
// burst of 16 hybrid searches arriving at once at a cold pool (the API
// admits 4×MaxConns = 16 in flight). They pass spareConnections before any
// has acquired, each takes one connection for a's transaction and waits for
// a second while holding it: hold-and-wait, so the burst deadlocks until
// the request deadline. The same bursts in one batch all succeed.
func TestReview59PairBurstDeadlocks(t *testing.T) {
	t.Parallel()
	tt, s0 := corpusTenant(t, "r59burst", "english", review59Docs)
	pool, err := store.Open(context.Background(), testdb.URL(), store.Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	s := *s0
	s.Pool = pool
	req := search.Request{Query: "How do I restore a pg_dump archive?", TopK: 5}
	burst := func(s search.Searcher) (int, error) {
		var wg sync.WaitGroup
		gate := make(chan struct{})
		errs := make(chan error, 16)
		for range 16 {
			wg.Go(func() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				<-gate
				if _, err := s.Search(ctx, tt, req); err != nil {
					errs <- err
				}
			})
		}
		close(gate)
		wg.Wait()
		close(errs)
		n := 0
		var first error
		for err := range errs {
			if first == nil {
				first = err
			}
			n++
		}
		return n, first
	}
	// Each round starts on a cold pool (a restarted server, or idle
	// connections closed by the pool's health check): connections being
	// constructed are not AcquiredConns, so the whole burst passes
	// spareConnections.
	together := s
	together.ParallelBelow = -1
	for round := range 3 {
		pool.Reset()
		if n, err := burst(together); n > 0 {
			t.Fatalf("round %d in one batch: %d of 16 failed: %v", round, n, err)
		}
	}
	for round := range 3 {
		pool.Reset()
		if n, err := burst(s); n > 0 {
			t.Fatalf("round %d: %d of 16 concurrent searches failed (cold pool of 4, default ParallelBelow; all 16 succeed in one batch), e.g. %v", round, n, err)
		}
	}
}
