package extract

import (
	"slices"
	"testing"
)

// TestHReview29ContentsPageWithShortChapters: numberedHeadings takes a
// numbered title ending in a number for a contents entry only on a page
// with tocLines (3) such lines in a row. A contents page interleaves the
// chapters' own lines ("2 Upgrading 3", which pdfNumbered, needing two
// parts, does not match) with their sections' ("2.1 Before You Upgrade
// 3"), so a manual whose chapters have two numbered sections each never
// has three in a row: its contents entries are candidates, and, first in
// the document and as long an ascending run as the body's titles, they
// win the run (the longest run, the first on a tie). The body's numbered
// titles ("1.1 Requirements", "2.2 Moving the Settings") are then no
// headings at all: each section's text is read into its chapter, and a
// citation names the wrong section. Before 17b606c (edgeNumbers) no
// title ending in a number was a candidate and the body's titles were
// the headings.
//
// A correct implementation recognises the page of contents (numbered
// entries ending in ascending page numbers, whatever unnumbered chapter
// lines sit between them) and keeps the body's titles as the headings.
func TestHReview29ContentsPageWithShortChapters(t *testing.T) {
	t.Parallel()
	body := [][]string{
		{"#1 Getting Started", "1.1 Requirements", "The tool runs on any supported release of the interpreter."},
		{"1.2 Installing the Tool", "Run the installer and accept the default folder."},
		{"#2 Upgrading", "2.1 Before You Upgrade", "Back up the configuration folder before you upgrade."},
		{"2.2 Moving the Settings", "Copy the settings file into the new configuration folder."},
	}
	want := []string{"1.1 Requirements", "1.2 Installing the Tool", "2.1 Before You Upgrade", "2.2 Moving the Settings"}
	// The control: without a contents page the titles are headings.
	heads, _ := hr26Headings(t, hr26Pages(body))
	for _, w := range want {
		if !slices.Contains(heads, w) {
			t.Fatalf("control: headings %q; want %q among them", heads, w)
		}
	}
	contents := []string{"#Contents",
		"1 Getting Started 1", "1.1 Requirements 1", "1.2 Installing the Tool 2",
		"2 Upgrading 3", "2.1 Before You Upgrade 3", "2.2 Moving the Settings 4"}
	heads, _ = hr26Headings(t, hr26Pages(append([][]string{contents}, body...)))
	for _, w := range want {
		if !slices.Contains(heads, w) {
			t.Errorf("with a contents page: headings %q; want the body's %q among them", heads, w)
		}
	}
}
