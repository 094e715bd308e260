package extract

import (
	"errors"
	"strings"
	"testing"
)

// A Sphinx theme's header of links separated by bars is not text; links
// separated by commas are. (The site's name after the page's heading in the
// title stays: taking it out cost the Python docs 0.022 nDCG@10, docs/EVAL.md.)
func TestHTMLLinkBarIsNotText(t *testing.T) {
	page := `<html><head><title>Request and response objects — Django 3.2.25 documentation</title></head><body>
<div id="hd"><h1><a href="../index.html">Django 3.2.25 documentation</a></h1>
<div id="global-nav"><a href="../index.html">Home</a>  | <a href="../contents.html">Table of contents</a>  |
<a href="../genindex.html">Index</a>  | <a href="../py-modindex.html">Modules</a></div></div>
<div id="bd"><h1>Request and response objects</h1><p>Django uses request and response objects to pass state through the system.</p>
<p><a href="a.html">HttpRequest</a>, <a href="b.html">HttpResponse</a>, <a href="c.html">JsonResponse</a></p></div></body></html>`
	d, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(d.Text, "Table of contents") || strings.Contains(d.Text, "Modules") {
		t.Errorf("the link bar is in the text:\n%s", d.Text)
	}
	if !strings.Contains(d.Text, "HttpRequest, HttpResponse, JsonResponse") || !strings.Contains(d.Text, "pass state through the system") {
		t.Errorf("content lost:\n%s", d.Text)
	}
}

// A documentation theme's console tabs: radio buttons labelled with icon
// glyphs of a private use area. The label, glyphs and "/", is not text;
// the commands are.
func TestHTMLIconGlyphsAreNotText(t *testing.T) {
	page := `<html><body><p>For example, to show warnings while running tests:</p>
<div class="console-block"><input type="radio" id="u" checked><label for="u" title="Linux/macOS">&#xf17c;/&#xf179;</label>
<input type="radio" id="w"><label for="w" title="Windows">&#xf17a;</label>
<section><div class="highlight"><pre>$ python -Wa manage.py test</pre></div></section></div>
<p>Click Save to keep it. <label for="n">Name</label></p>
<dl><dt>class RenameModel(old_name, new_name)<a href="../_modules/m.html"><span class="viewcode-link"><span class="pre">[source]</span></span></a></dt><dd>Renames the model.</dd></dl></body></html>`
	d, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(d.Text, "\uf17c\uf179\uf17a") || strings.Contains(d.Text, "\n/\n") {
		t.Errorf("icon glyphs or their label in the text:\n%q", d.Text)
	}
	if strings.Contains(d.Text, "[source]") {
		t.Errorf("Sphinx's [source] link in the text:\n%q", d.Text)
	}
	for _, want := range []string{"$ python -Wa manage.py test", "Click Save to keep it.", "Name", "class RenameModel(old_name, new_name)"} {
		if !strings.Contains(d.Text, want) {
			t.Errorf("%q lost:\n%q", want, d.Text)
		}
	}
}

// A docutils table of contents of the page itself (the contents
// directive, as Sphinx renders it in CherryPy's manual) is navigation: its
// lines were quoted as answers. Doxygen's div.contents is the page.
func TestHTMLLocalContentsAreNotText(t *testing.T) {
	page := `<html><body><div class="body"><section id="advanced"><h1>Advanced</h1>
<p>CherryPy has support for more advanced features.</p>
<div class="contents topic" id="contents"><p class="topic-title">Contents</p><ul class="simple">
<li><p><a class="reference internal" href="#aliases">Set aliases to page handlers</a></p></li>
<li><p><a class="reference internal" href="#dispatch">The special _cp_dispatch method</a></p></li></ul></div>
<section id="aliases"><h2>Set aliases to page handlers</h2><p>A page handler may have several names.</p></section></section></div>
<div class="contents"><p>Doxygen writes the whole page in here.</p></div></body></html>`
	d, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(d.Text, "The special _cp_dispatch method") || strings.Contains(d.Text, "Contents") {
		t.Errorf("the page's table of contents is in the text:\n%s", d.Text)
	}
	for _, want := range []string{"several names", "Doxygen writes the whole page", "Set aliases to page handlers"} {
		if !strings.Contains(d.Text, want) {
			t.Errorf("content lost (%q):\n%s", want, d.Text)
		}
	}
}

// Pygments' line numbers, inline in the listing or as a column of a table,
// are not the code's: glued to each line ("5CherryPy Checker:") they
// changed the lines an asker pastes from the page.
func TestHTMLCodeLineNumbersAreNotText(t *testing.T) {
	page := `<html><body><h1>Tutorials</h1><p>This will display something along the following:</p>
<div class="highlight"><pre><span></span><span class="linenos"> 4</span>[24/Feb/2014:21:01:46] ENGINE Bus STARTING
<span class="linenos"> 5</span>CherryPy Checker:
<span class="linenos"> 6</span>The Application mounted at '' has an empty config.
</pre></div>
<table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>1
2</pre></div></td><td class="code"><div class="highlight"><pre>import cherrypy
cherrypy.quickstart()</pre></div></td></tr></table></body></html>`
	d, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nCherryPy Checker:\nThe Application mounted at '' has an empty config.", "import cherrypy\ncherrypy.quickstart()"} {
		if !strings.Contains(d.Text, want) {
			t.Errorf("code lines not as written (%q):\n%s", want, d.Text)
		}
	}
	if strings.Contains(d.Text, " 5") || strings.Contains(d.Text, "1\n2") {
		t.Errorf("line numbers in the text:\n%s", d.Text)
	}
}

// A theme's banner about the release a page documents, above the content
// on every page (the Celery Sphinx theme's, as Kombu's pages have it), is
// chrome; a paragraph of the page that speaks of versions is text.
func TestHTMLVersionBannerIsNotText(t *testing.T) {
	page := `<html><head><title>Producers — Kombu 5.2.4 documentation</title></head><body>
<div class="body" role="main"><div class="deck">
<p class="developmentversion">This document is for Kombu's development version, which can be
significantly different from previous releases. Get the stable docs here:
<a href="https://kombu.readthedocs.io/en/latest/userguide/producers.html">5.0</a>.</p></div>
<section id="producers"><h1>Producers</h1>
<p>A producer publishes messages to an exchange. This version of the API retries on connection errors.</p></section></div></body></html>`
	d, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(d.Text, "development version") || strings.Contains(d.Text, "stable docs") {
		t.Errorf("the version banner is in the text:\n%s", d.Text)
	}
	if !strings.Contains(d.Text, "This version of the API retries on connection errors.") {
		t.Errorf("content lost:\n%s", d.Text)
	}
}

// A page whose only text is the theme's (its navigation and the version
// banner: Debian's copy of Kombu's change log) is ErrChromeOnly, which is
// an ErrEmpty; a page with no text at all is ErrEmpty alone.
func TestHTMLChromeOnlyPage(t *testing.T) {
	page := `<html><head><title>Change history — Kombu 5.2.4 documentation</title></head><body>
<div class="related" role="navigation"><ul><li><a href="index.html">Kombu 5.2.4 documentation</a></li></ul></div>
<div class="body" role="main"><div class="deck"><p class="developmentversion">This document is for Kombu's development version.</p></div></div>
<div class="sphinxsidebar" role="navigation"><h3>Navigation</h3><ul><li><a href="faq.html">FAQ</a></li></ul></div></body></html>`
	_, err := Extract(TypeHTML, []byte(page))
	if !errors.Is(err, ErrChromeOnly) || !errors.Is(err, ErrEmpty) {
		t.Errorf("chrome-only page: err %v, want ErrChromeOnly (an ErrEmpty)", err)
	}
	_, err = Extract(TypeHTML, []byte(`<html><body><script>var x = "text";</script> </body></html>`))
	if !errors.Is(err, ErrEmpty) || errors.Is(err, ErrChromeOnly) {
		t.Errorf("page without text: err %v, want ErrEmpty alone", err)
	}
}

// docutils' classifier of a definition's term (Pygments' filter options:
// "codetags : list of strings") is no part of the term's name: written
// after it in brackets, not glued to it.
func TestHTMLClassifierIsApartFromItsTerm(t *testing.T) {
	page := `<html><body><h1>Filters</h1><dl class="simple">
<dt><cite>codetags</cite><span class="classifier">list of strings</span></dt><dd><p>A list of strings that are flagged as code tags.</p></dd>
</dl></body></html>`
	d, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d.Text, "codetags (list of strings)") || strings.Contains(d.Text, "codetagslist") {
		t.Errorf("the classifier is glued to the term:\n%s", d.Text)
	}
}

// docutils' html4css1 writer puts its own " : " before the classifier; the
// classifier in brackets needs none.
func TestHTMLClassifierDelimiterIsDropped(t *testing.T) {
	page := `<html><body><h1>Filters</h1><dl class="docutils">
<dt>codetags <span class="classifier-delimiter">:</span> <span class="classifier">list of strings</span></dt><dd><p>Flagged as code tags.</p></dd>
</dl></body></html>`
	d, err := Extract(TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d.Text, "codetags (list of strings)") || strings.Contains(d.Text, ": (") {
		t.Errorf("classifier with html4css1's delimiter:\n%s", d.Text)
	}
}
