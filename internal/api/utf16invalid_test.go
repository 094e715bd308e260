package api_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// Text that is not valid in its charset is refused, not repaired: invalid
// UTF-8 in an upload is a 422 "input is not valid UTF-8" (SECURITY.md's
// catalogue, which also refuses JSON whose decoder "would replace each
// invalid byte with U+FFFD and store a text nobody sent"). A UTF-16 file
// (byte-order mark) with an unpaired surrogate, or with an odd trailing
// byte, was transcoded with U+FFFD in their place and stored with 200.
func TestInvalidUTF16UploadIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	utf16le := func(s string) []byte {
		out := []byte{0xff, 0xfe}
		for _, r := range s {
			out = append(out, byte(r), byte(r>>8))
		}
		return out
	}
	for name, data := range map[string][]byte{
		"unpaired surrogate": append(append(utf16le("# Notes\n\nBefore "), 0x00, 0xd8), utf16le(" after.")[2:]...),
		"odd trailing byte":  append(utf16le("# Notes\n\nAll text here."), 'x'),
	} {
		body, ct := multipartBody(t, "notes.md", "text/markdown", data, nil)
		r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", body)
		r.Header.Set("Content-Type", ct)
		r.Header.Set("Authorization", "Bearer "+ed)
		w := httptest.NewRecorder()
		b.srv.ServeHTTP(w, r)
		if w.Code == 422 {
			continue
		}
		t.Errorf("%s: status %d, want 422", name, w.Code)
		if w.Code == 200 {
			out := decode[api.DocumentWrite](t, w, 200)
			doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + out.ID.String() + "?include_content=true", token: ed}), 200)
			if doc.Content != nil && strings.ContainsRune(*doc.Content, '\uFFFD') {
				t.Errorf("%s: stored with U+FFFD: %q", name, *doc.Content)
			}
			b.do(req{method: "DELETE", path: "/v1/documents/" + out.ID.String(), token: ed})
		}
	}
}
