package search_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
)

// TestLegsApartEqualTogether: a hybrid search whose legs run at once on two
// connections (a searcher with spare connections) returns what the same
// search in one transaction returns — the same chunks, scores, ranks,
// confidence and reasons — for every caller, and a caller's access list
// filters both legs alike: the chunk of a document only group:ops may read
// is in neither leg for another principal, apart or together.
func TestLegsApartEqualTogether(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tt, s := corpusTenant(t, "apart", "english", map[string]string{
		"docs/backup.md":   "# Backups\n\nRun pg_dump to write a database into a single archive file. Restore it with pg_restore.\n\n## Schedules\n\nA nightly cron job keeps seven days of archives.",
		"docs/vacuum.md":   "# Vacuum\n\nAutovacuum removes dead tuples and updates the planner statistics. Tune autovacuum_naptime for busy tables.",
		"docs/indexes.md":  "# Indexes\n\nA B-tree index speeds up equality and range lookups. CREATE INDEX CONCURRENTLY builds one without blocking writes.",
		"docs/replicas.md": "# Replication\n\nStreaming replication ships the write-ahead log to a standby server that can answer read-only queries.",
	})
	p, err := ingest.New(s.Pool, s.Embedder, 1)
	if err != nil {
		t.Fatal(err)
	}
	secret := ingest.Document{SourceURI: "docs/secret-backup.md", ContentType: "text/markdown", SetAccess: true, Access: []string{"group:ops"},
		Content: []byte("# Offsite backups\n\nThe archive file from pg_dump is copied to the vault every night with the ops key.")}
	if _, err := p.Upsert(store.WithVisibility(ctx, store.AllDocuments()), tt, secret); err != nil {
		t.Fatal(err)
	}
	together, apart := *s, *s
	together.ParallelBelow, apart.ParallelBelow = -1, 1<<20
	questions := []string{
		"How do I copy my whole database into one archive file?",
		"what does autovacuum_naptime change",
		"build an index without blocking writes",
		"Can a standby server answer queries?",
		"What is the capital of France?",
	}
	for _, who := range []struct {
		name       string
		principals []string
		secret     bool
	}{{"ops", []string{"user:a", "group:ops"}, true}, {"other", []string{"user:b"}, false}} {
		rctx := store.WithVisibility(ctx, store.AsPrincipals(who.principals))
		for _, q := range questions {
			req := search.Request{Query: q, TopK: 10}
			a, err := apart.Search(rctx, tt, req)
			if err != nil {
				t.Fatal(err)
			}
			b, err := together.Search(rctx, tt, req)
			if err != nil {
				t.Fatal(err)
			}
			if !a.LegsApart || b.LegsApart {
				t.Errorf("%s %q: legs apart %v and %v, want true and false", who.name, q, a.LegsApart, b.LegsApart)
			}
			a.Timings, b.Timings, a.LegsApart = nil, nil, false
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s %q: apart\n%+v\ntogether\n%+v", who.name, q, a, b)
			}
			sawSecret := false
			for _, r := range a.Results {
				sawSecret = sawSecret || r.SourceURI == "docs/secret-backup.md"
			}
			if q == questions[0] && sawSecret != who.secret {
				t.Errorf("%s %q: the ops-only document among the results: %v, want %v", who.name, q, sawSecret, who.secret)
			}
		}
	}
}
