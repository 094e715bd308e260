package extract

import (
	"slices"
	"strings"
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
	heads, _ := hr26Headings(t, pages)
	if !slices.Equal(heads, []string{"2 Drawing Attributes"}) {
		t.Errorf("headings %q; want the wrapped section heading only", heads)
	}
}

// TestPDFNumberedSectionsInBodySize: a LaTeX document sets its numbered
// subsections in bold at the body's size ("2.5 Drawing Orientation, Size
// and Spacing" in Graphviz's dotguide.pdf), so only "2 Drawing Attributes"
// was a heading and its nine pages one section. Numbered titles of two or
// more parts that ascend through the document are headings one level
// under the heading numbered as their first part; a table of contents'
// line (dot leaders, a page number), a sentence starting with a number and
// a number out of order are not.
func TestPDFNumberedSectionsInBodySize(t *testing.T) {
	t.Parallel()
	body := func(y float64, text string) pdfLine { return pdfLine{text: text, y: y, size: 10} }
	var pages []pdfPage
	texts := [][]string{
		{"2.1 Node Shapes . . . . . . . . . . . 4", "2.2 Labels . . . . . . . . . . . . . 6"},
		{"Nodes are drawn with the shape attribute of each node in the graph."},
		{"2.1 Node Shapes", "Nodes are drawn with the shape attribute of each node in the graph."},
		{"3.5 Million nodes were drawn in one hour by the largest installation.", "2.2 Labels", "A label is the text drawn inside a node."},
		{"Labels may hold several lines of text, each ended by a newline escape."},
	}
	for p, ls := range texts {
		var pg pdfPage
		pg.lines = append(pg.lines, pdfLine{text: map[bool]string{true: "2 Drawing Attributes", false: "Each page of the guide describes a group of attributes for the drawing."}[p == 1], y: 700 - float64(p), size: 14})
		for i, l := range ls {
			pg.lines = append(pg.lines, body(680-float64(p)-20*float64(i), l))
		}
		for i := 0; i < 8; i++ {
			pg.lines = append(pg.lines, body(500-float64(p)-20*float64(i), "The layout program places the nodes of the graph in ranks and orders them within each rank."))
		}
		pages = append(pages, pg)
	}
	heads, levels := hr26Headings(t, pages)
	if !slices.Contains(heads, "2.1 Node Shapes") || !slices.Contains(heads, "2.2 Labels") || slices.ContainsFunc(heads, func(h string) bool { return strings.Contains(h, "Million") || strings.Contains(h, ". .") }) {
		t.Fatalf("headings %q; want 2.1 and 2.2 once each, no contents line or sentence", heads)
	}
	if levels["2.1 Node Shapes"] != levels["2 Drawing Attributes"]+1 {
		t.Errorf("levels %v; want the numbered sections one under their chapter", levels)
	}
}
