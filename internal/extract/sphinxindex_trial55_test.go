package extract

import (
	"errors"
	"strings"
	"testing"
)

// Sphinx's quickstart landing page, a title, "Contents:", the toctree and
// "Indices and tables" linking the generated index, the module index and
// the search page, is no document (configobj's and humanfriendly's
// index.html were stored and cited); the "Indices and tables" list is
// chrome on a page with content too, which stays.
func TestHTMLSphinxIndicesAndTablesAreChrome(t *testing.T) {
	t.Parallel()
	indices := `<section id="indices-and-tables"><h1>Indices and tables</h1><ul class="simple">
<li><p><a class="reference internal" href="genindex.html"><span class="std std-ref">Index</span></a></p></li>
<li><p><a class="reference internal" href="py-modindex.html"><span class="std std-ref">Module Index</span></a></p></li>
<li><p><a class="reference internal" href="search.html"><span class="std std-ref">Search Page</span></a></p></li>
</ul></section>`
	landing := `<html><head><title>Welcome to frob’s documentation! — frob 5.0.6 documentation</title></head><body><div class="body" role="main">
<section id="welcome"><h1>Welcome to frob’s documentation!</h1><p>Contents:</p>
<div class="toctree-wrapper compound"><ul>
<li class="toctree-l1"><a class="reference internal" href="frob.html">1. Reading and Writing Config Files</a></li>
<li class="toctree-l1"><a class="reference internal" href="validate.html">2. Validation Schema</a></li>
</ul></div></section>` + indices + `</div></body></html>`
	if _, err := Extract("html", []byte(landing)); !errors.Is(err, ErrLinksOnly) {
		t.Errorf("landing page: err %v, want ErrLinksOnly", err)
	}
	withContent := `<html><head><title>frob</title></head><body><div class="body" role="main">
<section id="welcome"><h1>frob</h1><p>frob reads and writes configuration files, keeping their comments and the order of their keys.</p></section>` +
		indices + `</div></body></html>`
	doc := mustExtract(t, "html", withContent)
	if !strings.Contains(doc.Text, "keeping their comments") || strings.Contains(doc.Text, "Module Index") {
		t.Errorf("text:\n%s\nwant the prose kept and the index links left out", doc.Text)
	}
	// A short page without a toctree stays a document.
	short := `<html><head><title>frob</title></head><body><div class="body" role="main">
<section id="welcome"><h1>Welcome to frob’s documentation!</h1><p>Frob reads and writes INI.</p></section>` + indices + `</div></body></html>`
	if doc := mustExtract(t, "html", short); !strings.Contains(doc.Text, "reads and writes INI") {
		t.Errorf("text:\n%s\nwant the short page kept", doc.Text)
	}
	// A list of links to the site's own pages by name is content.
	pages := `<html><head><title>frob</title></head><body><div class="body" role="main"><h1>frob</h1>
<p>frob reads and writes configuration files.</p><p>See also:</p><ul><li><p><a href="search.html">Search Page</a></p></li><li><p><a href="usage.html">Usage</a></p></li></ul></div></body></html>`
	if doc := mustExtract(t, "html", pages); !strings.Contains(doc.Text, "Usage") {
		t.Errorf("text:\n%s\nwant the list naming a page of content kept", doc.Text)
	}
}
