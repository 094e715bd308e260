package ask_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/chunk"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
)

// TestSearchResultNamesTheMatchedSection: a chunk packing several short
// sections has the first one's heading path and anchor; a search whose
// words are in a later section names and links that one too
// (match_heading_path, match_anchor), and says nothing more when the words
// are in the first.
func TestSearchResultNamesTheMatchedSection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := chunk.DefaultConfig()
	cfg.TargetTokens, cfg.MaxTokens, cfg.MinTokens, cfg.OverlapTokens = 400, 500, 5, 0
	pool, _, tn, emb, p := chunkTenant(t, "search-match-section", cfg)
	html := `<html><head><title>Patterns</title></head><body><main><h1 id="patterns">Patterns</h1>
<p>Every shape the painter draws is stroked with a source of colour.</p>
<h2 id="path-operation">Path operation</h2><p>Paths are built from lines and curves and then stroked or filled.</p>
<h2 id="line-cap">Line cap style</h2><p>The line cap style says how the ends of a stroked line are drawn.</p>
<h2 id="pattern-extend">Pattern extend</h2><p>The extend mode of a gradient pattern says what is drawn outside its area; the default for gradients is pad.</p>
</main></body></html>`
	if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "https://docs.test/patterns", ContentType: "text/html", Content: []byte(html)}); err != nil {
		t.Fatal(err)
	}
	searcher := &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}
	resp, err := searcher.Search(ctx, tn, search.Request{Query: "default extend mode of a gradient pattern", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) != 1 || !strings.Contains(resp.Results[0].Content, "painter draws") || !strings.Contains(resp.Results[0].Content, "default for gradients") {
		t.Fatalf("want one chunk packing the sections (the setup), got %+v", resp.Results)
	}
	r := resp.Results[0]
	if r.Anchor != "patterns" {
		t.Errorf("chunk anchor %q: want the section the chunk starts in", r.Anchor)
	}
	if !strings.HasSuffix(r.MatchHeadingPath, "Pattern extend") || r.MatchAnchor != "pattern-extend" {
		t.Errorf("match %q #%s: want the Pattern extend section and its anchor", r.MatchHeadingPath, r.MatchAnchor)
	}
	resp, err = searcher.Search(ctx, tn, search.Request{Query: "which source of colour does the painter stroke shapes with", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) != 1 || resp.Results[0].MatchHeadingPath != "" || resp.Results[0].MatchAnchor != "" {
		t.Errorf("words in the section the chunk starts in: want no match section, got %+v", resp.Results)
	}
}
