package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/auth"
)

// TestDocumentWritePreconditionsAreRefused: ragd keeps no entity tags, so a
// write guarded by If-Match or If-None-Match: * (RFC 9110's lost-update
// protection) is refused with 501, and nothing is written: ignoring the
// precondition turned a guarded write into an unguarded one (breaker
// h-break4: a stale If-Match overwrote the document, a create-only PUT
// replaced it).
func TestDocumentWritePreconditionsAreRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	w := b.upsert(editor, "install.md", docInstall)
	for _, h := range []map[string]string{{"If-Match": `"stale-version"`}, {"If-None-Match": "*"}, {"If-Unmodified-Since": "Wed, 21 Oct 2015 07:28:00 GMT"}} {
		r := b.do(req{method: "PUT", path: "/v1/documents", token: editor, header: h,
			body: map[string]any{"source_uri": "install.md", "content": docBilling, "content_type": "markdown"}})
		if r.Code != http.StatusNotImplemented {
			t.Errorf("PUT with %v: %d %s, want 501", h, r.Code, r.Body.String())
		}
	}
	got := b.do(req{method: "GET", path: "/v1/documents/" + w.ID.String(), token: editor})
	if got.Code != http.StatusOK || strings.Contains(got.Body.String(), "Billing") {
		t.Errorf("after the refused writes the document is %d %s, want it unchanged", got.Code, got.Body.String())
	}
}
