package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestHyphenatedWordBesideItsJoinedForm (h-review15): a question that
// writes a word both ways ("Is auto-vacuum the same as autovacuum?") makes
// the joined form one of the question's own lexemes, not an optional one,
// so writtenJoined (which only reads the optional lexemes' document
// frequencies) no longer credits "auto-vacuum", "auto" and "vacuum": they
// count as absent, though the same corpus answers "What does the
// auto-vacuum daemon do?" with nothing absent. Adding the documents' own
// spelling to a question makes it look less answerable.
//
// Expected: absent share 0 and no missing terms, as for the question
// that writes the word hyphenated only.
func TestHyphenatedWordBesideItsJoinedForm(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "hyphens-both", "english", map[string]string{
		"vacuum.md": "# Routine maintenance\n\nThe autovacuum daemon is a background process. " +
			"Each autovacuum worker processes one database at a time.",
		"other.md": "# Backups\n\nA base backup copies the data directory.",
	})
	ctx := context.Background()
	for _, q := range []string{"What does the auto-vacuum daemon do?", "Is the auto-vacuum daemon the autovacuum daemon?"} {
		resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Signals.AbsentShare != 0 || len(resp.MissingTerms) > 0 {
			t.Errorf("%q: absent share %.3f, missing %q, reason %q; every word is in vacuum.md (written joined)",
				q, resp.Signals.AbsentShare, resp.MissingTerms, resp.ConfidenceReason)
		}
	}
}
