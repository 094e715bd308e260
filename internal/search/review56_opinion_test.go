package search

import "testing"

// TestReview56VersusStillAsksWhichToPick: a difference word in the
// question does not lift "vs" as an opinion cue when the question also
// asks which to pick in so many words ("should I pick", "should I
// choose"; a review).
func TestReview56VersusStillAsksWhichToPick(t *testing.T) {
	t.Parallel()
	for _, q := range []string{
		"Which should I pick, pyparsing vs lark? What are the differences?",
		"pyparsing vs lark: which one should I choose, and how do they differ?",
	} {
		if !asksOpinion(q) {
			t.Errorf("asksOpinion(%q) = false, want true: it asks which to pick", q)
		}
	}
}
