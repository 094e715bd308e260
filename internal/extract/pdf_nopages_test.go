package extract

import (
	"errors"
	"testing"
)

// TestPDFWithoutPages: a PDF whose page tree is empty has no text and no
// scan either: it is an empty file (ErrNoPages, an ErrEmpty), not one to
// run through OCR.
func TestPDFWithoutPages(t *testing.T) {
	t.Parallel()
	const pdf = "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n" +
		"xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000058 00000 n \ntrailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n110\n%%EOF\n"
	_, err := Extract(TypePDF, []byte(pdf))
	if !errors.Is(err, ErrNoPages) || !errors.Is(err, ErrEmpty) || errors.Is(err, ErrNoTextLayer) {
		t.Fatalf("PDF without pages: %v, want ErrNoPages (an ErrEmpty), not ErrNoTextLayer", err)
	}
}
