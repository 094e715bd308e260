package extract

import (
	"strings"
	"testing"
)

// TestHTMLRowspanCannotMultiplyATable (h-review15): the span expansion
// says "Spans are capped (colspan at maxColSpan, rowspan at the rows left),
// so a hostile table cannot multiply its text". The rowspan cap does not
// bound anything: one row of n short cells each spanning every later row,
// followed by n rows of one short cell, is O(n) bytes of HTML and
// becomes n×n cells of text. Any editor can PUT such a page (the HTML is
// well under the size limit) and make the server build a text quadratic
// in it: 61 KB of HTML becomes 16 MB of text here (×259); a few MB of HTML
// exhausts the server's memory.
//
// Expected: the extracted table grows at most by the colspan cap over its
// HTML (a carried cell counted against a budget, or rowspan not carried
// past a bound), as the comment promises.
func TestHTMLRowspanCannotMultiplyATable(t *testing.T) {
	const n = 1200
	var b strings.Builder
	b.WriteString("<table><tr>")
	for range n {
		b.WriteString(`<td rowspan="9999">abcdefgh</td>`)
	}
	b.WriteString("</tr>")
	for range n {
		b.WriteString("<tr><td>y</td></tr>")
	}
	b.WriteString("</table>")
	html := b.String()
	doc := mustExtract(t, "html", html)
	if ratio := float64(len(doc.Text)) / float64(len(html)); ratio > maxColSpan {
		t.Errorf("%d bytes of HTML became %d bytes of text (×%.0f); want at most ×%d (the colspan cap)", len(html), len(doc.Text), ratio, maxColSpan)
	}
}

// TestHTMLEmptyRowspanKeepsColumnsAligned (h-review15): an empty cell
// spanning rows in the middle of a data table is not carried, so the next
// row's cells shift one column to the left: "beta" is "deprecated" in
// the Since column, contradicting "every row's cells line up with the
// header's". (The DocBook admonition the exemption is for has its icon
// cell first, in a table without a header row.)
//
// Expected: beta's row keeps an empty cell for the spanned column:
// "beta |  | deprecated".
func TestHTMLEmptyRowspanKeepsColumnsAligned(t *testing.T) {
	doc := mustExtract(t, "html", `<table><thead><tr><th>Package</th><th>Since</th><th>Status</th></tr></thead><tbody>
<tr><td>alpha</td><td rowspan="2"></td><td>stable</td></tr>
<tr><td>beta</td><td>deprecated</td></tr>
</tbody></table>`)
	if !strings.Contains(doc.Text, "beta |  | deprecated") {
		t.Errorf("table text %q: want beta's status under Status (\"beta |  | deprecated\")", doc.Text)
	}
}
