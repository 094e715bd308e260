package extract

import (
	"errors"
	"strings"
	"testing"
)

// fuzzProperty is what every input must satisfy: no panic, and either one of
// the documented errors or a Document that keeps the invariants.
func fuzzProperty(t *testing.T, typ string, data []byte) {
	doc, err := Extract(typ, data)
	if err != nil {
		if !errors.Is(err, ErrInvalidUTF8) && !errors.Is(err, ErrBinary) && !errors.Is(err, ErrEmpty) {
			t.Fatalf("undocumented error: %v", err)
		}
		return
	}
	checkDocument(t, doc)
}

func FuzzExtractHTML(f *testing.F) {
	for _, s := range []string{
		"<html><head><title>T</title></head><body><nav>n</nav><h1>H</h1><p>p</p></body></html>",
		"<table><thead><tr><th>a</th><th>b</th></tr></thead><tr><td>1</td><td>2</td></tr></table>",
		"<ul><li>a<ol><li>b</li></ol></li></ul><dl><dt>t</dt><dd>d</dd></dl>",
		"<pre>\n  code\n\n</pre><p>x<br>y</p>",
		"<div><div><div>deep</div></div>",
		"<p><table><td>x<tr><th>y</table><li>z",
		"\xef\xbb\xbf<p>bom</p>\r\n",
		"<div class=\"note\"><h3>Note</h3></div><caption>c</caption><p class=title>t</p>",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzProperty(t, "html", data) })
}

func FuzzExtractMarkdown(f *testing.F) {
	for _, s := range []string{
		sampleMarkdown,
		"# T\n\ntext\n\n## S\n\n- a\n  - b\n\n```\ncode\n```\n",
		"| a | b |\n|---|---|\n| 1 | 2 |\n",
		"Setext\n===\n\n> quote\n> > nested\n\n1) one\n2) two\n",
		"<div>\n<h2>h</h2>\n</div>\n\n[ref]: http://x\n\n***\n",
		"---\ntitle: t\n---\n",
		"    indented\n\ttab\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzProperty(t, "markdown", data) })
}

// FuzzDetect: Detect and ToUTF8 never panic, answer only their documented
// errors, never call binary bytes text, and what ToUTF8 returns for an
// HTML or plain type Extract either reads or refuses with its own errors.
func FuzzDetect(f *testing.F) {
	for _, s := range []string{
		"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "PK\x03\x04\x14\x00", "\x89PNG\r\n\x1a\n\x00", "\xff\xfeh\x00i\x00", "\xfe\xff\x00h",
		"<!DOCTYPE html><meta charset=latin1><p>caf\xe9", "# md\n\ntext", "a\x00b", "caf\xe9",
	} {
		f.Add([]byte(s), "", "x.txt")
		f.Add([]byte(s), "text/plain; charset=utf-16le", "x")
		f.Add([]byte(s), "text/html; charset=bogus", "x.pdf")
	}
	f.Fuzz(func(t *testing.T, data []byte, declared, uri string) {
		typ, err := Detect(data, declared, uri)
		if err != nil {
			if !errors.Is(err, ErrUnsupportedType) && !errors.Is(err, ErrBinary) && !errors.Is(err, ErrTypeMismatch) {
				t.Fatalf("Detect: undocumented error %v", err)
			}
			return
		}
		if IsText(typ) && sniffBinary(data) != "" && !hasBOM(data) && !strings.Contains(strings.ToLower(declared), "utf-16") {
			t.Fatalf("Detect called binary bytes %q", typ)
		}
		text, err := ToUTF8(data, typ, declared)
		if err != nil {
			if !errors.Is(err, ErrUnsupportedType) && !errors.Is(err, ErrInvalidUTF8) {
				t.Fatalf("ToUTF8: undocumented error %v", err)
			}
			return
		}
		if IsText(typ) {
			fuzzProperty(t, typ, text)
		}
	})
}

// FuzzExtractDOCX feeds mutated DOCX packages (zip archives of XML) to the
// DOCX reader: it must not panic and must answer with a documented error or
// a valid Document.
func FuzzExtractDOCX(f *testing.F) {
	f.Add(readFixture(f, "report.docx"))
	f.Add([]byte("PK\x03\x04"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Extract(TypeDOCX, data)
		if err != nil {
			if !errors.Is(err, ErrUnreadable) && !errors.Is(err, ErrEmpty) {
				t.Fatalf("undocumented error: %v", err)
			}
			return
		}
		checkDocument(t, doc)
	})
}
