package extract

import (
	"strings"
	"testing"
)

// docxCodeStyles defines pandoc's Source Code paragraph style.
const docxCodeStyles = `<w:styles xmlns:w="` + wNS + `">
<w:style w:styleId="SourceCode"><w:name w:val="Source Code"/></w:style>
</w:styles>`

// codeBlocks returns the text of doc's code blocks.
func codeBlocks(doc *Document) []string {
	var out []string
	for _, b := range doc.Blocks {
		if b.Kind == KindCode {
			out = append(out, doc.Text[b.Start:b.End])
		}
	}
	return out
}

// A code paragraph's tab stops (w:pPr/w:tabs/w:tab, paragraph formatting,
// as Word writes for text pasted from a browser or an IDE) are not tabs of
// its text: the code is what its runs hold. The walker wrote a tab into the
// raw text for every w:tab element, tab-stop definitions included, so each
// line of the code gained leading indentation it does not have (Python,
// YAML and Makefiles change meaning with it).
func TestDOCXCodeTabStopsAreNotText_hreview8(t *testing.T) {
	t.Parallel()
	para := func(s string) string {
		return `<w:p><w:pPr><w:pStyle w:val="SourceCode"/><w:tabs><w:tab w:val="left" w:pos="916"/><w:tab w:val="left" w:pos="1832"/></w:tabs></w:pPr>` +
			`<w:r><w:t xml:space="preserve">` + s + `</w:t></w:r></w:p>`
	}
	body := `<w:p><w:r><w:t>Install it with:</w:t></w:r></w:p>` + para("make") + para("make install")
	doc, err := Extract(TypeDOCX, docxFile(t, body, map[string]string{"word/styles.xml": docxCodeStyles}))
	if err != nil {
		t.Fatal(err)
	}
	code := codeBlocks(doc)
	if len(code) != 1 || code[0] != "make\nmake install" {
		t.Errorf("code blocks %q, want [\"make\\nmake install\"] (no indentation from tab stops)", code)
	}
}

// A code paragraph holding a text box (a callout anchored in a listing):
// the box's text was read into the paragraph's flowing text, but a code
// paragraph keeps only its raw text, which left out every nested
// paragraph: the box's words vanished from the document.
func TestDOCXCodeParagraphKeepsItsTextBox_hreview8(t *testing.T) {
	t.Parallel()
	body := `<w:p><w:pPr><w:pStyle w:val="SourceCode"/></w:pPr><w:r><w:t>SELECT 1;</w:t></w:r>` +
		`<w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml"><v:textbox><w:txbxContent><w:p><w:r><w:t>Runs on the primary only</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>` +
		`<w:p><w:r><w:t>After the code.</w:t></w:r></w:p>`
	doc, err := Extract(TypeDOCX, docxFile(t, body, map[string]string{"word/styles.xml": docxCodeStyles}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text, "Runs on the primary only") {
		t.Errorf("the text box of a code paragraph was lost:\n%s", doc.Text)
	}
}

// Word applies its "Plain Text" style to every paragraph of a text file it
// opens (and of mail pasted as text): a report saved from a .txt file is
// prose in that style, not code. Read as one code block, its sentences are
// no longer sentences — the answerer quotes a fenced block of twelve lines
// instead of the sentence that answers. Plain Text (unlike Source Code or
// HTML Preformatted) says nothing about code; prose in it stays prose.
func TestDOCXPlainTextStyleProseIsNotCode_hreview8(t *testing.T) {
	t.Parallel()
	styles := `<w:styles xmlns:w="` + wNS + `"><w:style w:styleId="PlainText"><w:name w:val="Plain Text"/></w:style></w:styles>`
	para := func(s string) string {
		return `<w:p><w:pPr><w:pStyle w:val="PlainText"/></w:pPr><w:r><w:t>` + s + `</w:t></w:r></w:p>`
	}
	body := para("Quarterly report for the storage team.") + para("The cluster grew by a third this quarter, and Lima runs out of space in June.") +
		para("We propose to order forty disks for Lima before the end of April.")
	doc, err := Extract(TypeDOCX, docxFile(t, body, map[string]string{"word/styles.xml": styles}))
	if err != nil {
		t.Fatal(err)
	}
	if code := codeBlocks(doc); len(code) != 0 {
		t.Errorf("prose in the Plain Text style read as code: %q", code)
	}
}
