package answer

import (
	"regexp"
	"slices"
)

// asksDefault matches a question about what happens when nothing is set:
// "… use by default?", "What is the default …?", "… if I don't configure
// anything?".
var asksDefault = regexp.MustCompile(`(?i)\bdefaults?\b|\bif (i|you|we) (don'?t|do not|never) (set|configure|specify|change|pass|give|choose)\b|\bout of the box\b`)

// statesDefault matches a unit that states an entry's default: a reference's
// field line ("default: '127.0.0.1:8000'", "Default: False") or a sentence
// opening with it ("The default is 1.", "Defaults to gh-pages.").
var statesDefault = regexp.MustCompile(`(?i)^\W{0,2}(the\s+)?(default(\s+value)?\s*(:|is\b|=)|defaults\s+to\b)`)

// defaultFollows returns the end of a passage [from, to) of d carried on to
// the line giving its entry's default, when the question asks for a default
// and the passage does not state one: a configuration reference writes the
// default on a line of its own after the description ("dev_addr: Determines
// the address used when running mkdocs serve …" then, two sentences down,
// "default: '127.0.0.1:8000'"), and the question "What address does the
// preview server use by default?" was answered without it. The line must be
// in the passage's section, at most defaultReach units after it, and no
// other entry's definition may come between.
func defaultFollows(question string, d []unit, from, to int) int {
	if !asksDefault.MatchString(question) || from >= to {
		return to
	}
	for _, u := range d[from:to] {
		if statesDefault.MatchString(u.text) {
			return to
		}
	}
	for b := to; b < len(d) && b < to+defaultReach; b++ {
		u := d[b]
		if u.section != d[from].section || u.kind == unitCode {
			return to
		}
		if statesDefault.MatchString(u.text) {
			return b + 1
		}
		if len(u.defines) > 0 && !slices.Equal(u.defines, d[from].defines) {
			return to // the next entry
		}
	}
	return to
}

// defaultReach is how many units after a passage its default line may be.
const defaultReach = 3
