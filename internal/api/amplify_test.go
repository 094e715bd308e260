package api_test

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// A GFM table's rows may have fewer cells than its header; the extractor
// pads each to the header's width and writes " | " for every empty cell.
// A 26 KB Markdown upload of a 3,000-column header and 500 one-cell rows
// became 4.5 MB of stored text and 7,522 chunks (300 MB allocated); 36 KB
// with 2,000 rows became 18 MB and 30,022 chunks (1.2 GB), so a body at the
// 10 MiB limit takes a server far past any memory bound (SECURITY.md: hostile
// input must leave the server serving with memory bounded). Markdown markup
// is removed, never multiplied: the stored text must stay within a small
// multiple of the upload, or the upload be refused with a 4xx.
func TestMarkdownTablePaddingDoesNotAmplify(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	var md bytes.Buffer
	const cols, rows = 3000, 500
	for i := range cols {
		fmt.Fprintf(&md, "|h%d", i)
	}
	md.WriteString("|\n")
	for range cols {
		md.WriteString("|-")
	}
	md.WriteString("|\n")
	for r := range rows {
		fmt.Fprintf(&md, "|r%d\n", r)
	}
	body, ct := multipartBody(t, "wide.md", "text/markdown", md.Bytes(), nil)
	r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", body)
	r.Header.Set("Content-Type", ct)
	r.Header.Set("Authorization", "Bearer "+ed)
	w := httptest.NewRecorder()
	b.srv.ServeHTTP(w, r)
	if w.Code >= 400 && w.Code < 500 {
		return // refused with a reason: acceptable
	}
	out := decode[api.DocumentWrite](t, w, 200)
	doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + out.ID.String() + "?include_content=true", token: ed}), 200)
	if doc.Content == nil {
		t.Fatal("no content returned")
	}
	if n := len(*doc.Content); n > 4*md.Len() {
		t.Errorf("a %d-byte Markdown upload was stored as %d bytes of text in %d chunks (%.0fx): the table's missing cells were padded",
			md.Len(), n, out.Chunks, float64(n)/float64(md.Len()))
	}
}
