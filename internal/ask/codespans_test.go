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

// The code blocks extraction finds (an HTML <pre>) are stored with the
// document and reach the extractive answerer as ranges of each source's
// content (answer.Source.Code), through the widening to neighbour chunks:
// the <pre>'s start-up banner, whose lower-case log lines read like
// wrapped prose, is quoted as code.
func TestAskPassesRecordedCodeRanges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, _, tn, emb, p := smallChunkTenant(t, "ask-code")
	pre := "$ quokkad --http 127.0.0.1:8000 --workers 4\n\n*** Starting quokkad 2.0.20 on [x] ***\nmounting hello:app on /\nspawned quokkad worker 1 (pid: x)\nspawned quokkad worker 2 (pid: x)"
	html := "<html><head><title>Deploying</title></head><body><main><h1>Deploying</h1><h2>Running quokkad</h2>" +
		"<p>Start the quokkad server with four workers and watch its start-up lines:</p><pre>" + pre + "</pre>" +
		"<p>The workers option starts the worker processes.</p></main></body></html>"
	if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "https://docs.test/deploy", ContentType: "text/html", Content: []byte(html)}); err != nil {
		t.Fatal(err)
	}
	svc := &ask.Service{Searcher: &search.Searcher{Pool: pool, Embedder: emb, ModelID: 1}, Answerer: answer.New(nil)}
	res, err := svc.Ask(ctx, tn, search.Request{Query: "How do I start quokkad with four workers?", TopK: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Refused || len(res.Sources) == 0 {
		t.Fatalf("refused=%v (%s) with %d sources", res.Refused, res.RefusalReason, len(res.Sources))
	}
	var code []string
	for _, s := range res.Sources {
		for _, c := range s.Code {
			if c.Start < 0 || c.End > len(s.Content) || c.Start >= c.End {
				t.Fatalf("code range [%d, %d) outside source content of %d bytes", c.Start, c.End, len(s.Content))
			}
			code = append(code, s.Content[c.Start:c.End])
		}
	}
	if got := strings.Join(code, "\n"); !strings.Contains(got, "spawned quokkad worker 2") || strings.Contains(got, "Start the quokkad server") {
		t.Errorf("code ranges of the sources hold %q; want the <pre> and no prose", got)
	}
	if strings.Contains(res.Answer, "***: ") || strings.Contains(res.Answer, "on / spawned") {
		t.Errorf("the banner is quoted as prose:\n%s", res.Answer)
	}
}
