package extract

import (
	"strings"
	"testing"
)

// TestEntryTableLayoutProse_hreview16: a one-column layout table whose rows
// hold ordinary prose paragraphs (a newsletter, a page laid out in a table)
// is no list of entries: its first paragraphs are sentences, not terms.
func TestEntryTableLayoutProse_hreview16(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "html", `<table>
<tr><td><p>Our office moves to the new building on Monday. Please bring your badge.</p><p>Parking is free for the first week.</p></td></tr>
<tr><td><p>The cafeteria opens at eight and closes at three.</p><p>Vegetarian meals are served every day.</p></td></tr>
</table>`)
	if got := blockTexts(doc, KindTerm); len(got) != 0 {
		t.Errorf("terms = %q, want none: full sentences are no terms", got)
	}
}

// TestEntryTableNestedTable_hreview16: a cell opening with a nested table
// is not an entry whose term is that table's text run together.
func TestEntryTableNestedTable_hreview16(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "html", `<table>
<tr><td><table><tr><td>Name</td><td>Port</td></tr><tr><td>web</td><td>8080</td></tr></table><p>The web service.</p><p>It serves the site.</p></td></tr>
<tr><td><table><tr><td>Name</td><td>Port</td></tr><tr><td>db</td><td>5432</td></tr></table><p>The database.</p><p>It stores the data.</p></td></tr>
</table>`)
	for _, term := range blockTexts(doc, KindTerm) {
		if strings.Contains(term, "Port") {
			t.Errorf("term %q is a nested table's text", term)
		}
	}
}
