package api_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/ragd-dev/ragd/internal/auth"
)

// TestControlCharactersAreNoTitleOrCategory: a title named by a write, or
// an evaluation set's category, holding a control character is a 422 and
// stores nothing (reports and listings print both to terminals); an HTML
// page's title and text lose theirs at extraction.
func TestControlCharactersAreNoTitleOrCategory(t *testing.T) {
	t.Parallel()
	b := setup(t)
	admin := token(t, b.a.ID, auth.RoleAdmin)
	problem(t, b.do(req{method: "PUT", path: "/v1/documents", token: admin,
		body: map[string]any{"source_uri": "esc.md", "title": "Taro \x1b]0;pwned\x07", "content": "# Taro\n\nThe taro harvest starts in May."}}),
		http.StatusUnprocessableEntity)
	if w := b.do(req{method: "GET", path: "/v1/documents?source_uri_prefix=esc.md", token: admin}); w.Code != http.StatusOK || bytes.Contains(w.Body.Bytes(), []byte("esc.md")) {
		t.Errorf("a refused write stored the document: %d %s", w.Code, w.Body.String())
	}
	b.upsert(admin, "install.md", docInstall)
	problem(t, b.do(req{method: "PUT", path: "/v1/eval/sets/esc", token: admin, body: map[string]any{"questions": []map[string]any{
		{"question": "How do I upgrade widgets?", "relevant": []string{"install.md"}, "category": "how-to\x1b[2J"},
	}}}), http.StatusUnprocessableEntity)
	page := "<html><head><title>Taro &#27;]0;pwned&#7;</title></head><body><h1>Taro</h1><p>The harvest &#27;[8mstarts in May.</p></body></html>"
	w := b.do(req{method: "PUT", path: "/v1/documents", token: admin, body: map[string]any{"source_uri": "taro.html", "content_type": "html", "content": page}})
	if w.Code != http.StatusOK {
		t.Fatalf("HTML page: %d %s", w.Code, w.Body.String())
	}
	got := b.do(req{method: "GET", path: "/v1/documents?source_uri_prefix=taro.html", token: admin})
	if bytes.Contains(got.Body.Bytes(), []byte(`\u001b`)) || bytes.Contains(got.Body.Bytes(), []byte(`\u0007`)) || !bytes.Contains(got.Body.Bytes(), []byte("Taro ]0;pwned")) {
		t.Errorf("stored title keeps control characters or lost its text: %s", got.Body.String())
	}
}
