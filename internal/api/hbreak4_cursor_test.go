package api_test

import (
	"encoding/base64"
	"net/http"
	"testing"

	"github.com/ragd-dev/ragd/internal/auth"
)

// TestTamperedEventCursorIsRefused: GET /v1/events refuses a cursor that
// is not one it returned with 422 ("cursor is not one this API returned")
// — unless the decoded bytes lack the "e1:" tag but hold a "/": then the
// check is skipped, the cursor is taken as the zero time and the nil id,
// and the page is an empty 200, as if the listing had ended. The
// documents and jobs listings refuse the same cursors.
func TestTamperedEventCursorIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	admin := token(t, b.a.ID, auth.RoleAdmin)
	b.upsert(admin, "install.md", docInstall)
	// One recorded event, so an empty page would be wrong anyway.
	b.do(req{method: "POST", path: "/v1/search", token: admin, body: map[string]any{"query": "widgetctl upgrade"}})
	for _, raw := range []string{"x/y", "hello/world", "2026-01-01T00:00:00Z/00000000-0000-0000-0000-000000000000"} {
		c := base64.RawURLEncoding.EncodeToString([]byte(raw))
		for _, path := range []string{"/v1/events?cursor=", "/v1/documents?cursor=", "/v1/ingest/jobs?cursor="} {
			w := b.do(req{method: "GET", path: path + c, token: admin})
			if w.Code != http.StatusUnprocessableEntity {
				t.Errorf("GET %s<base64 %q>: %d %s, want 422", path, raw, w.Code, w.Body.String())
			}
		}
	}
}
