package ask_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/ask"
	"github.com/ragd-dev/ragd/internal/chunk"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
)

// TestHReview33CitationAnchorIsTheQuotedSection: a chunk that packs several
// short FAQ entries, each with its own id, starts under the first; an
// extractive answer quoting the third entry names the third entry's heading
// path (sectionAt) and must link to the third entry's anchor, not the
// first's: the heading path and the link of one citation disagree.
func TestHReview33CitationAnchorIsTheQuotedSection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := chunk.DefaultConfig()
	cfg.TargetTokens, cfg.MaxTokens, cfg.MinTokens, cfg.OverlapTokens = 400, 500, 5, 0
	pool, _, tn, emb, p := chunkTenant(t, "hreview33-packed-anchor", cfg)
	html := `<html><head><title>Gateway FAQ</title></head><body><main><h1 id="faq">Gateway FAQ</h1>
<h2 id="q-restart">How do I restart the gateway?</h2><p>Run the restart command of the service manager; open sessions are closed.</p>
<h2 id="q-logs">Where are the logs kept?</h2><p>The gateway writes its logs to the journal of the host it runs on.</p>
<h2 id="q-quokka">Why does the quokka checker mark a wombat backend down?</h2><p>The quokka checker marks a wombat backend down after three failed probes in a row.</p>
<h2 id="q-tls">Which TLS versions are supported?</h2><p>Versions 1.2 and 1.3 are supported; older ones are refused.</p>
</main></body></html>`
	if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "https://docs.test/faq", ContentType: "text/html", Content: []byte(html)}); err != nil {
		t.Fatal(err)
	}
	searcher := &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}
	q := "Why does the quokka checker mark a wombat backend down?"
	resp, err := searcher.Search(ctx, tn, search.Request{Query: q, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) == 0 || !strings.Contains(resp.Results[0].Content, "How do I restart") || !strings.Contains(resp.Results[0].Content, "three failed probes") {
		t.Fatalf("want one chunk packing the entries (the setup), got %+v", resp.Results)
	}
	svc := &ask.Service{Searcher: searcher, Answerer: answer.New(nil)}
	res, err := svc.Ask(ctx, tn, search.Request{Query: q, TopK: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Refused || len(res.Citations) == 0 || !strings.Contains(res.Answer, "three failed probes") {
		t.Fatalf("refused=%v (%s), answer %q, citations %+v", res.Refused, res.RefusalReason, res.Answer, res.Citations)
	}
	c := res.Citations[0]
	if !strings.Contains(c.HeadingPath, "quokka checker") {
		t.Fatalf("citation heading path %q: want the quoted entry's (the setup)", c.HeadingPath)
	}
	if c.Anchor != "q-quokka" {
		t.Errorf("citation under %q links to #%s; want #q-quokka, the section the quoted sentence is in", c.HeadingPath, c.Anchor)
	}
}
