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

// TestAskReadsPackedSectionTitles (h-trial34): an FAQ page's short entries
// are packed into one chunk, and their headings are lines of its text. A
// heading of two sentences ("I get “Filtered offsite request” messages.
// How can I fix them?") was split like prose, and its second half opened
// the answer as a quoted sentence. The titles the chunk's sections record
// reach the answerer (answer.Source.Titles): the answer quotes the entry's
// text, never its heading, and its citation names the entry.
func TestAskReadsPackedSectionTitles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, _, tn, emb, p := chunkTenant(t, "ask-titles", chunk.DefaultConfig())
	html := `<html><head><title>FAQ</title></head><body><main><h1>Frequently Asked Questions</h1>
<h2>Can I run a crawler without a project?</h2><p>Yes. Use the runcrawler command with the file of your crawler.</p>
<h2>I get “Filtered offsite request” messages. How can I fix them?</h2>
<p>Those messages are logged by the offsite middleware, which drops requests to domains outside the crawler's allowed domains.</p>
<p>Add the domain to the allowed_domains list of the crawler to follow such links.</p>
<h2>Can I export large results as JSON?</h2><p>It depends on the size of the output; prefer JSON lines for large exports.</p>
</main></body></html>`
	if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "https://docs.test/faq", ContentType: "text/html", Content: []byte(html)}); err != nil {
		t.Fatal(err)
	}
	svc := &ask.Service{Searcher: &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}, Answerer: answer.New(nil)}
	res, err := svc.Ask(ctx, tn, search.Request{Query: "my log is full of Filtered offsite request messages, how can I fix them?", TopK: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Refused || len(res.Sources) != 1 {
		t.Fatalf("refused=%v (%s) with %d sources; want one packed chunk", res.Refused, res.RefusalReason, len(res.Sources))
	}
	if !strings.Contains(res.Sources[0].Content, "Can I export large results") {
		t.Fatalf("the entries are not packed into one chunk: %q", res.Sources[0].Content)
	}
	if strings.Contains(res.Answer, "How can I fix them") || !strings.Contains(res.Answer, "offsite middleware") {
		t.Errorf("answer:\n%s\nwant the entry's text, not its heading", res.Answer)
	}
	// The citation names the entry the quotation lies in, not only the
	// FAQ the chunk's heading path names.
	if len(res.Citations) == 0 || !strings.HasSuffix(res.Citations[0].HeadingPath, " > I get “Filtered offsite request” messages. How can I fix them?") {
		t.Errorf("citations %+v; want the first under the entry's heading", res.Citations)
	}
}
