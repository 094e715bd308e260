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

// TestQuantityRefusalSaysWhy: a question asking for a number over pages
// that name none is refused as not_in_sources, and the response says why
// in words; the same pages answer a question they do answer.
func TestQuantityRefusalSaysWhy(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, _, tn, emb, p := chunkTenant(t, "ask-quantity", chunk.DefaultConfig())
	page := "# Redirects\n\nThe client follows redirects by default. The maximum number of redirects the client follows can be configured with the max_redirects parameter of a request.\n\n" +
		"Set allow_redirects to False to receive the redirect response itself instead of following it.\n"
	if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "https://docs.test/redirects", ContentType: "text/markdown", Content: []byte(page)}); err != nil {
		t.Fatal(err)
	}
	svc := &ask.Service{Searcher: &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}, Answerer: answer.New(nil)}
	res, err := svc.Ask(ctx, tn, search.Request{Query: "What is the maximum number of redirects the client follows?", TopK: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Refused || res.RefusalReason != ask.ReasonNotInSources || !strings.Contains(res.ConfidenceReason, "no number") {
		t.Errorf("refused %v (%s), confidence_reason %q, answer %q; want not_in_sources saying the passages give no number", res.Refused, res.RefusalReason, res.ConfidenceReason, res.Answer)
	}
	res, err = svc.Ask(ctx, tn, search.Request{Query: "How do I receive the redirect response itself instead of following redirects?", TopK: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Refused || !strings.Contains(res.Answer, "allow_redirects") {
		t.Errorf("refused %v (%s %q), answer %q; want allow_redirects", res.Refused, res.RefusalReason, res.ConfidenceReason, res.Answer)
	}
}
