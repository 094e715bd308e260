package search

import "testing"

// TestHReview29ChangeWordsOfTheAskersData: bf0e10a narrowed changeQuestion
// so that "a word of change about the asker's data ('one field changed')
// no longer makes a question about releases", and change logs stay
// discounted for it. But it kept "(added|introduced|removed|changed|
// dropped|renamed) in" and "what changes" as cues, and those are as often
// the asker's data: "the files changed in a commit" (git's own
// documentation is asked this every day), "the attributes changed in a
// flush", "the rows removed in a transaction", "What changes do I need to
// make …". Each such question is taken for one about releases, so the
// change log is not discounted and competes with the pages that answer
// it, the attrs-trial failure bf0e10a fixed.
//
// A correct implementation matches these cues only when they point at a
// release or a version ("added in 2.0", "removed in version 3",
// "What changed in the last release?"), not at the asker's objects.
func TestHReview29ChangeWordsOfTheAskersData(t *testing.T) {
	t.Parallel()
	for _, q := range []string{
		"How do I list the files changed in a commit?",
		"How can I see which attributes changed in the last flush of the session?",
		"How do I get the rows removed in a transaction?",
		"What changes do I need to make to settings.py to enable CSRF protection?",
	} {
		if changeQuestion.MatchString(q) {
			t.Errorf("changeQuestion(%q) = true; the change is the asker's data, not a release's", q)
		}
	}
}
