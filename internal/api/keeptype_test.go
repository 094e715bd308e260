package api_test

import (
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// "An update changes only what it names" (README, PUT /v1/documents). A
// Markdown document whose source_uri has no extension, written with
// content_type markdown, and then re-PUT with the same content and new
// metadata but no content_type, was re-read as text/plain: its stored type
// became text/plain, its title "Guide" became the path segment "guide",
// and its headings were no longer headings (the chunk's heading path went
// from "Guide" to "guide", the content keeps the "#" marks). The write named only the
// metadata; the type the document was read as must be kept, as absent
// title and metadata are.
func TestMetadataUpdateKeepsTheContentType(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	const content = "# Guide\n\nIntro text.\n\n## Setup\n\nRun the installer."
	put := func(body map[string]any) api.DocumentWrite {
		body["source_uri"], body["content"] = "docs/guide", content
		return decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: ed, body: body}), 200)
	}
	headingPath := func() string {
		res := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: ed, body: map[string]any{"query": "installer"}}), 200)
		if len(res.Results) == 0 {
			return ""
		}
		return res.Results[0].HeadingPath
	}
	first := put(map[string]any{"content_type": "markdown", "metadata": map[string]any{"rev": 1}})
	if hp := headingPath(); hp != "Guide" {
		t.Fatalf("as written: heading path %q, want \"Guide\"", hp)
	}
	put(map[string]any{"metadata": map[string]any{"rev": 2}})

	doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + first.ID.String(), token: ed}), 200)
	if doc.Metadata["rev"] != float64(2) {
		t.Errorf("metadata %v, want rev 2", doc.Metadata)
	}
	if doc.ContentType != "text/markdown" || doc.Title != "Guide" {
		t.Errorf("after a metadata-only update: content_type %q, title %q; want text/markdown, Guide as stored before", doc.ContentType, doc.Title)
	}
	if hp := headingPath(); hp != "Guide" {
		t.Errorf("after a metadata-only update: heading path of the installer chunk %q, want \"Guide\"", hp)
	}
}
