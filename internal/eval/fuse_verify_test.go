package eval

import (
	"context"
	"fmt"
	"maps"
	"os"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// verifyCorpus (with handbookPage and changeLogPage) has multi-chunk pages
// (so document evidence reorders), a page that is most of the tenant (its
// evidence divided by its share: chanceChunks), a change log (discounted
// for a question that does not ask about changes), a
// Chinese page (the local model does not represent Han: the vector leg is
// left out of such questions) and pages sharing terms. Written for this
// test.
var verifyCorpus = map[string]string{
	"doc://vacuum": "# Routine Vacuuming\n\nVACUUM reclaims storage occupied by dead tuples.\n\n## Autovacuum\n\nThe autovacuum daemon runs " +
		"VACUUM and ANALYZE automatically when enough tuples changed.\n\n## Freezing\n\nVACUUM also freezes old transaction ids so that " +
		"wraparound never makes old rows invisible.",
	"doc://wal": "# Write-Ahead Logging\n\nChanges to data files are written only after the log records describing them reached " +
		"permanent storage.\n\n## Checkpoints\n\nA checkpoint flushes dirty pages so that recovery replays the log from there.",
	"doc://index":  "# Index Types\n\nB-tree indexes handle equality and range queries. GIN indexes suit arrays and full-text documents.",
	"doc://roles":  "# Database Roles\n\nPrivileges are granted to roles with GRANT and taken back with REVOKE; a role with LOGIN can connect.",
	"doc://bread":  "# Sourdough Bread\n\nMix flour, water and salt with a starter, ferment the dough overnight and bake it hot.",
	"doc://zhpool": "# 连接池\n\n连接池在应用程序和数据库之间复用已经建立的连接，减少握手和认证的开销。连接池的大小应当根据核心数量设置。",
}

var verifyQuestions = []Question{
	{Question: "How does VACUUM reclaim storage from dead tuples?", Relevant: []string{"doc://vacuum"}},
	{Question: "What does the autovacuum daemon do?", Relevant: []string{"doc://vacuum"}},
	{Question: "How does the database survive a crash?", Relevant: []string{"doc://wal"}},
	{Question: "Which index type suits full-text documents?", Relevant: []string{"doc://index"}},
	{Question: "How do I give another user permission to read my tables?", Relevant: []string{"doc://roles"}},
	{Question: "连接池的大小应该怎么设置？", Relevant: []string{"doc://zhpool"}},
	{Question: "What is it about?", Relevant: []string{"doc://bread"}},
}

// TestInMemoryFusionMatchesProductionAtEveryPoint: for every point of the
// tuning grid (both fusions, every vector and document weight, each BM25
// pair and candidate count, the single legs) and every question, the
// in-memory fusion of the cached legs (legCache.ranked, what tuning
// scores) returns exactly the chunks, in the same order, that
// Searcher.Search returns with the point's settings: tuning measures what
// would be served.
func TestInMemoryFusionMatchesProductionAtEveryPoint(t *testing.T) {
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
	tn := testdb.NewTenant(t, "fusion-verify", "")
	tt, err := tenant.Load(ctx, pool, tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	corpus := maps.Clone(verifyCorpus)
	corpus["doc://handbook"], corpus["doc://changes"] = handbookPage(), changeLogPage
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
	grid := DefaultGrid(tenant.Settings{}, TuneOptions{Candidates: []int{3, 10}, BM25: true})
	// Beyond the default grid: a single leg under RRF, extreme document weights.
	grid = append(grid,
		tenant.Settings{Fusion: search.FusionRRF, VectorWeight: ptr(1.0), KeywordWeight: ptr(0.0)},
		tenant.Settings{Fusion: search.FusionRRF, VectorWeight: ptr(0.0), KeywordWeight: ptr(1.0)},
		tenant.Settings{Fusion: search.FusionConvex, VectorWeight: ptr(1.0), KeywordWeight: ptr(0.0), DocumentWeight: ptr(10.0)},
		tenant.Settings{Fusion: search.FusionConvex, VectorWeight: ptr(100.0), KeywordWeight: ptr(1.0), DocumentWeight: ptr(10.0)})
	grid = dedupe(append([]tenant.Settings{{}}, grid...), svc.prior())
	depth := topK
	for _, g := range grid {
		depth = max(depth, svc.searcher.Settings(tt, &g).Candidates)
	}
	cache := &legCache{t: tt, sr: svc.runSearcher(depth), qs: verifyQuestions, depth: depth, legs: map[legKey][]search.Response{}}
	prod := svc.runSearcher(topK)
	for _, g := range grid {
		ranked, err := cache.ranked(ctx, g, topK, prod.DocumentCap())
		if err != nil {
			t.Fatal(err)
		}
		for i, q := range verifyQuestions {
			set := g
			resp, err := prod.Search(ctx, tt, search.Request{Query: q.Question, TopK: topK, NoRerank: true, Settings: &set})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := chunkList(ranked[i]), chunkList(resp.Results); got != want {
				t.Errorf("point %s, %q:\n in memory  %s\n production %s", retrievalKey(g, svc.prior()), q.Question, got, want)
			}
		}
	}
}

// handbookPage is a page of twelve sections of about 250 words each, most
// of the tenant's chunks, every one matching the vacuum and index questions.
func handbookPage() string {
	var b strings.Builder
	b.WriteString("# Operations Handbook\n\n")
	topics := []string{"vacuum", "autovacuum", "index", "checkpoint", "crash", "permission"}
	for i := range 12 {
		t := topics[i%len(topics)]
		fmt.Fprintf(&b, "## Routine %d: %s\n\n", i+1, t)
		for j := range 25 {
			fmt.Fprintf(&b, "Step %d of the %s routine checks the tables, the dead tuples and the storage it reclaimed. ", j+1, t)
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

// changeLogPage is a change log whose entries name the questions' terms.
const changeLogPage = "# Changelog\n\n## Version 2.1.0\n\n- VACUUM reclaims storage of dead tuples faster.\n" +
	"- The autovacuum daemon logs what it did.\n\n## Version 2.0.0\n\n- GIN indexes for full-text documents.\n"

func chunkList(rs []search.Result) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(r.SourceURI + "#" + r.ChunkID.String()[:8] + " ")
	}
	return b.String()
}
