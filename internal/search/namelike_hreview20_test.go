package search

import (
	"testing"
)

// NameLike now accepts a dotted word whose last part is one capital
// (testing.T). But a question typed without a space after a full stop,
// a common slip, joins a word to the next sentence's "I" or "A":
// "migration.I", "fails.A". Before the change these were no names; now
// they are probed, no document writes them, and the question is reported
// as naming something no document mentions (a missing name lowers the
// answerability and is shown to the user). A one-capital last part is a
// type only after a lower-case package name that is not an ordinary word
// ending a sentence; at the least "I" and "A", English words, are not.
//
// slashVersions likewise probes any capitals-and-digits word before "/"
// and a number: "Q3/24" (a quarter) and "FY23/24" (a fiscal year) are no
// protocol versions, and documents write them "Q3 2024", "2023/24".
func TestNoNameFromASentenceJoinedWithoutASpace(t *testing.T) {
	t.Parallel()
	for _, w := range []string{"migration.I", "fails.A"} {
		if NameLike(w, false) {
			t.Errorf("NameLike(%q) = true: a missing space after a full stop is no name", w)
		}
	}
	for _, tc := range []struct{ question, not string }{
		{"I ran the migration.I get an error that the table does not exist", "migration.I"},
		{"The upload fails.A colleague said it is the proxy, how do I raise the limit?", "fails.A"},
		{"What was the revenue in Q3/24?", "Q3/24"},
		{"What is the budget for FY23/24?", "FY23/24"},
	} {
		for _, p := range namesOf(tc.question).probes {
			if p.word == tc.not {
				t.Errorf("%q: %q is probed as a name", tc.question, tc.not)
			}
		}
	}
}
