package extract

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The PDF fixtures are written by testdata/mkpdf.py: manual.pdf has four
// pages with a running header ("ragd Test Manual"), page-number footers,
// headings set larger than the body (18 pt chapters, 14 pt sections, 11 pt
// text) and words hyphenated at line ends; scan.pdf is one page holding only
// an image.

func TestPDFManual(t *testing.T) {
	t.Parallel()
	doc, err := Extract(TypePDF, readFixture(t, "manual.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Title != "ragd Test Manual" {
		t.Errorf("title %q, want the Title metadata", doc.Title)
	}
	if len(doc.Pages) != 4 {
		t.Fatalf("pages %v, want 4 offsets", doc.Pages)
	}
	// Running header and page-number footers are gone.
	if strings.Contains(doc.Text, "ragd Test Manual") {
		t.Errorf("running header left in the text:\n%s", doc.Text)
	}
	for _, b := range doc.Blocks {
		if s := doc.Text[b.Start:b.End]; pageNumber.MatchString(s) {
			t.Errorf("page number %q left as a block", s)
		}
	}
	// Hyphenation repaired: lower-case continuations join, within a page.
	for _, want := range []string{"Its configuration lives", "unless RAGD_ADDR says otherwise. Health", "the server performs no optical"} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, doc.Text)
		}
	}
	for _, bad := range []string{"configu-", "other-", "per-"} {
		if strings.Contains(doc.Text, bad) {
			t.Errorf("text keeps the broken word %q", bad)
		}
	}
	// Headings from font sizes, with their pages.
	type head struct {
		text  string
		level int
		page  int
	}
	var got []head
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			got = append(got, head{doc.Text[b.Start:b.End], b.Level, doc.PageAt(b.Start)})
		}
	}
	want := []head{{"1 Getting started", 1, 1}, {"1.1 Ports and addresses", 2, 2}, {"2 Ingesting documents", 1, 3}, {"2.1 Scanned files", 2, 4}}
	if len(got) != len(want) {
		t.Fatalf("headings %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("heading %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// Two paragraphs on page 1, split at the larger gap.
	if i := strings.Index(doc.Text, "A second paragraph"); i < 0 || doc.Text[i-2:i] != "\n\n" {
		t.Errorf("second paragraph of page 1 not a block of its own:\n%s", doc.Text)
	}
	if p := doc.PageAt(strings.Index(doc.Text, "Metrics are exported")); p != 2 {
		t.Errorf("page of the metrics sentence = %d, want 2", p)
	}
}

// TestPDFOutline: outline.pdf sets its headings in the body font, so only
// its outline (read by PDFium, matched to lines, numbers the outline leaves
// out allowed) marks them.
func TestPDFOutline(t *testing.T) {
	t.Parallel()
	doc, err := Extract(TypePDF, readFixture(t, "outline.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	var heads []string
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			heads = append(heads, strconv.Itoa(b.Level)+" "+doc.Text[b.Start:b.End]+" p"+strconv.Itoa(doc.PageAt(b.Start)))
		}
	}
	if got := strings.Join(heads, "|"); got != "1 Introduction p1|2 1.1 Details p2|1 Appendix p3" {
		t.Errorf("headings %q", got)
	}
	if doc.Title != "" {
		t.Errorf("title %q, want none (no Title metadata)", doc.Title)
	}
	// The Courier lines are one code block, indentation restored, between
	// two paragraphs.
	var code []string
	for i, b := range doc.Blocks {
		if b.Kind == KindCode {
			code = append(code, doc.Text[b.Start:b.End])
			if i+1 >= len(doc.Blocks) || doc.Blocks[i+1].Kind != KindParagraph || doc.Blocks[i-1].Kind != KindParagraph {
				t.Errorf("code block not between paragraphs")
			}
		}
	}
	if len(code) != 1 || code[0] != "if (ready) {\n    serve(port);\n}" {
		t.Errorf("code blocks %q", code)
	}
}

func TestPDFWithoutTextLayer(t *testing.T) {
	t.Parallel()
	_, err := Extract(TypePDF, readFixture(t, "scan.pdf"))
	if !errors.Is(err, ErrNoTextLayer) || !strings.Contains(err.Error(), "OCR is not supported") {
		t.Fatalf("image-only PDF: %v, want ErrNoTextLayer naming OCR", err)
	}
}

func TestPDFUnreadable(t *testing.T) {
	t.Parallel()
	manual := readFixture(t, "manual.pdf")
	for name, data := range map[string][]byte{
		"header only": []byte("%PDF-1.7\n"),
		"not a PDF":   []byte("hello, world"),
		"empty":       nil,
		"truncated":   manual[:200],
	} {
		if _, err := Extract(TypePDF, data); !errors.Is(err, ErrUnreadable) {
			t.Errorf("%s: %v, want ErrUnreadable", name, err)
		}
	}
}

// ln is a line of a synthetic page: text at baseline y, 10 pt.
func ln(text string, y float64) line {
	c, _ := cleanLine(pdfLine{text: text, y: y, x: 72, size: 10}, nil)
	return c
}

func TestDropRunningHeadersAndFooters(t *testing.T) {
	t.Parallel()
	var pages [][]line
	for p := range 8 {
		chapter := "Chapter 1: Basics"
		if p >= 4 {
			chapter = "Chapter 2: Advanced use"
		}
		num := p + 3 // printed page numbers run 3, 4, ... (front matter unnumbered)
		pages = append(pages, []line{
			ln(chapter+" "+strconv.Itoa(num), 750),
			ln("Body text of page "+strconv.Itoa(p+1)+" starts here.", 700),
			ln("It goes on.", 686),
			ln("Copyright Example Corp.", 60),
			ln("- "+strconv.Itoa(num)+" -", 40),
		})
	}
	dropRunning(pages)
	for p, pg := range pages {
		if len(pg) != 2 || !strings.HasPrefix(pg[0].text, "Body text of page "+strconv.Itoa(p+1)) || pg[1].text != "It goes on." {
			var got []string
			for _, l := range pg {
				got = append(got, l.text)
			}
			t.Errorf("page %d after dropRunning: %q, want only its two body lines", p+1, got)
		}
	}

	// A line repeated at the top of only two pages of eight stays; so does
	// a number that is not at an edge.
	pages = nil
	topics := []string{"Apples", "Pears", "Plums", "Figs", "Dates", "Limes", "Kiwis", "Grapes"}
	for p := range 8 {
		first := "All about " + topics[p]
		if p < 2 {
			first = "Summary"
		}
		pages = append(pages, []line{ln(first, 750), ln("42", 700), ln("Closing words on "+topics[p]+".", 686)})
	}
	dropRunning(pages)
	for p, pg := range pages {
		if len(pg) != 3 {
			t.Errorf("page %d lost content lines: %d left", p+1, len(pg))
		}
	}
}

// TestDropRunningKeepsNumberedSectionHeadings: a numbered section that
// starts a page, its number equal to the page's index ("4 Nodes" on the
// fifth page of a tutorial whose footers print index + 1), follows a
// page sequence when several do; in a heading's font it is no running
// line (the Graphviz Cgraph tutorial lost "4 Nodes", "8 Internal
// Attributes", "11 Error Handling" and "13 Expert-level Tweaks", and their
// text was cited under the section before).
func TestDropRunningKeepsNumberedSectionHeadings(t *testing.T) {
	t.Parallel()
	heads := map[int]string{4: "4 Nodes", 8: "8 Internal Attributes", 11: "11 Error Handling", 13: "13 Expert-level Tweaks"}
	var pages [][]line
	for p := range 16 {
		var pg []line
		if h, ok := heads[p]; ok {
			l := ln(h, 750)
			l.size = 14.4
			pg = append(pg, l)
		}
		pg = append(pg, ln("Body text of page "+strconv.Itoa(p+1)+" starts here.", 700), ln("It goes on about "+strconv.Itoa(p+1)+" things.", 686), ln(strconv.Itoa(p+1), 40))
		pages = append(pages, pg)
	}
	dropRunning(pages)
	for p, h := range heads {
		if len(pages[p]) != 3 || pages[p][0].text != h {
			var got []string
			for _, l := range pages[p] {
				got = append(got, l.text)
			}
			t.Errorf("page %d after dropRunning: %q, want %q and its two body lines", p+1, got, h)
		}
	}
}

func TestJoinLinesRepairsHyphenation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lines []string
		want  string
	}{
		{[]string{"the configu-", "ration file"}, "the configuration file"},
		{[]string{"a Diffie-", "Hellman exchange"}, "a Diffie-Hellman exchange"},
		{[]string{"version 2-", "3 only"}, "version 2- 3 only"},
		{[]string{"plain", "lines"}, "plain lines"},
		// PDFium's own marker for a hyphen it saw at a line end (U+FFFE),
		// at the end of a line and inside a line it joined.
		{[]string{"imple\uFFFE", "mented here"}, "implemented here"},
		{[]string{"func\uFFFEtions and Diffie\uFFFEHellman"}, "functions and Diffie-Hellman"},
	}
	for _, c := range cases {
		var ls []line
		for _, s := range c.lines {
			ls = append(ls, ln(s, 0))
		}
		if got := joinLines(ls, nil); got != c.want {
			t.Errorf("joinLines(%q) = %q, want %q", c.lines, got, c.want)
		}
	}
}

func TestOutlineHeadings(t *testing.T) {
	t.Parallel()
	raw := &pdfRaw{
		title: "Guide",
		pages: []pdfPage{
			{lines: []pdfLine{{text: "1 Overview", y: 700, size: 10}, {text: "Overview text of the guide.", y: 680, size: 10}}},
			{lines: []pdfLine{{text: "1.1 Setup", y: 700, size: 10}, {text: "Setup text.", y: 680, size: 10}, {text: "Not a heading", y: 660, size: 10}}},
		},
		// The outline leaves the section number out of one entry.
		outline: []pdfMark{{title: "1 Overview", level: 1, page: 0}, {title: "Setup", level: 2, page: 1}, {title: "Elsewhere", level: 1, page: 7}},
	}
	doc, err := layoutPDF(raw)
	if err != nil {
		t.Fatal(err)
	}
	var heads []string
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			heads = append(heads, strconv.Itoa(b.Level)+" "+doc.Text[b.Start:b.End]+" p"+strconv.Itoa(doc.PageAt(b.Start)))
		}
	}
	if strings.Join(heads, "|") != "1 1 Overview p1|2 1.1 Setup p2" {
		t.Errorf("headings %q", heads)
	}
	if doc.Title != "Guide" || len(doc.Pages) != 2 {
		t.Errorf("title %q, pages %v", doc.Title, doc.Pages)
	}
}

// TestOutlineHeadingWrappedOverTwoLines: a chapter title the page wraps
// over two lines is matched by its outline entry and read as one heading;
// the sections under it are not filed under the previous chapter.
func TestOutlineHeadingWrappedOverTwoLines(t *testing.T) {
	t.Parallel()
	raw := &pdfRaw{
		pages: []pdfPage{
			{lines: []pdfLine{{text: "Chapter 4. Windows and Menus", y: 700, size: 10}, {text: "Menus text.", y: 680, size: 10}}},
			{lines: []pdfLine{{text: "Chapter 5. Working with Accounts and", y: 700, size: 10}, {text: "Their Transactions", y: 686, size: 10},
				{text: "Accounts text.", y: 660, size: 10}}},
		},
		outline: []pdfMark{{title: "Chapter 4. Windows and Menus", level: 1, page: 0},
			{title: "Chapter 5. Working with Accounts and  Their Transactions", level: 1, page: 1}},
	}
	doc, err := layoutPDF(raw)
	if err != nil {
		t.Fatal(err)
	}
	var heads []string
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			heads = append(heads, doc.Text[b.Start:b.End])
		}
	}
	if strings.Join(heads, "|") != "Chapter 4. Windows and Menus|Chapter 5. Working with Accounts and Their Transactions" {
		t.Errorf("headings %q", heads)
	}
}

func TestPageAt(t *testing.T) {
	t.Parallel()
	// Page 2 has no text: it starts where page 3 does.
	d := &Document{Text: strings.Repeat("x", 30), Pages: []int{0, 10, 10, 30}}
	for off, want := range map[int]int{0: 1, 9: 1, 10: 3, 29: 3} {
		if got := d.PageAt(off); got != want {
			t.Errorf("PageAt(%d) = %d, want %d", off, got, want)
		}
	}
	if (&Document{Text: "x"}).PageAt(0) != 0 {
		t.Error("a document without pages has page 0")
	}
}

// BenchmarkExtractPDF measures the whole PDF path (PDFium's text and
// geometry, layout analysis) on manual.pdf, in pages/s; the engine is
// compiled before the timer starts.
func BenchmarkExtractPDF(b *testing.B) {
	data := readFixture(b, "manual.pdf")
	if err := PreparePDF(); err != nil {
		b.Fatal(err)
	}
	pages := 0
	b.ResetTimer()
	for b.Loop() {
		doc, err := Extract(TypePDF, data)
		if err != nil {
			b.Fatal(err)
		}
		pages += len(doc.Pages)
	}
	b.ReportMetric(float64(pages)/b.Elapsed().Seconds(), "pages/s")
}

// TestWazeroModulePinned: the compilation cache of test binaries is named
// after wazeroModule, so it must be the version go.mod requires, or code
// compiled by another wazero could be loaded.
func TestWazeroModulePinned(t *testing.T) {
	t.Parallel()
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if want := "github.com/tetratelabs/wazero " + wazeroModule + "\n"; !strings.Contains(string(mod), want) {
		t.Errorf("go.mod does not require %q: update wazeroModule with wazero", strings.TrimSpace(want))
	}
}

// pageMaker returns a maker of synthetic pages of body-size lines, each
// page's text starting lower than the last one's: lines at the same place
// on every page would be running headers.
func pageMaker() func(lines ...string) pdfPage {
	top := 700
	return func(ls ...string) pdfPage {
		top -= 37
		var p pdfPage
		for i, l := range ls {
			p.lines = append(p.lines, pdfLine{text: l, y: float64(top - 20*i), size: 10})
		}
		return p
	}
}

// TestPDFNavigationSectionsLeftOut: a PDF's table of contents and its
// back-of-book index are not text to search or quote (lines of titles and
// page numbers matching many questions' words); the sections around them,
// and a chapter titled "Index" in the first half, are kept.
func TestPDFNavigationSectionsLeftOut(t *testing.T) {
	t.Parallel()
	page := pageMaker()
	raw := &pdfRaw{
		title: "Widgets",
		pages: []pdfPage{
			page("Contents", "1 Index 2", "2 Usage 4", "2.1 Options 4", "Index 6"),
			page("1 Index", "An index of widgets speeds up lookups by name."),
			page("Widgets are kept in a table of their own."),
			page("2 Usage", "Run the frobnicator on each widget.", "2.1 Options", "The nowatermark option removes the watermark."),
			page("Options are read at start-up."),
			page("Index", "frobnicator 3, 5", "nowatermark 3", "widget 2, 3, 4"),
		},
		outline: []pdfMark{{title: "Contents", level: 1, page: 0}, {title: "1 Index", level: 1, page: 1},
			{title: "2 Usage", level: 1, page: 3}, {title: "2.1 Options", level: 2, page: 3}, {title: "Index", level: 1, page: 5}},
	}
	doc, err := layoutPDF(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"An index of widgets speeds up lookups by name.", "The nowatermark option removes the watermark.", "2.1 Options"} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("text lost %q:\n%s", want, doc.Text)
		}
	}
	for _, gone := range []string{"Contents", "2 Usage 3", "nowatermark 3", "widget 2, 3, 4", "\nIndex"} {
		if strings.Contains(doc.Text, gone) {
			t.Errorf("text keeps navigation %q:\n%s", gone, doc.Text)
		}
	}
	if len(doc.Pages) != 6 || doc.PageAt(strings.Index(doc.Text, "The nowatermark option")) != 4 {
		t.Errorf("pages %v", doc.Pages)
	}
}

// TestPDFNavigationPagesByShape: pages of contents or index entries under
// no heading naming them (a book whose outline lists neither) are left out
// by their shape — most lines ending with a page number, in order — at the
// front or the back of the document; a page of numbers in the middle, or
// out of order at the back, is text.
func TestPDFNavigationPagesByShape(t *testing.T) {
	t.Parallel()
	page := pageMaker()
	var toc, index, mid, back []string
	for i := range 10 {
		toc = append(toc, fmt.Sprintf("Section number %d … %d", i+1, 3+2*i))
		index = append(index, fmt.Sprintf("%c-term, %d, %d", 'a'+i, 4+i, 9+i))
		mid = append(mid, fmt.Sprintf("Widget size setting %d", 100-7*i))
		back = append(back, fmt.Sprintf("%c limit reached at %d", 'k'-i, 50-3*i))
	}
	pages := []pdfPage{page(toc...)}
	for i := range 3 {
		pages = append(pages, page(fmt.Sprintf("Widgets of batch %d are frobnicated in order of arrival, oldest first.", i)))
	}
	pages = append(pages, page(mid...))
	for i := range 4 {
		pages = append(pages, page(fmt.Sprintf("The frobnicator keeps log %d of every widget it touched.", i)))
	}
	pages = append(pages, page(back...), page(index...))
	doc, err := layoutPDF(&pdfRaw{title: "Widgets", pages: pages})
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"Section number 1", "a-term, 4, 9"} {
		if strings.Contains(doc.Text, gone) {
			t.Errorf("navigation page kept (%q):\n%s", gone, doc.Text)
		}
	}
	for _, kept := range []string{"Widget size setting 100", "k limit reached at 50", "oldest first"} {
		if !strings.Contains(doc.Text, kept) {
			t.Errorf("text lost %q:\n%s", kept, doc.Text)
		}
	}
	if len(doc.Pages) != len(pages) {
		t.Errorf("%d page offsets for %d pages", len(doc.Pages), len(pages))
	}
}

// TestPDFCompoundsBulletsAndAccents: a compound broken at its hyphen keeps
// the hyphen where the document writes it hyphenated elsewhere (and only
// then); a C1 control character opening a line is a bullet; TeX's spacing
// accents between letters compose with the letter after them.
func TestPDFCompoundsBulletsAndAccents(t *testing.T) {
	t.Parallel()
	page := pageMaker()
	raw := &pdfRaw{title: "Plots", pages: []pdfPage{
		page("A user-defined function is allowed here.", "Each one is a user-",
			"defined function with a configu-", "ration of its own.", "\u0088 first item of the list",
			"Thanks to Br¨oker and P´eter, and see ˜/.gnuplot for the file."),
	}}
	doc, err := layoutPDF(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Each one is a user-defined function with a configuration of its own.", "- first item of the list",
		"Thanks to Bröker and Péter, and see ˜/.gnuplot for the file."} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, doc.Text)
		}
	}
}

// TestPDFOneLineAnnouncedCode: one monospaced line under a line announcing
// it ("Syntax:") is code, not the start of the next paragraph; a lone
// monospaced line inside prose stays prose.
func TestPDFOneLineAnnouncedCode(t *testing.T) {
	t.Parallel()
	p := pdfPage{lines: []pdfLine{
		{text: "Syntax:", y: 700, size: 10},
		{text: "set trange [tmin:tmax]", y: 688, size: 10, mono: true},
		{text: "The range of the parametric variable t is set here.", y: 676, size: 10},
		{text: "Run", y: 664, size: 10},
		{text: "replot", y: 652, size: 10, mono: true},
		{text: "to draw it again.", y: 640, size: 10},
	}}
	doc, err := layoutPDF(&pdfRaw{pages: []pdfPage{p}})
	if err != nil {
		t.Fatal(err)
	}
	if code := blockTexts(doc, KindCode); len(code) != 1 || code[0] != "set trange [tmin:tmax]" {
		t.Errorf("code blocks %q, want the syntax line alone:\n%s", code, doc.Text)
	}
	if !strings.Contains(doc.Text, "The range of the parametric variable t is set here.") {
		t.Errorf("prose lost:\n%s", doc.Text)
	}
}
