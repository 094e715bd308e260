package analyze

import (
	"slices"
	"testing"
)

func TestHyphenatedWords(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"How do I tune auto-vacuum, and is e-mail or E-Mail better?", []string{"auto-vacuum", "e-mail"}},
		{"UTF-8 vs GPT-4模型", []string{"UTF-8", "GPT-4"}},
		// Dates, ranges, options, long compounds and dangling hyphens are
		// not words written joined.
		{"on 2024-01-31, pages 10-12, --no-verify, state-of-the-art, pre- and post-", nil},
		{"x-ray, set-up-time but not a-b-c-d", []string{"x-ray", "set-up-time"}},
		{"", nil},
	} {
		if got := HyphenatedWords(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("HyphenatedWords(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
