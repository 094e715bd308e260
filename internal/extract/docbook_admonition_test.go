package extract

import (
	"strings"
	"testing"
)

// TestDocBookAdmonitionAndLongDescription: DocBook lays an admonition out
// as a table (the icon's cell beside "Note", the note's text below): it
// is read as its label and text, not as rows (" | Note"); the link under a
// screenshot to its long description ("[D]") is chrome. A table with two
// cells of text in a row stays a table.
func TestDocBookAdmonitionAndLongDescription(t *testing.T) {
	page := `<html><head><title>Navigating</title></head><body><div class="section"><h3 class="title">Navigating the list</h3>
<p>The list is organized into groups, as can be seen in the following screen shot:</p>
<div class="screenshot"><div class="mediaobject"><table border="0" summary="manufactured viewport for HTML img"><tr><td><img src="s.png" alt="[main screen]" /></td></tr></table>
<div class="longdesc-link" align="right"><br clear="all" /><span class="longdesc-link">[<a href="ld-idm318.html" target="longdesc">D</a>]</span></div></div></div>
<div class="note"><table border="0" summary="Note"><tr><td rowspan="2" align="center" valign="top" width="25"><img alt="[Note]" src="images/note.png" /></td><th align="left">Note</th></tr>
<tr><td align="left" valign="top"><p>Empty groups of packages are automatically hidden.</p></td></tr></table></div>
<table><tr><th>Key</th><th>Action</th></tr><tr><td>q</td><td>Quit</td></tr></table>
</div></body></html>`
	doc, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(doc.Text, "| Note") || strings.Contains(doc.Text, "[D]") {
		t.Errorf("layout read as a table or the long description's link kept:\n%s", doc.Text)
	}
	for _, want := range []string{"Note\n\nEmpty groups of packages are automatically hidden.", "Key | Action", "q | Quit"} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, doc.Text)
		}
	}
}
