package eval

import (
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// Tune scores every grid point in memory "as Searcher.Search fuses",
// diversified "as Search does" (legCache.ranked: search.Diversify over
// fuseLegs), and TuneResult.Verified requires the production path to
// reproduce those metrics. But fuseLegs returns the cached leg results,
// whose Score the cache leaves at zero, while Search's fuse sets each
// result's Score to its fused score. Diversify now places a chunk over
// the per-document cap by that score (decay 0.75): in production a page's
// third chunk at 0.9 of the best stays third, in the tuner every chunk
// over the cap scores 0 and goes to the end. The top k differ, so do
// their documents, and the grid is tuned on a ranking that is not served.
// (Under the old hold-back bar both paths put that chunk last here, as a
// chunk at 0.2 and one at 0.1 passed it; the decay is what split them.)
func TestTuneDiversifiesAsSearchDoes(t *testing.T) {
	page, faq, other := uuid.New(), uuid.New(), uuid.New()
	c := [5]uuid.UUID{uuid.New(), uuid.New(), uuid.New(), uuid.New(), uuid.New()}
	docs := []uuid.UUID{page, page, page, faq, other}
	bm25 := []float64{10, 9.5, 9, 2, 1}
	set := tenant.Settings{Fusion: search.FusionConvex, VectorWeight: ptr(0.0), KeywordWeight: ptr(1.0), DocumentWeight: ptr(0.0)}

	// The keyword leg as the cache holds it (legCache.leg: ids,
	// documents, leg scores; no Score).
	var kw search.Response
	var scored []search.Scored
	for i := range c {
		kw.Results = append(kw.Results, search.Result{ChunkID: c[i], DocumentID: docs[i], KeywordScore: ptr(bm25[i])})
		scored = append(scored, search.Scored{ID: c[i], Doc: docs[i], Value: bm25[i]})
	}

	// What Searcher.fuse hands to Diversify: the fused results with their
	// fused scores.
	byID := map[uuid.UUID]uuid.UUID{}
	for i := range c {
		byID[c[i]] = docs[i]
	}
	var served []search.Result
	for _, f := range search.Combine(set, nil, scored) {
		served = append(served, search.Result{ChunkID: f.ID, DocumentID: byID[f.ID], Score: f.Score})
	}

	const perDoc, topK = 2, 3
	ids := func(rs []search.Result) []int {
		var out []int
		for _, r := range rs[:min(topK, len(rs))] {
			out = append(out, slices.Index(c[:], r.ChunkID))
		}
		return out
	}
	want := ids(search.Diversify(served, perDoc))
	got := ids(search.Diversify(fuseLegs(set, search.Response{}, kw), perDoc))
	if !slices.Equal(got, want) {
		t.Fatalf("the tuner's top %d is chunks %v, the served top %d is chunks %v", topK, got, topK, want)
	}
}
