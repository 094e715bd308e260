package api_test

import (
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// A write that names no content type keeps the stored text type (the
// metadata-only re-PUT of TestMetadataUpdateKeepsTheContentType), but the
// rule also applies when the write replaces the content with a different
// kind of text. A page at a source_uri without an extension, first written
// as plain text, then re-PUT with the full HTML page (which Detect
// recognises by its bytes: <!DOCTYPE html>) and no content_type, is read as
// text/plain: its markup, script included, is indexed and quoted as text.
// Only an unchanged content may keep the type it was read as; new content
// is typed by its bytes, as it was before the keep rule.
func TestNewHTMLContentWithoutTypeIsReadAsHTML(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	put := func(content string) api.DocumentWrite {
		return decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: ed,
			body: map[string]any{"source_uri": "https://intranet.test/kb/vpn", "content": content}}), 200)
	}
	first := put("VPN access\n\nAsk the service desk for a VPN certificate.")
	const page = "<!DOCTYPE html>\n<html><head><title>VPN access</title><script>var trackerSecretToken = 1;</script></head>" +
		"<body><main><h1>VPN access</h1><p>Install the client, then import the certificate the service desk mailed you.</p></main></body></html>"
	put(page)
	doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + first.ID.String(), token: ed}), 200)
	if doc.ContentType != "text/html" {
		t.Errorf("HTML content written without a type: stored as %q, want text/html", doc.ContentType)
	}
	res := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: ed,
		body: map[string]any{"query": "trackerSecretToken"}}), 200)
	for _, r := range res.Results {
		if strings.Contains(r.Content, "trackerSecretToken") || strings.Contains(r.Content, "<main>") {
			t.Errorf("the page's markup is indexed as text: %q", r.Content)
		}
	}
}
