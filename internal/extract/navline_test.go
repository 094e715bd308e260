package extract

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A page's links to the pages around it are chrome: texinfo's line above
// every node (labels and rel links only), Exim's pager links,
// sphinx-book-theme's previous/next buttons and a copyright line in the
// page's footer. A paragraph that only mentions the next section, a link
// with rel="next" of many words, and a copyright notice in the text stay.
func TestHTMLDropsNavigationLinesAndFooterCopyright(t *testing.T) {
	t.Parallel()
	in := `<html><body><main>
<div class="header"><p>Next: <a href="#Preface" accesskey="n" rel="next">Preface</a>, Previous: <a href="#Top" rel="prev">An Introduction</a>, Up: <a href="#Top" rel="up">Top</a> &nbsp; [<a href="#SEC_Contents" rel="contents">Contents</a>][<a href="#Index" rel="index">Index</a>]</p></div>
<h2>Preface</h2>
<a class="previous_page" href="index.html">&lt;-previous</a><a class="toc_page" href="index.html">Table of Contents</a><a class="next_page" href="ch2.html">next-&gt;</a>
<p>The next section, <a href="#Basics" rel="next">Basics</a>, explains the basic commands in detail.</p>
<p>Read on: <a href="ch2.html" rel="next">the chapter on writing your first package for the archive</a>.</p>
<p>Copyright © 1999 Example Authors. The code of the parser is theirs.</p>
<div class='prev-next-area'><a class='left-prev' id="prev-link" href="a.html"><p class="prev-next-subtitle">previous</p><p class="prev-next-title">Arrays</p></a></div>
<footer class="footer"><p>&copy; Copyright 2014-2023, Example, Inc. and contributors.</p></footer>
</main></body></html>`
	doc := mustExtract(t, "html", in)
	for _, bad := range []string{"Previous:", "Up: Top", "<-previous", "Table of Contents", "next->", "Arrays", "2014-2023"} {
		if strings.Contains(doc.Text, bad) {
			t.Errorf("text holds chrome %q:\n%s", bad, doc.Text)
		}
	}
	for _, good := range []string{"The next section, Basics, explains", "the chapter on writing your first package for the archive", "Copyright © 1999 Example Authors"} {
		if !strings.Contains(doc.Text, good) {
			t.Errorf("text lost %q:\n%s", good, doc.Text)
		}
	}
}

// A page whose kept text is mostly links to the site's pages (an index
// written as terms each followed by its links, as Exim's concept index)
// is no document; a page of the same links with a description each is.
func TestHTMLIndexOfLinksIsNoDocument(t *testing.T) {
	t.Parallel()
	var index, summary strings.Builder
	for i := range 60 {
		fmt.Fprintf(&index, `<dt>term%d</dt><dd><p><a href="ch-%d.html#S%d">Domain, host and address lists <small>[Case of letters in lists]</small></a></p></dd>`, i, i, i)
		fmt.Fprintf(&summary, `<tr><td><a href="api-%d.html">frob%d</a></td><td>Frobs the widget given to it and returns the number of frobs it made, or an error when the widget is locked.</td></tr>`, i, i)
	}
	_, err := Extract(TypeHTML, []byte(`<html><body><main><h1>Concept Index</h1><dl>`+index.String()+`</dl></main></body></html>`))
	if !errors.Is(err, ErrLinksOnly) {
		t.Errorf("index page: err %v, want ErrLinksOnly", err)
	}
	doc, err := Extract(TypeHTML, []byte(`<html><body><main><h1>API</h1><table>`+summary.String()+`</table></main></body></html>`))
	if err != nil || !strings.Contains(doc.Text, "Frobs the widget") {
		t.Errorf("API summary: err %v", err)
	}
}

// A footnote's mark in the text (texinfo's <a href="#FOOT75"><sup>75</sup></a>,
// docutils' bracketed reference) is not text: kept, "performance75" was one
// word. A superscript number that links elsewhere, an exponent and a link
// whose text is a number stay.
func TestHTMLDropsFootnoteMarks(t *testing.T) {
	t.Parallel()
	in := `<html><body><main><p>No performance<a id="DOCF75" href="#FOOT75"><sup>75</sup></a> penalty, in English.<a href="#FOOT41"><sup>41</sup></a> Also<a class="footnote-reference brackets" href="#id3" id="id1">[3]</a> here.</p>
<p>See <a href="#sec-2">2</a> and 2<sup>31</sup>-1 and <a href="page.html"><sup>9</sup></a> more.</p></main></body></html>`
	doc := mustExtract(t, "html", in)
	for _, want := range []string{"No performance penalty, in English. Also here.", "See 2 and 2^31-1 and 9 more."} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, doc.Text)
		}
	}
}

// The pydata and sphinx-book themes' column of the page's own contents
// (div.bd-toc: a "Contents" label above the section links) is chrome.
func TestHTMLDropsThemeContentsColumn(t *testing.T) {
	t.Parallel()
	in := `<html><body><main><div class="d-none d-md-block col-md-2 bd-toc show"><div class="tocsection onthispage pt-5 pb-3"><i class="fas fa-list"></i> Contents</div>
<nav id="bd-toc-nav"><ul><li><a href="#pip">Pip</a></li></ul></nav></div>
<h1>How to Install Dask</h1><p>Install Dask with pip or conda.</p></main></body></html>`
	doc := mustExtract(t, "html", in)
	if strings.Contains(doc.Text, "Contents") || !strings.HasPrefix(doc.Text, "How to Install Dask") {
		t.Errorf("text:\n%s", doc.Text)
	}
}

// TestHTMLDropsTexinfoFootNavigation: texinfo repeats the navigation line
// at a node's foot with its Next, Previous and Up links written without
// rel, each after its label: chrome as the line above is (it was stored
// in 59 of the m4 manual's 104 pages and quoted in answers). A sentence
// whose link follows a colon is text.
func TestHTMLDropsTexinfoFootNavigation(t *testing.T) {
	t.Parallel()
	in := `<html><body>
<div class="header"><p>Next: <a href="Pseudo.html" accesskey="n" rel="next">Special arguments to macros</a>, Previous: <a href="Define.html" accesskey="p" rel="prev">Defining a macro</a>, Up: <a href="Definitions.html" accesskey="u" rel="up">How to define new macros</a> &nbsp; [<a href="index.html#SEC_Contents" rel="contents">Contents</a>][<a href="Indices.html" rel="index">Index</a>]</p></div>
<h3>5.2 Arguments to macros</h3>
<p>Macros can have arguments. The nth argument is denoted by $n in the expansion text.</p>
<p>See also: <a href="Quoting.html">Quoting input to m4</a>.</p>
<hr>
<div class="header"><p>Next: <a href="Pseudo.html">Special arguments to macros</a>, Previous: <a href="Define.html">Defining a macro</a>, Up: <a href="Definitions.html">How to define new macros</a> &nbsp; [<a href="index.html#SEC_Contents" title="Table of contents" rel="contents">Contents</a>][<a href="Indices.html" title="Index" rel="index">Index</a>]</p></div>
</body></html>`
	doc := mustExtract(t, "html", in)
	for _, bad := range []string{"Next:", "Previous:", "Special arguments to macros", "Contents"} {
		if strings.Contains(doc.Text, bad) {
			t.Errorf("text holds the foot navigation %q:\n%s", bad, doc.Text)
		}
	}
	if !strings.Contains(doc.Text, "See also: Quoting input to m4") {
		t.Errorf("text lost the see-also sentence:\n%s", doc.Text)
	}
}
