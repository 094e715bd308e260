package extract

import (
	"errors"
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
