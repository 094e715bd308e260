package search

import "testing"

// TestAsksOpinionSeesAlternativesWithDots (h-review19, commit 81169e8):
// asksOpinion now cuts the query into sentences at every '.', so a file
// name, a module or a version number among the offered alternatives
// ("setup.py", "Node.js", "2.0") ends the "sentence" there, and the
// alternatives after the comma are never read: "Which should I use,
// setup.py or pyproject.toml?" is a how-to to it, while "Which should I
// pick, pytest or nose?" (its own example of a question that "ends by
// offering alternatives") is an opinion. Technical alternatives are
// written that way more often than not; before this change (an "or"
// anywhere with "should I/we") all of these were opinions.
//
// Expected: a '.' inside a word (between two non-space characters) does
// not end a sentence; each of these is an opinion question.
func TestAsksOpinionSeesAlternativesWithDots(t *testing.T) {
	for _, q := range []string{
		"Which should I use, setup.py or pyproject.toml?",
		"Which should we use, Node.js or Deno?",
		"Which version should I install, 1.2 or 2.0?",
		"Which should I use: pytest 8.0 or pytest 7.4?",
	} {
		if !asksOpinion(q) {
			t.Errorf("asksOpinion(%q) = false, want true (it ends by offering alternatives)", q)
		}
	}
}
