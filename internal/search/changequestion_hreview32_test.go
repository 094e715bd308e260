package search

import "testing"

// TestHReview32ReleaseWrittenJoinedIsAChangeQuestion: 796d4f0 made a
// dotted number a release only after a word and a blank, or a "v". A
// release written the way interpreters and paths write it, joined to its
// name ("python3.12", "py3.8"), hyphenated ("Python-3.12"), in
// parentheses ("Node.js (20.1)") or opening the question ("3.12 removed
// …") no longer counts, while it did before (any \d+\.\d+). What a user
// sees: for "Does Flask run on python3.12?" the change log, the one page
// that says which Pythons a release supports, is discounted to half its
// score and drops below pages that merely mention Flask and Python.
// (Amounts after a word still count: "set the timeout to 2.5 seconds" is a
// change question.)
func TestHReview32ReleaseWrittenJoinedIsAChangeQuestion(t *testing.T) {
	t.Parallel()
	for _, q := range []string{
		"Does Flask run on python3.12?",
		"Why does pip fail on py3.8?",
		"Is Python-3.12 supported?",
		"Does it work with Node.js (20.1)?",
		"3.12 removed distutils, what do I use?",
	} {
		if !changeQuestion.MatchString(q) {
			t.Errorf("changeQuestion(%q) = false, want true (it names a release)", q)
		}
	}
}
