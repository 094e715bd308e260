package extract

import (
	"os"
	"strings"
	"testing"
)

// TestPDFSentenceAcrossAPageBreak: a paragraph whose sentence goes on at
// the top of the next page is one paragraph, and the next page starts
// where its text from that page does, so a citation names the page the
// quoted text is on. A page that ends a
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
	second := strings.Index(doc.Text, "tallowmere_keys_total counter")
	third := strings.Index(doc.Text, "Restores are started")
	if len(doc.Pages) != 3 || doc.Pages[0] > at || doc.Pages[1] != second || doc.Pages[2] != third {
		t.Errorf("pages %v: want [≤%d %d %d]", doc.Pages, at, second, third)
	}
}

// TestPDFCaptionIsNotCarriedAndPagesFollowTheText: a figure's caption
// ending a page is not joined to the next page's lower-case opening; a
// paragraph running from the second page into the third marks the third
// page where its text from that page begins (a paragraph's later pages
// were credited to the page it opened on).
func TestPDFCaptionIsNotCarriedAndPagesFollowTheText(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/caption.pdf")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Extract(TypePDF, data)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text, "Figure 3 Zones of the plum network\n\niptables rules") {
		t.Errorf("text %q: want the caption a paragraph of its own", doc.Text)
	}
	if !strings.Contains(doc.Text, "and the oldest copy is removed when a new one arrives.") {
		t.Errorf("text %q: want the paragraph joined across the page break", doc.Text)
	}
	second, third := strings.Index(doc.Text, "iptables rules"), strings.Index(doc.Text, "removed when a new one arrives")
	if len(doc.Pages) != 3 || doc.Pages[0] != 0 || doc.Pages[1] != second || doc.Pages[2] != third {
		t.Errorf("pages %v: want [0 %d %d]", doc.Pages, second, third)
	}
}
