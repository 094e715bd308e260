package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestContentUpdateKeepsTheDeclaredType (h-break11): PUT /v1/documents says
// "an update changes only what it names", and a title named once is kept by
// later writes "even when their content changes"; the content type is not.
// A document created with content_type "markdown" at a source_uri without
// an extension (a CMS id such as "kb/article-42") is read as Markdown
// (title "Rotating keys", heading path, markup removed). The next write
// fixes a typo in the content and names no type, as a client that sets
// the type on creation does: the document is now read as text/plain — the
// status is "updated", content_type "text/plain", the title becomes
// "article-42" (the last path segment), the stored text keeps "# " and
// "*", and the heading is gone from its chunks. Only the same content sent
// again keeps the type (TestMetadataUpdateKeepsTheContentType); new
// content is typed by its bytes (TestNewHTMLContentWithoutTypeIsReadAsHTML),
// and Markdown bytes say nothing, so the default (text/plain) replaces the
// type the client declared.
//
// Expected: a write that names no content_type keeps the type the document
// was declared as (as the title) unless its bytes say otherwise (HTML, as
// in TestNewHTMLContentWithoutTypeIsReadAsHTML, whose first write declared
// no type); a declared Markdown document is not silently switched to plain
// text.
func TestContentUpdateKeepsTheDeclaredType(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	const uri = "kb/article-42"
	first := decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: editor,
		body: map[string]any{"source_uri": uri, "content_type": "markdown",
			"content": "# Rotating keys\n\nRun *keyctl rotate* every ninety days.\n"}}), http.StatusOK)
	w := decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: editor,
		body: map[string]any{"source_uri": uri,
			"content": "# Rotating keys\n\nRun *keyctl rotate* every ninety days, then restart the agent.\n"}}), http.StatusOK)
	if w.ID != first.ID || w.Status != "updated" {
		t.Fatalf("premise: the second write updates the document; got %+v", w)
	}
	doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + w.ID.String() + "?include_content=true", token: editor}), http.StatusOK)
	if doc.ContentType != "text/markdown" || doc.Title != "Rotating keys" || doc.Content == nil || strings.Contains(*doc.Content, "# Rotating") {
		t.Errorf("after a content update that names no type the document was re-read as %q: title %q, text %q",
			doc.ContentType, doc.Title, *doc.Content)
	}
}
