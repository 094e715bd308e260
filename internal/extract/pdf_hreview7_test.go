package extract

import (
	"strings"
	"testing"
)

// TestPDFNumberedSectionsNamedIndexOrContentsKept_hreview7: navigationSection
// trims a heading's section number before comparing ("4 Index" → "index"),
// so a numbered chapter or section that is part of the document's content —
// a chapter about the widget index in the second half, a format's
// "2.2 Contents" section describing what an archive holds — is taken for
// the table of contents or the back-of-book index and left out with every
// subsection under it. A document's own navigation is never numbered.
//
// Expected: only unnumbered headings are navigation; numbered sections are
// kept.
func TestPDFNumberedSectionsNamedIndexOrContentsKept_hreview7(t *testing.T) {
	t.Parallel()
	page := pageMaker()
	raw := &pdfRaw{
		title: "Widgets",
		pages: []pdfPage{
			page("Widgets are small parts.", "1 Widgets", "Widgets are kept in a table of their own.", "Each widget has a name."),
			page("A widget archive holds widgets.", "2 Archives", "A widget archive is a compressed file.", "2.2 Contents", "The archive holds a manifest and one file per widget.", "Archives are read whole."),
			page("Widgets are frobnicated daily.", "3 Usage", "Run the frobnicator on each widget.", "It takes a minute."),
			page("Lookups by name are fast.", "4 Index", "The widget index is a B-tree kept per table and rebuilt nightly.", "4.1 Rebuilding", "Rebuild the widget index with the reindex command.", "Rebuilds take an hour."),
			page("More about the widget index: it is compacted weekly.", "Compaction is automatic."),
			page("Widgets can be removed.", "5 Removal", "Remove a widget with the remove command.", "Removal is final."),
		},
		outline: []pdfMark{{title: "1 Widgets", level: 1, page: 0}, {title: "2 Archives", level: 1, page: 1},
			{title: "2.2 Contents", level: 2, page: 1}, {title: "3 Usage", level: 1, page: 2},
			{title: "4 Index", level: 1, page: 3}, {title: "4.1 Rebuilding", level: 2, page: 3}, {title: "5 Removal", level: 1, page: 5}},
	}
	doc, err := layoutPDF(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"The archive holds a manifest and one file per widget.",
		"The widget index is a B-tree kept per table and rebuilt nightly.",
		"Rebuild the widget index with the reindex command.",
		"Remove a widget with the remove command.",
	} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("text lost %q:\n%s", want, doc.Text)
		}
	}
}
