package extract

import (
	"os"
	"strings"
	"testing"
)

// TestPDFSentenceAcrossAPageBreak: a paragraph whose sentence goes on at
// the top of the next page is one paragraph, cited at the page it opens
// on; the next page starts at its own first paragraph. A page that ends a
// sentence before the next opens a new one keeps the break. Before, the
// stored text had a paragraph break at every page, and the answer quoted
// "… listens on port 9471 and exposes the [1]" as a sentence.
func TestPDFSentenceAcrossAPageBreak(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/pagebreak.pdf")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Extract(TypePDF, data)
	if err != nil {
		t.Fatal(err)
	}
	whole := "The metrics exporter listens on port 9471 and exposes the tallowmere_keys_total counter for every namespace of the cluster."
	at := strings.Index(doc.Text, whole)
	if at < 0 {
		t.Fatalf("text %q: want the sentence whole", doc.Text)
	}
	if !strings.Contains(doc.Text, "Backups run nightly.\n\nRestores are started") {
		t.Errorf("text %q: want the break kept before the third page", doc.Text)
	}
	second := strings.Index(doc.Text, "A second paragraph")
	third := strings.Index(doc.Text, "Restores are started")
	if len(doc.Pages) != 3 || doc.Pages[0] > at || doc.Pages[1] != second || doc.Pages[2] != third {
		t.Errorf("pages %v: want [≤%d %d %d]", doc.Pages, at, second, third)
	}
}
