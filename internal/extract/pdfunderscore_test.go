package extract

import "testing"

// TestJoinLinesRejoinsNamesBrokenAfterAnUnderscore: TeX breaks a name
// after an underscore (the Bash manual's "If BASH_" / "COMPAT is unset");
// the name is rejoined when both parts are in capitals or the document
// writes it whole elsewhere, and a word that merely ends a line with
// underscores stays apart.
func TestJoinLinesRejoinsNamesBrokenAfterAnUnderscore(t *testing.T) {
	t.Parallel()
	vocab := map[string]bool{"max_connections": true}
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{[]string{"If BASH_", "COMPAT is unset, the default applies."}, "If BASH_COMPAT is unset, the default applies."},
		{[]string{"the value of (READLINE_", "LINE) is kept"}, "the value of (READLINE_LINE) is kept"},
		{[]string{"raise max_", "connections first"}, "raise max_connections first"},
		{[]string{"the class_", "argument names it"}, "the class_ argument names it"},
		{[]string{"override __init__", "methods here"}, "override __init__ methods here"},
		{[]string{"a BASH_", "variable"}, "a BASH_ variable"},
		// A prefix before a hyphenated word or a contraction stays apart.
		{[]string{"variables that begin with BASH_", "POSIX-mode shells leave alone"}, "variables that begin with BASH_ POSIX-mode shells leave alone"},
		{[]string{"Constants named MAX_", "I'd rather not use"}, "Constants named MAX_ I'd rather not use"},
		// A call's arguments follow the name (the Autoconf manual).
		{[]string{"It is implemented as AC_SEARCH_", "LIBS([strerror], [cposix])."}, "It is implemented as AC_SEARCH_LIBS([strerror], [cposix])."},
	} {
		var ls []line
		for _, s := range c.lines {
			ls = append(ls, ln(s, 0))
		}
		if got := joinLines(ls, vocab); got != c.want {
			t.Errorf("joinLines(%q) = %q, want %q", c.lines, got, c.want)
		}
	}
}

// TestJoinLinesRejoinsAnOptionBrokenAfterItsDashes: a long option broken
// after its dashes ("Try using the --" / "track-origins=yes") is one word
// again when the document writes the option whole elsewhere; dashes
// ending a line before another word stay apart.
func TestJoinLinesRejoinsAnOptionBrokenAfterItsDashes(t *testing.T) {
	t.Parallel()
	vocab := map[string]bool{"--track-origins=no": true}
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{[]string{"Try using the --", "track-origins=yes option."}, "Try using the --track-origins=yes option."},
		{[]string{"the result --", "as shown below"}, "the result -- as shown below"},
	} {
		var ls []line
		for _, s := range c.lines {
			ls = append(ls, ln(s, 0))
		}
		if got := joinLines(ls, vocab); got != c.want {
			t.Errorf("joinLines(%q) = %q, want %q", c.lines, got, c.want)
		}
	}
}
