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

// A reference page's entries (Sphinx's definition lists with an id on each
// term) follow one another inside one chunk; a citation of the third
// entry's text links to that entry, not to the chunk's first (the BIND
// manual's recursive-clients default was cited as max-types-per-name).
func TestCitationLinksToTheEntryInsideTheChunk(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, _, tn, emb, p := chunkTenant(t, "ask-anchor-marks", chunk.DefaultConfig())
	html := `<html><head><title>Statements</title></head><body><main><h1 id="statements">Statements</h1><dl>` +
		`<dt id="opt-max-types">max-types-per-name</dt><dd><p>Limits how many resource record types are cached for one owner name.</p></dd>` +
		`<dt id="opt-min-refresh">min-refresh-time</dt><dd><p>Sets the shortest interval between zone refresh checks of a secondary.</p></dd>` +
		`<dt id="opt-recursive-clients">recursive-clients</dt><dd><p>Sets the maximum number of simultaneous recursive lookups the server performs for its clients. The default is 1000 wombats.</p></dd>` +
		`</dl></main></body></html>`
	if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "https://docs.test/reference", ContentType: "text/html", Content: []byte(html)}); err != nil {
		t.Fatal(err)
	}
	searcher := &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}
	svc := &ask.Service{Searcher: searcher, Answerer: answer.New(nil)}
	q := "What is the default number of simultaneous recursive lookups the server performs?"
	res, err := svc.Ask(ctx, tn, search.Request{Query: q, TopK: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Refused || len(res.Citations) == 0 || !strings.Contains(res.Answer, "1000") {
		t.Fatalf("refused=%v (%s), answer %q, citations %+v", res.Refused, res.RefusalReason, res.Answer, res.Citations)
	}
	if src := res.Sources[res.Citations[0].N-1]; src.Anchor == "opt-recursive-clients" {
		t.Fatalf("the chunk starts at the entry asked about (anchor %q): the test needs entries packed in one chunk", src.Anchor)
	}
	if c := res.Citations[0]; c.Anchor != "opt-recursive-clients" {
		t.Errorf("citation %+v of answer %q; want anchor opt-recursive-clients", c, res.Answer)
	}
}
