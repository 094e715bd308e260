package extract

import (
	"strings"
	"testing"
)

// A heading inside a blockquote that the page links to (mdBook's asides,
// "> ##### Integer Overflow" with its permalink) opens a section with its
// anchor when a heading (or nothing) follows the quote; when the
// section's own text goes on after it, the quote's heading stays a label
// (a section opened in the quote would take that text). A quoted text's
// heading without an anchor stays a label, and so does a linked heading
// inside a list in the quote or inside an admonition.
func TestHTMLLinkedHeadingInsideQuoteIsASection(t *testing.T) {
	t.Parallel()
	in := `<html><body><h2 id="data-types">Data Types</h2><p>Every value has a type.</p>
<blockquote>
<h5 id="integer-overflow"><a class="header" href="#integer-overflow">Integer Overflow</a></h5>
<p>Overflow wraps in release mode.</p>
</blockquote>
<h2 id="next">Next</h2>
<blockquote><h3>Quoted mail subject</h3><p>Someone wrote this.</p></blockquote>
<blockquote><h4 id="aside-two">Aside two</h4><p>An aside the section goes on after.</p></blockquote>
<p>The section's own text continues here.</p>
<blockquote><ul><li><h4 id="in-item">Item heading</h4><p>Item text.</p></li></ul></blockquote>
<div class="admonition note"><h4 id="note-head">Note</h4><p>A note.</p></div>
<h2 id="end">End</h2><p>Last words.</p>
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
	want := []string{"Data Types", "Integer Overflow", "Next", "End"}
	if strings.Join(headings, "|") != strings.Join(want, "|") {
		t.Fatalf("headings = %q, want %q", headings, want)
	}
	if anchors["Integer Overflow"] != "integer-overflow" {
		t.Errorf("anchor = %q, want integer-overflow", anchors["Integer Overflow"])
	}
}
