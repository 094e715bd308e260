package answer

import (
	"slices"
	"strings"
	"testing"
)

// A one-letter command-line option is a term ("-h"), not a letter to drop;
// a hyphen between letters or before a digit makes no option.
func TestShortOptionIsATerm(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want bool
	}{
		{"How do I make -h work as well as --help?", true},
		{"help_option_names=['-h', '--help']", true},
		{"(-h) prints help", true},
		{"an x-y plot", false},
		{"set it to -1", false},
		{"the h-index", false},
	} {
		if got := slices.Contains(terms(c.text), "-h"); got != c.want {
			t.Errorf("terms(%q) holds -h = %v, want %v: %q", c.text, got, c.want, terms(c.text))
		}
	}
	srcs := []Source{
		{N: 1, HeadingPath: "Documenting Scripts > Help Parameter Customization", Content: "The help parameter is implemented in Click in a very special manner. This example changes the default parameters to -h and --help instead of just --help:\n\n" +
			"CONTEXT_SETTINGS = dict(help_option_names=['-h', '--help'])"},
		{N: 2, HeadingPath: "Why Click? > Why not Docopt", Content: "Docopt builds its parser from the help page. This means there is a lot of code that needs to be written in addition to the basic help page to handle the parsing results. Most of all, however, it makes composability hard."},
		{N: 3, HeadingPath: "API > Types", Content: "The default behavior of Click is to apply a type on a value directly. This works well in most cases, except for when nargs is set to a fixed count."},
		{N: 4, HeadingPath: "API > Context", Content: "make_formatter()\nCreates the HelpFormatter for the help and usage output."},
	}
	r := Extractive("How do I make -h work as well as --help?", srcs, 3)
	if first := strings.SplitN(r.Answer, "```", 2)[0]; !strings.Contains(first, "parameters to -h and --help instead of just --help [1]") || !strings.Contains(r.Answer, "help_option_names") {
		t.Errorf("answer does not open with the passage naming -h and its code:\n%s", r.Answer)
	}
}
