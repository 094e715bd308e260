package answer

import "testing"

// TestCutAtCodeClosedQuote_hreview16: prose that ends its sentence inside
// a closing quote or parenthesis ("… set it to “true.”", "(see below.)")
// is closed: the lower-case text after the code block is a sentence of its
// own, not the rest of that one.
func TestCutAtCodeClosedQuote_hreview16(t *testing.T) {
	t.Parallel()
	for _, prose := range []string{
		"To enable the cache, set the option to “true.”",
		"The option is read at start (see the configuration chapter.)",
		"Set it to \"on.\"",
		"Wait for the build to finish…",
	} {
		d := []unit{
			{kind: unitSentence, text: prose},
			{kind: unitCode, text: "cache = true"},
			{kind: unitSentence, text: "pip installs the package into the active environment."},
		}
		if cutAtCode(d, 2) {
			t.Errorf("%q: the sentence after the code is read as its rest", prose)
		}
	}
	// The rule's own case still holds.
	d := []unit{
		{kind: unitSentence, text: "For example, a column declared as"},
		{kind: unitCode, text: "NUMERIC(3, 1)"},
		{kind: unitSentence, text: "will round values to 1 decimal place."},
	}
	if !cutAtCode(d, 2) {
		t.Error("the cut sentence is not read as one")
	}
}

// TestCutAtCodeOtherSection_hreview16: prose in another section (before a
// heading inside the chunk) is no sentence the code cut.
func TestCutAtCodeOtherSection_hreview16(t *testing.T) {
	t.Parallel()
	d := []unit{
		{kind: unitSentence, text: "See also the reference", section: 0},
		{kind: unitCode, text: "make install", section: 1},
		{kind: unitSentence, text: "installs the binaries.", section: 1},
	}
	if cutAtCode(d, 2) {
		t.Error("a sentence of the previous section is read as cut by the code")
	}
}

// TestCutAtCodeListItem_hreview16: a list item is written without final
// punctuation as a matter of course ("- Install the client"); the lower-case
// sentence after the code block under it ("pip prints …") is not its rest.
func TestCutAtCodeListItem_hreview16(t *testing.T) {
	t.Parallel()
	d := []unit{
		{kind: unitSentence, text: "Install the client", item: "- ", block: 0},
		{kind: unitCode, text: "pip install ragd-client", block: 1},
		{kind: unitSentence, text: "pip prints the installed version when it is done.", block: 2},
	}
	if cutAtCode(d, 2) {
		t.Error("a list item without final punctuation is read as a sentence the code cut")
	}
}
