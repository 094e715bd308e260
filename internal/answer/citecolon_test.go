package answer

import "testing"

// TestCitationAfterAWordsColon: the marker goes before a sentence's final
// punctuation, and a colon that is the word's ("is Location:.") stays with
// the word: "is Location [1]:." put the marker inside the header's name.
func TestCitationAfterAWordsColon(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"The header that tells the browser to redirect is Location:.": "The header that tells the browser to redirect is Location: [1].",
		"Use it like this:":    "Use it like this [1]:",
		"Is it done?!":         "Is it done [1]?!",
		"Wait for it...":       "Wait for it [1]...",
		"No final punctuation": "No final punctuation [1]",
		"配送には三到五天かかります。": "配送には三到五天かかります[1]。",
	} {
		if got := withCitation(in, 1); got != want {
			t.Errorf("withCitation(%q) = %q, want %q", in, got, want)
		}
	}
}
