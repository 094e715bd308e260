package extract

import (
	"strings"
	"testing"
)

// TestSiteBannerHeadingIsNotTheTitle: a theme that sets the site's name
// as the first h1, all of it a link to the site's index, above the page's
// own h1 (Django's YUI theme: no header element) leaves it out; a page
// whose one h1 links elsewhere keeps it, as it does an h1 that links to
// itself.
func TestSiteBannerHeadingIsNotTheTitle(t *testing.T) {
	t.Parallel()
	banner := `<html><head><title>Signals | Django documentation</title></head><body>
<div id="hd"><h1><a href="../index.html">Django 3.2.25 documentation</a></h1>
<div id="global-nav"><a href="../index.html">Home</a> | <a href="../genindex.html">Index</a></div></div>
<div id="bd"><h1 id="signals">Signals</h1><p>Django includes a signal dispatcher.</p>
<h2 id="listening">Listening to signals</h2><p>To receive a signal, register a receiver function.</p></div></body></html>`
	doc, err := Extract(TypeHTML, []byte(banner))
	if err != nil {
		t.Fatal(err)
	}
	var heads []string
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			heads = append(heads, doc.Text[b.Start:b.End]+"#"+b.Anchor)
		}
	}
	if got, want := strings.Join(heads, " | "), "Signals#signals | Listening to signals#listening"; got != want || strings.Contains(doc.Text, "3.2.25") {
		t.Errorf("headings %q, want %q; text %q", got, want, doc.Text)
	}
	for _, page := range []string{
		`<html><body><h1><a href="intro.html">Introduction</a></h1><p>Start here.</p></body></html>`,
		`<html><body><h1><a href="#top">Overview</a></h1><p>Start here.</p><h1 id="usage">Usage</h1><p>Run it.</p></body></html>`,
	} {
		doc, err := Extract(TypeHTML, []byte(page))
		if err != nil {
			t.Fatal(err)
		}
		if b := doc.Blocks[0]; b.Kind != KindHeading {
			t.Errorf("%s: first block %q is no heading", page, doc.Text[b.Start:b.End])
		}
	}
}
