package extract

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestIndexTableIsLinksOnly: an index laid out as a table, each cell a
// heading and its links (the Lua manual's contents.html: an introduction,
// a list of chapters and 460 function names in three cells), is a page of
// links, no document; a table of links with a description in each row
// stays a document.
func TestIndexTableIsLinksOnly(t *testing.T) {
	t.Parallel()
	var links strings.Builder
	for i := range 150 {
		fmt.Fprintf(&links, "<A HREF=\"manual.html#pdf-f%d\">string.f%d</A><BR>\n", i, i)
	}
	page := `<HTML><HEAD><TITLE>Reference Manual - contents</TITLE></HEAD><BODY>
<H1>Reference Manual</H1>
<P>The reference manual is the official definition of the language. For an introduction, see the book.
<H2><A NAME="index">Index</A></H2>
<TABLE WIDTH="100%"><TR VALIGN="top">
<TD><H3>Lua functions</H3><P>` + links.String() + `</TD>
<TD><H3>C API</H3><P>` + links.String() + `</TD>
</TR></TABLE></BODY></HTML>`
	if _, err := Extract(TypeHTML, []byte(page)); !errors.Is(err, ErrLinksOnly) {
		t.Errorf("an index table: %v, want ErrLinksOnly", err)
	}
	var rows strings.Builder
	for i := range 70 {
		fmt.Fprintf(&rows, "<TR><TD><A HREF=\"f%d.html\">f%d</A></TD><TD>Returns the %dth value of the table, or nil when the table has fewer entries.</TD></TR>\n", i, i, i)
	}
	summary := `<HTML><HEAD><TITLE>Functions</TITLE></HEAD><BODY><H1>Functions</H1><TABLE>` + rows.String() + `</TABLE></BODY></HTML>`
	if _, err := Extract(TypeHTML, []byte(summary)); err != nil {
		t.Errorf("a table of functions with descriptions: %v, want a document", err)
	}
}

// TestBookIndexIsLinksOnly: a back-of-book index (DocBook's bookindex.html:
// a definition list of terms, each with the titles of the sections that
// treat it as links) is a page of links although only about 60 % of its
// words are link text; a list of links each with a one-line description,
// with the same share of link text, stays a document.
func TestBookIndexIsLinksOnly(t *testing.T) {
	t.Parallel()
	var entries strings.Builder
	for i := range 120 {
		fmt.Fprintf(&entries, "<dt>term%d, <a class=\"indexterm\" href=\"page%d.html#id%d\">Section Title %d</a></dt>\n", i, i%30, i, i)
		if i%3 == 0 {
			fmt.Fprintf(&entries, "<dd><dl><dt>sub%d, <a class=\"indexterm\" href=\"page%d.html#s%d\">Other Section</a></dt></dl></dd>\n", i, i%7, i)
		}
	}
	page := `<html><head><title>Index</title></head><body><div class="index"><h1>Index</h1>
<div class="indexdiv"><h3>E</h3><dl>` + entries.String() + `</dl></div></div></body></html>`
	if _, err := Extract(TypeHTML, []byte(page)); !errors.Is(err, ErrLinksOnly) {
		t.Errorf("a book index: %v, want ErrLinksOnly", err)
	}
	var items strings.Builder
	for i := range 80 {
		fmt.Fprintf(&items, "<li><a href=\"f%d.html\">Section Title Number %d</a> returns the value it stores.</li>\n", i, i)
	}
	summary := `<html><head><title>Functions</title></head><body><main><h1>Functions</h1><ul>` + items.String() + `</ul></main></body></html>`
	if _, err := Extract(TypeHTML, []byte(summary)); err != nil {
		t.Errorf("links with a description each: %v, want a document", err)
	}
}
