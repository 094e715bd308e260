package extract

import (
	"archive/zip"
	"bytes"
	"errors"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

func zipOf(t *testing.T, names ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte("<x/>"))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func utf16le(t *testing.T, s string, bom bool) []byte {
	t.Helper()
	policy := unicode.IgnoreBOM
	if bom {
		policy = unicode.UseBOM
	}
	b, err := unicode.UTF16(unicode.LittleEndian, policy).NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDetect(t *testing.T) {
	t.Parallel()
	pdf := []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\nstream\x00\x01\x02\x03")
	docx := zipOf(t, "[Content_Types].xml", "_rels/.rels", "word/document.xml")
	xlsx := zipOf(t, "[Content_Types].xml", "xl/workbook.xml")
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	cases := []struct {
		name, declared, uri string
		content             []byte
		want                string
		err                 error
	}{
		{"pdf by bytes despite no type", "", "report.pdf", pdf, TypePDF, nil},
		{"pdf by bytes under a text name", "", "notes.txt", pdf, TypePDF, nil},
		{"pdf as octet-stream", "application/octet-stream", "x", pdf, TypePDF, nil},
		{"pdf declared", "application/pdf", "x", pdf, TypePDF, nil},
		{"pdf declared but text", "application/pdf", "x.pdf", []byte("hello"), "", ErrTypeMismatch},
		{"pdf declared as text", "text/plain", "x.pdf", pdf, "", ErrBinary},
		{"pdf declared as markdown", "markdown", "x.md", pdf, "", ErrBinary},
		{"docx by bytes", "", "a.docx", docx, TypeDOCX, nil},
		{"docx declared", TypeDOCX, "a", docx, TypeDOCX, nil},
		{"xlsx unsupported", "", "a.xlsx", xlsx, "", ErrUnsupportedType},
		{"plain zip unsupported", "", "a.zip", zipOf(t, "a.txt"), "", ErrUnsupportedType},
		{"png unsupported", "", "a.png", png, "", ErrUnsupportedType},
		{"nul bytes are binary", "", "a.txt", []byte("a\x00b\x00c"), "", ErrUnsupportedType},
		{"nul bytes declared text", "text", "a.txt", []byte("a\x00b\x00c"), "", ErrBinary},
		{"extension decides text", "", "https://x/guide.md?v=2#top", []byte("# Guide\n\ntext"), TypeMarkdown, nil},
		{"html sniffed without extension", "", "https://x/page", []byte("  <!DOCTYPE html><html><p>x</p></html>"), TypeHTML, nil},
		{"html sniffed under .pdf name", "", "x.pdf", []byte("<html><body>x</body></html>"), TypeHTML, nil},
		{"plain when nothing says otherwise", "", "x.pdf", []byte("just words"), TypePlain, nil},
		{"declared wins for text", "text/html; charset=utf-8", "x.md", []byte("<p>x</p>"), TypeHTML, nil},
		{"a few stray controls are text", "", "x.txt", []byte("hello\x01 world, a long enough line of text to stay under one per cent of the bytes ... ... ... ... ... ... ... ... ... ..."), TypePlain, nil},
		{"utf-16 with bom is text", "", "x.txt", utf16le(t, "hello world", true), TypePlain, nil},
		{"utf-16 declared is text", "text/plain; charset=utf-16le", "x.txt", utf16le(t, "hello world", false), TypePlain, nil},
		{"utf-16 undeclared is binary", "", "x.txt", utf16le(t, "hello world", false), "", ErrUnsupportedType},
		{"unknown declared type", "image/png", "x", png, "", ErrUnsupportedType},
		{"latin-1 is text", "", "x.txt", []byte("caf\xe9"), TypePlain, nil},
	}
	for _, c := range cases {
		got, err := Detect(c.content, c.declared, c.uri)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%s: Detect = %q, %v; want error %v", c.name, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: Detect = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

func TestToUTF8(t *testing.T) {
	t.Parallel()
	latin1 := func(s string) []byte {
		b, err := charmap.ISO8859_1.NewEncoder().Bytes([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cases := []struct {
		name, typ, declared string
		content             []byte
		want                string
	}{
		{"utf-8 bom dropped", TypePlain, "", []byte("\xef\xbb\xbfcafé"), "café"},
		{"utf-16le bom", TypePlain, "", utf16le(t, "café 日本", true), "café 日本"},
		{"utf-16be bom", TypePlain, "", []byte("\xfe\xff\x00c\x00a\x00f\x00\xe9"), "café"},
		{"declared charset", TypePlain, "text/plain; charset=ISO-8859-1", latin1("café"), "café"},
		{"declared windows-1252", TypeMarkdown, "text/markdown; charset=windows-1252", []byte("\x93quoted\x94"), "\u201cquoted\u201d"},
		{"declared utf-16 without bom", TypePlain, "text/plain; charset=utf-16le", utf16le(t, "naïve", false), "naïve"},
		{"declared utf-8 left alone", TypePlain, "text/plain; charset=utf-8", []byte("caf\xe9"), "caf\xe9"},
		{"meta charset", TypeHTML, "", append([]byte(`<html><head><meta charset="iso-8859-1"><title>t</title></head><body>`), latin1("café</body>")...),
			`<html><head><meta charset="iso-8859-1"><title>t</title></head><body>café</body>`},
		{"meta http-equiv", TypeHTML, "", append([]byte(`<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><p>`), latin1("élan")...),
			`<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><p>élan`},
		{"meta yields to valid utf-8", TypeHTML, "", []byte(`<meta charset="iso-8859-1"><p>café`), `<meta charset="iso-8859-1"><p>café`},
		{"no guessing", TypePlain, "", []byte("caf\xe9"), "caf\xe9"},
		{"binary types untouched", TypePDF, "application/pdf; charset=latin1", []byte("%PDF-\xe9"), "%PDF-\xe9"},
	}
	for _, c := range cases {
		got, err := ToUTF8(c.content, c.typ, c.declared)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: ToUTF8 = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	if _, err := ToUTF8([]byte("x"), TypePlain, "text/plain; charset=klingon"); !errors.Is(err, ErrUnsupportedType) {
		t.Errorf("unknown charset: %v, want ErrUnsupportedType", err)
	}
	// What ToUTF8 returns for text Extract then reads.
	b, err := ToUTF8(utf16le(t, "<h1>Título</h1><p>Texto</p>", true), TypeHTML, "")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Extract(TypeHTML, b)
	if err != nil || doc.Title != "Título" {
		t.Fatalf("extract after ToUTF8: %+v, %v", doc, err)
	}
}

// TestInvalidUTF16IsRefused: UTF-16 text (by its byte-order mark or its
// declared charset) with an odd byte or an unpaired surrogate is refused,
// not stored with U+FFFD; valid UTF-16, surrogate pairs included, is read.
func TestInvalidUTF16IsRefused(t *testing.T) {
	t.Parallel()
	be := func(units ...uint16) []byte {
		var b []byte
		for _, u := range units {
			b = append(b, byte(u>>8), byte(u))
		}
		return b
	}
	for name, tc := range map[string]struct {
		content  []byte
		declared string
		ok       bool
	}{
		"BOM, pair":          {append([]byte{0xFE, 0xFF}, be('a', 0xD83D, 0xDE00)...), "text/plain", true},
		"BOM, lone high":     {append([]byte{0xFE, 0xFF}, be('a', 0xD83D, 'b')...), "text/plain", false},
		"BOM, lone low":      {append([]byte{0xFE, 0xFF}, be(0xDE00, 'b')...), "text/plain", false},
		"BOM, odd byte":      {append(append([]byte{0xFE, 0xFF}, be('a')...), 'x'), "text/plain", false},
		"declared, high end": {be('a', 0xD83D), "text/plain; charset=utf-16be", false},
		"declared, valid":    {be('h', 'i'), "text/plain; charset=utf-16be", true},
	} {
		out, err := ToUTF8(tc.content, TypePlain, tc.declared)
		if tc.ok && (err != nil || strings.ContainsRune(string(out), '\uFFFD')) {
			t.Errorf("%s: %q, %v; want it read", name, out, err)
		}
		if !tc.ok && !errors.Is(err, ErrInvalidUTF8) {
			t.Errorf("%s: %q, %v; want ErrInvalidUTF8", name, out, err)
		}
	}
}

// Text that begins with another format's printable signature is text; the
// format's real files are still recognised.
func TestTextOpeningWithAPrintableSignature(t *testing.T) {
	for _, text := range []string{"BMI and mortality in older adults: a cohort study.", "GIF89a is the animated image format of 1989.", "RIFF headers name their chunks."} {
		typ, err := Detect([]byte(text), TypePlain, "abstract.txt")
		if err != nil || typ != TypePlain {
			t.Errorf("%q: %q, %v", text, typ, err)
		}
	}
	bmp := append([]byte("BM"), 0x46, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x36, 0x00, 0x00, 0x00, 0x28, 0x00)
	if _, err := Detect(bmp, TypePlain, "picture.txt"); !errors.Is(err, ErrBinary) {
		t.Errorf("a BMP header declared as text: %v, want ErrBinary", err)
	}
}

// TestUTF32WithBOMIsText: UTF-32 text with its byte-order mark (either
// order) is detected as text and read, not refused as binary for its NUL
// bytes; UTF-32 that is not whole scalar values is refused, not stored with
// U+FFFD.
func TestUTF32WithBOMIsText(t *testing.T) {
	t.Parallel()
	enc := func(bigEndian bool, rs ...uint32) []byte {
		var b []byte
		for _, r := range rs {
			if bigEndian {
				b = append(b, byte(r>>24), byte(r>>16), byte(r>>8), byte(r))
			} else {
				b = append(b, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
			}
		}
		return b
	}
	text := func(s string) []uint32 {
		rs := []uint32{0xFEFF}
		for _, r := range s {
			rs = append(rs, uint32(r))
		}
		return rs
	}
	for _, bigEndian := range []bool{false, true} {
		content := enc(bigEndian, text("café 日本 😀\nsecond line")...)
		typ, err := Detect(content, "", "notes.txt")
		if err != nil || typ != TypePlain {
			t.Fatalf("big endian %v: Detect = %q, %v; want text/plain", bigEndian, typ, err)
		}
		out, err := ToUTF8(content, typ, "")
		if err != nil || string(out) != "café 日本 😀\nsecond line" {
			t.Errorf("big endian %v: ToUTF8 = %q, %v", bigEndian, out, err)
		}
		for name, bad := range map[string][]byte{
			"surrogate":    enc(bigEndian, 0xFEFF, 'a', 0xD800),
			"beyond plane": enc(bigEndian, 0xFEFF, 'a', 0x110000),
			"ragged end":   append(enc(bigEndian, 0xFEFF, 'a'), 'b'),
		} {
			if out, err := ToUTF8(bad, TypePlain, ""); !errors.Is(err, ErrInvalidUTF8) {
				t.Errorf("big endian %v, %s: %q, %v; want ErrInvalidUTF8", bigEndian, name, out, err)
			}
		}
	}
}

// TestDamagedDOCXSaysWhy: bytes declared as DOCX that are a ZIP but no Word
// document are refused with a reason that says what is wrong with them,
// not "the content is application/zip" (which a DOCX also is).
func TestDamagedDOCXSaysWhy(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		content []byte
		want    string
	}{
		"truncated":   {[]byte("PK\x03\x04garbage that ends early"), "damaged or truncated ZIP archive"},
		"not a docx":  {zipOf(t, "notes.txt"), "without word/document.xml"},
		"half a docx": {zipOf(t, "[Content_Types].xml", "word/document.xml")[:40], "damaged or truncated ZIP archive"},
	} {
		_, err := Detect(tc.content, TypeDOCX, "report.docx")
		if !errors.Is(err, ErrTypeMismatch) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want ErrTypeMismatch saying %q", name, err, tc.want)
		}
	}
}
