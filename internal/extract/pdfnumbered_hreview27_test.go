package extract

import (
	"slices"
	"testing"
)

// TestHReview27NumberedTitleEndingInANumber: numberedHeadings refuses a
// numbered title whose last word is a number (edgeNumbers, meant for a
// table of contents' page numbers), so a manual's "2.2 Upgrading to
// Python 3", "3.2 Installing on Windows 11" or "4.1 Step 1" is no heading:
// its text is read into the section before it (a citation names the
// wrong section), although the title ascends with the others and no
// table of contents is around it.
func TestHReview27NumberedTitleEndingInANumber(t *testing.T) {
	t.Parallel()
	heads, _ := hr26Headings(t, hr26Pages([][]string{
		{"#1 Getting Started", "1.1 Requirements", "The tool runs on any supported release of the interpreter."},
		{"1.2 Installing on Windows 11", "Run the installer and accept the default folder."},
		{"#2 Upgrading", "2.1 Before You Upgrade", "Back up the configuration folder before you upgrade."},
		{"2.2 Upgrading to Python 3", "Rewrite the print statements as calls and rerun the test suite."},
	}))
	for _, want := range []string{"1.1 Requirements", "1.2 Installing on Windows 11", "2.1 Before You Upgrade", "2.2 Upgrading to Python 3"} {
		if !slices.Contains(heads, want) {
			t.Errorf("headings %q; want %q among them", heads, want)
		}
	}
}

// TestHReview27NumberedTitleEndingInAParticle: the wrapped-clause guard of
// numberedHeadings refuses a numbered title whose last word is in
// continuesOnNext ("in", "on", "to", "for", "is" …), whatever follows it.
// A device manual's "2.1 Signing In" and "2.2 Turning the Scanner On",
// set in the body's size above a paragraph that starts a new sentence
// with a capital, are titles, not the first line of a clause; they are
// read into the section before them.
func TestHReview27NumberedTitleEndingInAParticle(t *testing.T) {
	t.Parallel()
	heads, _ := hr26Headings(t, hr26Pages([][]string{
		{"#1 Setting Up", "1.1 Unpacking the Scanner", "Remove the tape from the lid and keep the box for transport."},
		{"1.2 Turning the Scanner On", "Press the power button until the light turns green."},
		{"#2 Accounts", "2.1 Creating an Account", "Open the web console and choose a name for the account."},
		{"2.2 Signing In", "Enter the name and the password of the account on the panel."},
	}))
	for _, want := range []string{"1.1 Unpacking the Scanner", "1.2 Turning the Scanner On", "2.1 Creating an Account", "2.2 Signing In"} {
		if !slices.Contains(heads, want) {
			t.Errorf("headings %q; want %q among them", heads, want)
		}
	}
}
