package eval

import (
	"context"
	"maps"
	"os"
	"testing"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestInMemoryArrangeReadsTheNormalisedQuestion_hreview31: search.Search
// arranges its results by the question as it normalises it
// (analyze.Question folds a Japanese input method's fullwidth "２．１" to
// "2.1", which makes it a question about changes: no change-log discount),
// while legCache.ranked passes the set's raw question to search.Arrange
// (no match: the change log is discounted). What a user of `ragd eval tune`
// sees: on a tenant below the exact threshold the tuned point's
// production nDCG differs from the in-memory one and the note blames "a
// defect in ragd"; the in-memory fusion ranks such questions differently
// from what is served.
func TestInMemoryArrangeReadsTheNormalisedQuestion_hreview31(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	emb, err := embed.NewLocal(embed.DefaultModelDir(os.Getenv))
	if err != nil {
		t.Fatalf("local model: %v (run `make setup`)", err)
	}
	pool := testdb.App(t)
	m, err := store.New().GetEmbeddingModel(ctx, pool, emb.Model())
	if err != nil {
		t.Fatal(err)
	}
	p, err := ingest.New(pool, emb, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	tn := testdb.NewTenant(t, "hr31-fullwidth", "")
	tt, err := tenant.Load(ctx, pool, tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	corpus := maps.Clone(verifyCorpus)
	corpus["doc://changes"] = changeLogPage
	for uri, text := range corpus {
		if _, err := p.Upsert(ctx, tt, ingest.Document{SourceURI: uri, ContentType: "text/markdown", Content: []byte(text)}); err != nil {
			t.Fatal(err)
		}
	}
	if tt, err = tenant.Load(ctx, pool, tn.ID); err != nil {
		t.Fatal(err)
	}
	svc := New(pool, &search.Searcher{Pool: pool, Embedder: emb, ModelID: m.ID, VectorPrior: float64(m.VectorWeight)})
	const topK = 5
	qs := []Question{{Question: "Does VACUUM reclaim storage of dead tuples faster in ２．１?", Relevant: []string{"doc://vacuum"}}}
	g := tenant.Settings{}
	depth := max(topK, svc.searcher.Settings(tt, &g).Candidates)
	cache := &legCache{t: tt, sr: svc.runSearcher(depth), qs: qs, depth: depth, legs: map[legKey][]search.Response{}}
	prod := svc.runSearcher(topK)
	ranked, err := cache.ranked(ctx, g, topK, prod.DocumentCap())
	if err != nil {
		t.Fatal(err)
	}
	set := g
	resp, err := prod.Search(ctx, tt, search.Request{Query: qs[0].Question, TopK: topK, NoRerank: true, Settings: &set})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := chunkList(ranked[0]), chunkList(resp.Results); got != want {
		t.Errorf("%q:\n in memory  %s\n production %s", qs[0].Question, got, want)
	}
}
