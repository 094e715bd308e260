package answer

import "testing"

// TestHR44RepeatsKeepsWhatPunctuationSays: repeats (339643d) compares
// passages by their words alone, every character that is no letter or
// digit a blank, so that "BASH_ALIASES: An …" repeats "BASH_ALIASES An …".
// In technical text the symbols are the content: ">" overwrites and ">>"
// appends, "$*" and "$@" are the two different expansions the Bash manual
// defines with the same opening sentence, "!=" is not "=". Each second
// passage (or code block: repeatsCode uses repeats too) is now left out of
// the answer as a repeat of the first, so a question about the difference
// gets one half of it.
func TestHR44RepeatsKeepsWhatPunctuationSays(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ quoted, q string }{
		{"sort data.txt > sorted.txt", "sort data.txt >> sorted.txt"},
		{`for arg in "$*"; do echo "$arg"; done`, `for arg in "$@"; do echo "$arg"; done`},
		{"($*) Expands to the positional parameters, starting from one.", "($@) Expands to the positional parameters, starting from one."},
		{`if [ "$a" = "$b" ]; then echo same; fi`, `if [ "$a" != "$b" ]; then echo same; fi`},
		{"The timeout is 1.5 seconds.", "The timeout is 15 seconds."},
	} {
		if repeats([]string{c.quoted}, c.q) {
			t.Errorf("%q repeats %q", c.q, c.quoted)
		}
	}
	units := []unit{{kind: unitCode, text: "echo done >> build.log"}}
	if repeatsCode([]string{"Redirect the output with:\n\necho done > build.log"}, units) {
		t.Errorf("the appending example repeats the overwriting one")
	}
}
