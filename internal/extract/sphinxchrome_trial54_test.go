package extract

import (
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
}

// Sphinx titles a page without a heading "<no title> — <site>": the
// placeholder is replaced by the page's first h1, or left out.
func TestHTMLSphinxNoTitlePlaceholder(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{`<html><head><title>&lt;no title&gt; — frob 2.1 documentation</title></head><body><main><h1>frob</h1><p>frob is a coroutine library.</p></main></body></html>`, "frob — frob 2.1 documentation"},
		{`<html><head><title>&lt;no title&gt; — frob 2.1 documentation</title></head><body><main><p>frob is a coroutine library.</p></main></body></html>`, "frob 2.1 documentation"},
		{`<html><head><title>Why &lt;no title&gt; pages happen</title></head><body><main><p>frob is a coroutine library.</p></main></body></html>`, "Why <no title> pages happen"},
	} {
		if doc := mustExtract(t, "html", c.in); doc.Title != c.want {
			t.Errorf("title %q, want %q", doc.Title, c.want)
		}
	}
}

// An API entry without a description (autodoc's "unfinished_tasks"
// attribute, a "next()" method) ends at its empty dd: the next entry's term
// is set apart by a blank line, not written as this one's second line
// (together they read as two lines of code, quoted in the middle of
// answers). Two terms sharing one definition stay together.
func TestHTMLEmptyDefinitionEndsItsEntry(t *testing.T) {
	t.Parallel()
	in := `<html><body><main><dl>
<dt>unfinished_tasks</dt><dd></dd>
<dt>class LifoQueue(maxsize=None)</dt><dd><p>A subclass of Queue that retrieves most recently added entries first.</p></dd>
<dt>-v</dt><dt>--verbose</dt><dd><p>Print more.</p></dd>
</dl></main></body></html>`
	doc := mustExtract(t, "html", in)
	if !strings.Contains(doc.Text, "unfinished_tasks\n\nclass LifoQueue(maxsize=None)\nA subclass of Queue") {
		t.Errorf("text %q: want the empty entry set apart from the next", doc.Text)
	}
	if !strings.Contains(doc.Text, "-v\n--verbose\nPrint more.") {
		t.Errorf("text %q: want two names of one entry together", doc.Text)
	}
}
