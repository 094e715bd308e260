package api_test

import (
	"math"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestSettingsPatchRejectsBadValues: every malformed or out-of-range
// settings patch (unknown fusion names, NaN and infinities in any
// spelling, negative and huge weights, a valid field next to an invalid
// one, both legs at weight 0 across two patches) is a 4xx problem and
// changes nothing; the extreme values the schema admits then search and
// answer without a 5xx and with a confidence in [0, 1].
func TestSettingsPatchRejectsBadValues(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	b.upsert(ed, "docs/install.md", docInstall)
	b.upsert(ed, "docs/billing.md", docBilling)
	admin := token(t, b.a.ID, auth.RoleAdmin)
	get := func() api.TenantSettings {
		return decode[api.TenantInfo](t, b.do(req{method: "GET", path: "/v1/tenant", token: admin}), 200).Settings
	}
	decode[api.TenantSettings](t, b.do(req{method: "PATCH", path: "/v1/tenant/settings", token: admin, body: `{"vector_weight": 0}`}), 200)
	before := get()
	for _, body := range []string{
		`{"fusion": "RRF"}`, `{"fusion": "bm25"}`, `{"fusion": ""}`, `{"fusion": 1}`, `{"fusion": ["rrf"]}`,
		`{"document_weight": -0.1}`, `{"document_weight": 10.5}`, `{"document_weight": 1e309}`, `{"document_weight": "NaN"}`,
		`{"document_weight": NaN}`, `{"document_weight": Infinity}`, `{"document_weight": "0.2"}`,
		`{"vector_weight": -1}`, `{"vector_weight": 1e400}`, `{"keyword_weight": -0}`, `{"rrf_k": 0}`, `{"rrf_k": -5}`,
		`{"candidates": 0}`, `{"candidates": 1.5}`, `{"candidates": 1e12}`, `{"refuse_below": 1.01}`, `{"bm25_k1": 0}`,
		`{"fusion": "rrf", "document_weight": -1}`, `{"fusion": "rrf", "candidates": 5, "bm25_b": 1.5}`,
		`{"fusion": "rrf", "fusion": "bogus"}`, `{"document_weight": 0.3, "unknown_field": 1}`,
		`[]`, `"rrf"`, `{"document_weight": 0.3`,
	} {
		w := b.do(req{method: "PATCH", path: "/v1/tenant/settings", token: admin, body: body})
		if w.Code == 200 && body == `{"keyword_weight": -0}` {
			// -0 is 0: both legs would be off (the vector leg already is).
			t.Errorf("%s: 200, want a 4xx (vector_weight is 0)", body)
		} else if w.Code < 400 || w.Code >= 500 {
			t.Errorf("%s: status %d, want a 4xx (%s)", body, w.Code, w.Body.String())
		}
		if got := get(); got != before {
			t.Fatalf("%s changed the settings: %+v, were %+v", body, got, before)
		}
	}

	// The extremes the schema admits serve searches and answers.
	for _, body := range []string{
		`{"vector_weight": 100, "keyword_weight": 0.000001, "document_weight": 10, "candidates": 1000, "bm25_k1": 10, "bm25_b": 1}`,
		`{"fusion": "rrf", "rrf_k": 0.0001, "bm25_b": 0, "vector_weight": 0, "keyword_weight": 100}`,
		`{"fusion": "convex", "vector_weight": 0.000001, "keyword_weight": 100, "document_weight": 0, "candidates": 1, "refuse_below": 0}`,
	} {
		decode[api.TenantSettings](t, b.do(req{method: "PATCH", path: "/v1/tenant/settings", token: admin, body: body}), 200)
		for _, q := range []string{"how do I upgrade widgetctl", "How are refunds processed?", "?!", "MongoDB Kubernetes"} {
			res := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: ed, body: map[string]any{"query": q, "top_k": 20}}), 200)
			if c := res.Confidence; math.IsNaN(c) || c < 0 || c > 1 {
				t.Errorf("%s, %q: confidence %v", body, q, c)
			}
			for _, r := range res.Results {
				if math.IsNaN(r.Score) || math.IsInf(r.Score, 0) {
					t.Errorf("%s, %q: score %v", body, q, r.Score)
				}
			}
			decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: ed, body: map[string]any{"question": q}}), 200)
		}
	}
}
