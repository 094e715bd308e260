package extract

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkDocument asserts the invariants every Document from Extract keeps.
func checkDocument(t testing.TB, doc *Document) {
	t.Helper()
	if strings.TrimSpace(doc.Text) == "" {
		t.Fatalf("empty Text")
	}
	if !utf8.ValidString(doc.Text) {
		t.Fatalf("Text is not valid UTF-8")
	}
	if strings.ContainsRune(doc.Text, hardBreak) {
		t.Fatalf("Text contains the internal hard-break marker")
	}
	prev := 0
	for i, b := range doc.Blocks {
		if b.Kind < KindParagraph || b.Kind > KindCaption {
			t.Fatalf("block %d: invalid kind %d", i, b.Kind)
		}
		if b.Start < prev || b.End <= b.Start || b.End > len(doc.Text) {
			t.Fatalf("block %d: range [%d,%d) invalid (prev end %d, len %d)", i, b.Start, b.End, prev, len(doc.Text))
		}
		s := doc.Text[b.Start:b.End]
		if strings.HasPrefix(s, "\n") || strings.HasSuffix(s, "\n") || strings.TrimSpace(s) == "" {
			t.Fatalf("block %d (%s): text %q starts/ends with a newline or is blank", i, b.Kind, s)
		}
		if b.Kind == KindHeading && (b.Level < 1 || b.Level > 6 || strings.Contains(s, "\n")) {
			t.Fatalf("block %d: heading level %d text %q", i, b.Level, s)
		}
		if b.Kind == KindTable {
			if b.HeaderRow != "" && !strings.HasPrefix(s, b.HeaderRow+"\n") {
				t.Fatalf("block %d: HeaderRow %q not at table start", i, b.HeaderRow)
			}
			if len(b.Rows) == 0 {
				t.Fatalf("block %d: table without rows", i)
			}
			rp := b.Start + len(b.HeaderRow)
			for j, r := range b.Rows {
				if r.Start < rp || r.End <= r.Start || r.End > b.End || strings.Contains(doc.Text[r.Start:r.End], "\n") {
					t.Fatalf("block %d row %d: bad range [%d,%d)", i, j, r.Start, r.End)
				}
				rp = r.End
			}
			if b.Rows[len(b.Rows)-1].End != b.End {
				t.Fatalf("block %d: last row does not end the table", i)
			}
		} else if b.HeaderRow != "" || b.Rows != nil {
			t.Fatalf("block %d (%s): table fields set", i, b.Kind)
		}
		prev = b.End
	}
	if len(doc.Blocks) > 0 && (doc.Blocks[0].Start != 0 || doc.Blocks[len(doc.Blocks)-1].End != len(doc.Text)) {
		t.Fatalf("blocks do not cover Text from start to end")
	}
}

func mustExtract(t testing.TB, typ, in string) *Document {
	t.Helper()
	doc, err := Extract(typ, []byte(in))
	if err != nil {
		t.Fatalf("Extract(%q): %v", typ, err)
	}
	checkDocument(t, doc)
	return doc
}

func blockTexts(doc *Document, k Kind) []string {
	var out []string
	for _, b := range doc.Blocks {
		if b.Kind == k {
			out = append(out, doc.Text[b.Start:b.End])
		}
	}
	return out
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestExtractContentTypes(t *testing.T) {
	t.Parallel()
	for _, typ := range []string{"text/markdown", "markdown", "text/x-markdown", "TEXT/MARKDOWN; charset=utf-8",
		"md", "text/html", "html", "application/xhtml+xml", "text/html;charset=UTF-8", "text/plain", "text", "plain", " Text/Plain "} {
		if _, err := Extract(typ, []byte("hello")); err != nil {
			t.Errorf("Extract(%q): %v", typ, err)
		}
	}
	for _, typ := range []string{"application/msword", "", "text/csv", "image/png", "odt"} {
		_, err := Extract(typ, []byte("hello"))
		if !errors.Is(err, ErrUnsupportedType) {
			t.Fatalf("Extract(%q) error = %v, want ErrUnsupportedType", typ, err)
		}
		want := `unsupported content type "` + typ + `" (supported: markdown, html, plain text, pdf, docx)`
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}

func TestTypeFromPath(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"README.md": TypeMarkdown, "a/b/notes.MARKDOWN": TypeMarkdown,
		"index.html": TypeHTML, "page.HTM": TypeHTML,
		"notes.txt": TypePlain, "x.text": TypePlain,
		"report.PDF": TypePDF, "letter.docx": TypeDOCX,
		// Content-negotiated pages (the Apache manual's layout).
		"auth.html.en": TypeHTML, "index.html.pt-br": TypeHTML, "guide.md.fr": TypeMarkdown,
	}
	for path, want := range cases {
		got, err := TypeFromPath(path)
		if err != nil || got != want {
			t.Errorf("TypeFromPath(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
	for _, path := range []string{"report.odt", "letter.doc", "Makefile", "archive.tar.gz", "", "notes.md.bak", "page.html.xx", "de", "x.en"} {
		if _, err := TypeFromPath(path); !errors.Is(err, ErrUnsupportedType) {
			t.Errorf("TypeFromPath(%q) error = %v, want ErrUnsupportedType", path, err)
		}
	}
	// Every type TypeFromPath returns is accepted by Extract.
	for _, typ := range []string{TypeMarkdown, TypeHTML, TypePlain} {
		if _, err := Extract(typ, []byte("x")); err != nil {
			t.Errorf("Extract(%q): %v", typ, err)
		}
	}
}

func TestExtractRejectsBadInput(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   []byte
		want error
	}{
		{"invalid utf8", []byte("caf\xe9 au lait"), ErrInvalidUTF8},
		{"truncated rune", []byte("ok \xe2\x82"), ErrInvalidUTF8},
		{"nul byte", []byte("hello\x00world"), ErrBinary},
		{"control noise", []byte(strings.Repeat("ab\x01\x02\x03", 100)), ErrBinary},
		{"empty", nil, ErrEmpty},
		{"whitespace", []byte(" \n\t\r\n  \u00a0 "), ErrEmpty},
		{"bom only", []byte("\xef\xbb\xbf\n"), ErrEmpty},
	}
	for _, c := range cases {
		for _, typ := range []string{"text", "markdown", "html"} {
			if _, err := Extract(typ, c.in); !errors.Is(err, c.want) {
				t.Errorf("%s as %s: error = %v, want %v", c.name, typ, err, c.want)
			}
		}
	}
	// Markup that yields no text is empty too.
	for typ, in := range map[string]string{
		"html":     `<html><head><title>T</title><script>var x = 1;</script></head><body><nav>Home</nav><img src="a.png"></body></html>`,
		"markdown": "---\ntitle: Only front matter\n---\n\n<!-- a comment -->\n\n---\n",
	} {
		if _, err := Extract(typ, []byte(in)); !errors.Is(err, ErrEmpty) {
			t.Errorf("%s without text: error = %v, want ErrEmpty", typ, err)
		}
	}
}

func TestExtractSanitizes(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "text", "\xef\xbb\xbfline one\r\nline two\rline three\x07\n\n\fnext para")
	want := "line one\nline two\nline three\n\nnext para"
	if doc.Text != want {
		t.Fatalf("Text = %q, want %q", doc.Text, want)
	}
}

func TestExtractPlain(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "text/plain", "  First paragraph\n  continues here.   \n\n\n\nSecond one.\n   \nThird\n    indented line\n")
	if doc.Title != "" {
		t.Errorf("Title = %q, want empty", doc.Title)
	}
	got := blockTexts(doc, KindParagraph)
	want := []string{"First paragraph\n  continues here.", "Second one.", "Third\n    indented line"}
	if strings.Join(got, "|") != strings.Join(want, "|") || len(doc.Blocks) != 3 {
		t.Fatalf("paragraphs = %q, want %q", got, want)
	}
	if doc.Text != strings.Join(want, "\n\n") {
		t.Errorf("Text = %q", doc.Text)
	}
}
