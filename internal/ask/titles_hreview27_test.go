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

// TestHReview27PackedTitleWithBreadcrumb: a section title that writes a
// menu path with "›" (UI documentation's breadcrumbs: "Settings › Privacy")
// is stored in the heading path as it is, but pathTitle turns every " › "
// of a recorded title into " > " (undoing chunk.pathElem's escape of a
// heading's own " > "), so the title matches no line of the chunk: the
// prose-shaped heading is split like prose and its second sentence is
// quoted as the answer's, and the citation names only the FAQ, not the
// entry the quotation lies in.
func TestHReview27PackedTitleWithBreadcrumb(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, _, tn, emb, p := chunkTenant(t, "ask-titles-hr27", chunk.DefaultConfig())
	const title = "My choices under Settings › Privacy › Cookies are reset after every update. How can I keep them?"
	html := `<html><head><title>FAQ</title></head><body><main><h1>Frequently Asked Questions</h1>
<h2>Can I run a crawler without a project?</h2><p>Yes. Use the runcrawler command with the file of your crawler.</p>
<h2>` + title + `</h2>
<p>Those choices are stored in the profile folder, which the updater replaces unless the profile is marked as portable.</p>
<p>Mark the profile as portable in the launcher to keep the cookie choices across updates.</p>
<h2>Can I export large results as JSON?</h2><p>It depends on the size of the output; prefer JSON lines for large exports.</p>
</main></body></html>`
	if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "https://docs.test/faq-breadcrumb", ContentType: "text/html", Content: []byte(html)}); err != nil {
		t.Fatal(err)
	}
	svc := &ask.Service{Searcher: &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}, Answerer: answer.New(nil)}
	res, err := svc.Ask(ctx, tn, search.Request{Query: "my cookie choices are reset after every update, how can I keep them?", TopK: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Refused || len(res.Sources) != 1 {
		t.Fatalf("refused=%v (%s) with %d sources; want one packed chunk", res.Refused, res.RefusalReason, len(res.Sources))
	}
	if !strings.Contains(res.Sources[0].Content, "Can I export large results") {
		t.Fatalf("the entries are not packed into one chunk: %q", res.Sources[0].Content)
	}
	if strings.Contains(res.Answer, "How can I keep them") || !strings.Contains(res.Answer, "profile") {
		t.Errorf("answer:\n%s\nwant the entry's text, not its heading", res.Answer)
	}
	if len(res.Citations) == 0 || !strings.HasSuffix(res.Citations[0].HeadingPath, " > "+title) {
		t.Errorf("citations %+v; want the first under the entry's heading %q", res.Citations, title)
	}
}
