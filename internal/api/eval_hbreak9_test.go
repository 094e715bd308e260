package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/auth"
)

// TestEvalSetQuestionsTheSearchRefuses (h-break9): PUT /v1/eval/sets
// checks each question with strings.TrimSpace and counts its characters as
// sent, but a run searches the question in the form search compares text
// in (analyze.Question: invisible characters removed, NFC) and the search
// refuses what that leaves: a question made of a zero-width space (U+200B)
// or a BOM (U+FEFF) is empty to it, and a question of 100 × U+FB2C (one
// character each, NFC decomposes each into three) is 300 characters to it,
// past the server's RAGD_MAX_QUERY_CHARS (200 in this suite). The set is
// stored (200), and every later POST /v1/eval/runs of it fails as a whole
// with 422 ("question 1 (vector leg): empty query"): one hostile or
// copy-pasted line makes a 10,000-question set unrunnable, and the error
// only shows at run time.
//
// Expected: the set is refused when loaded (422 naming the line, like an
// empty or over-long question), or the run scores such a question as one
// that retrieved nothing; never a stored set that cannot run.
func TestEvalSetQuestionsTheSearchRefuses(t *testing.T) {
	t.Parallel()
	b := setup(t)
	admin := token(t, b.a.ID, auth.RoleAdmin)
	b.upsert(admin, "install.md", docInstall)
	for name, q := range map[string]string{
		"zwsp":     "\u200b",
		"bom":      "\ufeff\u200b\ufeff",
		"expands":  strings.Repeat("\ufb2c", 100),
		"softhyph": "\u00ad\u2060",
	} {
		put := b.do(req{method: "PUT", path: "/v1/eval/sets/" + name, token: admin, body: map[string]any{"questions": []map[string]any{
			{"question": "How do I upgrade widgets?", "relevant": []string{"install.md"}},
			{"question": q, "relevant": []string{"install.md"}},
		}}})
		if put.Code == http.StatusUnprocessableEntity {
			continue // refused at load time: fine
		}
		if put.Code != http.StatusOK {
			t.Errorf("%s: PUT set: %d %s", name, put.Code, put.Body.String())
			continue
		}
		run := b.do(req{method: "POST", path: "/v1/eval/runs", token: admin, body: map[string]any{"set": name}})
		if run.Code != http.StatusOK {
			t.Errorf("%s: the set %q was stored (200) but every run of it fails: %d %s", name, q, run.Code, run.Body.String())
		}
	}
}
