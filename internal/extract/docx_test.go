package extract

import (
	"archive/zip"
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

// testdata/report.docx is pandoc's rendering of testdata/report.md.
func TestDOCXReport(t *testing.T) {
	t.Parallel()
	doc, err := Extract(TypeDOCX, readFixture(t, "report.docx"))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Title != "Quarterly Storage Report" {
		t.Errorf("title %q", doc.Title)
	}
	if doc.Pages != nil {
		t.Errorf("a DOCX file has no pages: %v", doc.Pages)
	}
	var got []string
	for _, b := range doc.Blocks {
		got = append(got, b.Kind.String()+lvl(b.Level)+": "+doc.Text[b.Start:b.End])
	}
	want := []string{
		"heading1: Quarterly Storage Report",
		"heading1: Capacity",
		"paragraph0: The cluster grew by a third this quarter.",
		"heading2: Disks per site",
		"table0: Site | Disks | Free TiB\nOslo | 120 | 48\nLima | 80 | 12\nPune | 64 | 30",
		"heading2: Actions",
		"list-item1: - Order disks for Lima",
		"list-item1: - Move cold data to tape",
		"list-item2:   - archive logs older than a year",
		"list-item1: 1. Approve the budget",
		"list-item1: 2. Schedule the installation",
		"heading1: Risks",
		"paragraph0: Lima runs out of space in June unless disks arrive.",
	}
	if strings.Join(got, "\n|") != strings.Join(want, "\n|") {
		t.Errorf("blocks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, b := range doc.Blocks {
		if b.Kind == KindTable {
			if b.HeaderRow != "Site | Disks | Free TiB" || len(b.Rows) != 3 {
				t.Errorf("table header %q, %d body rows", b.HeaderRow, len(b.Rows))
			}
		}
	}
}

func lvl(n int) string { return string(rune('0' + n)) }

// docxFile builds a minimal DOCX package around a document.xml body.
func docxFile(t *testing.T, body string, extra map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	parts := map[string]string{
		"word/document.xml": `<?xml version="1.0"?><w:document xmlns:w="` + wNS + `"><w:body>` + body + `</w:body></w:document>`,
	}
	for k, v := range extra {
		parts[k] = v
	}
	for name, content := range parts {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDOCXStructure(t *testing.T) {
	t.Parallel()
	styles := `<w:styles xmlns:w="` + wNS + `">
<w:style w:styleId="Kop1"><w:name w:val="heading 1"/></w:style>
<w:style w:styleId="Custom"><w:name w:val="My Section"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr></w:style>
<w:style w:styleId="Derived"><w:name w:val="Derived"/><w:basedOn w:val="Custom"/></w:style>
</w:styles>`
	body := `<w:p><w:pPr><w:pStyle w:val="Kop1"/></w:pPr><w:r><w:t>Localised heading</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Derived"/></w:pPr><w:r><w:t>Outline level three</w:t></w:r></w:p>
<w:p><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:r><w:t>Direct outline</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">Kept </w:t></w:r><w:del><w:r><w:delText>deleted </w:delText></w:r></w:del><w:ins><w:r><w:t>inserted</w:t></w:r></w:ins><w:r><w:tab/><w:t>after tab</w:t><w:br/><w:t>next line</w:t></w:r></w:p>
<w:tbl><w:tr><w:trPr><w:tblHeader/></w:trPr><w:tc><w:p><w:r><w:t>Name</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Value</w:t></w:r></w:p></w:tc></w:tr>
<w:tr><w:trPr><w:tblHeader/></w:trPr><w:tc><w:p><w:r><w:t>(text)</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>(number)</w:t></w:r></w:p></w:tc></w:tr>
<w:tr><w:tc><w:p><w:r><w:t>alpha</w:t></w:r></w:p><w:p><w:r><w:t>second paragraph</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>1</w:t></w:r></w:p></w:tc></w:tr></w:tbl>`
	doc, err := Extract(TypeDOCX, docxFile(t, body, map[string]string{"word/styles.xml": styles}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range doc.Blocks {
		got = append(got, b.Kind.String()+lvl(b.Level)+": "+doc.Text[b.Start:b.End])
	}
	want := "heading1: Localised heading|heading3: Outline level three|heading2: Direct outline|" +
		"paragraph0: Kept inserted after tab\nnext line|table0: Name | Value\n(text) | (number)\nalpha second paragraph | 1"
	if strings.Join(got, "|") != want {
		t.Errorf("blocks %q\nwant %q", strings.Join(got, "|"), want)
	}
	tb := doc.Blocks[len(doc.Blocks)-1]
	if tb.HeaderRow != "Name | Value\n(text) | (number)" || len(tb.Rows) != 1 {
		t.Errorf("two repeating header rows: HeaderRow %q, %d body rows", tb.HeaderRow, len(tb.Rows))
	}
}

func TestDOCXUnreadable(t *testing.T) {
	t.Parallel()
	noMain := docxFile(t, "", nil)
	noMain = bytes.Replace(noMain, []byte("word/document.xml"), []byte("word/other000.xml"), -1)
	for name, data := range map[string][]byte{
		"not a zip":   []byte("hello"),
		"no document": noMain,
		"broken xml":  docxFile(t, `<w:p><w:r><w:t>x</w:t></w:r>`+"<w:p", nil),
	} {
		if _, err := Extract(TypeDOCX, data); !errors.Is(err, ErrUnreadable) {
			t.Errorf("%s: %v, want ErrUnreadable", name, err)
		}
	}
	if _, err := Extract(TypeDOCX, docxFile(t, `<w:p><w:r><w:t> </w:t></w:r></w:p>`, nil)); !errors.Is(err, ErrEmpty) {
		t.Errorf("blank document: %v, want ErrEmpty", err)
	}
}

// TestDOCXCodeKeepsItsLayout: pandoc writes a code block as a paragraph in
// the Source Code style with line breaks; its indentation, tabs and lines
// are the code (a shell script run into one line comments out all but its
// first command), and a code block inside a list item continues the item
// (its numbering's bullet is blank) instead of starting a new one.
func TestDOCXCodeKeepsItsLayout(t *testing.T) {
	t.Parallel()
	doc, err := Extract(TypeDOCX, readFixture(t, "code.docx"))
	if err != nil {
		t.Fatal(err)
	}
	var code []string
	for _, b := range doc.Blocks {
		if b.Kind == KindCode {
			code = append(code, doc.Text[b.Start:b.End])
		}
	}
	want := []string{
		"cd <node>\n# create the floating patch directory\nmkdir -p tools/icu/patches\n    tabbed line\n    indented line",
		"probe:\n  depth: 3\n  modes:\n  - fast",
	}
	if !slices.Equal(code, want) {
		t.Errorf("code blocks %q, want %q", code, want)
	}
	if strings.Contains(doc.Text, "- probe:") || strings.Contains(doc.Text, "- cd <node>") {
		t.Errorf("code read as a list item:\n%s", doc.Text)
	}
	if doc.Title != "Floating patches" {
		t.Errorf("title %q, want the first level-1 heading (no Title paragraph, no core title)", doc.Title)
	}
	for _, s := range []string{"1. Edit the file:", "2. Rebuild.", "After the list."} {
		if !strings.Contains(doc.Text, s) {
			t.Errorf("text lost %q:\n%s", s, doc.Text)
		}
	}
}

// testdata/notes.docx is pandoc's rendering of testdata/notes.md:
// footnotes (one in a table cell), a definition list and a lettered
// sub-list. A footnote's text follows the paragraph (or table) that
// references it; a definition's term is a term with its definition under
// it, as an HTML dl's; letters are letters.
func TestDOCXNotesDefinitionsAndLetters(t *testing.T) {
	t.Parallel()
	doc, err := Extract(TypeDOCX, readFixture(t, "notes.docx"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range doc.Blocks {
		got = append(got, b.Kind.String()+lvl(b.Definition)+": "+doc.Text[b.Start:b.End])
	}
	want := []string{
		"heading0: System users",
		"paragraph0: Packages that need a system user create it at installation.",
		"paragraph0: Footnote 1: Use mkfifo rather than mknod to create named pipes.",
		"term1: 0-99",
		"paragraph1: Globally allocated by the Debian project, the same on every system.",
		"term1: 100-999",
		"paragraph1: Dynamically allocated system users and groups.",
		"list-item0: 1. Create the user",
		"list-item0:   a. pick a name",
		"list-item0:   b. choose a home directory",
		"list-item0: 2. Start the service",
		"table0: Field | Meaning\nName | the login name",
		"paragraph0: Footnote 2: At most 32 characters.",
	}
	if strings.Join(got, "\n|") != strings.Join(want, "\n|") {
		t.Errorf("blocks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestListNumber(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		format string
		n      int
		want   string
	}{
		{"decimal", 12, "12"}, {"lowerLetter", 2, "b"}, {"upperLetter", 27, "AA"}, {"lowerRoman", 4, "iv"},
		{"upperRoman", 1994, "MCMXCIV"}, {"lowerRoman", 0, "0"}, {"ordinal", 3, "3"},
	} {
		if got := listNumber(tc.format, tc.n); got != tc.want {
			t.Errorf("listNumber(%q, %d) = %q, want %q", tc.format, tc.n, got, tc.want)
		}
	}
}
