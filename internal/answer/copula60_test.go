package answer

import (
	"slices"
	"strings"
	"testing"
)

// TestSentenceWhoseSubjectIsTheCodeBringsIt: a sentence that opens with
// "Is …" under a code block ("--no-expose-tracebacks" above "Is equivalent to
// passing expose_tracebacks=False") is quoted with that code and the sentence
// announcing it; quoted after another flag's code, it said that flag did
// the opposite of what it does (a held-out trial).
func TestSentenceWhoseSubjectIsTheCodeBringsIt(t *testing.T) {
	t.Parallel()
	content := "runner-serve\n\nThe runner-serve command is a thin command-line wrapper around the runner.serve function. " +
		"It takes the very same arguments as the function, but where the function's arguments have underscores, the command line uses hyphens. Thus:\n\n" +
		"runner.serve(app, port=8041, url_scheme='https')\n\nIs equivalent to:\n\nrunner-serve --port=8041 --url-scheme=https app\n\n" +
		"The full argument list is given below.\n\nBoolean arguments are represented by flags. If you wish to explicitly set a flag, simply use it by its name. Thus the flag:\n\n" +
		"--expose-tracebacks\n\nIs equivalent to passing expose_tracebacks=True to runner.serve.\n\n" +
		"All flags have a negative equivalent. These are prefixed with no-; thus using the flag:\n\n" +
		"--no-expose-tracebacks\n\nIs equivalent to passing expose_tracebacks=False to runner.serve.\n\n" +
		"If at any time you want the full argument list, use the --help flag."
	d := parseUnits(content, "runner-serve")
	at := slices.IndexFunc(d, func(u unit) bool { return strings.Contains(u.text, "expose_tracebacks=False") })
	code := slices.IndexFunc(d, func(u unit) bool { return u.kind == unitCode && strings.Contains(u.text, "--no-expose-tracebacks") })
	if at < 0 || code < 0 {
		t.Fatalf("units %v lack the sentence or the code", d)
	}
	for _, max := range []int{1, 3} {
		from, to := complete(d, at, at+1, max, terms("how do I switch off exposing tracebacks"), true, false, false)
		if from > code || to <= at {
			t.Errorf("maxSentences %d: the sentence is quoted as units %d to %d, without the code (unit %d) it is about: %q", max, from, to, code, quoted(d[from:to]))
		}
	}
	for _, c := range []struct {
		s    string
		want bool
	}{{"Is equivalent to passing x=True.", true}, {"Are both read at start-up.", true}, {"Is it safe?", false}, {"It is equivalent.", false}, {"Isolation is kept.", false}} {
		if got := opensWithCopula(c.s); got != c.want {
			t.Errorf("opensWithCopula(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}
