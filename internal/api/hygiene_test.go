package api_test

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestDocumentInputHygiene: JSON that is not UTF-8 is 422, binary bytes in
// the content field are 415 whatever the source_uri says, a PDF upload is
// routed by its bytes (415 until a PDF extractor is registered), and text
// in other charsets is stored as UTF-8. Nothing refused is stored.
func TestDocumentInputHygiene(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	p := problem(t, b.do(req{method: "PUT", path: "/v1/documents", token: ed,
		body: []byte("{\"source_uri\":\"a.txt\",\"content\":\"caf\xe9 au lait\"}")}), http.StatusUnprocessableEntity)
	if !strings.Contains(p.Detail, "UTF-8") {
		t.Errorf("invalid UTF-8: %q", p.Detail)
	}
	// Invalid UTF-8 is refused before the body is parsed, on every JSON route.
	problem(t, b.do(req{method: "POST", path: "/v1/search", token: ed, body: []byte("{\"query\":\"caf\xe9\"}")}), http.StatusUnprocessableEntity)
	pdf := "%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj << /Type /Catalog >> endobj\n"
	for _, body := range []map[string]any{
		{"source_uri": "report.pdf", "content": pdf},
		{"source_uri": "report.txt", "content": pdf, "content_type": "text"},
		{"source_uri": "blob", "content": "PK\x03\x04\x14\x00\x00\x00\x08\x00"},
	} {
		p := problem(t, b.do(req{method: "PUT", path: "/v1/documents", token: ed, body: body}), http.StatusUnsupportedMediaType)
		if !strings.Contains(p.Detail, "binary") {
			t.Errorf("%v: %q, want it to say binary", body["source_uri"], p.Detail)
		}
	}
	problem(t, b.do(req{method: "PUT", path: "/v1/documents", token: ed,
		body: map[string]any{"source_uri": "r.pdf", "content": pdf, "content_type": "application/pdf"}}), http.StatusUnsupportedMediaType)

	upload := func(filename, partType string, content []byte, fields map[string]string) *httptest.ResponseRecorder {
		body, ct := multipartBody(t, filename, partType, content, fields)
		r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", body)
		r.Header.Set("Content-Type", ct)
		r.Header.Set("Authorization", "Bearer "+ed)
		w := httptest.NewRecorder()
		b.srv.ServeHTTP(w, r)
		return w
	}
	// A PDF without a declared type is read as a PDF, never as text (this
	// one is damaged: 422 with the PDF reader's reason).
	p = problem(t, upload("report.pdf", "", []byte(pdf), nil), http.StatusUnprocessableEntity)
	if !strings.Contains(p.Detail, "not a readable PDF") {
		t.Errorf("PDF upload: %q, want the PDF reader's reason", p.Detail)
	}
	problem(t, upload("notes.txt", "text/plain", []byte(pdf), nil), http.StatusUnsupportedMediaType)
	list := decode[api.DocumentList](t, b.do(req{method: "GET", path: "/v1/documents", token: ed}), 200)
	if len(list.Documents) != 0 {
		t.Fatalf("refused writes stored %d documents: %+v", len(list.Documents), list.Documents)
	}

	latin1 := func(s string) []byte {
		out, err := charmap.Windows1252.NewEncoder().Bytes([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	content := func(id string) string {
		d := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + id + "?include_content=true", token: ed}), 200)
		return d.ContentType + " " + d.Title + ": " + *d.Content
	}
	cases := []struct {
		name, file, partType string
		data                 []byte
		want                 string
	}{
		{"meta charset", "page.html", "", latin1(`<html><head><meta charset="windows-1252"><title>Café</title></head><body><p>Crème brûlée “recipe”.</p></body></html>`),
			"text/html Café: Crème brûlée “recipe”."},
		{"declared charset", "notes.txt", "text/plain; charset=iso-8859-1", latin1("Größe und Maß."), "text/plain notes.txt: Größe und Maß."},
		{"utf-16 bom", "u16.md", "", append([]byte{0xFF, 0xFE}, []byte("#\x00 \x00H\x00i\x00\n\x00\n\x00\xe9\x00t\x00\xe9\x00")...), "text/markdown Hi: Hi\n\nété"},
		{"html sniffed without extension", "page", "", []byte("<!DOCTYPE html><title>Sniffed</title><p>Body text.</p>"), "text/html Sniffed: Body text."},
	}
	for _, c := range cases {
		w := upload(c.file, c.partType, c.data, nil)
		out := decode[api.DocumentWrite](t, w, 200)
		if got := content(out.ID.String()); got != c.want {
			t.Errorf("%s: stored %q, want %q", c.name, got, c.want)
		}
	}
	// Not UTF-8 and no charset anywhere: 422, no guessing.
	problem(t, upload("x.txt", "", latin1("café"), nil), http.StatusUnprocessableEntity)
}

// TestMetadataAbsentKeepsEmptyClears: absent or null metadata keeps what
// is stored, {} clears it, an object replaces it; an identical re-PUT is
// unchanged.
func TestMetadataAbsentKeepsEmptyClears(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	put := func(body map[string]any) api.DocumentWrite {
		body["source_uri"], body["content"] = "docs/m.md", "# M\n\nText about metadata."
		return decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: ed, body: body}), 200)
	}
	meta := func(id string) map[string]any {
		return decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + id, token: ed}), 200).Metadata
	}
	first := put(map[string]any{"metadata": map[string]any{"team": "docs"}})
	want := map[string]any{"team": "docs"}
	for _, body := range []map[string]any{{}, {"metadata": nil}} {
		if out := put(body); out.Status != "unchanged" {
			t.Errorf("re-PUT %v: %s, want unchanged", body, out.Status)
		}
		if got := meta(first.ID.String()); !reflect.DeepEqual(got, want) {
			t.Errorf("after re-PUT %v: metadata %v, want %v", body, got, want)
		}
	}
	if out := put(map[string]any{"metadata": map[string]any{}}); out.Status != "updated" {
		t.Errorf("metadata {}: %s, want updated", out.Status)
	}
	if got := meta(first.ID.String()); len(got) != 0 {
		t.Errorf("after metadata {}: %v, want {}", got)
	}
}
