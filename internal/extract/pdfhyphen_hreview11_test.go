package extract

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// hrPDF writes a one-page PDF in Helvetica, one text line per entry, 14
// points apart.
func hrPDF(lines ...string) []byte {
	var ops bytes.Buffer
	for i, l := range lines {
		l = strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(l)
		fmt.Fprintf(&ops, "BT /F1 11 Tf 72 %d Td (%s) Tj ET\n", 700-14*i, l)
	}
	objs := []string{"<< /Type /Catalog /Pages 3 0 R >>", "<< /Title (Plots) >>", "<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 6 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", ops.Len(), ops.String())}
	var out bytes.Buffer
	out.WriteString("%PDF-1.4\n")
	var offs []int
	for i, o := range objs {
		offs = append(offs, out.Len())
		fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&out, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root 1 0 R /Info 2 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return out.Bytes()
}

// TestHReview11CompoundBrokenInRealPDF: a compound broken at its hyphen in
// a real PDF (PDFium reads the line-end hyphen itself) keeps its hyphen
// where the document writes it hyphenated elsewhere, as with synthetic lines.
func TestHReview11CompoundBrokenInRealPDF(t *testing.T) {
	t.Parallel()
	doc, err := Extract(TypePDF, hrPDF("A user-defined function may be given a name of its own.",
		"Each one is a user-", "defined function with a name and a body of its own."))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text, "is a user-defined function with") {
		t.Errorf("text = %q", doc.Text)
	}
}
