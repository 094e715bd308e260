package answer

import (
	"strings"
	"testing"
)

// TestPassageGoesOnToWhatItBringsIn: a passage ending on the sentence that
// brings in what the question asks about ("… there is an extra option,
// q.") goes on to the next sentence of its paragraph, which opens with it
// and says what it is (the Lua manual's string.format, a fresh user's
// question answered with the first sentence alone).
func TestPassageGoesOnToWhatItBringsIn(t *testing.T) {
	t.Parallel()
	content := "string.format (formatstring, ···)\n\n" +
		"Returns a formatted version of its variable number of arguments following the description given in its first argument (which must be a string). " +
		"The format string follows the same rules as the ISO C function sprintf. " +
		"The only differences are that the options/modifiers *, h, L, l, n, and p are not supported and that there is an extra option, q. " +
		"The q option formats a string between double quotes, using escape sequences when necessary to ensure that it can safely be read back by the Lua interpreter. " +
		"For instance, the call below produces a string that Lua reads back unchanged.\n"
	r := Extractive("What does the %q option of string.format do?", []Source{{N: 1, Title: "Lua 5.2 Reference Manual",
		HeadingPath: "Lua 5.2 Reference Manual > 6.4 – String Manipulation > string.format (formatstring, ···)", Content: content}}, 3)
	if !strings.Contains(r.Answer, "there is an extra option, q") || !strings.Contains(r.Answer, "formats a string between double quotes") {
		t.Errorf("answer %q: want the sentence bringing in the q option and the one saying what it does", r.Answer)
	}
}
