package answer

import (
	"slices"
	"testing"
)

// A review of 1d133c4 (a standalone ".." ends no sentence): each test is a
// defect it found, fixed, or what the change must leave as it was.

// Found in review: the comment says a standalone ".." is "never a
// sentence's end", but the commonest standalone ".." in documentation is
// the shell's parent directory closing an instruction, after which
// writers leave out the full stop. Before 1d133c4 these split; now the
// next sentence is glued to the command.
func TestR63CdDotDotEndsTheSentence(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]string{
		"Go back to the parent directory with cd .. Then run make.": {"Go back to the parent directory with cd ..", "Then run make."},
		"To leave the build tree, type cd .. The prompt changes.":   {"To leave the build tree, type cd ..", "The prompt changes."},
	} {
		if got := splitUnit(in); !slices.Equal(got, want) {
			t.Errorf("splitUnit(%q) =\n%q\nwant\n%q", in, got, want)
		}
	}
}

// What 1d133c4 fixed and what it leaves as it was.
func TestR63DotDotUnchanged(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]string{
		"See section 2.. Then it works.":           {"See section 2..", "Then it works."},
		".. note:: This is a note. Next sentence.": {".. note:: This is a note.", "Next sentence."},
		".. Note:: This is a note. Next sentence.": {".. Note:: This is a note.", "Next sentence."},
		"Go to the parent (cd ..). Then run make.": {"Go to the parent (cd ..).", "Then run make."},
		"The range is 1 .. 10. Then more.":         {"The range is 1 .. 10.", "Then more."},
	} {
		if got := splitUnit(in); !slices.Equal(got, want) {
			t.Errorf("splitUnit(%q) =\n%q\nwant\n%q", in, got, want)
		}
	}
}
