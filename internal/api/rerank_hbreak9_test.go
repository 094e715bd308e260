package api_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/app"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/provider/providertest"
	"github.com/ragd-dev/ragd/internal/rerank"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// fakeRerankerHB9 is an in-process Cohere-style /v1/rerank server that
// scores every document it is sent (relevance 1/(1+index): it keeps the
// order it was given), and a client of it.
func fakeRerankerHB9(t *testing.T) *rerank.Client {
	t.Helper()
	srv := httptest.NewServer(providertest.RerankHandler(func(i int, _ string) float64 { return 1 / float64(1+i) }))
	t.Cleanup(srv.Close)
	c, err := rerank.New(srv.URL+"/v1", "fake-rerank", rerank.WithMaxRetries(0), rerank.WithTimeout(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// serverWithRerankerHB9 wires the API as deps does, with RAGD_MAX_TOP_K 50
// (the server's default) and the given reranker (nil: none).
func serverWithRerankerHB9(t *testing.T, rr *rerank.Client) *api.Server {
	t.Helper()
	pool := testdb.App(t)
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxBodyBytes, cfg.RequestTimeout = 64<<10, 30*time.Second
	a, err := app.New(t.Context(), cfg, pool, app.WithLogger(slog.New(slog.DiscardHandler)), app.WithEmbedder(localEmbedder(t)),
		app.WithLLM(nil), app.WithReranker(rr))
	if err != nil {
		t.Fatal(err)
	}
	v, err := auth.New(t.Context(), auth.Options{Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(a.APIDeps(v))
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// TestRerankerKeepsTopK (h-break9): with a reranker configured, POST
// /v1/search returns at most the 20 results the reranker reordered (its
// fused top 20 plus each leg's first 5), whatever top_k asks for: the
// fused results past them are dropped, not appended after the reranked
// ones. A tenant with 40 documents that all mention the query's word,
// searched with top_k 40 (RAGD_MAX_TOP_K is 50), gets 40 results without a
// reranker and 20 with one.
//
// Expected: top_k results either way (the reranked head, then the rest of
// the fused order); a reranker reorders, it does not shorten the list.
func TestRerankerKeepsTopK(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "hb9-rerank", "")
	plain := serverWithRerankerHB9(t, nil)
	reranked := serverWithRerankerHB9(t, fakeRerankerHB9(t))
	editor := token(t, tn.ID, auth.RoleEditor)
	for i := range 40 {
		w := serve(t, plain, req{method: "PUT", path: "/v1/documents", token: editor, body: map[string]any{
			"source_uri": fmt.Sprintf("doc-%02d.md", i), "content_type": "markdown",
			"content": fmt.Sprintf("# Note %d\n\nThe zorblax gauge number %d reads the pressure of tank %d.\n", i, i, i)}})
		decode[api.DocumentWrite](t, w, http.StatusOK)
	}
	body := map[string]any{"query": "zorblax gauge pressure", "top_k": 40}
	without := decode[api.SearchResponse](t, serve(t, plain, req{method: "POST", path: "/v1/search", token: editor, body: body}), http.StatusOK)
	if len(without.Results) != 40 {
		t.Fatalf("without a reranker: %d results, want 40 (the test's premise)", len(without.Results))
	}
	with := decode[api.SearchResponse](t, serve(t, reranked, req{method: "POST", path: "/v1/search", token: editor, body: body}), http.StatusOK)
	if with.Degraded {
		t.Fatalf("the reranker failed: %+v", with.DegradedReasons)
	}
	if len(with.Results) != 40 {
		t.Errorf("with a reranker: %d results for top_k 40 over 40 matching documents, want 40", len(with.Results))
	}
}
