package ask_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/ask"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
)

// TestAskGivesEachPassageOnce: three documents with one text (a package's
// copies of a manual page) match best, yet the answerer is given that text
// once (other sources may take the copies' places, if they pass the
// relevance floor); search itself still returns every copy.
func TestAskGivesEachPassageOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, _, tn, emb, p := smallChunkTenant(t, "ask-distinct")
	copyText := "# bounce\n\nThe bounce daemon keeps per-message logs of undeliverable recipients and sends delivery status notifications."
	for _, uri := range []string{"bounce.8", "defer.8", "trace.8"} {
		if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: uri, ContentType: "text/markdown", Content: []byte(copyText)}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		text := fmt.Sprintf("# bounce\n\nThe bounce daemon of release %d sends delivery status notifications for undeliverable recipients.", i)
		if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: fmt.Sprintf("release%d/bounce.8", i), ContentType: "text/markdown", Content: []byte(text)}); err != nil {
			t.Fatal(err)
		}
	}
	sr := &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}
	req := search.Request{Query: "Which daemon keeps per-message logs of undeliverable recipients and sends delivery status notifications?", TopK: 3}
	// Ask searches for twice its sources and keeps each text once.
	found, err := sr.Search(ctx, tn, search.Request{Query: req.Query, TopK: 2 * req.TopK})
	if err != nil {
		t.Fatal(err)
	}
	copies := 0
	for _, r := range found.Results[:min(3, len(found.Results))] {
		if !strings.Contains(r.Content, "release") {
			copies++
		}
	}
	if copies != 3 {
		for _, r := range found.Results {
			t.Logf("%s %.4f %v %v", r.SourceURI, r.Score, r.VectorRank, r.KeywordRank)
		}
		t.Fatalf("search returned %d of the 3 copies in its top 3, want all (the test needs them to rank first)", copies)
	}
	svc := &ask.Service{Searcher: sr, Answerer: answer.New(nil)}
	res, err := svc.Ask(ctx, tn, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, s := range res.Sources {
		key := strings.Join(strings.Fields(s.Content), " ")
		if seen[key] {
			t.Errorf("source %d (%s) repeats another source's text", s.N, s.SourceURI)
		}
		seen[key] = true
	}
	if len(res.Sources) == 0 || !strings.Contains(res.Sources[0].Content, "per-message logs") {
		t.Errorf("sources %+v, want the copies' text first", res.Sources)
	}
}
