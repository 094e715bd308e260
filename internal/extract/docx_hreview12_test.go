package extract

import (
	"strings"
	"testing"
)

// TestDOCXFootnoteReferencedTwiceIsAddedOnce_hreview12: addNotes writes a
// note's whole text at every reference to its id, and nothing bounds how
// often document.xml references one. A footnotes.xml part (read with the
// 64 MiB part limit, not the 8 MiB auxiliary one) holding one large note,
// referenced by thousands of 40-byte <w:footnoteReference/> elements, is
// copied that many times into the extracted text while it is built: 1 MB
// × 100,000 references is 100 GB before the pipeline's text-size check can
// refuse it. Word writes each note once; a reference that repeats an id
// adds nothing new.
func TestDOCXFootnoteReferencedTwiceIsAddedOnce_hreview12(t *testing.T) {
	t.Parallel()
	note := strings.Repeat("The retention rule applies to every record. ", 20)
	ref := `<w:r><w:footnoteReference w:id="1"/></w:r>`
	body := `<w:p><w:r><w:t>Records are kept for seven years.</w:t></w:r>` + strings.Repeat(ref, 500) + `</w:p>`
	notes := `<?xml version="1.0"?><w:footnotes xmlns:w="` + wNS + `"><w:footnote w:id="1"><w:p><w:r><w:t>` + note + `</w:t></w:r></w:p></w:footnote></w:footnotes>`
	doc, err := Extract(TypeDOCX, docxFile(t, body, map[string]string{"word/footnotes.xml": notes}))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(doc.Text, strings.TrimSpace(note)); n != 1 {
		t.Errorf("the footnote's text is in the extracted text %d times (%d bytes of text from a %d-byte note), want once",
			n, len(doc.Text), len(note))
	}
}

// TestDOCXLetteredListTextIsLinear_hreview12: listNumber writes item n of
// a lettered list as a letter repeated n/26+1 times, so a list's markers
// grow quadratically with its length: the text of a 20,000-item list is
// 7.7 MB of markers, of a 40,000-item one 31 MB (a few hundred KB zipped;
// the text-size check runs only after extraction has built it all). Twice
// the items must be about twice the text.
func TestDOCXLetteredListTextIsLinear_hreview12(t *testing.T) {
	t.Parallel()
	numbering := `<?xml version="1.0"?><w:numbering xmlns:w="` + wNS + `"><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="lowerLetter"/></w:lvl></w:abstractNum>` +
		`<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`
	item := `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>step</w:t></w:r></w:p>`
	size := func(n int) int {
		doc, err := Extract(TypeDOCX, docxFile(t, strings.Repeat(item, n), map[string]string{"word/numbering.xml": numbering}))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(doc.Text, "a. step") {
			t.Fatalf("text starts %q, want a lettered list", doc.Text[:min(40, len(doc.Text))])
		}
		return len(doc.Text)
	}
	small, large := size(20_000), size(40_000)
	if float64(large) > 2.5*float64(small) {
		t.Errorf("20,000 items: %d bytes of text; 40,000 items: %d bytes (%.1f×), want about twice", small, large, float64(large)/float64(small))
	}
}
