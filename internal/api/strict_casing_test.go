package api_test

import (
	"net/http"
	"testing"

	"github.com/ragd-dev/ragd/internal/auth"
)

// TestFieldNamesAreMatchedAsWritten: a body naming a field in other
// capitals ({"Query": …}) is refused as an unknown field, as any unknown
// field is, not read as the field; the same body as documented is served.
func TestFieldNamesAreMatchedAsWritten(t *testing.T) {
	t.Parallel()
	b := setup(t)
	reader := token(t, b.a.ID, auth.RoleReader)
	problem(t, b.do(req{method: "POST", path: "/v1/search", token: reader, body: map[string]any{"Query": "widgets", "top_k": 3}}), http.StatusUnprocessableEntity)
	problem(t, b.do(req{method: "POST", path: "/v1/search", token: reader, body: map[string]any{"query": "widgets", "TOP_K": 3}}), http.StatusUnprocessableEntity)
	problem(t, b.do(req{method: "POST", path: "/v1/answer", token: reader, body: map[string]any{"Question": "What are widgets?"}}), http.StatusUnprocessableEntity)
	if w := b.do(req{method: "POST", path: "/v1/search", token: reader, body: map[string]any{"query": "widgets", "top_k": 3}}); w.Code != http.StatusOK {
		t.Errorf("the documented body: %d %s", w.Code, w.Body.String())
	}
}
