package answer

import (
	"slices"
	"testing"
)

// TestSplitUnitSyntaxMarkHReview26 (h-review26): the syntax-mark rule of
// splitUnit looks at one character before "!" or "?" only, so prose whose
// last word ends with "%", "#" or "*" runs on into the next sentence.
func TestSplitUnitSyntaxMarkHReview26(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"percent", "Is the disk at 100%? Then add a volume before the next backup.",
			[]string{"Is the disk at 100%?", "Then add a volume before the next backup."}},
		{"percent exclamation", "Test coverage reached 100%! Every branch of the parser is now tested.",
			[]string{"Test coverage reached 100%!", "Every branch of the parser is now tested."}},
		{"language name", "Can I call the library from C#? Yes, through the .NET bindings.",
			[]string{"Can I call the library from C#?", "Yes, through the .NET bindings."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := splitUnit(tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("splitUnit =\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
