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
