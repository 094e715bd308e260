package extract

import (
	"strings"
	"testing"
)

// Reviews of be32c33..9382464 (h-review14). Each test fails on 9382464.

// TestDetectPostScriptIsNotTextHReview14: d58bb88 makes any printable
// signature text when the bytes are valid UTF-8 without control bytes, and
// its comment says a real file of those types has NUL bytes or non-UTF-8
// bytes after its signature. PostScript (net/http sniffs "%!PS-Adobe-" as
// application/postscript) is 7-bit ASCII throughout: groff -Tps, dvips,
// a2ps and every printer driver write it so. Before d58bb88 such a file was
// refused ("the content is application/postscript"); now it is stored as
// plain text, and its chunks are PostScript operators ("/F0 10/Times-Roman
// RF", "showpage") searched and quoted as if they were the manual.
func TestDetectPostScriptIsNotTextHReview14(t *testing.T) {
	t.Parallel()
	ps := "%!PS-Adobe-3.0\n%%Creator: groff version 1.22.4\n%%Pages: 1\n%%EndComments\n" +
		"%%BeginProlog\n/RF{findfont exch scalefont setfont}bind def\n%%EndProlog\n" +
		"/F0 10/Times-Roman RF\n(The daemon reads its configuration at startup.) 72 720 moveto show\nshowpage\n%%EOF\n"
	for _, c := range []struct{ declared, uri string }{
		{"", "manual.ps"},
		{"application/octet-stream", "https://docs.example/manual"},
		{"", ""},
	} {
		typ, err := Detect([]byte(ps), c.declared, c.uri)
		if err == nil {
			t.Errorf("Detect(PostScript, %q, %q) = %q, nil; want an unsupported-type error naming application/postscript",
				c.declared, c.uri, typ)
		}
	}
	// The text the commit meant stays text.
	if typ, err := Detect([]byte("BMI and mortality: a cohort study of 10,000 adults."), "", ""); err != nil || typ != TypePlain {
		t.Errorf("Detect(BMI abstract) = %q, %v; want text/plain", typ, err)
	}
}

// TestHTMLLinksOnLinesInContentAreTextHReview14: linkLine (81ad838) drops
// any <p> or <div> whose text is three or more links with nothing but
// blanks, <br> or bar characters between them, wherever it stands, inside
// <main> too. Its comment says "a list or paragraphs of links are
// content", but a list written as lines (<br>) or a paragraph of links
// separated by blanks is dropped whole: an RFC's normative references and
// a download page's mirrors vanished from the text, their headings left
// empty.
func TestHTMLLinksOnLinesInContentAreTextHReview14(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>RFC 9999</title></head><body><main><h1>RFC 9999</h1>
<h2>Normative references</h2>
<p><a href="https://www.rfc-editor.org/rfc/rfc2119">RFC 2119</a><br>
<a href="https://www.rfc-editor.org/rfc/rfc8174">RFC 8174</a><br>
<a href="https://www.rfc-editor.org/rfc/rfc9110">RFC 9110</a></p>
<h2>Mirrors</h2>
<p>Download the release from any of these mirrors:</p>
<p><a href="https://a.example/ragd/">a.example</a> <a href="https://b.example/ragd/">b.example</a> <a href="https://c.example/ragd/">c.example</a></p>
</main></body></html>`
	d, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"RFC 2119", "RFC 8174", "RFC 9110", "b.example"} {
		if !strings.Contains(d.Text, want) {
			t.Errorf("%q lost from the page's content:\n%s", want, d.Text)
		}
	}
}

// TestPrivateUseGlyphSeparatesWordsHReview14: 088b943 drops private-use
// characters from inline text without leaving anything in their place. An
// icon glyph used as a separator between two elements (a chevron between
// menu names) then glues the words together: "Settings<i>&#xf105;</i>
// Display" became the one word "SettingsDisplay", which neither "Settings"
// nor "Display" finds; before, the glyph at least separated them.
func TestPrivateUseGlyphSeparatesWordsHReview14(t *testing.T) {
	t.Parallel()
	page := `<html><body><main><h1>Display</h1><p>Open <a href="s.html">Settings</a><i class="fa">&#xf105;</i><a href="d.html">Display</a> to change the resolution.</p></main></body></html>`
	d, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(d.Text, "SettingsDisplay") {
		t.Errorf("the icon between two words glued them:\n%q", d.Text)
	}
}

// TestPrivateUseCharacterInCJKTextHReview14: private-use code points are
// also text: Hong Kong (HKSCS) and Japanese gaiji characters in documents
// converted before Unicode encoded them, user-defined characters of
// Big5/CP932 (EUDC). 088b943 deletes them in Markdown, HTML, DOCX and
// PDF text, so a place name loses a character and the two characters
// around it become a bigram the document never had (在村).
func TestPrivateUseCharacterInCJKTextHReview14(t *testing.T) {
	t.Parallel()
	d, err := Extract(TypeMarkdown, []byte("# 地名\n\n我住在\uE05E村附近。\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d.Text, "在\uE05E村") {
		t.Errorf("the private-use character inside the sentence was dropped:\n%q", d.Text)
	}
}

// TestMarkdownHTMLParagraphWithoutEndTagHReview14: wordBlock (3548a46)
// reads an HTML block as Markdown, its "<" escaped, when prose follows a
// block element's tag on the first line and the block never closes the
// element. But an HTML block ends at a blank line, and HTML lets <p> go
// unclosed (its end tag is optional: htmlAloneMarkup says so for the
// inline case); a <div> is commonly closed after Markdown content and a
// blank line. Both now show their markup as text: "<p>First paragraph of
// HTML." and "<div>Intro text" (before 3548a46: "First paragraph of
// HTML.", "Intro text").
func TestMarkdownHTMLParagraphWithoutEndTagHReview14(t *testing.T) {
	t.Parallel()
	src := "# Notes\n\n<p>First paragraph of HTML.\n\n<p>Second paragraph.\n\n<div>Intro text in a div\n\n*Markdown* inside it.\n\n</div>\n"
	d, err := Extract(TypeMarkdown, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(d.Text, "<p>") || strings.Contains(d.Text, "<div>") {
		t.Errorf("HTML tags read as words:\n%s", d.Text)
	}
	for _, want := range []string{"First paragraph of HTML.", "Second paragraph.", "Intro text in a div"} {
		if !strings.Contains(d.Text, want) {
			t.Errorf("%q lost:\n%s", want, d.Text)
		}
	}
}

// TestPDFTrackedWordInPlainLineHReview14: wordGaps (2231a8a) takes a line's
// letter-spacing as the median gap between its letters. A line of ordinary
// text with one tracked word (small capitals, an emphasised acronym: 2 pt
// at 11 pt, the tracking 2231a8a's own test reads as one word when the
// whole line has it) has a median of about zero, so the tracked word is
// split into letters: "S P E C I A L", which no search finds.
func TestPDFTrackedWordInPlainLineHReview14(t *testing.T) {
	t.Parallel()
	pdf := basePDF(`BT /F2 11 Tf 72 650 Td 0 Tc (The word ) Tj 2 Tc (SPECIAL) Tj 0 Tc ( is tracked in this long sentence of ordinary words.) Tj ET`)
	d, err := Extract(TypePDF, pdf)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d.Text, "SPECIAL") {
		t.Errorf("the tracked word was split into letters:\n%q", d.Text)
	}
}

// TestPlainAsciiDocListingIsNotHeadingHReview14: an AsciiDoc listing block
// ("----" above and below) read as plain text: 2eb979b drops both
// delimiters as separator lines and makes the one-line listing a heading
// ("over-": a title with a rule above and under), so the paragraph after it
// is filed under the heading "$ make install" instead of "Install".
func TestPlainAsciiDocListingIsNotHeadingHReview14(t *testing.T) {
	t.Parallel()
	d := extractPlain([]byte("Install\n=======\n\nRun this:\n\n----\n$ make install\n----\n\nThen restart the daemon so that it reads the new configuration.\n"))
	for _, b := range d.Blocks {
		if b.Kind == KindHeading && strings.Contains(d.Text[b.Start:b.End], "make install") {
			t.Errorf("the listing %q became a heading", d.Text[b.Start:b.End])
		}
	}
	if h := headingOf(d, "Then restart the daemon"); h != "Install" {
		t.Errorf("heading of the paragraph after the listing = %q, want %q", h, "Install")
	}
}

// TestPlainStepsUnderNumberedSectionHReview14: fde41b6 makes every
// title-like one-part numbered line a heading in a document numbered in
// several levels. The steps of a procedure inside section 2.1 ("1.
// Download the archive", "2. Run make") become level-1 headings, siblings
// of "1. Introduction" and "2. Installation", though their numbers go back
// down (1 after 2): the text of the steps is filed under "1. Download the
// archive" instead of "2.1 Unix". The ascending check computed for them
// is never used for one-part numbers.
func TestPlainStepsUnderNumberedSectionHReview14(t *testing.T) {
	t.Parallel()
	d := extractPlain([]byte("1. Introduction\n\nIntro text.\n\n1.1 Scope\n\nScope text.\n\n2. Installation\n\nHow to install.\n\n" +
		"2.1 Unix\n\nFollow these steps.\n\n1. Download the archive\n\nGet it from the project's site.\n\n2. Run make\n\nIt builds everything.\n\n3. Usage\n\nUse it.\n"))
	if h := headingOf(d, "Get it from the project's site."); h != "2.1 Unix" {
		t.Errorf("heading of a step's text = %q, want %q", h, "2.1 Unix")
	}
	if h := headingOf(d, "Use it."); h != "3. Usage" {
		t.Errorf("heading of section 3's text = %q, want %q", h, "3. Usage")
	}
}

// TestPlainTwoColumnTableHeaderHReview14: a plain-text table of two
// columns with a rule under its header ("Option      Default" over
// "-------------------"). fde41b6 excludes a line set in columns only with
// two column gaps or more (three columns), so the header of a two-column
// table is an underlined title: it becomes a heading, the rule is dropped,
// and the rows are cut from their header.
func TestPlainTwoColumnTableHeaderHReview14(t *testing.T) {
	t.Parallel()
	d := extractPlain([]byte("Options\n=======\n\nThe defaults are:\n\nOption      Default\n-------------------\nsize        10\ncolor       auto\n\nChange them in the config file.\n"))
	for _, b := range d.Blocks {
		if b.Kind == KindHeading && strings.Contains(d.Text[b.Start:b.End], "Default") {
			t.Errorf("the table's header became the heading %q", d.Text[b.Start:b.End])
		}
	}
	if h := headingOf(d, "size"); h != "Options" {
		t.Errorf("heading of the table's rows = %q, want %q", h, "Options")
	}
}

// TestPlainIndentedCodeKeepsUnderlinesHReview14: plainParagraphs drops
// every separator line, inside indented code too: a NumPy-style docstring
// in a plain-text reference lost its "----------" lines and was cut into
// paragraphs at them (before 2eb979b the block was kept as written). The
// same defect was fixed for answers in d8f72c1 ("code keeps its
// underlines").
func TestPlainIndentedCodeKeepsUnderlinesHReview14(t *testing.T) {
	t.Parallel()
	d := extractPlain([]byte("numpy.sum\n\n    Sum of array elements.\n\n    Parameters\n    ----------\n    a : array_like\n        Elements to sum.\n\n    Returns\n    -------\n    s : ndarray\n"))
	if !strings.Contains(d.Text, "Parameters\n    ----------\n    a : array_like") {
		t.Errorf("the indented block lost its underline:\n%q", d.Text)
	}
}

// TestPlainCapitalsCodeLineIsNotHeadingHReview14: a one-line paragraph in
// capitals is a heading (2eb979b) when it "reads as a title"; a status
// line or an SQL statement written in capitals reads so too: "HTTP/1.1
// 200 OK" heads the rest of the section.
func TestPlainCapitalsCodeLineIsNotHeadingHReview14(t *testing.T) {
	t.Parallel()
	d := extractPlain([]byte("Responses\n=========\n\nThe server answers:\n\nHTTP/1.1 200 OK\n\nand then the body follows.\n"))
	if h := headingOf(d, "and then the body follows."); h != "Responses" {
		t.Errorf("heading = %q, want %q", h, "Responses")
	}
}
