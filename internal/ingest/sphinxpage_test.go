package ingest_test

import (
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
)

// TestWalkLeavesOutSphinxIndexPagesWithoutSearchIndex: a Sphinx build
// shipped without its searchindex.js (Debian's bind9-doc) is told by its
// pages' heads; its general index and search page are left out by the
// walk and by an archive of the same tree, and a page of another
// generator named search.html, or a Sphinx build's own pages, are kept.
func TestWalkLeavesOutSphinxIndexPagesWithoutSearchIndex(t *testing.T) {
	t.Parallel()
	head := `<html><head><script id="documentation_options" data-url_root="./" src="_static/documentation_options.js"></script></head>`
	old := `<html><head><script>var DOCUMENTATION_OPTIONS = {URL_ROOT: ''};</script></head>`
	tree := map[string]string{
		"arm/chapter1.html": head + "<body><h1>Introduction</h1><p>BIND is a name server.</p></body></html>",
		"arm/genindex.html": head + "<body><h1>Index</h1><p>allow-query (statement)</p></body></html>",
		"arm/search.html":   head + "<body><h1>Search</h1><p>Built with Sphinx.</p></body></html>",
		"old/genindex.html": old + "<body><h1>Index</h1><p>frob()</p></body></html>",
		"site/search.html":  "<html><body><h1>How search works</h1><p>The engine ranks pages.</p></body></html>",
	}
	got, skipped, err := walkDefault(writeTree(t, tree))
	if err != nil || !slices.Equal(got, []string{"arm/chapter1.html", "site/search.html"}) ||
		!slices.Equal(skipped, []string{"arm/genindex.html", "arm/search.html", "old/genindex.html"}) {
		t.Errorf("files %q, skipped %q, %v; want the chapter and the other site's search page alone", got, skipped, err)
	}
	has := func(rel string) bool { _, ok := tree[rel]; return ok }
	for rel, content := range tree {
		if want := slices.Contains(skipped, rel); (ingest.BuildFileSkip(rel, has, []byte(content)) != "") != want {
			t.Errorf("BuildFileSkip(%q) = %q; the walk skipped it: %v", rel, ingest.BuildFileSkip(rel, has, []byte(content)), want)
		}
	}
}
