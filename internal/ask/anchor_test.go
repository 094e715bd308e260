package ask_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/ask"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
)

// A long page's sections carry the anchors the page gives them (here a
// Sphinx-like headerlink, an <a name> before the heading, a definition's
// own id) through ingest, search and the extractive answer: the result,
// the source and the citation name the section the text lies in, so
// source_uri#anchor links there rather than to the top of the page.
func TestCitationsLinkToTheSection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, _, tn, emb, p := smallChunkTenant(t, "ask-anchor")
	filler := strings.Repeat("<p>The gateway forwards requests to the backends it knows and keeps their health in memory between checks.</p>", 3)
	html := `<html><head><title>Gateway manual</title></head><body><main><h1>Gateway manual</h1>` + filler +
		`<h2>Timeouts<a class="headerlink" href="#timeouts" title="Permalink">¶</a></h2>` + filler +
		`<p>The quokka timeout closes an idle wombat connection after thirty seconds of silence.</p>` +
		`<a name="retries"></a><h2>Retries</h2>` + filler +
		`<p>A failed request is retried twice on another backend before the gateway gives up.</p>` +
		`<h2>Options</h2><dl><dt id="opt-drain">drain</dt><dd><p>Drain stops sending new platypus sessions to a backend and lets the open ones finish.</p></dd></dl>` +
		`</main></body></html>`
	if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "https://docs.test/gateway", ContentType: "text/html", Content: []byte(html)}); err != nil {
		t.Fatal(err)
	}
	searcher := &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}
	svc := &ask.Service{Searcher: searcher, Answerer: answer.New(nil)}
	for q, want := range map[string]string{
		"When does the quokka timeout close an idle wombat connection?": "timeouts",
		"What does drain do to platypus sessions?":                      "opt-drain",
	} {
		resp, err := searcher.Search(ctx, tn, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Results) == 0 || resp.Results[0].Anchor != want {
			t.Fatalf("%q: first result %+v; want anchor %q", q, resp.Results, want)
		}
		if got := search.Link(resp.Results[0].SourceURI, resp.Results[0].Anchor); got != "https://docs.test/gateway#"+want {
			t.Errorf("%q: link %q", q, got)
		}
		res, err := svc.Ask(ctx, tn, search.Request{Query: q, TopK: 3}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Refused || len(res.Citations) == 0 {
			t.Fatalf("%q: refused=%v (%s), citations %+v", q, res.Refused, res.RefusalReason, res.Citations)
		}
		if c := res.Citations[0]; c.Anchor != want {
			t.Errorf("%q: citation %+v of answer %q; want anchor %q", q, c, res.Answer, want)
		}
		if s := res.Sources[res.Citations[0].N-1]; s.Anchor == "" {
			t.Errorf("%q: cited source has no anchor: %+v", q, s)
		}
	}
	// Retries' anchor is the <a name> written just before its heading.
	resp, err := searcher.Search(ctx, tn, search.Request{Query: "retried twice on another backend", TopK: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) == 0 || resp.Results[0].Anchor != "retries" {
		t.Fatalf("retries: %+v", resp.Results)
	}
}
