package extract

import (
	"slices"
	"testing"
)

// TestHReview28NumberedTitlesEndingInNumbersOnOnePage: numberedHeadings
// takes a page with tocLines (3) or more numbered lines ending in a number
// for a table of contents and makes none of their titles a heading. A
// manual's page of short sections per platform release ("2.1 Installing
// on Windows 10", "2.2 Installing on Windows 11", "2.3 Installing on
// macOS 14"), or of a procedure's steps ("3.1 Step 1" …), each with its
// paragraph under it, is no table of contents: no page numbers stand in a
// column, body text follows every title. Their titles ascend with the
// rest, yet all three sections are read into "2 Installing" (a citation
// names the wrong section), while the same titles one per page are
// headings (TestHReview27NumberedTitleEndingInANumber).
func TestHReview28NumberedTitlesEndingInNumbersOnOnePage(t *testing.T) {
	t.Parallel()
	heads, _ := hr26Headings(t, hr26Pages([][]string{
		{"#1 Getting Started", "1.1 Requirements", "The tool runs on any supported release of the operating system."},
		{"#2 Installing",
			"2.1 Installing on Windows 10", "Run the installer and accept the default folder.",
			"2.2 Installing on Windows 11", "Run the installer as an administrator, then restart.",
			"2.3 Installing on macOS 14", "Open the disk image and drag the tool to Applications."},
		{"#3 Upgrading", "3.1 Before You Upgrade", "Back up the configuration folder before you upgrade."},
	}))
	for _, want := range []string{"2.1 Installing on Windows 10", "2.2 Installing on Windows 11", "2.3 Installing on macOS 14", "3.1 Before You Upgrade"} {
		if !slices.Contains(heads, want) {
			t.Errorf("headings %q; want %q among them", heads, want)
		}
	}
}
