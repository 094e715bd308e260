package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestRacingPUTsStoreOneWholeRequest races PUT /v1/documents at one
// source_uri: each round one or two requests carry the stored content (the
// same-content path, which changes only metadata) and one or two another
// content, every request with its own title and metadata. After the round
// the stored document must be exactly one request's write: content hash,
// chunks, title and metadata all from the same request. 1,000 rounds over
// four source_uris at once.
func TestRacingPUTsStoreOneWholeRequest(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	ctx := context.Background()
	type stored struct {
		sha, title, chunks string
		meta               map[string]any
	}
	read := func(uri string) (stored, error) {
		var s stored
		var meta []byte
		err := store.InTenant(ctx, testdb.App(t), b.a.ID, func(tx pgx.Tx) error {
			return tx.QueryRow(ctx, `SELECT encode(d.content_sha, 'hex'), d.title, d.metadata,
				coalesce((SELECT string_agg(c.heading_path || E'\x1f' || c.content, E'\x1e' ORDER BY c.chunk_index) FROM chunks c
				          WHERE c.tenant_id = d.tenant_id AND c.document_id = d.id), '')
				FROM documents d WHERE d.tenant_id = $1 AND d.source_uri = $2`, b.a.ID, uri).Scan(&s.sha, &s.title, &meta, &s.chunks)
		})
		if err == nil {
			err = json.Unmarshal(meta, &s.meta)
		}
		return s, err
	}
	put := func(body map[string]any) error {
		raw, _ := json.Marshal(body)
		r := httptest.NewRequestWithContext(ctx, "PUT", "/v1/documents", bytes.NewReader(raw))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+ed)
		w := httptest.NewRecorder()
		b.srv.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			return fmt.Errorf("PUT %v: %d %s", body["source_uri"], w.Code, w.Body.String())
		}
		return nil
	}
	contents := make([]string, 3)
	want := map[string]string{} // content sha → its chunks
	for i := range contents {
		contents[i] = fmt.Sprintf("# Version %d\n\nThe shared page, version %d, about widgets.\n\n## Detail\n\nDetail %d of the page.\n", i, i, i)
		ref := fmt.Sprintf("ref/%d.md", i)
		if err := put(map[string]any{"source_uri": ref, "content": contents[i]}); err != nil {
			t.Fatal(err)
		}
		s, err := read(ref)
		if err != nil {
			t.Fatal(err)
		}
		want[s.sha] = s.chunks
	}
	const sources, rounds = 4, 250
	var mu sync.Mutex
	var torn, sameWins, fullWins int
	var wg sync.WaitGroup
	for src := range sources {
		wg.Go(func() {
			uri := fmt.Sprintf("race/doc-%d.md", src)
			cur := 0
			if err := put(map[string]any{"source_uri": uri, "content": contents[cur]}); err != nil {
				t.Error(err)
				return
			}
			for r := range rounds {
				type request struct {
					body map[string]any
					same bool
				}
				reqs := []request{{map[string]any{"content": contents[cur]}, true},
					{map[string]any{"content": contents[(cur+1+r%2)%len(contents)]}, false}}
				if r%3 == 0 { // a second same-content writer
					reqs = append(reqs, request{map[string]any{"content": contents[cur]}, true})
				}
				if r%5 == 0 { // a second writer of new content
					reqs = append(reqs, request{map[string]any{"content": contents[(cur+2)%len(contents)]}, false})
				}
				for i := range reqs {
					reqs[i].body["source_uri"] = uri
					reqs[i].body["title"] = fmt.Sprintf("title %d.%d.%d", src, r, i)
					reqs[i].body["metadata"] = map[string]any{"req": fmt.Sprintf("%d.%d.%d", src, r, i)}
				}
				errs := make([]error, len(reqs))
				var rw sync.WaitGroup
				for i := range reqs {
					rw.Go(func() { errs[i] = put(reqs[i].body) })
				}
				rw.Wait()
				got, err := read(uri)
				for _, e := range append(errs, err) {
					if e != nil {
						t.Errorf("round %d of %s: %v", r, uri, e)
						return
					}
				}
				whole := -1
				for i, q := range reqs {
					if got.sha == ingest.ContentSHA([]byte(q.body["content"].(string))) && got.title == q.body["title"] &&
						reflect.DeepEqual(got.meta, q.body["metadata"]) && got.chunks == want[got.sha] {
						whole = i
					}
				}
				mu.Lock()
				switch {
				case whole < 0:
					torn++
					if torn <= 3 {
						t.Errorf("round %d of %s: torn document %+v", r, uri, got)
					}
				case reqs[whole].same:
					sameWins++
				default:
					fullWins++
				}
				mu.Unlock()
				for i := range contents {
					if got.sha == ingest.ContentSHA([]byte(contents[i])) {
						cur = i
					}
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%d rounds: %d torn; the last write was a same-content one %d times, a new-content one %d times", sources*rounds, torn, sameWins, fullWins)
	if torn != 0 {
		t.Fatalf("%d of %d rounds left a torn document", torn, sources*rounds)
	}
	if sameWins == 0 || fullWins == 0 {
		t.Fatalf("the race never let both kinds of write finish last (same-content %d, new content %d): it tested nothing", sameWins, fullWins)
	}
}
