package api_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/auth"
)

// TestFormUnknownFieldIsRefused: a multipart form naming a field its
// route does not declare is refused with 422 naming it, as a JSON body's
// unknown field is, and nothing is stored or queued. Ignored, a misspelt
// "Access" stored a document meant for one group readable tenant-wide.
func TestFormUnknownFieldIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	upload := func(name string, fields map[string]string) *httptest.ResponseRecorder {
		body, ct := multipartBody(t, name, "", []byte("# Merger\n\nThe bluefinch merger closes in May."), fields)
		r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", body)
		r.Header.Set("Content-Type", ct)
		r.Header.Set("Authorization", "Bearer "+ed)
		w := httptest.NewRecorder()
		b.srv.ServeHTTP(w, r)
		return w
	}
	if p := problem(t, upload("merger.md", map[string]string{"Access": `["group:hr"]`}), http.StatusUnprocessableEntity); !mentions(p, `"Access"`) {
		t.Errorf("upload with Access: %+v, want the field named", p)
	}
	if w := b.do(req{method: "GET", path: "/v1/documents?source_uri_prefix=merger.md", token: ed}); w.Code != http.StatusOK || strings.Contains(w.Body.String(), "merger.md") {
		t.Errorf("after the refused upload, the document list: %d %s", w.Code, w.Body.String())
	}
	jbody, jct := jobForm(t, []part{{"files", "a.md", "# A\n\nWidgets."}}, map[string]string{"bogus": "1"})
	w := b.do(req{method: "POST", path: "/v1/ingest/jobs", token: ed, body: jbody.Bytes(), header: map[string]string{"Content-Type": jct}})
	if p := problem(t, w, http.StatusUnprocessableEntity); !mentions(p, `"bogus"`) {
		t.Errorf("job with bogus: %+v, want the field named", p)
	}
	if w := b.do(req{method: "GET", path: "/v1/ingest/jobs", token: ed}); w.Code != http.StatusOK || strings.Contains(w.Body.String(), `"id"`) {
		t.Errorf("after the refused job, the job list: %d %s", w.Code, w.Body.String())
	}
	// The declared fields still work.
	if w := upload("merger2.md", map[string]string{"access": `["user:ragd-dev"]`, "title": "Merger"}); w.Code != http.StatusOK {
		t.Fatalf("upload with access: %d %s", w.Code, w.Body.String())
	}
}

// TestLoneSurrogateEscapeIsRefused: a JSON body escaping half a surrogate
// pair gets 422, as invalid UTF-8 does, instead of being stored with
// U+FFFD: two such source_uris were one document, the second write
// replacing the first. A whole pair is stored as the character it is.
func TestLoneSurrogateEscapeIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	put := func(body string) *httptest.ResponseRecorder {
		return b.do(req{method: "PUT", path: "/v1/documents", token: ed, body: body, header: map[string]string{"Content-Type": "application/json"}})
	}
	if p := problem(t, put(`{"source_uri":"sur/a\ud800b.md","content":"First text about widgets."}`), http.StatusUnprocessableEntity); !mentions(p, "surrogate") {
		t.Errorf("lone high surrogate: %+v, want the reason", p)
	}
	problem(t, put(`{"source_uri":"sur/c.md","title":"T\udc00","content":"Text."}`), http.StatusUnprocessableEntity)
	if w := b.do(req{method: "GET", path: "/v1/documents?source_uri_prefix=sur/", token: ed}); w.Code != http.StatusOK || strings.Contains(w.Body.String(), "sur/") {
		t.Errorf("after the refused writes, the document list: %d %s", w.Code, w.Body.String())
	}
	if w := put(`{"source_uri":"sur/smile-\ud83d\ude00.md","content":"Smiles about widgets."}`); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "😀") {
		t.Errorf("a whole pair: %d %s", w.Code, w.Body.String())
	}
}

// TestTitleIsOneLineOfText: a title with a line break, a C1 control (NEL,
// CSI) or only blanks gets 422 saying what a title is (not "not valid
// UTF-8"), and nothing is stored; an ordinary title is stored.
func TestTitleIsOneLineOfText(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	for _, title := range []string{"a\nb", "a\u0085b", "a\u009bb", "a\tb", "   "} {
		w := b.do(req{method: "PUT", path: "/v1/documents", token: ed, body: map[string]any{"source_uri": "titles/x.md", "title": title, "content": "Widgets are blue."}})
		if p := problem(t, w, http.StatusUnprocessableEntity); !mentions(p, "title") || mentions(p, "UTF-8:") && !mentions(p, "one line") {
			t.Errorf("title %q: %+v, want the reason to say what a title is", title, p)
		}
	}
	if w := b.do(req{method: "GET", path: "/v1/documents?source_uri_prefix=titles/", token: ed}); w.Code != http.StatusOK || strings.Contains(w.Body.String(), "titles/x.md") {
		t.Errorf("after the refused writes, the document list: %d %s", w.Code, w.Body.String())
	}
	if w := b.do(req{method: "PUT", path: "/v1/documents", token: ed, body: map[string]any{"source_uri": "titles/x.md", "title": "Widgets — a guide", "content": "Widgets are blue."}}); w.Code != http.StatusOK {
		t.Errorf("an ordinary title: %d %s", w.Code, w.Body.String())
	}
}

// TestJobOfMoreThanAThousandFiles: a job of 1,500 files parts is accepted
// (202), within RAGD_INGEST_JOB_MAX_FILES; Go's multipart reader refuses
// more than 1,000 parts by default, and such a job got 422 "multipart:
// message too large" (go.mod's godebug raises the reader's limits).
func TestJobOfMoreThanAThousandFiles(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	parts := make([]part, 1500)
	for i := range parts {
		parts[i] = part{"files", fmt.Sprintf("many/%04d.md", i), fmt.Sprintf("# Page %d\n\nWidget %d is blue.", i, i)}
	}
	body, ct := jobForm(t, parts, nil)
	w := b.do(req{method: "POST", path: "/v1/ingest/jobs", token: ed, body: body.Bytes(), header: map[string]string{"Content-Type": ct}})
	if w.Code != http.StatusAccepted {
		t.Fatalf("job of 1,500 files: %d %s", w.Code, w.Body.String())
	}
}
