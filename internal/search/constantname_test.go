package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestEnvironmentVariableNamedByItsKindIsMissing: "the RUST_MAX_HEAP
// variable" names the software's environment variable, which no page
// mentions: it is reported missing, as without the kind word; the
// asker's own variable ("the my_total variable", "my MAX_ROWS variable")
// is no missing name.
func TestEnvironmentVariableNamedByItsKindIsMissing(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"env.md": "# Environment\n\nSet RUST_BACKTRACE=1 to print a backtrace when the program panics. " +
			"The heap grows as the program allocates; the runtime sets no limit on its size.",
	}
	tt, s := corpusTenant(t, "envvarkind", "english", docs)
	ctx := context.Background()
	for _, tc := range []struct {
		q       string
		missing bool
	}{
		{"How do I limit the heap size of the runtime with the RUST_MAX_HEAP variable?", true},
		{"How do I limit the heap size of the runtime with RUST_MAX_HEAP?", true},
		{"Why does the heap grow when I add to the my_total variable?", false},
		{"Why does the heap grow when I raise my MAX_ROWS variable?", false},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		got := len(resp.MissingTerms) > 0 && slices.ContainsFunc(resp.MissingTerms, func(m string) bool { return m == "RUST_MAX_HEAP" || m == "my_total" || m == "MAX_ROWS" })
		if got != tc.missing {
			t.Errorf("%q: missing terms %q (confidence %.2f); want the identifier missing: %v", tc.q, resp.MissingTerms, resp.Confidence, tc.missing)
		}
	}
}
