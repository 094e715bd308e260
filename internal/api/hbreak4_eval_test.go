package api_test

import (
	"net/http"
	"testing"

	"github.com/ragd-dev/ragd/internal/auth"
)

// TestEvalSetRelevantNullIsRefused: PUT /v1/eval/sets refuses a question
// without "relevant" (422: it is required, since an absent list would make
// the question silently unanswerable), but takes "relevant": null as the
// empty list and stores the question as unanswerable; the set's own
// format says only [] marks a question the corpus cannot answer.
func TestEvalSetRelevantNullIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	admin := token(t, b.a.ID, auth.RoleAdmin)
	b.upsert(admin, "install.md", docInstall)
	absent := b.do(req{method: "PUT", path: "/v1/eval/sets/absent", token: admin,
		body: `{"questions": [{"question": "How do I upgrade widgets?"}]}`})
	if absent.Code != http.StatusUnprocessableEntity {
		t.Fatalf("absent relevant: %d %s (the premise: it is refused)", absent.Code, absent.Body.String())
	}
	null := b.do(req{method: "PUT", path: "/v1/eval/sets/null", token: admin,
		body: `{"questions": [{"question": "How do I upgrade widgets?", "relevant": null}]}`})
	if null.Code != http.StatusUnprocessableEntity {
		t.Errorf(`"relevant": null: %d %s, want 422 like an absent relevant (it was stored as an unanswerable question)`, null.Code, null.Body.String())
	}
}
