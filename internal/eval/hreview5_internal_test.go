package eval

import (
	"testing"

	"github.com/ragd-dev/ragd/internal/analyze"
)

// TestQuestionKeyMatchesSearchNormalisation: questionKey is documented as
// what makes two questions the same question, and search answers
// analyze.Normalize of a question (NFC without soft hyphens, zero-width
// spaces, word joiners, BOM). Two questions that differ only by a soft
// hyphen or a zero-width space are one query to search, but questionKey
// keeps the invisible character: Validate accepts them as two questions,
// and FoldOf may put them in different folds, so the same query is both
// trained and tested on in cross-validation.
func TestQuestionKeyMatchesSearchNormalisation(t *testing.T) {
	t.Parallel()
	for _, pair := range [][2]string{
		{"what is a quokkaberry?", "what is a quokka\u00adberry?"},
		{"how do I reset the limegrove?", "how do I reset the lime\u200bgrove?"},
		{"what is a bom?", "\ufeffwhat is a bom?"},
	} {
		if analyze.Normalize(pair[0]) != analyze.Normalize(pair[1]) {
			t.Fatalf("case tests nothing: %q and %q normalise differently", pair[0], pair[1])
		}
		if questionKey(pair[0]) != questionKey(pair[1]) {
			t.Errorf("questionKey(%q) = %q, questionKey(%q) = %q: one query to search, two questions to the set",
				pair[0], questionKey(pair[0]), pair[1], questionKey(pair[1]))
		}
		err := Validate([]Question{{Question: pair[0], Relevant: []string{"a.md"}}, {Question: pair[1], Relevant: []string{"a.md"}}})
		if err == nil {
			t.Errorf("Validate accepts %q and %q as two questions", pair[0], pair[1])
		}
	}
}
