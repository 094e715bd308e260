package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/auth"
)

// TestMalformedJSONSaysSo: a body that is not JSON at all is a 400 that
// says so, not "validation failed"; a body that is JSON but breaks the
// schema stays a 422 naming the field.
func TestMalformedJSONSaysSo(t *testing.T) {
	t.Parallel()
	b := setup(t)
	reader := token(t, b.a.ID, auth.RoleReader)
	w := b.do(req{method: "POST", path: "/v1/search", token: reader, body: `{"query": "pixbuf",`})
	p := problem(t, w, http.StatusBadRequest)
	if p.Detail != "the request body is not valid JSON" || len(p.Errors) == 0 {
		t.Errorf("truncated JSON: problem %+v", p)
	}
	w = b.do(req{method: "POST", path: "/v1/search", token: reader, body: `{}`})
	p = problem(t, w, http.StatusUnprocessableEntity)
	if p.Detail == "the request body is not valid JSON" || len(p.Errors) == 0 || !strings.Contains(p.Errors[0].Message, "query") {
		t.Errorf("missing field: problem %+v", p)
	}
}
