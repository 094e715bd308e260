package extract

import (
	"strings"
	"testing"
)

// A text box holding a table, inside a table cell (a form template's
// layout): the walker does not push the text box's table (a paragraph is
// open), but its w:tr resets the outer table's row being built and its
// closing w:tbl emits and pops the outer table. The cells read before the
// text box in that row ("Alpha", "Beta") were lost, and the rest of the
// table came out as loose paragraphs. README lists what a DOCX leaves out
// (headers, footers, footnotes, comments, deleted text): no cell text of
// the body may vanish.
func TestDOCXTableCellTextBoxKeepsTheRow(t *testing.T) {
	t.Parallel()
	cell := func(s string) string { return `<w:tc><w:p><w:r><w:t>` + s + `</w:t></w:r></w:p></w:tc>` }
	box := `<w:tc><w:p><w:r><w:t>Gamma</w:t></w:r><w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">` +
		`<mc:Choice Requires="wps"><w:drawing><wps:txbx xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><w:txbxContent>` +
		`<w:tbl><w:tr>` + cell("Inner") + `</w:tr></w:tbl></w:txbxContent></wps:txbx></w:drawing></mc:Choice></mc:AlternateContent></w:r></w:p></w:tc>`
	body := `<w:tbl><w:tr>` + cell("Name") + cell("Value") + cell("Note") + `</w:tr>` +
		`<w:tr>` + cell("Alpha") + cell("Beta") + box + `</w:tr>` +
		`<w:tr>` + cell("Delta") + cell("Epsilon") + cell("Zeta") + `</w:tr></w:tbl>` +
		`<w:p><w:r><w:t>After the table.</w:t></w:r></w:p>`
	doc, err := Extract(TypeDOCX, docxFile(t, body, nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Alpha", "Beta", "Gamma", "Inner", "Delta", "Zeta", "After the table."} {
		if !strings.Contains(doc.Text, w) {
			t.Errorf("%q is missing from the text %q", w, doc.Text)
		}
	}
	var kinds []string
	for _, b := range doc.Blocks {
		kinds = append(kinds, b.Kind.String())
	}
	if got := strings.Join(kinds, ","); got != "table,paragraph" {
		t.Errorf("blocks %s, want one table and the paragraph after it (text %q)", got, doc.Text)
	}
}
