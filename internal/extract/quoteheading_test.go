package extract

import "testing"

// A heading inside a blockquote that the page links to (mdBook's asides,
// "> ##### Integer Overflow" with its permalink) opens a section with its
// anchor; a quoted text's heading without one stays a label, and so does
// a linked heading inside a list in the quote.
func TestHTMLLinkedHeadingInsideQuoteIsASection(t *testing.T) {
	t.Parallel()
	in := `<html><body><h2 id="data-types">Data Types</h2><p>Every value has a type.</p>
<blockquote>
<h5 id="integer-overflow"><a class="header" href="#integer-overflow">Integer Overflow</a></h5>
<p>Overflow wraps in release mode.</p>
</blockquote>
<blockquote><h3>Quoted mail subject</h3><p>Someone wrote this.</p></blockquote>
<blockquote><ul><li><h4 id="in-item">Item heading</h4><p>Item text.</p></li></ul></blockquote>
<div class="admonition note"><h4 id="note-head">Note</h4><p>A note.</p></div>
</body></html>`
	doc := mustExtract(t, "html", in)
	var headings []string
	anchors := map[string]string{}
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			h := doc.Text[b.Start:b.End]
			headings = append(headings, h)
			anchors[h] = b.Anchor
		}
	}
	want := []string{"Data Types", "Integer Overflow"}
	if len(headings) != len(want) || headings[0] != want[0] || headings[1] != want[1] {
		t.Fatalf("headings = %q, want %q", headings, want)
	}
	if anchors["Integer Overflow"] != "integer-overflow" {
		t.Errorf("anchor = %q, want integer-overflow", anchors["Integer Overflow"])
	}
}
