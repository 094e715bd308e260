package search

import "testing"

// TestVersusInADifferenceIsNoOpinion: "X versus Y" in a question asking how
// they differ asks for the difference, which documentation states; with
// "better", or alone, it still weighs a choice (a held-out trial's
// question on pyparsing's | and ^ operators was refused as an opinion).
func TestVersusInADifferenceIsNoOpinion(t *testing.T) {
	t.Parallel()
	for q, want := range map[string]bool{
		"What is the difference between combining alternatives with the | operator versus the ^ operator?": false,
		"How does Or differ from MatchFirst, | vs ^?":                                                      false,
		"pyparsing vs lark?": true,
		"Which is better for config files, YAML versus TOML?":        true,
		"Is the difference between them worth it, Or vs MatchFirst?": true,
	} {
		if got := asksOpinion(q); got != want {
			t.Errorf("asksOpinion(%q) = %v, want %v", q, got, want)
		}
	}
}
