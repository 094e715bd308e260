package api_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/extract"
)

// The fixtures are package extract's: manual.pdf (four pages, a heading per
// page, running header and page-number footers), scan.pdf (an image-only
// page) and report.docx (pandoc's rendering of report.md).
func formatFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../extract/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPDFUpload: an uploaded PDF is stored with the pages of its chunks;
// search results and answer citations name the page; a PDF without a text
// layer is refused with the reason.
func TestPDFUpload(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	rd := token(t, b.a.ID, auth.RoleReader)
	upload := func(filename, partType string, content []byte) *httptest.ResponseRecorder {
		body, ct := multipartBody(t, filename, partType, content, nil)
		r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", body)
		r.Header.Set("Content-Type", ct)
		r.Header.Set("Authorization", "Bearer "+ed)
		w := httptest.NewRecorder()
		b.srv.ServeHTTP(w, r)
		return w
	}
	// The engine is compiled before the first request, as `ragd serve` does
	// at start-up: on a busy machine compiling it can outlast the request
	// timeout of these tests.
	if err := extract.PreparePDF(); err != nil {
		t.Fatal(err)
	}
	out := decode[api.DocumentWrite](t, upload("manual.pdf", "application/pdf", formatFixture(t, "manual.pdf")), 200)
	if out.Status != "added" || out.Chunks < 1 {
		t.Fatalf("upload: %+v", out)
	}
	doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + out.ID.String(), token: rd}), 200)
	if doc.ContentType != "application/pdf" || doc.Title != "ragd Test Manual" {
		t.Fatalf("stored PDF: %+v", doc)
	}
	// The same bytes under a generic part type: the extension decides; unchanged.
	if again := decode[api.DocumentWrite](t, upload("manual.pdf", "application/octet-stream", formatFixture(t, "manual.pdf")), 200); again.Status != "unchanged" {
		t.Errorf("re-upload: %+v", again)
	}

	res := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: rd,
		body: map[string]any{"query": "optical character recognition of scanned files", "top_k": 5}}), 200)
	if len(res.Results) == 0 {
		t.Fatal("no results")
	}
	top := res.Results[0]
	if top.SourceURI != "manual.pdf" || top.PageStart == nil || top.PageEnd == nil || *top.PageStart != 4 || *top.PageEnd != 4 ||
		!strings.Contains(top.Content, "optical character recognition") || !strings.Contains(top.HeadingPath, "2.1 Scanned files") {
		t.Fatalf("top result: %+v (pages %v-%v)", top, top.PageStart, top.PageEnd)
	}
	for _, r := range res.Results {
		if r.PageStart == nil || *r.PageStart < 1 || *r.PageEnd < *r.PageStart || *r.PageEnd > 4 {
			t.Errorf("result %d pages %v-%v", r.Rank, r.PageStart, r.PageEnd)
		} else if want := fmt.Sprintf("page=%d", *r.PageStart); r.Anchor != want {
			// A PDF's result links to the page it starts on (RFC 8118).
			t.Errorf("result %d anchor %q, want %q", r.Rank, r.Anchor, want)
		}
	}

	ans := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: rd,
		body: map[string]any{"question": "Which port does the server listen on?"}}), 200)
	if ans.Refused || len(ans.Citations) == 0 {
		t.Fatalf("answer: %+v", ans)
	}
	c := ans.Citations[0]
	src := ans.Sources[c.N-1]
	if src.PageStart == nil || c.PageStart == nil || c.PageEnd == nil || c.Page == "" || !strings.HasPrefix(c.Page, "page") ||
		!strings.Contains(src.Content, "port 8080") {
		t.Fatalf("citation %+v of source %+v", c, src)
	}
	// The port is on page 2. An extractive answer widens the source to its
	// neighbouring chunks, so the source's range holds page 2 and more; the
	// citation names the pages of the chunk its sentence was quoted from.
	if *src.PageStart > 2 || *src.PageEnd < 2 {
		t.Errorf("source pages %d-%d, want a range holding page 2", *src.PageStart, *src.PageEnd)
	}
	if *c.PageStart != 2 || *c.PageEnd != 2 || c.Page != "page 2" || c.Anchor != "page=2" {
		t.Errorf("cited %q (%d-%d, anchor %q), want page 2 and page=2, where the sentence is (source pages %d-%d)", c.Page, *c.PageStart, *c.PageEnd,
			c.Anchor, *src.PageStart, *src.PageEnd)
	}

	p := problem(t, upload("scan.pdf", "application/pdf", formatFixture(t, "scan.pdf")), http.StatusUnprocessableEntity)
	if !strings.Contains(p.Detail, "no text layer") || !strings.Contains(p.Detail, "OCR") {
		t.Errorf("image-only PDF: %+v", p)
	}
}

// TestDOCXUpload: a DOCX file's headings become heading paths and its table
// stays whole with its header row.
func TestDOCXUpload(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	rd := token(t, b.a.ID, auth.RoleReader)
	body, ct := multipartBody(t, "report.docx", "", formatFixture(t, "report.docx"), nil)
	r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", body)
	r.Header.Set("Content-Type", ct)
	r.Header.Set("Authorization", "Bearer "+ed)
	w := httptest.NewRecorder()
	b.srv.ServeHTTP(w, r)
	out := decode[api.DocumentWrite](t, w, 200)
	doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + out.ID.String(), token: rd}), 200)
	if doc.ContentType != "application/vnd.openxmlformats-officedocument.wordprocessingml.document" || doc.Title != "Quarterly Storage Report" {
		t.Fatalf("stored DOCX: %+v", doc)
	}
	res := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: rd,
		body: map[string]any{"query": "free TiB in Lima", "top_k": 3}}), 200)
	if len(res.Results) == 0 {
		t.Fatal("no results")
	}
	top := res.Results[0]
	if !strings.Contains(top.Content, "Site | Disks | Free TiB\nOslo | 120 | 48\nLima | 80 | 12") || top.PageStart != nil {
		t.Errorf("table chunk: %+v", top)
	}
	if !strings.HasPrefix(top.HeadingPath, "Quarterly Storage Report") {
		t.Errorf("heading path %q", top.HeadingPath)
	}
}
