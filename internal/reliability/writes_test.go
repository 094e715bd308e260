package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestRewriteSameContentNewMetadata: writing a document again with the same
// content but a new title or metadata must store them. Today the write is
// skipped as "unchanged" (internal/ingest Pipeline.Upsert compares only the
// content hash and the pipeline fingerprint), so the client's new metadata is
// silently dropped — and metadata is what search filters on.
func TestRewriteSameContentNewMetadata(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the database")
	}
	t.Parallel()
	s := newServer(t, options{})
	tn := testdb.NewTenant(t, "rewrite", "")
	ed := token(t, tn.ID, auth.RoleEditor)
	write := func(title string, meta map[string]any) api.DocumentWrite {
		r := s.do(call{Method: "PUT", Path: "/v1/documents", Token: ed, Body: map[string]any{"source_uri": "policy.md",
			"content": "# Policy\n\nAccess reviews happen every quarter.\n", "title": title, "metadata": meta}})
		if r.Status != http.StatusOK {
			t.Fatalf("write: %s", r)
		}
		var w api.DocumentWrite
		r.json(t, &w)
		return w
	}
	first := write("Policy v1", map[string]any{"visibility": "internal"})
	second := write("Policy v2", map[string]any{"visibility": "public"})
	var d api.Document
	s.do(call{Method: "GET", Path: "/v1/documents/" + first.ID.String(), Token: ed}).json(t, &d)
	if d.Title != "Policy v2" || d.Metadata["visibility"] != "public" {
		t.Errorf("after rewriting with a new title and metadata (status %q): title %q, metadata %v; want the new ones",
			second.Status, d.Title, d.Metadata)
	}
	r := s.do(call{Method: "POST", Path: "/v1/search", Token: ed, Body: map[string]any{"query": "access reviews", "metadata": map[string]any{"visibility": "public"}}})
	var sr api.SearchResponse
	r.json(t, &sr)
	if len(sr.Results) == 0 {
		t.Errorf("a search filtered on the new metadata finds nothing")
	}
	// The same bytes declared as another type are extracted differently:
	// they must be re-extracted, not skipped.
	r = s.do(call{Method: "PUT", Path: "/v1/documents", Token: ed, Body: map[string]any{"source_uri": "policy.md",
		"content": "# Policy\n\nAccess reviews happen every quarter.\n", "content_type": "text"}})
	var w api.DocumentWrite
	r.json(t, &w)
	s.do(call{Method: "GET", Path: "/v1/documents/" + first.ID.String(), Token: ed}).json(t, &d)
	if d.ContentType != "text/plain" {
		t.Errorf("after rewriting as text (status %q): content_type %q, want text/plain", w.Status, d.ContentType)
	}
	consistency(t, tn.ID)
}

// TestConcurrentWritersOneTenant: eight writers add and rewrite documents of
// one tenant at once, over a shared vocabulary (so their term statistics rows
// collide) and overlapping source_uris (so updates delete chunks while others
// insert). Every write succeeds — no deadlock, no serialisation failure
// reaches the client — and the tenant's BM25 statistics, postings and
// embeddings are exactly what its chunks say.
func TestConcurrentWritersOneTenant(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the database")
	}
	t.Parallel()
	s := newServer(t, options{})
	tn := testdb.NewTenant(t, "writers", "")
	ed := token(t, tn.ID, auth.RoleEditor)
	words := strings.Fields("index vacuum replica planner tuple buffer checkpoint lock snapshot wal role policy " +
		"tenant vector keyword chunk embedding statistics trigger posting")
	var wg sync.WaitGroup
	var failed atomic.Int64
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for i := range 12 {
				var b strings.Builder
				fmt.Fprintf(&b, "# Note %d\n\n", i)
				for range 3 {
					b.WriteString("## Part\n\n")
					for range 60 {
						b.WriteString(words[r.IntN(len(words))] + " ")
					}
					b.WriteString("\n\n")
				}
				// Ten source_uris shared by all writers: adds and rewrites race.
				uri := fmt.Sprintf("notes/%d.md", r.IntN(10))
				rep, err := s.send(context.Background(), call{Method: "PUT", Path: "/v1/documents", Token: ed,
					Body: map[string]any{"source_uri": uri, "content": b.String()}})
				if err != nil || rep.Status != http.StatusOK {
					failed.Add(1)
					t.Errorf("writer %d, write %d: %v %s", w, i, err, rep)
				}
			}
		}()
	}
	wg.Wait()
	if failed.Load() > 0 {
		t.Fatalf("%d writes failed", failed.Load())
	}
	consistency(t, tn.ID)
}
