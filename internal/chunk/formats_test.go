package chunk

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/extract"
)

// TestSplitDOCXTableKeepsHeader: a DOCX table larger than a chunk is cut
// between rows and every chunk holding its rows starts its table part with
// the header row; a small table stays whole with its header.
func TestSplitDOCXTableKeepsHeader(t *testing.T) {
	t.Parallel()
	const w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	cell := func(s string) string { return "<w:tc><w:p><w:r><w:t>" + s + "</w:t></w:r></w:p></w:tc>" }
	para := func(style, s string) string {
		return `<w:p><w:pPr><w:pStyle w:val="` + style + `"/></w:pPr><w:r><w:t>` + s + "</w:t></w:r></w:p>"
	}
	var body strings.Builder
	body.WriteString(para("Heading1", "Inventory"))
	body.WriteString("<w:tbl><w:tr>" + cell("Part number") + cell("Description") + cell("Stock") + "</w:tr>")
	for i := range 300 {
		body.WriteString("<w:tr>" + cell(fmt.Sprintf("P-%04d", i)) + cell(fmt.Sprintf("bolt of size %d with a hexagonal head", i)) + cell(fmt.Sprint(i*7)) + "</w:tr>")
	}
	body.WriteString("</w:tbl>")
	body.WriteString(para("Heading1", "Contacts"))
	body.WriteString("<w:tbl><w:tr>" + cell("Name") + cell("Phone") + "</w:tr><w:tr>" + cell("Ada") + cell("555-0100") + "</w:tr></w:tbl>")
	styles := `<w:styles xmlns:w="` + w + `"><w:style w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`

	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range map[string]string{
		"word/document.xml": `<w:document xmlns:w="` + w + `"><w:body>` + body.String() + `</w:body></w:document>`,
		"word/styles.xml":   styles,
	} {
		f, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(content))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	doc, err := extract.Extract(extract.TypeDOCX, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	chunks := split(t, doc, cfg)
	if n := checkTableHeaders(t, doc, cfg, chunks); n < 4 {
		t.Errorf("the 300-row table spans %d chunks, want several", n)
	}
	found := false
	for _, c := range chunks {
		if strings.Contains(c.Content, "Ada | 555-0100") {
			found = true
			// The document's title is its first level-1 heading, as
			// for Markdown (no Title paragraph, no core title).
			if !strings.Contains(c.Content, "Name | Phone\nAda | 555-0100") || c.HeadingPath != "Inventory > Contacts" {
				t.Errorf("small table split from its header or section: path %q, content %q", c.HeadingPath, c.Content)
			}
		}
		if c.PageStart != 0 || c.PageEnd != 0 {
			t.Errorf("chunk %d of a DOCX file has pages %d-%d", c.Index, c.PageStart, c.PageEnd)
		}
	}
	if !found {
		t.Error("the small table is in no chunk")
	}
}

// TestSplitPDFPages: chunks of a PDF carry the pages of their first and last
// byte.
func TestSplitPDFPages(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(fixtures, "manual.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := extract.Extract(extract.TypePDF, data)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{TargetTokens: 12, MaxTokens: 24, MinTokens: 0, OverlapTokens: 0, MaxChars: 4096}
	chunks := split(t, doc, cfg)
	want := map[string]int{"keeps every tenant": 1, "Metrics are exported": 2, "every citation names": 3, "optical character recognition": 4}
	for _, c := range chunks {
		if c.PageStart != doc.PageAt(c.Start) || c.PageEnd != doc.PageAt(c.End-1) || c.PageStart < 1 || c.PageEnd < c.PageStart {
			t.Errorf("chunk %d [%d,%d) pages %d-%d", c.Index, c.Start, c.End, c.PageStart, c.PageEnd)
		}
		for s, p := range want {
			if strings.Contains(c.Content, s) {
				if c.PageStart != p || c.PageEnd != p {
					t.Errorf("chunk with %q on pages %d-%d, want %d", s, c.PageStart, c.PageEnd, p)
				}
				delete(want, s)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("not found in any chunk: %v", want)
	}

	// A chunk across a page break spans both pages; page 2 has no text.
	text := "First page text.\n\nThird page text."
	two := &extract.Document{Text: text, Pages: []int{0, 18, 18},
		Blocks: []extract.Block{{Kind: extract.KindParagraph, Start: 0, End: 16}, {Kind: extract.KindParagraph, Start: 18, End: len(text)}}}
	got := split(t, two, DefaultConfig())
	if len(got) != 1 || got[0].PageStart != 1 || got[0].PageEnd != 3 {
		t.Errorf("chunk across pages: %+v", got)
	}
	two.Pages = []int{0, 20, 18}
	if _, err := Split(two, DefaultConfig()); !errors.Is(err, ErrInvalidDocument) {
		t.Errorf("pages going backwards: %v, want ErrInvalidDocument", err)
	}
}
