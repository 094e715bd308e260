package answer

import "testing"

// TestWithCitationKeepsAnEllipsis: dots standing as a word of their own
// are a literal ellipsis ("followed by ...." in the Go specification): the
// marker goes after them, before a full stop after them. (A prose
// ellipsis, "Wait for it...", ends the sentence: TestCitationAfterAWordsColon.)
func TestWithCitationKeepsAnEllipsis(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"The final argument may be of slice type followed by ....": "The final argument may be of slice type followed by ... [1].",
		"The arguments are a ...":                                  "The arguments are a ... [1]",
		"It is Y.":                                                 "It is Y [1].",
		"Use it like this:":                                        "Use it like this [1]:",
	} {
		if got := withCitation(in, 1); got != want {
			t.Errorf("withCitation(%q) = %q, want %q", in, got, want)
		}
	}
}
