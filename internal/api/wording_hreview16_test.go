package api_test

import (
	"net/http"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestWordingWordAsSubject_hreview16: "use" in "What does the use
// statement do?" and "like" in "How does the like operator match?" are the
// question's subject (after "the", before the noun they qualify), not its
// phrasing. A tenant none of whose documents writes them cannot answer: the
// word is missing, as it was before request wording was ignored.
func TestWordingWordAsSubject_hreview16(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	docs := map[string]string{
		"import.md":    "# The import statement\n\nThe import statement binds a module to a name in the current namespace. The statement runs the module's code once.\n",
		"return.md":    "# The return statement\n\nThe return statement ends the current function and gives its value to the caller.\n",
		"operators.md": "# Comparison operators\n\nThe equality operator compares two values. The operator returns true when they are equal.\n",
		"match.md":     "# Pattern matching\n\nThe match statement compares a value with patterns. The first pattern that matches selects the block.\n",
	}
	for uri, content := range docs {
		decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: editor,
			body: map[string]any{"source_uri": uri, "content_type": "markdown", "content": content}}), http.StatusOK)
	}
	for _, c := range []struct{ q, word string }{
		{"What does the use statement do?", "use"},
		{"How does the like operator match patterns?", "like"},
	} {
		ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: editor,
			body: map[string]any{"question": c.q}}), http.StatusOK)
		if !ar.Refused {
			t.Errorf("%q: answered (%.3f), no document writes %q, the statement asked about:\n%s", c.q, ar.Confidence, c.word, ar.Answer)
		}
	}
}
