package api_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/tenant"
)

func TestSearchAndAnswer(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	install := b.upsert(ed, "docs/install.md", docInstall)
	billing := b.upsert(ed, "docs/billing.md", docBilling)
	rd := token(t, b.a.ID, auth.RoleReader)

	res := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: rd,
		body: map[string]any{"query": "how do I upgrade widgetctl", "top_k": 3}}), 200)
	if len(res.Results) == 0 || res.Results[0].SourceURI != "docs/install.md" || res.Results[0].DocumentID != install.ID {
		t.Fatalf("results: %+v", res.Results)
	}
	top := res.Results[0]
	if top.Rank != 1 || top.VectorRank == nil || top.VectorDistance == nil || top.KeywordRank == nil || top.KeywordScore == nil ||
		top.Score <= 0 || top.EndOffset <= top.StartOffset || top.HeadingPath == "" {
		t.Fatalf("explain fields: %+v", top)
	}
	if res.TimingsMS["retrieve"] <= 0 || res.Confidence <= 0 {
		t.Fatalf("timings/confidence: %+v %v", res.TimingsMS, res.Confidence)
	}
	// Filters.
	res = decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: rd,
		body: map[string]any{"query": "widgetctl", "source_uri_prefix": "docs/billing"}}), 200)
	for _, r := range res.Results {
		if r.SourceURI != "docs/billing.md" {
			t.Fatalf("prefix filter returned %s", r.SourceURI)
		}
	}

	// Answer as JSON.
	ans := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: rd,
		body: map[string]any{"question": "How are refunds processed?"}}), 200)
	if ans.Refused || len(ans.Citations) != 1 || ans.Citations[0].SourceURI != "docs/billing.md" || len(ans.Sources) == 0 || ans.Mode != "extractive" {
		t.Fatalf("answer: %+v", ans)
	}
	// The cited source names its document and where its text lies in it.
	if n := ans.Citations[0].N; n > len(ans.Sources) || ans.Sources[n-1].DocumentID != billing.ID.String() ||
		ans.Sources[n-1].ChunkID != ans.Citations[0].ChunkID || ans.Sources[n-1].EndOffset <= ans.Sources[n-1].StartOffset {
		t.Fatalf("cited source: %+v of %+v", ans.Citations[0], ans.Sources)
	}

	// Answer as server-sent events: deltas, then done with the citations.
	w := b.do(req{method: "POST", path: "/v1/answer", token: rd, body: map[string]any{"question": "How do I upgrade widgets?"},
		header: map[string]string{"Accept": "text/event-stream"}})
	if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "text/event-stream" {
		t.Fatalf("SSE: %d %q %s", w.Code, w.Header().Get("Content-Type"), w.Body.String())
	}
	var deltas strings.Builder
	var done *api.AnswerResponse
	event := ""
	sc := bufio.NewScanner(strings.NewReader(w.Body.String()))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data := []byte(strings.TrimPrefix(line, "data: "))
			switch event {
			case "delta":
				if done != nil {
					t.Fatal("delta after done")
				}
				var d api.AnswerDelta
				if err := json.Unmarshal(data, &d); err != nil {
					t.Fatal(err)
				}
				deltas.WriteString(d.Text)
			case "done":
				done = &api.AnswerResponse{}
				if err := json.Unmarshal(data, done); err != nil {
					t.Fatal(err)
				}
			default:
				t.Fatalf("unexpected event %q: %s", event, data)
			}
		}
	}
	if done == nil || done.Answer != deltas.String() || len(done.Citations) != 1 || done.Citations[0].SourceURI != "docs/install.md" {
		t.Fatalf("SSE done %+v, deltas %q", done, deltas.String())
	}
	// A validation error is still a plain problem before any streaming.
	problem(t, b.do(req{method: "POST", path: "/v1/answer", token: rd, body: map[string]any{"question": " "},
		header: map[string]string{"Accept": "text/event-stream"}}), 422)

	// Retrieval metrics were recorded, and /v1/answer's stages with them:
	// the production asker reports the answer stage.
	m := b.do(req{method: "GET", path: "/metrics"})
	for _, want := range []string{`ragd_retrieval_stage_seconds_count{stage="retrieve"}`, `ragd_retrieval_stage_seconds_count{stage="answer"} 2`, `ragd_http_requests_total{operation="search",status="200"}`,
		`ragd_ingest_documents_total{status="added"} 2`, "ragd_db_pool_total_connections", `ragd_http_request_duration_seconds_bucket{operation="answer",status="200"`} {
		if !strings.Contains(m.Body.String(), want) {
			t.Errorf("metrics lack %s", want)
		}
	}

	// /v1/answer takes search's filters, applied before ranking: an install
	// question restricted to the billing page has only billing sources, and
	// a metadata filter no document matches leaves nothing to answer from.
	ans = decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: rd,
		body: map[string]any{"question": "How do I upgrade widgetctl?", "source_uri_prefix": "docs/billing"}}), 200)
	if len(ans.Sources) == 0 {
		t.Fatalf("filtered answer has no sources: %+v", ans)
	}
	for _, src := range ans.Sources {
		if src.SourceURI != "docs/billing.md" {
			t.Fatalf("prefix filter gave the answer source %s", src.SourceURI)
		}
	}
	ans = decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: rd,
		body: map[string]any{"question": "How do I upgrade widgetctl?", "metadata": map[string]any{"team": "nobody"}}}), 200)
	if !ans.Refused || ans.RefusalReason != "no_results" || len(ans.Sources) != 0 || ans.ConfidenceReason != "no document the caller can read matches the filters" {
		t.Fatalf("answer under a filter nothing matches: %+v", ans)
	}
	// With a prefix that matches documents beside it, the reason does not
	// blame the prefix alone.
	ans = decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: rd,
		body: map[string]any{"question": "How do I upgrade widgetctl?", "source_uri_prefix": "docs/", "metadata": map[string]any{"team": "nobody"}}}), 200)
	if !ans.Refused || !strings.Contains(ans.ConfidenceReason, "matches the filters (a document must match both") {
		t.Fatalf("answer under a prefix and a metadata filter nothing matches together: %+v", ans)
	}
	// Documents match the filter but hold none of the question's words:
	// the reason says so, not that nothing matches.
	ans = decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: rd,
		body: map[string]any{"question": "zebra quokka axolotl?", "source_uri_prefix": "docs/"}}), 200)
	if !ans.Refused || !strings.HasPrefix(ans.ConfidenceReason, "no document matching the filters contains any of the question's terms") {
		t.Fatalf("answer whose words no filtered document has: %+v", ans)
	}
	// Under a prefix that starts no source_uri, the reason says what the
	// prefix is compared with.
	ans = decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: rd,
		body: map[string]any{"question": "How do I upgrade widgetctl?", "source_uri_prefix": "billing"}}), 200)
	if !ans.Refused || !strings.Contains(ans.ConfidenceReason, `source_uri_prefix "billing" is compared with the start of each whole source_uri`) {
		t.Fatalf("answer under a prefix nothing starts with: %+v", ans)
	}
}

func TestTenantEndpoints(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	b.upsert(ed, "docs/install.md", docInstall)
	info := decode[api.TenantInfo](t, b.do(req{method: "GET", path: "/v1/tenant", token: ed}), 200)
	if info.ID != b.a.ID || info.Slug != b.a.Slug || info.Status != "active" || info.Role != "editor" || info.Documents != 1 || info.Chunks < 1 ||
		info.Settings.RRFK != 60 || info.Settings.Candidates != tenant.DefaultCandidates || info.Settings.Fusion != "convex" {
		t.Fatalf("tenant: %+v", info)
	}
	admin := token(t, b.a.ID, auth.RoleAdmin)
	set := decode[api.TenantSettings](t, b.do(req{method: "PATCH", path: "/v1/tenant/settings", token: admin,
		body: map[string]any{"candidates": 30, "keyword_weight": 0.5}}), 200)
	if set.Candidates != 30 || set.KeywordWeight != 0.5 || set.VectorWeight != info.Settings.VectorWeight {
		t.Fatalf("settings: %+v", set)
	}
	set = decode[api.TenantSettings](t, b.do(req{method: "PATCH", path: "/v1/tenant/settings", token: admin,
		body: map[string]any{"bm25_b": 0.6}}), 200)
	if set.Candidates != 30 || set.BM25B != 0.6 {
		t.Fatalf("second patch lost the first: %+v", set)
	}
	info = decode[api.TenantInfo](t, b.do(req{method: "GET", path: "/v1/tenant", token: admin}), 200)
	if info.Settings != set {
		t.Fatalf("stored %+v, patched %+v", info.Settings, set)
	}
	problem(t, b.do(req{method: "PATCH", path: "/v1/tenant/settings", token: admin, body: map[string]any{"bm25_b": 2}}), 422)
	problem(t, b.do(req{method: "PATCH", path: "/v1/tenant/settings", token: admin, body: map[string]any{"vector_weight": 0, "keyword_weight": 0}}), 422)
	problem(t, b.do(req{method: "PATCH", path: "/v1/tenant/settings", token: admin, body: map[string]any{"status": "active"}}), 422)
	// The other tenant is untouched.
	other := decode[api.TenantInfo](t, b.do(req{method: "GET", path: "/v1/tenant", token: token(t, b.b.ID, auth.RoleReader)}), 200)
	if other.Slug != b.b.Slug || other.Settings.Candidates != tenant.DefaultCandidates || other.Documents != 0 {
		t.Fatalf("other tenant: %+v", other)
	}
}

// TestDegradedReasons: a Chinese question on the local model leaves out the
// vector leg, and /v1/search and /v1/answer say so with the leg and a
// reason; an English question has an empty degraded_reasons array.
func TestDegradedReasons(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	b.upsert(ed, "zh/pool.md", "# 连接池\n\n连接池在应用程序和数据库之间复用已经建立的连接，减少握手和认证的开销。")
	b.upsert(ed, "docs/install.md", docInstall)
	rd := token(t, b.a.ID, auth.RoleReader)
	want := api.Degradation{Leg: "vector", Reason: "the embedding model use-lite does not represent Han script (100% of the question)"}

	w := b.do(req{method: "POST", path: "/v1/search", token: rd, body: map[string]any{"query": "连接池如何减少认证的开销"}})
	res := decode[api.SearchResponse](t, w, 200)
	if !res.Degraded || len(res.DegradedReasons) != 1 || res.DegradedReasons[0] != want {
		t.Fatalf("search: degraded %v, reasons %+v; want %+v", res.Degraded, res.DegradedReasons, want)
	}
	if len(res.Results) == 0 || res.Results[0].SourceURI != "zh/pool.md" || res.Results[0].VectorRank != nil {
		t.Fatalf("search results: %+v", res.Results)
	}
	ans := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: rd,
		body: map[string]any{"question": "连接池如何减少认证的开销"}}), 200)
	if !ans.Degraded || len(ans.DegradedReasons) != 1 || ans.DegradedReasons[0] != want || len(ans.Citations) == 0 ||
		ans.Citations[0].SourceURI != "zh/pool.md" {
		t.Fatalf("answer: %+v", ans)
	}

	w = b.do(req{method: "POST", path: "/v1/search", token: rd, body: map[string]any{"query": "how do I upgrade widgetctl"}})
	if res := decode[api.SearchResponse](t, w, 200); res.Degraded || !strings.Contains(w.Body.String(), `"degraded_reasons":[]`) {
		t.Fatalf("English search: degraded %v, body %s", res.Degraded, w.Body.String())
	}
}
