package answer

import (
	"slices"
	"testing"
)

// TestHReview27SplitUnitMarkAsAWord: splitUnit's syntax-mark rule lets a
// "!" or "?" after one of "<%#$&*=|~^@" end no sentence unless a letter or
// digit stands right before the mark. It was meant for a mark that opens a
// token ("<%!", "#!", "$?"), but it also holds when the mark is a word of
// its own or closes one: a question about a shell prompt's "#" or a path's
// "~", a percentage written with a space before "%" (as ISO and most
// European style guides write it), a Markdown-bold word in a plain-text
// file. The question and the answer after it become one sentence, so the
// extractive answerer quotes both or neither.
func TestHReview27SplitUnitMarkAsAWord(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"prompt mark", "Why does the prompt end with #? You are logged in as root.",
			[]string{"Why does the prompt end with #?", "You are logged in as root."}},
		{"home directory", "Does the path start with ~? Then it is relative to your home directory.",
			[]string{"Does the path start with ~?", "Then it is relative to your home directory."}},
		{"spaced percent", "Is the disk at 100 %? Then add a volume before the next backup.",
			[]string{"Is the disk at 100 %?", "Then add a volume before the next backup."}},
		{"bold word", "Is the setting **required**? No, the default is used when it is missing.",
			[]string{"Is the setting **required**?", "No, the default is used when it is missing."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := splitUnit(tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("splitUnit =\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
