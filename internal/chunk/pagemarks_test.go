package chunk

import (
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/extract"
)

// TestChunkPageMarks: a chunk of a paged document (a PDF) that runs over
// a page break marks where each later page's text begins, so that a
// citation of text on its second page opens that page; a page without
// text (its offset the next page's) makes no mark of its own.
func TestChunkPageMarks(t *testing.T) {
	t.Parallel()
	paras := []string{"Shell variables hold the values the shell uses.",
		"BASH_COMPAT sets the shell's compatibility level.",
		"HISTCONTROL lists how commands are saved in the history."}
	text := strings.Join(paras, "\n\n")
	doc := &extract.Document{Text: text}
	at := 0
	for _, p := range paras {
		doc.Blocks = append(doc.Blocks, extract.Block{Kind: extract.KindParagraph, Start: at, End: at + len(p)})
		at += len(p) + 2
	}
	p2, p4 := doc.Blocks[1].Start, doc.Blocks[2].Start
	// Page 3 has no text: it starts where page 4's text does.
	doc.Pages = []int{0, p2, p4, p4}
	chunks, err := Split(doc, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 1 {
		t.Fatalf("%d chunks, want one", len(chunks))
	}
	c := chunks[0]
	var got []string
	for _, m := range c.AnchorMarks {
		got = append(got, m.Anchor+"@"+doc.Text[m.At:m.At+4])
	}
	if want := "page=2@BASH page=4@HIST"; strings.Join(got, " ") != want || c.PageStart != 1 || c.PageEnd != 4 {
		t.Errorf("pages %d-%d, marks %q; want 1-4 and %q", c.PageStart, c.PageEnd, got, want)
	}
}
