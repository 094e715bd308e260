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
	for _, title := range []string{"a\nb", "a\u0085b", "a\u009bb", "a\tb", "   ", "first\u2028second", "\u200b", "invoice \u202egpj.exe"} {
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
	// A title read from a file ends with its line break, which is no part
	// of it.
	if w := b.do(req{method: "PUT", path: "/v1/documents", token: ed, body: map[string]any{"source_uri": "titles/y.md", "title": "Quarterly report\n", "content": "Widgets are red."}}); w.Code != http.StatusOK {
		t.Errorf("a title with a final line break: %d %s", w.Code, w.Body.String())
	}
	if w := b.do(req{method: "GET", path: "/v1/documents?source_uri_prefix=titles/y.md", token: ed}); !strings.Contains(w.Body.String(), `"title":"Quarterly report"`) {
		t.Errorf("the stored title: %s", w.Body.String())
	}
}

// TestJobOfTenThousandFiles: a job of 10,000 files parts, the default
// RAGD_INGEST_JOB_MAX_FILES, with 45-byte paths, is accepted (202). Go's
// multipart reader refuses more than 1,000 parts by default (go.mod's
// godebug raises that), and counts each part's headers against the form's
// memory: at huma's 8 KiB about 7,500 such files got 422 "multipart:
// message too large".
func TestJobOfTenThousandFiles(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	parts := make([]part, 10000)
	for i := range parts {
		parts[i] = part{"files", fmt.Sprintf("guide/section-of-the-manual/chapter/page-%05d.md", i), fmt.Sprintf("# Page %d\n\nWidget %d is blue.", i, i)}
	}
	body, ct := jobForm(t, parts, nil)
	w := b.do(req{method: "POST", path: "/v1/ingest/jobs", token: ed, body: body.Bytes(), header: map[string]string{"Content-Type": ct}})
	if w.Code != http.StatusAccepted {
		t.Fatalf("job of 10,000 files: %d %.300s", w.Code, w.Body.String())
	}
}

// TestFormFieldOfTheWrongKindIsRefused: a value field sent as a file part
// (-F access=@acl.json) or a file field sent as a value is refused with
// 422; the form's decoder read either as absent, and the restricted
// document was stored tenant-wide.
func TestFormFieldOfTheWrongKindIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	send := func(path string, fileParts []part, values map[string]string) *httptest.ResponseRecorder {
		body, ct := jobForm(t, fileParts, values)
		return b.do(req{method: "POST", path: path, token: ed, body: body.Bytes(), header: map[string]string{"Content-Type": ct}})
	}
	doc := part{"file", "secret.md", "# Launch\n\nThe launch code word is bluefinch."}
	if p := problem(t, send("/v1/documents/upload", []part{doc, {"access", "acl.json", `["user:ragd-dev"]`}}, nil), http.StatusUnprocessableEntity); !mentions(p, `"access" is a value`) {
		t.Errorf("access as a file: %+v", p)
	}
	if p := problem(t, send("/v1/documents/upload", []part{doc, {"metadata", "meta.json", `{"a":1}`}}, nil), http.StatusUnprocessableEntity); !mentions(p, `"metadata" is a value`) {
		t.Errorf("metadata as a file: %+v", p)
	}
	if w := b.do(req{method: "GET", path: "/v1/documents?source_uri_prefix=secret.md", token: ed}); w.Code != http.StatusOK || strings.Contains(w.Body.String(), "secret.md") {
		t.Errorf("after the refused uploads, the document list: %d %s", w.Code, w.Body.String())
	}
	if p := problem(t, send("/v1/ingest/jobs", []part{{"files", "a.md", "# A\n\nWidgets."}}, map[string]string{"files": "# B"}), http.StatusUnprocessableEntity); !mentions(p, `"files" is a file`) {
		t.Errorf("files as a value: %+v", p)
	}
	if p := problem(t, send("/v1/ingest/jobs", []part{{"files", "a.md", "# A\n\nWidgets."}, {"base_uri", "base.txt", "https://x.test/"}}, nil), http.StatusUnprocessableEntity); !mentions(p, `"base_uri" is a value`) {
		t.Errorf("base_uri as a file: %+v", p)
	}
	// The right kinds still work.
	if w := send("/v1/documents/upload", []part{doc}, map[string]string{"access": `["user:ragd-dev"]`}); w.Code != http.StatusOK {
		t.Errorf("upload with access as a value: %d %s", w.Code, w.Body.String())
	}
}

// TestFormMetadataLoneSurrogateIsRefused: metadata sent as a form field
// that escapes half a surrogate pair is refused as invalid UTF-8 is; the
// decoder stored U+FFFD, and two such keys became one.
func TestFormMetadataLoneSurrogateIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	body, ct := multipartBody(t, "meta.md", "", []byte("# Meta\n\nWidgets are blue."), map[string]string{"metadata": `{"\udc01":"x","\ud801":"y"}`})
	r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", body)
	r.Header.Set("Content-Type", ct)
	r.Header.Set("Authorization", "Bearer "+ed)
	w := httptest.NewRecorder()
	b.srv.ServeHTTP(w, r)
	if p := problem(t, w, http.StatusUnprocessableEntity); !mentions(p, "surrogate") {
		t.Errorf("upload: %+v, want the reason to name the surrogate", p)
	}
}

// TestSourceURIIsAnAddress: a source_uri of blanks, or one whose link would
// run code (javascript:, vbscript:, data:), gets 422 and nothing is
// stored; clients render a citation's source_uri as a link.
func TestSourceURIIsAnAddress(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	for _, uri := range []string{" ", "\u200b", "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<script>1</script>", " vbscript:x"} {
		w := b.do(req{method: "PUT", path: "/v1/documents", token: ed, body: map[string]any{"source_uri": uri, "content": "Widgets are blue."}})
		if p := problem(t, w, http.StatusUnprocessableEntity); !mentions(p, "source_uri") {
			t.Errorf("source_uri %q: %+v", uri, p)
		}
	}
	if w := b.do(req{method: "GET", path: "/v1/documents", token: ed}); w.Code != http.StatusOK || strings.Contains(w.Body.String(), "Widgets") || strings.Contains(w.Body.String(), `"source_uri"`) {
		t.Errorf("after the refused writes, the document list: %d %s", w.Code, w.Body.String())
	}
	for _, uri := range []string{"https://docs.example.com/a.html", "guide/data-types.md", "urn:isbn:0451450523"} {
		if w := b.do(req{method: "PUT", path: "/v1/documents", token: ed, body: map[string]any{"source_uri": uri, "content": "Widgets are blue."}}); w.Code != http.StatusOK {
			t.Errorf("source_uri %q: %d %s", uri, w.Code, w.Body.String())
		}
	}
}
