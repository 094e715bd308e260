package extract

import (
	"slices"
	"testing"
)

// TestPDFFigureLabelsAreNoHeadings: a figure drawn with text (a graph's
// node labels, set larger than the body) gives lines in that size out of
// reading order. Read by their size as headings, Graphviz's dotguide.pdf
// had "hello world b c d e g h f" and "main parse init cleanup printf
// execute make_string compare" in the heading paths of its sections'
// chunks. A run of more than three such lines, or one that does not go
// down the page line by line, is a figure's text; a section heading
// wrapped over two lines is still one heading.
func TestPDFFigureLabelsAreNoHeadings(t *testing.T) {
	t.Parallel()
	body := func(y float64, text string) pdfLine { return pdfLine{text: text, y: y, size: 10} }
	big := func(y, x float64, text string) pdfLine { return pdfLine{text: text, y: y, x: x, size: 14} }
	var pages []pdfPage
	for p := 0; p < 4; p++ {
		var ls []pdfLine
		for i := 0; i < 8; i++ {
			ls = append(ls, body(680-float64(p)-20*float64(i), "Each pass of the layout program refines the placement of the nodes so that edges cross less."))
		}
		pages = append(pages, pdfPage{lines: ls})
	}
	pages[1].lines = append([]pdfLine{big(700, 72, "2 Drawing"), big(684, 72, "Attributes")}, pages[1].lines...)
	pages[2].lines = append(pages[2].lines, big(407, 301, "main"), big(356, 270, "parse"), big(305, 233, "init"), big(356, 327, "cleanup"))
	pages[3].lines = append(pages[3].lines, big(551, 309, "a"), big(470, 309, "b"), big(551, 398, "e"))
	doc, err := layoutPDF(&pdfRaw{title: "Drawing graphs", pages: pages})
	if err != nil {
		t.Fatal(err)
	}
	var heads []string
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			heads = append(heads, doc.Text[b.Start:b.End])
		}
	}
	if !slices.Equal(heads, []string{"2 Drawing Attributes"}) {
		t.Errorf("headings %q; want the wrapped section heading only", heads)
	}
}
