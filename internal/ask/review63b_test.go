package ask_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/chunk"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
)

// review63b (a defect a review of 1331de8 found, fixed: places are now
// found by anchor marks, not title lines; what went wrong then): a page whose intro lists its sections' names as terms (a
// definition list, "GreenPool" above its one-line summary) before the
// sections themselves. matchSection takes the intro's term lines for the
// sections' titles, so the words in the GreenPool section are credited to
// the GreenPile segment: match_heading_path / match_anchor name and link
// the wrong section.
func TestReview63bOverviewTermsAreNotSectionTitles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := chunk.DefaultConfig()
	cfg.TargetTokens, cfg.MaxTokens, cfg.MinTokens, cfg.OverlapTokens = 400, 500, 5, 0
	pool, _, tn, emb, p := chunkTenant(t, "search-r63b-overview", cfg)
	html := `<html><head><title>Pool</title></head><body><main><h1 id="pool">Pool</h1>
<p>The module offers two classes:</p>
<dl><dt>GreenPool</dt><dd>bounds how many green threads run at once.</dd><dt>GreenPile</dt><dd>collects results.</dd></dl>
<h2 id="greenpool">GreenPool</h2><p>Spawning into a full pool blocks the caller until a green thread finishes.</p>
<h2 id="greenpile">GreenPile</h2><p>An iterator over the results of the spawned functions, in order.</p>
</main></body></html>`
	if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "https://docs.test/pool", ContentType: "text/html", Content: []byte(html)}); err != nil {
		t.Fatal(err)
	}
	searcher := &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}
	resp, err := searcher.Search(ctx, tn, search.Request{Query: "does spawning into a full pool block the caller", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) != 1 || !strings.Contains(resp.Results[0].Content, "module offers") || !strings.Contains(resp.Results[0].Content, "in order") {
		t.Fatalf("want one chunk packing the sections (the setup), got %+v", resp.Results)
	}
	r := resp.Results[0]
	if r.MatchHeadingPath != "Pool > GreenPool" || r.MatchAnchor != "greenpool" {
		t.Errorf("match %q #%s: want Pool > GreenPool #greenpool, the section holding the words", r.MatchHeadingPath, r.MatchAnchor)
	}
}
