package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestCrossTenant: tenant B tries every endpoint with tenant A's document ids
// and source_uris and gets 404 or nothing — never A's data — and A's data is
// intact afterwards.
func TestCrossTenant(t *testing.T) {
	t.Parallel()
	b := setup(t)
	aEd := token(t, b.a.ID, auth.RoleEditor)
	aDoc := b.upsert(aEd, "secret/plan.md", "# Plan\n\nThe launch codeword is heliotrope. It ships in March.\n")
	bAdmin := token(t, b.b.ID, auth.RoleAdmin)
	id := aDoc.ID.String()

	for _, r := range []req{
		{method: "GET", path: "/v1/documents/" + id},
		{method: "GET", path: "/v1/documents/" + id + "?include_content=true"},
		{method: "DELETE", path: "/v1/documents/" + id},
		{method: "DELETE", path: "/v1/documents?source_uri=" + url.QueryEscape("secret/plan.md")},
	} {
		r.token = bAdmin
		w := b.do(r)
		problem(t, w, http.StatusNotFound)
		if strings.Contains(w.Body.String(), "heliotrope") || strings.Contains(w.Body.String(), "secret/plan.md") {
			t.Errorf("%s %s leaks: %s", r.method, r.path, w.Body.String())
		}
	}
	list := decode[api.DocumentList](t, b.do(req{method: "GET", path: "/v1/documents?source_uri_prefix=secret/", token: bAdmin}), 200)
	if len(list.Documents) != 0 {
		t.Fatalf("B lists A's documents: %+v", list)
	}
	// A cursor positioned at A's source_uri reveals nothing either.
	list = decode[api.DocumentList](t, b.do(req{method: "GET", path: "/v1/documents", token: bAdmin}), 200)
	if len(list.Documents) != 0 {
		t.Fatalf("B lists: %+v", list)
	}
	sr := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: bAdmin,
		body: map[string]any{"query": "launch codeword heliotrope"}}), 200)
	if len(sr.Results) != 0 {
		t.Fatalf("B's search found A's chunks: %+v", sr.Results)
	}
	sr = decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: bAdmin,
		body: map[string]any{"query": "heliotrope", "source_uri_prefix": "secret/"}}), 200)
	if len(sr.Results) != 0 {
		t.Fatalf("B's filtered search found A's chunks: %+v", sr.Results)
	}
	ans := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: bAdmin,
		body: map[string]any{"question": "What is the launch codeword?"}}), 200)
	if !ans.Refused || len(ans.Sources) != 0 || strings.Contains(ans.Answer, "heliotrope") {
		t.Fatalf("B's answer: %+v", ans)
	}
	// B writing the same source_uri makes B's own document.
	bDoc := b.upsert(token(t, b.b.ID, auth.RoleEditor), "secret/plan.md", "# Plan\n\nB's own plan.\n")
	if bDoc.ID == aDoc.ID || bDoc.Status != "added" {
		t.Fatalf("B's upsert: %+v", bDoc)
	}
	if info := decode[api.TenantInfo](t, b.do(req{method: "GET", path: "/v1/tenant", token: bAdmin}), 200); info.ID != b.b.ID {
		t.Fatalf("B's tenant: %+v", info)
	}

	// A's document is intact.
	doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + id + "?include_content=true", token: aEd}), 200)
	if doc.Content == nil || !strings.Contains(*doc.Content, "heliotrope") {
		t.Fatalf("A's document after B's attempts: %+v", doc)
	}
	sr = decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: aEd,
		body: map[string]any{"query": "launch codeword"}}), 200)
	if len(sr.Results) == 0 || sr.Results[0].DocumentID != aDoc.ID {
		t.Fatalf("A's search: %+v", sr.Results)
	}
}
