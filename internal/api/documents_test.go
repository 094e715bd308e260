package api_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/extract"
)

func TestDocumentLifecycleAndPagination(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	rd := token(t, b.a.ID, auth.RoleReader)

	first := b.upsert(ed, "docs/install.md", docInstall)
	if first.Status != "added" || first.Chunks < 1 {
		t.Fatalf("first upsert: %+v", first)
	}
	if again := b.upsert(ed, "docs/install.md", docInstall); again.Status != "unchanged" || again.ID != first.ID {
		t.Fatalf("same content: %+v", again)
	}
	if changed := b.upsert(ed, "docs/install.md", docInstall+"\nMore text about widgets.\n"); changed.Status != "updated" || changed.ID != first.ID {
		t.Fatalf("changed content: %+v", changed)
	}
	// HTML and plain text, types from content_type and from the extension.
	w := b.do(req{method: "PUT", path: "/v1/documents", token: ed, body: map[string]any{
		"source_uri": "docs/billing.html", "content": "<html><head><title>Billing page</title></head><body><p>Invoices monthly.</p></body></html>",
		"metadata": map[string]any{"team": "finance"}}})
	html := decode[api.DocumentWrite](t, w, 200)
	b.upsert(ed, "notes/a.txt", "plain notes")
	b.upsert(ed, "notes/b.txt", "more plain notes")

	// Pagination: limit 2 over four documents ordered by source_uri.
	var seen []string
	cursor := ""
	for page := 0; ; page++ {
		path := "/v1/documents?limit=2"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		list := decode[api.DocumentList](t, b.do(req{method: "GET", path: path, token: rd}), 200)
		if len(list.Documents) > 2 {
			t.Fatalf("page %d has %d documents", page, len(list.Documents))
		}
		for _, d := range list.Documents {
			seen = append(seen, d.SourceURI)
		}
		if list.NextCursor == "" {
			break
		}
		cursor = list.NextCursor
		if page > 3 {
			t.Fatal("pagination does not end")
		}
	}
	if got := strings.Join(seen, ","); got != "docs/billing.html,docs/install.md,notes/a.txt,notes/b.txt" {
		t.Fatalf("pages = %s", got)
	}
	list := decode[api.DocumentList](t, b.do(req{method: "GET", path: "/v1/documents?source_uri_prefix=notes/", token: rd}), 200)
	if len(list.Documents) != 2 || list.NextCursor != "" {
		t.Fatalf("prefix filter: %+v", list)
	}
	problem(t, b.do(req{method: "GET", path: "/v1/documents?cursor=bogus", token: rd}), 422)
	problem(t, b.do(req{method: "GET", path: "/v1/documents?limit=101", token: rd}), 422)
	problem(t, b.do(req{method: "GET", path: "/v1/documents?tenant_id=" + b.b.ID.String(), token: rd}), 422) // unknown parameter

	// Get, with and without content.
	doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + html.ID.String(), token: rd}), 200)
	if doc.Title != "Billing page" || doc.ContentType != "text/html" || doc.Metadata["team"] != "finance" || doc.Content != nil {
		t.Fatalf("document: %+v", doc)
	}
	doc = decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + first.ID.String() + "?include_content=true", token: rd}), 200)
	if doc.Content == nil || !strings.Contains(*doc.Content, "More text about widgets") || doc.ContentType != "text/markdown" {
		t.Fatalf("document with content: %+v", doc)
	}
	problem(t, b.do(req{method: "GET", path: "/v1/documents/not-a-uuid", token: rd}), 422)

	// Deletes.
	del := decode[api.DocumentWrite](t, b.do(req{method: "DELETE", path: "/v1/documents/" + html.ID.String(), token: ed}), 200)
	if del.Status != "deleted" || del.ID != html.ID {
		t.Fatalf("delete: %+v", del)
	}
	if p := problem(t, b.do(req{method: "GET", path: "/v1/documents/" + html.ID.String(), token: rd}), 404); p.Detail != "document not found" {
		t.Fatalf("detail %q", p.Detail)
	}
	problem(t, b.do(req{method: "DELETE", path: "/v1/documents/" + html.ID.String(), token: ed}), 404)
	decode[api.DocumentWrite](t, b.do(req{method: "DELETE", path: "/v1/documents?source_uri=notes/a.txt", token: ed}), 200)
	problem(t, b.do(req{method: "DELETE", path: "/v1/documents?source_uri=notes/a.txt", token: ed}), 404)
	problem(t, b.do(req{method: "DELETE", path: "/v1/documents", token: ed}), 422) // source_uri required
}

func multipartBody(t *testing.T, filename, partType string, content []byte, fields map[string]string) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, filename))
	if partType != "" {
		h.Set("Content-Type", partType)
	}
	pw, err := mw.CreatePart(h)
	if err != nil {
		t.Fatal(err)
	}
	pw.Write(content)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	mw.Close()
	return &buf, mw.FormDataContentType()
}

func TestUpload(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	upload := func(filename, partType string, content []byte, fields map[string]string) *httptest.ResponseRecorder {
		body, ct := multipartBody(t, filename, partType, content, fields)
		r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", body)
		r.Header.Set("Content-Type", ct)
		r.Header.Set("Authorization", "Bearer "+ed)
		w := httptest.NewRecorder()
		b.srv.ServeHTTP(w, r)
		return w
	}
	// Generic part type: the extension decides (Markdown).
	w := upload("guide.md", "application/octet-stream", []byte(docInstall), map[string]string{"metadata": `{"kind":"guide"}`})
	out := decode[api.DocumentWrite](t, w, 200)
	if out.SourceURI != "guide.md" || out.Status != "added" {
		t.Fatalf("upload: %+v", out)
	}
	doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + out.ID.String(), token: ed}), 200)
	if doc.ContentType != "text/markdown" || doc.Metadata["kind"] != "guide" || doc.Title != "Installing Widgets" {
		t.Fatalf("uploaded document: %+v", doc)
	}
	// A specific part type wins over the extension; source_uri and title from the form.
	w = upload("page.txt", "text/html", []byte("<h1>Hello</h1><p>Widgets page.</p>"), map[string]string{"source_uri": "https://x.example/page", "title": "Custom"})
	out = decode[api.DocumentWrite](t, w, 200)
	doc = decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + out.ID.String(), token: ed}), 200)
	if doc.ContentType != "text/html" || doc.Title != "Custom" || doc.SourceURI != "https://x.example/page" {
		t.Fatalf("uploaded html: %+v", doc)
	}
	problem(t, upload("report.odt", "application/octet-stream", []byte("PK\x03\x04"), nil), http.StatusUnsupportedMediaType)
	// A PDF is read (TestPDFUpload), but a damaged one is refused with the
	// reason. The PDF engine is compiled first, as `ragd serve` does at
	// start-up, so that compiling it on a busy machine cannot outlast this
	// suite's request timeout.
	if err := extract.PreparePDF(); err != nil {
		t.Fatal(err)
	}
	if p := problem(t, upload("report.pdf", "application/octet-stream", []byte("%PDF-1.4"), nil), http.StatusUnprocessableEntity); !strings.Contains(p.Detail, "not a readable PDF") {
		t.Errorf("damaged PDF: %+v", p)
	}
	problem(t, upload("x.md", "", []byte("# x\n\nbody"), map[string]string{"metadata": "[1,2]"}), http.StatusUnprocessableEntity)
	problem(t, upload("bin.txt", "text/plain", []byte("abc\x00\x01\x02def"), nil), http.StatusUnsupportedMediaType)
	// Over the body limit (64 KiB in these tests).
	problem(t, upload("big.md", "", bytes.Repeat([]byte("word "), 20000), nil), http.StatusRequestEntityTooLarge)
}

func TestValidationErrors(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	cases := []struct {
		name   string
		r      req
		status int
		want   string // substring of the detail or of an error's message/location
	}{
		{"unknown field", req{method: "PUT", path: "/v1/documents", body: `{"source_uri":"a.md","content":"x","tenant_id":"00000000-0000-0000-0000-000000000001"}`}, 422, "tenant_id"},
		{"malformed JSON", req{method: "PUT", path: "/v1/documents", body: `{"source_uri":`}, 400, ""},
		{"missing content", req{method: "PUT", path: "/v1/documents", body: `{"source_uri":"a.md"}`}, 422, "content"},
		{"unsupported content type", req{method: "PUT", path: "/v1/documents", body: map[string]any{"source_uri": "a.pdf", "content": "x", "content_type": "application/pdf"}}, 415, "unsupported content type"},
		{"binary content", req{method: "PUT", path: "/v1/documents", body: map[string]any{"source_uri": "a.txt", "content": "a\x00b\x00c"}}, 415, "binary"},
		{"unsupported content type", req{method: "PUT", path: "/v1/documents", body: map[string]any{"source_uri": "a.odt", "content": "x", "content_type": "application/vnd.oasis.opendocument.text"}}, 415, "unsupported content type"},
		{"metadata not an object", req{method: "PUT", path: "/v1/documents", body: `{"source_uri":"a.md","content":"x","metadata":[1]}`}, 422, "metadata"},
		{"empty query", req{method: "POST", path: "/v1/search", body: map[string]any{"query": "   "}}, 422, "empty query"},
		{"query too long", req{method: "POST", path: "/v1/search", body: map[string]any{"query": strings.Repeat("q", 201)}}, 422, "too long"},
		{"top_k too large", req{method: "POST", path: "/v1/search", body: map[string]any{"query": "widgets", "top_k": 21}}, 422, "top_k"},
		{"top_k zero", req{method: "POST", path: "/v1/search", body: map[string]any{"query": "widgets", "top_k": -1}}, 422, "top_k"},
		// Every top_k over the limit gets the same words, naming this
		// server's limit, on both endpoints: a schema's bound of 1000 had
		// said "expected number <= 1000" past it, as if 1000 were allowed.
		{"top_k far too large", req{method: "POST", path: "/v1/search", body: map[string]any{"query": "widgets", "top_k": 100000}}, 422, "top_k out of range: top_k must be between 1 and 20"},
		{"answer top_k too large", req{method: "POST", path: "/v1/answer", body: map[string]any{"question": "widgets", "top_k": 21}}, 422, "top_k out of range: top_k must be between 1 and 20"},
		{"answer top_k far too large", req{method: "POST", path: "/v1/answer", body: map[string]any{"question": "widgets", "top_k": 100000}}, 422, "top_k out of range: top_k must be between 1 and 20"},
		{"unknown search field", req{method: "POST", path: "/v1/search", body: map[string]any{"query": "widgets", "tenant": "x"}}, 422, "tenant"},
		{"question too long", req{method: "POST", path: "/v1/answer", body: map[string]any{"question": strings.Repeat("q", 201)}}, 422, "too long"},
		{"body over the limit", req{method: "PUT", path: "/v1/documents", body: map[string]any{"source_uri": "big.md", "content": strings.Repeat("x", 70<<10)}}, 413, "too large"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.r.token = ed
			w := b.do(tc.r)
			p := problem(t, w, tc.status)
			text := p.Detail
			for _, e := range p.Errors {
				text += " " + e.Message + " " + e.Location
			}
			if !strings.Contains(text, tc.want) {
				t.Errorf("problem %q does not mention %q", text, tc.want)
			}
		})
	}
}

// TestBodyLimitWithoutContentLength: a chunked body over the limit is cut
// off by the reader (huma's limit or the router's MaxBytesReader) → 413.
func TestBodyLimitWithoutContentLength(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	big := `{"source_uri":"big.md","content":"` + strings.Repeat("x", 70<<10) + `"}`
	for _, path := range []string{"/v1/documents", "/v1/search"} {
		method := "PUT"
		if path == "/v1/search" {
			method = "POST"
		}
		r := httptest.NewRequestWithContext(t.Context(), method, path, strings.NewReader(big))
		r.ContentLength = -1
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+ed)
		w := httptest.NewRecorder()
		b.srv.ServeHTTP(w, r)
		problem(t, w, http.StatusRequestEntityTooLarge)
	}
	// Multipart without a length: the router's MaxBytesReader stops it.
	body, ct := multipartBody(t, "big.md", "", bytes.Repeat([]byte("word "), 20000), nil)
	r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", body)
	r.ContentLength = -1
	r.Header.Set("Content-Type", ct)
	r.Header.Set("Authorization", "Bearer "+ed)
	w := httptest.NewRecorder()
	b.srv.ServeHTTP(w, r)
	problem(t, w, http.StatusRequestEntityTooLarge)
}

func TestMethodNotAllowed(t *testing.T) {
	t.Parallel()
	b := setup(t)
	w := b.do(req{method: "POST", path: "/v1/tenant", token: token(t, b.a.ID, auth.RoleAdmin)})
	problem(t, w, http.StatusMethodNotAllowed)
	if got := w.Header().Get("Allow"); got != "GET" {
		t.Errorf("Allow %q", got)
	}
	problem(t, b.do(req{method: "GET", path: "/nowhere"}), http.StatusNotFound)
}

// TestValidationDoesNotEchoBodies: a rejected large body is not sent back.
func TestValidationDoesNotEchoBodies(t *testing.T) {
	t.Parallel()
	b := setup(t)
	big := strings.Repeat("lorem ipsum ", 4000)
	w := b.do(req{method: "PUT", path: "/v1/documents", token: token(t, b.a.ID, auth.RoleEditor),
		body: map[string]any{"source_uri": "a.md", "content": big, "unexpected": true}})
	problem(t, w, http.StatusUnprocessableEntity)
	if w.Body.Len() > 2048 || strings.Contains(w.Body.String(), "lorem") {
		t.Fatalf("problem echoes the body (%d bytes)", w.Body.Len())
	}
}
