package ingest_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
)

// TestWalkLeavesOutSphinxIndexPagesWithoutSearchIndex: a Sphinx build
// shipped without its searchindex.js (Debian's bind9-doc) is told by its
// pages' heads at its root (where _static/ is); its general index and
// search page are left out by the walk and by an archive of the same
// tree, and a page of another generator named search.html, a page of the
// build below its root named search.html, or its other pages are kept.
func TestWalkLeavesOutSphinxIndexPagesWithoutSearchIndex(t *testing.T) {
	t.Parallel()
	head := `<html><head><script id="documentation_options" data-url_root="./" src="_static/documentation_options.js"></script></head>`
	old := `<html><head><script>var DOCUMENTATION_OPTIONS = {URL_ROOT: ''};</script></head>`
	tree := map[string]string{
		"arm/_static/doctools.js": "/* doctools */",
		"arm/index.html":          head + "<body><h1>Introduction</h1><p>BIND is a name server.</p></body></html>",
		"arm/genindex.html":       head + "<body><h1>Index</h1><p>allow-query (statement)</p></body></html>",
		"arm/search.html":         head + "<body><h1>Search</h1><p>Built with Sphinx.</p></body></html>",
		"old/_static/basic.css":   "/* basic */",
		"old/index.html":          old + "<body><h1>Frob</h1><p>Frob frobs.</p></body></html>",
		"old/genindex.html":       old + "<body><h1>Index</h1><p>frob()</p></body></html>",
		"old/api/search.html":     old + "<body><h1>Search</h1><p>The search() function finds frobs.</p></body></html>",
		"site/search.html":        "<html><body><h1>How search works</h1><p>The engine ranks pages.</p></body></html>",
	}
	got, skipped, err := walkDefault(writeTree(t, tree))
	if err != nil || !slices.Equal(got, []string{"arm/index.html", "old/api/search.html", "old/index.html", "site/search.html"}) ||
		!slices.Equal(skipped, []string{"arm/_static", "arm/genindex.html", "arm/search.html", "old/_static", "old/genindex.html"}) {
		t.Errorf("files %q, skipped %q, %v; want the chapter and the other site's search page alone", got, skipped, err)
	}
	has := func(rel string) bool {
		for p := range tree {
			if p == rel || strings.HasSuffix(rel, "/") && strings.HasPrefix(p, rel) {
				return true
			}
		}
		return false
	}
	for rel := range tree {
		if strings.HasSuffix(rel, ".js") || strings.HasSuffix(rel, ".css") {
			continue
		}
		if want := slices.Contains(skipped, rel); (ingest.BuildFileSkip(rel, has, func(r string) []byte { return []byte(tree[r]) }) != "") != want {
			t.Errorf("BuildFileSkip(%q) = %q; the walk skipped it: %v", rel, ingest.BuildFileSkip(rel, has, func(r string) []byte { return []byte(tree[r]) }), want)
		}
	}
}
