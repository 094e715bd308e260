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

// TestPurgeUnderConcurrentWrites: `ragd tenant delete` (tenant.Purge, owner
// role, every document visible, as internal/cli runs it) while editors keep
// writing the tenant's documents through the API. The purge succeeds, and
// every concurrent write is stored (200), refused because the tenant is
// disabled or gone (401, 403, 404, 409), or rolled back whole as a deadlock
// victim (503 with Retry-After); never a 500. (Found by a breaker helper:
// the purge deleted term_stats before the chunks' trigger locked
// tenant_stats, writers lock them the other way round, and the purge failed
// with a deadlock in most runs while writes got 500s.)
func TestPurgeUnderConcurrentWrites(t *testing.T) {
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
				if w.Code >= 500 && !(w.Code == 503 && w.Header().Get("Retry-After") != "") {
					fiveXX = append(fiveXX, fmt.Sprintf("%d %s", w.Code, strings.TrimSpace(w.Body.String())))
				}
				mu.Unlock()
			}
		}(g)
	}
	// The purge starts once writes are under way, and the writers go on
	// until writes after it have been answered.
	waitFor := func(n int64) {
		for deadline := time.Now().Add(time.Minute); writesBeforePurgeEnd.Load() < n && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor(40)
	ctx := store.WithVisibility(context.Background(), store.AllDocuments())
	_, purgeErr := tenant.Purge(ctx, testdb.Owner(t), b.a.ID)
	waitFor(writesBeforePurgeEnd.Load() + 40)
	stop.Store(true)
	wg.Wait()

	if purgeErr != nil {
		t.Errorf("tenant.Purge while the tenant is written: %v; want the tenant deleted", purgeErr)
	}
	mu.Lock()
	defer mu.Unlock()
	t.Logf("PUT statuses during the purge: %v (%d writes)", statuses, writesBeforePurgeEnd.Load())
	for _, s := range fiveXX {
		t.Errorf("concurrent PUT answered %s; want 200, the 401/403/404/409 of a tenant that is gone, or a retryable 503", s)
	}
}
