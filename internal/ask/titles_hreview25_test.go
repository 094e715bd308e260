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

// TestAskReadsLongPackedSectionTitles: the titles that reach the answerer
// (answer.Source.Titles) and sectionAt are the last elements of the
// chunk's section paths, and chunk.pathElem cuts an element at 200 bytes
// with "…". The titles this change is for are the long ones, shaped like
// prose (an FAQ entry's heading of two sentences): past 200 bytes (an
// FAQ question that describes the situation first; 67 characters of
// Chinese or Japanese) the recorded title is no line of the chunk, so the
// heading is split like prose again and its second sentence opens the
// answer, and the citation names only the FAQ — the h-trial34 defect
// this change fixed for a 62-byte heading.
func TestAskReadsLongPackedSectionTitles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, _, tn, emb, p := chunkTenant(t, "ask-long-titles", chunk.DefaultConfig())
	const title = "After upgrading from version 2.3 to version 2.4, every scheduled crawl of my own site logs “Filtered offsite request to www.example.com” messages and skips those pages. How can I make the crawler follow those links again?"
	if len(title) <= 200 {
		t.Fatalf("title of %d bytes; the test needs one over chunk.maxPathElem", len(title))
	}
	html := `<html><head><title>FAQ</title></head><body><main><h1>Frequently Asked Questions</h1>
<h2>Can I run a crawler without a project?</h2><p>Yes. Use the runcrawler command with the file of your crawler.</p>
<h2>` + title + `</h2>
<p>Those messages are logged by the offsite middleware, which drops requests to domains outside the crawler's allowed domains.</p>
<p>Add the domain to the allowed_domains list of the crawler to follow such links.</p>
<h2>Can I export large results as JSON?</h2><p>It depends on the size of the output; prefer JSON lines for large exports.</p>
</main></body></html>`
	if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "https://docs.test/faq-long", ContentType: "text/html", Content: []byte(html)}); err != nil {
		t.Fatal(err)
	}
	svc := &ask.Service{Searcher: &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}, Answerer: answer.New(nil)}
	res, err := svc.Ask(ctx, tn, search.Request{Query: "my log is full of Filtered offsite request messages, how can I make the crawler follow those links again?", TopK: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Refused || len(res.Sources) != 1 {
		t.Fatalf("refused=%v (%s) with %d sources; want one packed chunk", res.Refused, res.RefusalReason, len(res.Sources))
	}
	if !strings.Contains(res.Sources[0].Content, "Can I export large results") {
		t.Fatalf("the entries are not packed into one chunk: %q", res.Sources[0].Content)
	}
	if strings.Contains(res.Answer, "How can I make the crawler follow") || !strings.Contains(res.Answer, "offsite middleware") {
		t.Errorf("answer:\n%s\nwant the entry's text, not its heading", res.Answer)
	}
	if len(res.Citations) == 0 || !strings.Contains(res.Citations[0].HeadingPath, "After upgrading from version 2.3") {
		t.Errorf("citations %+v; want the first under the entry's heading", res.Citations)
	}
}
