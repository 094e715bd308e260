package extract

import (
	"slices"
	"strings"
	"testing"
)

// hr26Headings lays the pages out and returns the headings and their
// levels (also the figure and numbered-section tests' reader).
func hr26Headings(t *testing.T, pages []pdfPage) ([]string, map[string]int) {
	t.Helper()
	doc, err := layoutPDF(&pdfRaw{title: "Document", pages: pages})
	if err != nil {
		t.Fatal(err)
	}
	var heads []string
	levels := map[string]int{}
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			h := doc.Text[b.Start:b.End]
			heads = append(heads, h)
			levels[h] = b.Level
		}
	}
	return heads, levels
}

// hr26Pages makes one page per list of lines: a 14-point line for a text
// starting with "#", body-size (10 point) lines otherwise, going down the
// page, and filler paragraphs so that 10 points is the body size.
func hr26Pages(texts [][]string) []pdfPage {
	var pages []pdfPage
	for p, ls := range texts {
		var pg pdfPage
		y := 720.0
		for _, l := range ls {
			size := 10.0
			if h, ok := strings.CutPrefix(l, "#"); ok {
				l, size = h, 14
				y -= 8
			}
			pg.lines = append(pg.lines, pdfLine{text: l, y: y - float64(p), x: 72, size: size})
			y -= 12
		}
		y -= 12
		for i := 0; i < 6; i++ {
			pg.lines = append(pg.lines, pdfLine{text: "The parties agree that the terms of this agreement are binding on their successors.", y: y - float64(p), x: 72, size: 10})
			y -= 12
		}
		pages = append(pages, pg)
	}
	return pages
}

// TestPDFNumberedClausesHReview26 (h-review26): a contract's numbered
// clauses are set in the body's size, as its subsections would be; the
// first line of a clause wrapped over two lines is a number, a capital and
// at most twelve words with no final stop, and the clauses ascend. Each
// clause's first line became a heading, cutting the clause in two: the
// heading "1.1 The Tenant shall pay the rent monthly in advance on the"
// over the paragraph "first day of each month …".
func TestPDFNumberedClausesHReview26(t *testing.T) {
	t.Parallel()
	heads, _ := hr26Headings(t, hr26Pages([][]string{
		{"#1 Rent",
			"1.1 The Tenant shall pay the rent monthly in advance on the",
			"first day of each month by standing order to the Landlord.",
			"1.2 The Tenant shall pay interest on any rent unpaid after",
			"fourteen days at the rate stated in the schedule."},
		{"#2 Repairs",
			"2.1 The Tenant shall keep the interior of the Property clean and",
			"in good repair throughout the Term.",
			"2.2 The Landlord shall keep the structure and exterior of the",
			"Property in good repair and insure it against fire."},
	}))
	if slices.ContainsFunc(heads, func(h string) bool { return strings.Contains(h, "shall") }) {
		t.Errorf("headings %q; want the clauses as paragraphs, not headings", heads)
	}
}

// TestPDFNumberedRunRestartsHReview26 (h-review26): a PDF of two
// documents (a specification and its annex, a volume's two papers) numbers
// its sections from 1.1 twice. The longest ascending run keeps one
// document's numbered sections and drops the other's: the annex's "1.1
// Scope of the Annex" and "1.2 Terms Used in the Annex" are read into the
// section before them.
func TestPDFNumberedRunRestartsHReview26(t *testing.T) {
	t.Parallel()
	heads, _ := hr26Headings(t, hr26Pages([][]string{
		{"#1 Introduction", "1.1 Scope of the Specification", "This specification defines the interface of the service."},
		{"1.2 Terms Used", "The terms below are used throughout the specification."},
		{"#2 Interface", "2.1 Requests", "A request names the operation and carries its arguments."},
		{"#1 Annex Introduction", "1.1 Scope of the Annex", "This annex lists the error codes of the service."},
		{"1.2 Terms Used in the Annex", "The terms below are used throughout the annex."},
	}))
	for _, want := range []string{"1.1 Scope of the Specification", "1.2 Terms Used", "2.1 Requests", "1.1 Scope of the Annex", "1.2 Terms Used in the Annex"} {
		if !slices.Contains(heads, want) {
			t.Errorf("headings %q; want %q among them", heads, want)
		}
	}
}

// TestPDFLongTitleOverFourLinesHReview26 (h-review26): a report's cover
// title set large wraps over four lines going down the page. The figure
// rule (a run of more than three lines of one heading size is a figure's
// labels) deletes the whole title: the document has no heading above its
// first section.
func TestPDFLongTitleOverFourLinesHReview26(t *testing.T) {
	t.Parallel()
	pages := hr26Pages([][]string{
		{"Review of the Implementation of the", "Water Framework Directive in the", "Member States of the European", "Union Between 2015 and 2020"},
		{"#1 Introduction", "The review covers the river basin management plans of every member state."},
		{"#2 Findings", "Most plans were adopted late and few met the deadline for good status."},
	})
	// The cover title: 24 points, 30 points apart going down.
	for i := range 4 {
		pages[0].lines[i].size = 24
		pages[0].lines[i].y = 700 - 30*float64(i)
	}
	heads, _ := hr26Headings(t, pages)
	if !slices.ContainsFunc(heads, func(h string) bool { return strings.HasPrefix(h, "Review of the Implementation") }) {
		t.Errorf("headings %q; want the cover title among them", heads)
	}
}
