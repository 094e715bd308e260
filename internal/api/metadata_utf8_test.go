package api_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestFormMetadataMustBeUTF8: metadata sent as a form field (a document
// upload, an ingestion job) that is not UTF-8 is refused with the reason,
// as the JSON routes refuse it, instead of being stored with U+FFFD in
// place of the caller's bytes; nothing is stored or queued.
func TestFormMetadataMustBeUTF8(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	bad := "{\"a\":\"\xff\"}"
	upload := func(name, metadata string) *httptest.ResponseRecorder {
		body, ct := multipartBody(t, name, "", []byte("# Meta\n\nWidgets are blue."), map[string]string{"metadata": metadata})
		r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", body)
		r.Header.Set("Content-Type", ct)
		r.Header.Set("Authorization", "Bearer "+ed)
		w := httptest.NewRecorder()
		b.srv.ServeHTTP(w, r)
		return w
	}
	if p := problem(t, upload("meta.md", bad), http.StatusUnprocessableEntity); !mentions(p, "UTF-8") {
		t.Errorf("upload: %+v, want the reason to name UTF-8", p)
	}
	if w := b.do(req{method: "GET", path: "/v1/documents?source_uri_prefix=meta.md", token: ed}); w.Code != http.StatusOK || strings.Contains(w.Body.String(), "meta.md") {
		t.Errorf("after the refused upload, the document list: %d %s", w.Code, w.Body.String())
	}
	jbody, jct := jobForm(t, []part{{"files", "a.md", "# A\n\nWidgets."}}, map[string]string{"metadata": bad})
	w := b.do(req{method: "POST", path: "/v1/ingest/jobs", token: ed, body: jbody.Bytes(), header: map[string]string{"Content-Type": jct}})
	if p := problem(t, w, http.StatusUnprocessableEntity); !mentions(p, "UTF-8") {
		t.Errorf("job: %+v, want the reason to name UTF-8", p)
	}
	// Valid UTF-8 beyond ASCII is stored as sent.
	if w := upload("meta2.md", `{"a":"Größe"}`); w.Code != http.StatusOK {
		t.Fatalf("upload with UTF-8 metadata: %d %s", w.Code, w.Body.String())
	}
}

// mentions reports whether the problem's detail or one of its errors'
// messages holds s.
func mentions(p api.Problem, s string) bool {
	text := p.Detail
	for _, e := range p.Errors {
		text += " " + e.Message
	}
	return strings.Contains(text, s)
}
