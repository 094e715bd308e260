package answer

import (
	"strings"
	"testing"
)

// TestRemedyPhrasedAsWhatToDo: a section that explains a problem and then
// says the best thing to do, or what to use if that is not what the
// reader wants, is quoted down to that sentence; the explanation alone
// left the asker where they were.
func TestRemedyPhrasedAsWhatToDo(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ question, content, want string }{
		{"Why does my directory search fail with an operations error although I bound before?",
			"Directory servers of one vendor return continuation references for some entries to tell the client where to look. " +
				"Following such references is a broken idea, since the protocol does not say which credentials to use when following them. " +
				"The client library follows them internally as an anonymous user, which the server refuses with an operations error. " +
				"So, the best thing to do is to switch this behaviour off with conn.set_option(OPT_FOLLOW_REFS, 0). " +
				"Other options are unaffected. Paging controls still apply to every search. Timeouts are counted per request. " +
				"Size limits are enforced by the server. Aliases are dereferenced as configured. Schema checks run on the client.",
			"OPT_FOLLOW_REFS"},
		{"With grouping on, 1,000 is read as one number; how do I keep grouping for words only?",
			"Grouping changes how characters compare. It also reads thousands separators, so that with a comma as separator 1,000 is read as 1000. " +
				"That is often what people want in a table of prices, and grouping stays on for numbers by default. " +
				"If this is not what you want, you may consider using opts.GROUPWORDS, which groups only non-numbers. " +
				"Case folding is applied after grouping. Accents are compared last. The separator follows the process's locale. " +
				"Decimal points are read the same way. Signs are ignored unless asked for.",
			"GROUPWORDS"},
	} {
		r := Extractive(c.question, []Source{{N: 1, Content: c.content, HeadingPath: "FAQ"}}, 3)
		if r.Refused || !strings.Contains(r.Answer, c.want) {
			t.Errorf("%q:\n%s\nwant the remedy, %s", c.question, r.Answer, c.want)
		}
	}
}

// TestGlossInBracketsIsItsSentences: an example or a gloss in brackets
// after a full stop ("(e.g., the wrong password).") belongs to the
// sentence before it; another parenthesis opening a sentence still opens
// it.
func TestGlossInBracketsIsItsSentences(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		n    int
	}{
		{"Bad credentials were given to bind(). (e.g., the wrong password). The next entry follows.", 2},
		{"Use a short name. (i.e. no dots) Then save it.", 2},
		{"Pick a port. (For example 8080.) Then start.", 2},
		{"Configure the proxy first. (Optional) Set a timeout.", 2},
		{"Configure the proxy first. (Defaults apply) Set a timeout.", 2},
	} {
		got := splitUnit(c.text)
		if len(got) != c.n {
			t.Errorf("splitUnit(%q) = %q, want %d units", c.text, got, c.n)
		}
	}
	if got := splitUnit("Bad credentials were given to bind(). (e.g., the wrong password). The next entry follows."); got[0] != "Bad credentials were given to bind(). (e.g., the wrong password)." {
		t.Errorf("the gloss is not its sentence's: %q", got)
	}
}
