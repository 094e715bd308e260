package extract

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// hrBody returns n pages of prose.
func hrBody(page func(...string) pdfPage, n int) []pdfPage {
	var ps []pdfPage
	for i := range n {
		ps = append(ps, page(fmt.Sprintf("The frobnicator keeps log %d of every widget it touched.", i)))
	}
	return ps
}

// TestHReview11AppendixTableKept: an appendix page in the back third with
// its own (outline) heading and a table of exit codes whose last column is
// numeric and sorted is content, not a navigation page.
func TestHReview11AppendixTableKept(t *testing.T) {
	t.Parallel()
	page := pageMaker()
	pages := hrBody(page, 8)
	codes := []string{"Appendix B Exit codes"}
	for i, name := range []string{"Success", "General error", "Misuse of a builtin", "Configuration file unreadable",
		"Widget store locked", "Frobnicator not found", "Permission denied", "Out of memory", "Interrupted by signal", "Timeout reached"} {
		codes = append(codes, fmt.Sprintf("%s %d", name, i))
	}
	pages = append(pages, page(codes...), page("The end of the widget manual."))
	doc, err := layoutPDF(&pdfRaw{title: "Widgets", pages: pages,
		outline: []pdfMark{{title: "Appendix B Exit codes", level: 1, page: 8}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Appendix B Exit codes", "Frobnicator not found 5"} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("appendix content lost (%q):\n%s", want, doc.Text)
		}
	}
}

// TestHReview11AlphabeticalDefaultsKept: a back-matter page of settings
// in alphabetical order, each with its (small) default value, is a table of
// content, not an index: nothing on it is a page reference.
func TestHReview11AlphabeticalDefaultsKept(t *testing.T) {
	t.Parallel()
	page := pageMaker()
	pages := hrBody(page, 8)
	pages = append(pages, page("autovacuum_max_workers 3", "bgwriter_lru_multiplier 2", "checkpoint_timeout 5",
		"deadlock_timeout 1", "geqo_threshold 12", "max_locks_per_transaction 64", "max_wal_senders 10",
		"max_worker_processes 8", "wal_keep_segments 0", "wal_writer_delay 200"))
	doc, err := layoutPDF(&pdfRaw{title: "Widgets", pages: pages})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text, "deadlock_timeout 1") {
		t.Errorf("the defaults page is dropped:\n%s", doc.Text)
	}
}

// TestHReview11OnePageListIsText: a one-page PDF that is an alphabetical
// price list has text; it is not a document without a text layer.
func TestHReview11OnePageListIsText(t *testing.T) {
	t.Parallel()
	page := pageMaker()
	raw := &pdfRaw{pages: []pdfPage{page("Apples, per kilo 3", "Bananas, per kilo 2", "Cherries, per box 9",
		"Dates, per box 7", "Figs, per box 8", "Grapes, per kilo 4", "Lemons, each 1", "Mangoes, each 2",
		"Oranges, per kilo 3", "Pears, per kilo 3")}}
	doc, err := layoutPDF(raw)
	if errors.Is(err, ErrNoTextLayer) {
		t.Fatalf("a price list read as having no text layer: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text, "Cherries, per box 9") {
		t.Errorf("text lost:\n%s", doc.Text)
	}
}

// TestHReview11IndexWithPageRanges: a back-of-book index page whose entries
// name page ranges ("arrays, 45–47") is as much an index as one of single
// pages, and is left out like it.
func TestHReview11IndexWithPageRanges(t *testing.T) {
	t.Parallel()
	page := pageMaker()
	pages := hrBody(page, 8)
	var index []string
	for i := range 10 {
		index = append(index, fmt.Sprintf("%c-term, %d–%d", 'a'+i, 4+i, 6+i))
	}
	pages = append(pages, page(index...))
	doc, err := layoutPDF(&pdfRaw{title: "Widgets", pages: pages})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(doc.Text, "a-term") {
		t.Errorf("index page of page ranges kept:\n%s", doc.Text)
	}
}

// TestHReview11AcuteAsApostrophe: "´" written for an apostrophe (common
// outside TeX: "Bachelor´s") is not an accent over the next letter; the
// word before it stays searchable.
func TestHReview11AcuteAsApostrophe(t *testing.T) {
	t.Parallel()
	page := pageMaker()
	doc, err := layoutPDF(&pdfRaw{pages: []pdfPage{page("A Bachelor´s degree is required; it´s checked by the registrar.")}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text, "Bachelor´s") {
		t.Errorf("apostrophe composed into the next letter: %q", doc.Text)
	}
}

// TestHReview11AccentOverDotlessI: TeX sets í and ï as an accent over the
// dotless i (U+0131): "Mart´ınez", "na¨ıve" are Martínez and naïve.
func TestHReview11AccentOverDotlessI(t *testing.T) {
	t.Parallel()
	page := pageMaker()
	doc, err := layoutPDF(&pdfRaw{pages: []pdfPage{page("Thanks to Mart´ınez for a na¨ıve implementation.")}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text, "Martínez for a naïve implementation") {
		t.Errorf("text = %q (%+q)", doc.Text, doc.Text)
	}
}

// TestHReview11AccentOnWordInitialCapital: TeX's accent over a word's first
// letter ("´Ecole", "¨Uber") composes too.
func TestHReview11AccentOnWordInitialCapital(t *testing.T) {
	t.Parallel()
	page := pageMaker()
	doc, err := layoutPDF(&pdfRaw{pages: []pdfPage{page("He taught at the ´Ecole Normale and wrote ¨Uber Widgets.")}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text, "École Normale and wrote Über Widgets") {
		t.Errorf("text = %q", doc.Text)
	}
}

// TestHReview11C1DashIsNotBullet: a font mapping Windows-1252 codes to
// C1 code points gives U+0097 for an em dash (U+0093 for “); a line of
// dialogue opening with a dash is a paragraph, not a list item.
func TestHReview11C1DashIsNotBullet(t *testing.T) {
	t.Parallel()
	page := pageMaker()
	doc, err := layoutPDF(&pdfRaw{pages: []pdfPage{page("The operator said:", "\u0097 Never restart the frobnicator, he said, and left.")}})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range doc.Blocks {
		if b.Kind == KindListItem {
			t.Errorf("a line of dialogue read as a list item: %q", doc.Text[b.Start:b.End])
		}
	}
}
