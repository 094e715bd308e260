package api_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestBreakPurgeUnderConcurrentWrites (h-break): `ragd tenant delete`
// (tenant.Purge, owner role, every document visible, as internal/cli runs
// it) while editors keep writing documents of the tenant through the API.
//
// Expected: the purge succeeds (an operator can delete a tenant that is in
// use), and every concurrent write is either stored (200) or refused
// because the tenant is gone (401/403/404); never a 5xx.
//
// Actual (2026-12-02, main 6c0284b): the purge fails with "deadlock
// detected (SQLSTATE 40P01)" in most runs (PurgeTenantIndex deletes
// term_stats rows first and then, through the chunks delete trigger,
// updates tenant_stats; a document write locks tenant_stats first and then
// term_stats: opposite lock orders), and the write PostgreSQL picks as the
// victim, or one that was already past authentication when the tenant row
// went away, is a 500 ("deadlock detected", or "no rows in result set").
func TestBreakPurgeUnderConcurrentWrites(t *testing.T) {
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	words := strings.Fields("write ahead log checkpoint segment archive select order limit offset json path index btree gin")
	doc := func(r *rand.Rand) string {
		var sb strings.Builder
		sb.WriteString("# Page\n\n")
		for i := 0; i < 20+r.IntN(300); i++ {
			sb.WriteString(words[r.IntN(len(words))])
			sb.WriteByte(' ')
		}
		return sb.String()
	}
	seed := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20; i++ {
		b.upsert(ed, fmt.Sprintf("p/%d.md", i), doc(seed))
	}

	var (
		stop                 atomic.Bool
		mu                   sync.Mutex
		statuses             = map[int]int{}
		fiveXX               []string
		wg                   sync.WaitGroup
		writesBeforePurgeEnd atomic.Int64
	)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 99))
			for !stop.Load() {
				w := serve(t, b.srv, req{method: "PUT", path: "/v1/documents", token: ed,
					body: map[string]any{"source_uri": fmt.Sprintf("p/%d.md", r.IntN(30)), "content": doc(r)}})
				writesBeforePurgeEnd.Add(1)
				mu.Lock()
				statuses[w.Code]++
				if w.Code >= 500 {
					fiveXX = append(fiveXX, fmt.Sprintf("%d %s", w.Code, strings.TrimSpace(w.Body.String())))
				}
				mu.Unlock()
			}
		}(g)
	}
	time.Sleep(1500 * time.Millisecond)
	ctx := store.WithVisibility(context.Background(), store.AllDocuments())
	_, purgeErr := tenant.Purge(ctx, testdb.Owner(t), b.a.ID)
	time.Sleep(500 * time.Millisecond)
	stop.Store(true)
	wg.Wait()

	if purgeErr != nil {
		t.Errorf("tenant.Purge while the tenant is written: %v; want the tenant deleted", purgeErr)
	}
	mu.Lock()
	defer mu.Unlock()
	t.Logf("PUT statuses during the purge: %v (%d writes)", statuses, writesBeforePurgeEnd.Load())
	for _, s := range fiveXX {
		t.Errorf("concurrent PUT answered %s; want 200, or the 401/404 of a tenant that is gone", s)
	}
}
