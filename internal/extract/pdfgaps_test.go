package extract

import (
	"strings"
	"testing"
)

// groff-justified.pdf is groff-justified.ms (two justified -ms paragraphs)
// set by groff 1.22.4 and converted by Ghostscript 10.00.0, as pdfroff and
// Debian's groff-made manuals are:
//
//	groff -ms -Tps groff-justified.ms > groff-justified.ps
//	ps2pdf -dEmbedAllFonts=false groff-justified.ps groff-justified.pdf
//
// Ghostscript writes some stretched word spaces as character spacing inside
// a string ("2.641 Tc (Af)Tj -0.25 Tc 13.191 0 Td (ew m)Tj" for "A few m"),
// which PDFium does not turn into a space, and a kerned pair groff set as two
// strings as a space shrunk to nothing by word spacing ("-2.15 Tw (ev e)Tj"
// for "eve"), which PDFium keeps: ragd read "Afew", "Incase", "manyways",
// "fewstrings" and "ev ery" until wordGaps measured the gaps.
func TestPDFJustifiedGroffWordGaps(t *testing.T) {
	t.Parallel()
	doc, err := Extract(TypePDF, readFixture(t, "groff-justified.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"Afew", "Incase", "manyways", "fewstrings", "ev ery"} {
		if strings.Contains(doc.Text, bad) {
			t.Errorf("text has %q:\n%s", bad, doc.Text)
		}
	}
	// pdftotext's words (poppler 22.12, its "sat-" "isfied" joined).
	const want = `A few more explanations follow. In case you are not satisfied with the
features included in the supplied binaries, you could try compiling the program
yourself. Search forward for the pattern before the cursor; there are many ways
to do it and you can choose the one you like. Justified text stretches the
spaces between words so that every line ends at the right margin. The formatter
writes each line as a few strings placed apart, and some of those gaps are made
with character spacing instead of a space character.`
	got, exp := strings.Fields(doc.Text), strings.Fields(want)
	if strings.Join(got, " ") != strings.Join(exp, " ") {
		t.Errorf("words differ from pdftotext's:\n got %q\nwant %q", got, exp)
	}
}
