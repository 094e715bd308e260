package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/auth"
)

// TestRepeatedQueryParameterIsRefused (h-break11): the API is strict about
// its query (an unknown parameter is a 422), but a parameter given twice is
// read from its first occurrence and the rest are dropped silently.
// `DELETE /v1/documents?source_uri=a.md&source_uri=b.md` — a client that
// means to delete two documents, or a URL built by appending — answers 200
// "deleted" for a.md and leaves b.md in place; `GET
// /v1/documents?source_uri_prefix=a&source_uri_prefix=b` lists a's
// documents only. A proxy or WAF that reads the last occurrence sees
// another request than ragd executes (the same parser differential as the
// duplicate JSON keys of docs/SECURITY.md).
//
// Expected: a repeated single-valued parameter is refused with 422 naming
// it, before anything is deleted.
func TestRepeatedQueryParameterIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	b.upsert(editor, "a.md", "# A\n\nFirst document.\n")
	b.upsert(editor, "b.md", "# B\n\nSecond document.\n")
	w := b.do(req{method: "DELETE", path: "/v1/documents?source_uri=a.md&source_uri=b.md", token: editor})
	if w.Code != http.StatusUnprocessableEntity {
		t.Errorf("DELETE with source_uri given twice: %d %s, want 422", w.Code, w.Body.String())
	}
	for _, uri := range []string{"a.md", "b.md"} {
		if g := b.do(req{method: "GET", path: "/v1/documents?source_uri_prefix=" + uri, token: editor}); g.Code != http.StatusOK {
			t.Fatalf("list %s: %d %s", uri, g.Code, g.Body.String())
		} else if !strings.Contains(g.Body.String(), `"source_uri":"`+uri+`"`) {
			t.Errorf("%s was deleted by the request that should have been refused", uri)
		}
	}
	l := b.do(req{method: "GET", path: "/v1/documents?source_uri_prefix=a&source_uri_prefix=b", token: editor})
	if l.Code != http.StatusUnprocessableEntity {
		t.Errorf("GET with source_uri_prefix given twice: %d, want 422; body %s", l.Code, l.Body.String())
	}
}
