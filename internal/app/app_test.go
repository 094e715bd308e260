package app

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// defaults is config.Load's configuration with no variable set.
func defaults(t *testing.T) config.Config {
	t.Helper()
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestNewFromConfig: with the configuration alone (the local model from
// RAGD_MODEL_DIR's default), New wires what `ragd serve` serves: the
// searcher takes the configured limits, the API gets the asker and the
// evaluator, and an answer reports its search stages and the answer stage.
func TestNewFromConfig(t *testing.T) {
	ctx := context.Background()
	cfg := defaults(t)
	cfg.ModelDir = embed.DefaultModelDir(os.Getenv)
	cfg.ExactThreshold, cfg.KeywordPerTerm, cfg.MaxQueryChars, cfg.MaxTopK = 1234, 77, 321, 9
	a, err := New(ctx, cfg, testdb.App(t))
	if err != nil {
		t.Fatalf("New: %v (the local model: run `make setup`)", err)
	}
	s := a.Searcher
	if s.ExactThreshold != 1234 || s.PerTermLimit != 77 || s.MaxQueryChars != 321 || s.MaxTopK != 9 || s.ModelID != a.ModelID ||
		a.Embedder.Model() != embed.LocalModelName || s.Reranker != nil {
		t.Errorf("searcher %+v, model %s", s, a.Embedder.Model())
	}
	v, err := auth.New(ctx, auth.Options{Secret: strings.Repeat("s", 32)})
	if err != nil {
		t.Fatal(err)
	}
	d := a.APIDeps(v)
	if d.Asker == nil || d.Evaluator == nil || d.Ingester != a.Pipeline || d.Searcher != a.Searcher || d.Limits != api.LimitsFromConfig(cfg) {
		t.Errorf("api deps %+v", d)
	}

	tt := testdb.NewTenant(t, "app-wire", "")
	tn, err := tenant.Load(ctx, a.Pool, tt.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Pipeline.Upsert(ctx, tn, ingest.Document{SourceURI: "docs/backup.md", ContentType: "markdown",
		Content: []byte("# Backups\n\nThe nightly backup runs at 02:00 UTC and is kept for thirty days.\n")}); err != nil {
		t.Fatal(err)
	}
	res, err := d.Asker.Ask(ctx, tn, search.Request{Query: "When does the nightly backup run?"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Refused || len(res.Citations) == 0 || res.Citations[0].SourceURI != "docs/backup.md" {
		t.Errorf("answer %+v", res)
	}
	for _, stage := range []string{"embed", "retrieve", "fuse", "answer"} {
		if _, ok := res.Timings[stage]; !ok {
			t.Errorf("timings %v lack %q", res.Timings, stage)
		}
	}
}

// TestNewModelRegistry: an embedder whose model has no registry row is
// refused with the command that registers it (migrations register only
// use-lite; `ragd migrate up` would not help), and one whose dimensions differ from its row is refused too.
func TestNewModelRegistry(t *testing.T) {
	ctx := context.Background()
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "not called", http.StatusTeapot)
	}))
	t.Cleanup(fake.Close)
	unregistered, err := embed.NewOpenAI(fake.URL+"/v1", "text-embedding-unregistered", 768)
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(ctx, defaults(t), testdb.App(t), WithEmbedder(unregistered))
	if !errors.Is(err, ErrModelNotRegistered) || !strings.Contains(err.Error(), "ragd model register --name text-embedding-unregistered --dims 768 --provider openai-compatible") ||
		strings.Contains(err.Error(), "migrate up") {
		t.Errorf("unregistered model: %v", err)
	}
	wrongDims, err := embed.NewOpenAI(fake.URL+"/v1", embed.LocalModelName, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(ctx, defaults(t), testdb.App(t), WithEmbedder(wrongDims)); err == nil || !strings.Contains(err.Error(), "512 dimensions") {
		t.Errorf("use-lite at 3 dimensions: %v", err)
	}
}
