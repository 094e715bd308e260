package extract

import (
	"strings"
	"testing"
	"time"
)

// TestMarkdownPlaceholderOpeningLineHBreak10 (h-break10): a line opening
// with a placeholder that happens to be the name of one of CommonMark's
// "type 6" block elements (<dir>, <title>, <option>, <section>, <base>,
// <link>, <track>, <param>…) starts an HTML block that runs to the next
// blank line, and wordBlock re-reads only blocks of type 1 and 7 as
// Markdown. So the whole paragraph went to the HTML extractor: "<dir> is
// the directory where <file> goes." lost both placeholders, "<title> names
// the page." lost the whole sentence (the HTML extractor reads it as the
// <title> element), and "<option> can be one of:" took the list after it
// as one line of literal "- a". Inline, the same words are kept
// ("cat <input>"): a line-opening tag without attribute values and without
// its end tag in the block is a word here too.
func TestMarkdownPlaceholderOpeningLineHBreak10(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"<dir> is the directory where <file> goes.", "<dir> is the directory where <file> goes."},
		{"<title> names the page.", "<title> names the page."},
		{"<section> is the section number, <page> the page.", "<section> is the section number, <page> the page."},
		{"<base> is the base URL of the **site**.", "<base> is the base URL of the site."},
	}
	for _, c := range cases {
		doc, err := Extract("text/markdown", []byte("# Usage\n\n"+c.in+"\n\nNext paragraph.\n"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(doc.Text, c.want) {
			t.Errorf("%q: text is %q, want it to hold %q", c.in, doc.Text, c.want)
		}
	}
	// The list under such a line stays a list.
	doc, err := Extract("text/markdown", []byte("<option> can be one of:\n\n- fast\n- safe\n"))
	if err != nil {
		t.Fatal(err)
	}
	var items int
	for _, b := range doc.Blocks {
		if b.Kind == KindListItem {
			items++
		}
	}
	if !strings.Contains(doc.Text, "<option>") || items != 2 {
		t.Errorf("text %q, %d list items; want <option> kept and 2 items", doc.Text, items)
	}
}

// TestMarkdownRawHTMLManyOpenTagsHBreak10 (h-break10): classifyRawHTML
// finds an end tag's start tag by scanning its stack of open start tags
// from the top and removes it from the middle, so a paragraph of N
// unclosed element-name words (<i>, <b>… kept as words) and N end tags
// that close tags under them costs N² steps: "<b>"×N "<i>"×N "</b>"×N
// (10 bytes per N) took 3 s at N=20,000, 12 s at N=40,000 (4.7 s in
// classifyRawHTML alone, pprof), so about 5 minutes for a 1 MB upload and
// over an hour for the 10 MB the server accepts (RAGD_MAX_BODY_BYTES);
// markdownRisky does not count raw HTML. Linear handling (a stack per name)
// reads 2.5 MB of such tags in well under a second, like the 10 MB of
// "<x> " words, which take 9 s. The test gives the extraction until
// shortly before the test binary's deadline (go test's -timeout, 10
// minutes by default) rather than a tight timing bound.
func TestMarkdownRawHTMLManyOpenTagsHBreak10(t *testing.T) {
	const n = 250_000 // 2.5 MB
	src := "Text " + strings.Repeat("<b>", n) + strings.Repeat("<i>", n) + strings.Repeat("</b>", n) + " end.\n"
	limit := 5 * time.Minute
	if dl, ok := t.Deadline(); ok {
		limit = min(limit, time.Until(dl)-30*time.Second)
	}
	done := make(chan *Document, 1)
	go func() {
		doc, err := Extract("text/markdown", []byte(src))
		if err != nil {
			doc = nil
		}
		done <- doc
	}()
	select {
	case doc := <-done:
		if doc == nil {
			t.Fatal("extraction failed")
		}
		if strings.Count(doc.Text, "<i>") != n {
			t.Errorf("%d <i> words kept, want %d", strings.Count(doc.Text, "<i>"), n)
		}
	case <-time.After(limit):
		t.Fatalf("%d bytes of inline tags not read after %s (quadratic in classifyRawHTML)", len(src), limit)
	}
}

// TestMarkdownRealPreAndScriptBlocksHBreak10 (h-break10): scriptWords
// calls a type-1 block's opening tag a word when the block holds more
// "<pre"/"<script" start tags than end tags, counting them anywhere in the
// content. But a real <pre> block may show the text "<pre>" (an HTML
// tutorial) and a real script may hold "<script" in a string (the classic
// document.write("<script src=…></scr" + "ipt>") loader). Such real blocks
// were re-read as Markdown paragraphs: the <pre> example lost its code
// block and gained the word "<pre>" ("<pre> Use the element for code."),
// and the script's code appeared as text ("<script> document.write(\"").
// Before 0c9a852 both were read as HTML: a code block "Use the  element
// for code." and nothing for the script.
func TestMarkdownRealPreAndScriptBlocksHBreak10(t *testing.T) {
	t.Parallel()
	src := "# Example\n\n<pre>\nUse the <pre> element for code.\n</pre>\n\nAfter.\n\n" +
		"<script>\ndocument.write(\"<script src=x.js></scr\" + \"ipt>\");\nvar secret = 1;\n</script>\n\nEnd.\n"
	doc, err := Extract("text/markdown", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(doc.Text, "document.write") || strings.Contains(doc.Text, "<script>") {
		t.Errorf("script code in the text: %q", doc.Text)
	}
	code := false
	for _, b := range doc.Blocks {
		if b.Kind == KindCode && strings.Contains(doc.Text[b.Start:b.End], "element for code") {
			code = true
		}
	}
	if !code || strings.Contains(doc.Text, "<pre> Use") {
		t.Errorf("the <pre> block is not code: %q", doc.Text)
	}
}

// A document of more inline HTML tags than real documents write is read as
// plain text: goldmark makes a node of each (10 MB of "<x> " took 1.5 GB).
func TestMarkdownManyRawTagsAreRisky(t *testing.T) {
	if markdownRisky([]byte(strings.Repeat("<x> ", 90_000))) {
		t.Error("90,000 tags: risky, want Markdown")
	}
	if !markdownRisky([]byte(strings.Repeat("<x> ", 110_000))) {
		t.Error("110,000 tags: not risky, want plain text")
	}
}
