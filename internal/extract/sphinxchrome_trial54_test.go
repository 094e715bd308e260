package extract

import (
	"errors"
	"strings"
	"testing"
)

// A Sphinx theme that marks no role=main element (gevent's) leaves its
// sidebar, its "Next page:" line and its footer beside the body: the
// sidebar's "Table Of Contents" and "Next:"/"Previous:" links, the pager
// and "version 22.10.2 © 2009-2019 Denis Bilenko, …" ended every page's
// last chunk. They are chrome; a sentence of the body naming the next page,
// and one link after "Next page:" inside a sentence, stay.
func TestHTMLDropsSphinxSidebarPagerAndFooterCopyright(t *testing.T) {
	t.Parallel()
	in := `<html><head><title>Introduction — frob 2.1 documentation</title></head><body>
<div class="document"><div class="body">
<h1>Introduction</h1>
<p>frob is a coroutine library built on an event loop.</p>
<p>The next page explains the <a href="api.html">frob.hub</a> module in detail.</p>
<p><strong>Next page: <a href="api.html" title="next chapter"><code>frob</code> – common functions</a></strong></p>
</div></div>
<div class="col3 right"><div class="body"><div class="sphinxsidebar"><div class="sphinxsidebarwrapper">
<h4><a href="contents.html">Table Of Contents</a></h4>
<ul><li><a href="#">Introduction</a></li></ul>
<ul><li>Next: <a href="api.html">frob – common functions</a></li><li>Previous: <a href="changes.html">Changes before frob 1.0</a></li></ul>
</div></div></div></div>
<div id="footer"><p>version 2.1 <a href="https://frob.test">&copy; 2009-2019 Frob Authors, frob contributors</a></p></div>
</body></html>`
	doc := mustExtract(t, "html", in)
	for _, bad := range []string{"Table Of Contents", "Next page", "Previous:", "common functions", "2009-2019"} {
		if strings.Contains(doc.Text, bad) {
			t.Errorf("text holds chrome %q:\n%s", bad, doc.Text)
		}
	}
	for _, good := range []string{"frob is a coroutine library", "The next page explains the frob.hub module in detail."} {
		if !strings.Contains(doc.Text, good) {
			t.Errorf("text lost %q:\n%s", good, doc.Text)
		}
	}
	// An article's own footer is its content.
	doc = mustExtract(t, "html", `<html><body><main><article><h2>Licensing</h2><p>The guide may be copied freely.</p>`+
		`<footer><p>This guide is licensed under CC BY-SA 4.0; © 2024 The Frob Authors.</p></footer></article></main></body></html>`)
	if !strings.Contains(doc.Text, "licensed under CC BY-SA 4.0") {
		t.Errorf("text lost the article's licence line:\n%s", doc.Text)
	}
}

// Sphinx titles a page without a heading "<no title> — <site>": the
// placeholder is replaced by the page's first h1, or left out.
func TestHTMLSphinxNoTitlePlaceholder(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{`<html><head><title>&lt;no title&gt; — frob 2.1 documentation</title></head><body><main><h1>frob</h1><p>frob is a coroutine library.</p></main></body></html>`, "frob — frob 2.1 documentation"},
		{`<html><head><title>&lt;no title&gt; — frob 2.1 documentation</title></head><body><main><p>frob is a coroutine library.</p></main></body></html>`, "frob 2.1 documentation"},
		{`<html><head><title>Why &lt;no title&gt; pages happen</title></head><body><main><p>frob is a coroutine library.</p></main></body></html>`, "Why <no title> pages happen"},
		{`<html><head><title>&lt;no title&gt; pages and why they happen</title></head><body><main><h1>frob</h1><p>frob is a coroutine library.</p></main></body></html>`, "<no title> pages and why they happen"},
	} {
		if doc := mustExtract(t, "html", c.in); doc.Title != c.want {
			t.Errorf("title %q, want %q", doc.Title, c.want)
		}
	}
}

// A page whose only text is its heading (an API page autodoc left empty:
// "cmd2.Cmd" and no more) is no document; one with a sentence under its
// heading is.
func TestHTMLTitleOnlyPageIsNoDocument(t *testing.T) {
	t.Parallel()
	_, err := Extract(TypeHTML, []byte(`<html><head><title>cmd2.Cmd — cmd2 2.4 documentation</title></head><body><div role="main"><section><h1>cmd2.Cmd</h1></section></div></body></html>`))
	if !errors.Is(err, ErrTitleOnly) || !errors.Is(err, ErrEmpty) {
		t.Errorf("title-only page: err %v, want ErrTitleOnly (an ErrEmpty)", err)
	}
	doc, err := Extract(TypeHTML, []byte(`<html><body><div role="main"><h1>cmd2.Cmd</h1><p>The main class of an application.</p></div></body></html>`))
	if err != nil || !strings.Contains(doc.Text, "The main class") {
		t.Errorf("page with text: err %v", err)
	}
}

// The Read the Docs theme's footer, "© Copyright …" and a bare "Built with
// Sphinx using a theme provided by Read the Docs.", is chrome as a whole:
// a page whose body Debian's build left empty (cookiecutter's
// first_steps.html, its included file missing) was stored as that line.
func TestHTMLReadTheDocsFooterIsChrome(t *testing.T) {
	t.Parallel()
	in := `<html><head><title>cookiecutter 1.7.3 documentation</title></head><body>
<div class="wy-grid-for-nav"><section data-toggle="wy-nav-shift" class="wy-nav-content-wrap"><div class="wy-nav-content"><div class="rst-content">
          <div role="main" class="document" itemscope="itemscope" itemtype="http://schema.org/Article">
           <div itemprop="articleBody">
             
  

           </div>
          </div>
          <footer><div class="rst-footer-buttons" role="navigation" aria-label="Footer">
        <a href="usage.html" class="btn btn-neutral float-left" title="Usage" accesskey="p" rel="prev"><span class="fa fa-arrow-circle-left" aria-hidden="true"></span> Previous</a>
        <a href="tutorials.html" class="btn btn-neutral float-right" title="Additional Tutorials" accesskey="n" rel="next">Next <span class="fa fa-arrow-circle-right" aria-hidden="true"></span></a>
    </div>

  <hr/>

  <div role="contentinfo">
    <p>&#169; Copyright 2013-2023, Audrey Roy and Cookiecutter community.</p>
  </div>

  Built with <a href="https://www.sphinx-doc.org/">Sphinx</a> using a
    <a href="https://github.com/readthedocs/sphinx_rtd_theme">theme</a>
    provided by <a href="https://readthedocs.org">Read the Docs</a>.
   

</footer>
</div></div></section></div></body></html>`
	if _, err := Extract(TypeHTML, []byte(in)); !errors.Is(err, ErrChromeOnly) {
		t.Errorf("empty page with the theme's footer: err %v, want ErrChromeOnly", err)
	}
}
