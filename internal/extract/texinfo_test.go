package extract

import (
	"errors"
	"strings"
	"testing"
)

// TestHTMLNavigationBarTablesAreChrome: texi2any's navigation bar, a
// one-row table of bracketed links, is left out; a table whose cells hold
// text besides links is content.
func TestHTMLNavigationBarTablesAreChrome(t *testing.T) {
	t.Parallel()
	in := `<html><head><title>Expansion (zsh)</title></head><body>
<table class="header" cellpadding="1" border="0"><tr>
<td>[<a href="Prompt.html" title="Previous chapter"> &lt;&lt; </a>]</td><td>[<a href="#up"> Up </a>]</td>
<td> &nbsp; </td><td>[<a href="index.html">Top</a>]</td><td>[<a href="toc.html">Contents</a>]</td><td>[<a href="Index.html">Index</a>]</td></tr></table>
<h2>14 Expansion</h2>
<p>The following types of expansions are performed in the indicated order.</p>
<table><tr><td><a href="hist.html">History Expansion</a></td><td>performed only in interactive shells</td></tr>
<tr><td><a href="alias.html">Alias Expansion</a></td><td>before the line is parsed</td></tr></table>
</body></html>`
	doc := mustExtract(t, "html", in)
	for _, bad := range []string{"Up", "Contents", "Top", "<<"} {
		if strings.Contains(doc.Text, bad) {
			t.Errorf("navigation bar text %q kept:\n%s", bad, doc.Text)
		}
	}
	if !strings.Contains(doc.Text, "History Expansion | performed only in interactive shells") {
		t.Errorf("content table lost:\n%s", doc.Text)
	}
}

// TestHTMLRedirectPageIsEmpty: a page that only redirects (meta refresh
// and a line pointing there) has nothing to index, and says where it
// points; a page with a refresh and real text is extracted.
func TestHTMLRedirectPageIsEmpty(t *testing.T) {
	t.Parallel()
	stub := `<html><head><title>Description of Options (zsh)</title>
<meta http-equiv="Refresh" content="0; url=Options.html#Description-of-Options"></head>
<body><p>The node you are looking for is at <a href="Options.html#Description-of-Options">Description of Options</a>.</p></body></html>`
	_, err := Extract("html", []byte(stub))
	if !errors.Is(err, ErrEmpty) || !strings.Contains(err.Error(), "Options.html#Description-of-Options") {
		t.Errorf("redirect stub: err %v, want ErrEmpty naming the target", err)
	}
	long := strings.Replace(stub, "<p>The node", "<p>"+strings.Repeat("This page keeps its own text for readers without a browser. ", 6)+"The node", 1)
	if doc := mustExtract(t, "html", long); !strings.Contains(doc.Text, "keeps its own text") {
		t.Errorf("page with text and a refresh: %q", doc.Text)
	}
}
