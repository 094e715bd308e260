package extract

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// basePDF is a one-page PDF whose content stream is content, with the
// standard fonts /F1 Helvetica, /F2 Times-Roman, /F3 Courier (not embedded).
func basePDF(content string) []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R /F2 6 0 R /F3 7 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, x)
	return b.Bytes()
}

// TestPDFLetterSpacedWordsHBreak10 (h-break10): wordGaps puts a space
// between any two letters whose boxes are more than 0.15 box heights
// apart, and letter-spacing (character spacing, Tc) is exactly such a gap
// between the letters of one word. A heading tracked by +200 (0.22 em,
// "4 Tc" at 18 pt: common for capitals headings) came out as
// "I N T R O D U C T I O N" and body text at 11 pt with 2 pt of tracking
// as "M o d e r a t e l y s p a c e d", so neither word is found any more;
// before wordGaps (0c9a852^) both were read whole, and pdftotext (poppler
// 22.12) reads them whole:
//
//	INTRODUCTION
//	The protocol moves examples between hosts quickly.
//	Moderately spaced words look airy.
//
// A gap that is the line's (or string's) uniform letter-spacing is no word
// space; Ghostscript's stretched spaces are gaps far wider than the gaps
// between the other letters of the line.
func TestPDFLetterSpacedWordsHBreak10(t *testing.T) {
	t.Parallel()
	pdf := basePDF(`BT /F1 18 Tf 72 700 Td 4 Tc (INTRODUCTION) Tj ET
BT /F2 11 Tf 72 670 Td 0 Tc (The protocol moves examples between hosts quickly.) Tj ET
BT /F2 11 Tf 72 650 Td 2 Tc (Moderately spaced words look airy.) Tj ET`)
	doc, err := Extract(TypePDF, pdf)
	if err != nil {
		t.Fatal(err)
	}
	want := "INTRODUCTION The protocol moves examples between hosts quickly. Moderately spaced words look airy."
	if got := strings.Join(strings.Fields(doc.Text), " "); got != want {
		t.Errorf("words differ from pdftotext's:\n got %q\nwant %q", got, want)
	}
}

// TestPDFCJKTrackedLineLatinWordsHBreak10 (h-break10): Chinese and Japanese
// text is justified by spreading every character of a line (character
// spacing), Latin words within the line included. wordGaps leaves CJK
// pairs alone but spaced out the Latin words between them: "使用r a g d搜索",
// "P o s t g r e S Q L", "v i m" (before wordGaps and in pdftotext:
// "ragd", "PostgreSQL", "vim"). The fixture is made with Debian's
// python3-reportlab 3.6.12 and fonts-wqy-microhei (2.5 pt of character
// spacing at 10.5 pt):
//
//	c = canvas.Canvas("cjk-tracked-hbreak10.pdf", invariant=1)
//	pdfmetrics.registerFont(TTFont("WQY", "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", subfontIndex=0))
//	for y, s in ((760, "使用ragd搜索文档，然后查看PostgreSQL的结果。"), (740, "日本語の文章ではvimのコマンドを使います。")):
//	    t = c.beginText(72, y); t.setFont("WQY", 10.5); t.setCharSpace(2.5); t.textOut(s); c.drawText(t)
//	c.save()
func TestPDFCJKTrackedLineLatinWordsHBreak10(t *testing.T) {
	t.Parallel()
	doc, err := Extract(TypePDF, readFixture(t, "cjk-tracked-hbreak10.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"使用ragd搜索文档", "查看PostgreSQL的结果", "ではvimのコマンド"} {
		if !strings.Contains(doc.Text, w) {
			t.Errorf("text has no %q:\n%s", w, doc.Text)
		}
	}
}
