package extract

import (
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
