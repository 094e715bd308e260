package extract

import (
	"strings"
	"testing"
)

// TestReview57StrayItemOwnLabelIsNoSection: a feature list written as bare
// <li> elements, each closed by </li> and opening with its own <h4> label,
// is the same list as with a <ul> around it: "Fast: Parses a file …" and
// "Safe: Never writes …" are items of the "Features" section. The stray-li
// rule ends the item before its very first child, so "Fast" and "Safe"
// become page sections and the paragraph after the list, "All features are
// on by default.", is filed under the section "Safe" (citations and
// heading paths point at the wrong section). The parser nests nothing
// after an item that is closed explicitly, and a heading that is an
// item's first child is its label, not a following section.
func TestReview57StrayItemOwnLabelIsNoSection(t *testing.T) {
	t.Parallel()
	in := `<h2>Features</h2><li><h4>Fast</h4>Parses a file in a millisecond.</li><li><h4>Safe</h4>Never writes a partial file.</li>` +
		`<p>All features are on by default.</p><h2>Install</h2><p>Run pip install frobpo.</p>`
	doc := mustExtract(t, "html", in)
	if got := blockTexts(doc, KindHeading); strings.Join(got, "|") != "Features|Install" {
		t.Errorf("headings = %q, want [Features Install]: the items' labels are no sections", got)
	}
	items := strings.Join(blockTexts(doc, KindListItem), "\n")
	for _, s := range []string{"Fast", "Parses a file in a millisecond.", "Safe", "Never writes a partial file."} {
		if !strings.Contains(items, s) {
			t.Errorf("list items = %q, want %q in them (as with a <ul> around the same items)", items, s)
		}
	}
}

// TestReview57StrayItemInDefinitionKeepsDefinition: bare <li> steps inside
// a <dd> belong to the term they define ("Setup"); their <h4> labels are
// labels of the definition. Now each label becomes a page heading at
// definition depth 0 in the middle of the definition list ("Step 1",
// "Step 2" as sections of the page, splitting the term from its
// definition), where before the items were kept inside the definition.
func TestReview57StrayItemInDefinitionKeepsDefinition(t *testing.T) {
	t.Parallel()
	in := `<h2>Steps</h2><dl><dt>Setup</dt><dd><li><h4>Step 1</h4>Install it.</li><li><h4>Step 2</h4>Run it.</li></dd></dl><p>Done.</p>`
	doc := mustExtract(t, "html", in)
	if got := blockTexts(doc, KindHeading); strings.Join(got, "|") != "Steps" {
		t.Errorf("headings = %q, want only [Steps]: a label inside a definition opens no page section", got)
	}
	for _, b := range doc.Blocks {
		txt := doc.Text[b.Start:b.End]
		if strings.Contains(txt, "Step 1") || strings.Contains(txt, "Install it.") {
			if b.Definition != 1 {
				t.Errorf("block %q (%v) at definition depth %d, want 1 (it defines Setup)", txt, b.Kind, b.Definition)
			}
		}
	}
}
