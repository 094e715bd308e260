package ingest_test

import (
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
)

// Sphinx reserves the names search, genindex and py-modindex at the root
// of a build only: a document in a subdirectory may be named search
// (Django's documentation has topics/db/search.html, "Search", and
// ref/contrib/postgres/search.html, "Full text search"; a dirhtml build
// writes topics/db/search/index.html). Its head loads
// ../../_static/documentation_options.js like every page of the build, so
// telling a Sphinx build by its pages' heads must not make every page
// named search.html (or 404.html, genindex.html) a generated one. Before
// the change such a page was kept: no searchindex.js lies beside it.
// Both a complete build (searchindex.js at its root) and one shipped
// without searchindex.js keep the document, in the walk and in an archive.
func TestHR43SphinxDocumentNamedSearchInSubdirIsKept(t *testing.T) {
	t.Parallel()
	head := func(root string) string {
		return `<html><head><meta charset="utf-8" /><title>Search | Django documentation</title>` +
			`<script src="` + root + `_static/documentation_options.js?v=1"></script>` +
			`<script src="` + root + `_static/doctools.js"></script></head>`
	}
	page := `<body><h1>Search</h1><p>A common task for web applications is to search some data in the database with user input. ` +
		`PostgreSQL's full text search is exposed through the SearchVector and SearchQuery classes.</p></body></html>`
	for _, withIndex := range []bool{true, false} {
		tree := map[string]string{
			"index.html":                       head("") + `<body><h1>Django documentation</h1><p>Everything you need to know.</p></body></html>`,
			"_static/documentation_options.js": "var DOCUMENTATION_OPTIONS = {};",
			"genindex.html":                    head("") + `<body><h1>Index</h1><p>SearchVector (class)</p></body></html>`,
			"topics/db/search.html":            head("../../") + page,
			"ref/contrib/postgres/search.html": head("../../../") + page,
			"topics/db/search/index.html":      `<html><head><script src="../../../_static/documentation_options.js"></script></head>` + page,
		}
		if withIndex {
			tree["searchindex.js"] = "Search.setIndex({})"
		}
		got, skipped, err := walkDefault(writeTree(t, tree))
		if err != nil {
			t.Fatal(err)
		}
		for _, rel := range []string{"topics/db/search.html", "ref/contrib/postgres/search.html", "topics/db/search/index.html"} {
			if !slices.Contains(got, rel) {
				t.Errorf("searchindex.js at the root: %v: walk left out %s (skipped %q); it is a document of the build", withIndex, rel, skipped)
			}
			has := func(r string) bool { _, ok := tree[r]; return ok }
			if r := ingest.BuildFileSkip(rel, has, func(r string) []byte { return []byte(tree[r]) }); r != "" {
				t.Errorf("searchindex.js at the root: %v: BuildFileSkip(%s) = %q; it is a document of the build", withIndex, rel, r)
			}
		}
	}
}

// A Sphinx build is told by its pages' heads (README, the commit), but
// sphinxPage looks for documentation_options.js and DOCUMENTATION_OPTIONS
// anywhere in a page's first 16 KB, its body included: another
// generator's page named search.html (or 404.html) whose text mentions
// Sphinx's options script (an article on how Sphinx's client-side search
// works) is taken for a Sphinx build's search page and left out.
func TestHR43PageMentioningSphinxOptionsInItsBodyIsKept(t *testing.T) {
	t.Parallel()
	tree := map[string]string{
		"blog/index.html": `<html><head><title>Notes</title><link rel="stylesheet" href="/css/site.css"></head><body><h1>Notes</h1><p>Posts.</p></body></html>`,
		"blog/search.html": `<html><head><title>How Sphinx search works</title><link rel="stylesheet" href="/css/site.css"></head>` +
			`<body><h1>How Sphinx search works</h1><p>A Sphinx page loads _static/documentation_options.js, which sets ` +
			`DOCUMENTATION_OPTIONS.URL_ROOT; searchtools.js then fetches searchindex.js and ranks the pages on the client.</p></body></html>`,
	}
	got, skipped, err := walkDefault(writeTree(t, tree))
	if err != nil || !slices.Contains(got, "blog/search.html") {
		t.Errorf("walk: files %q, skipped %q, %v; want blog/search.html kept (its head is no Sphinx page's)", got, skipped, err)
	}
	has := func(r string) bool { _, ok := tree[r]; return ok }
	if r := ingest.BuildFileSkip("blog/search.html", has, func(r string) []byte { return []byte(tree[r]) }); r != "" {
		t.Errorf("BuildFileSkip(blog/search.html) = %q; its head is no Sphinx page's", r)
	}
}

// A Sphinx build shipped without searchindex.js is now recognised by its
// pages' heads, but only for its generated pages: its _sources/ copies
// (every page again as reStructuredText) and _static/ files are still
// told by searchindex.js alone (sphinxBuildDir, BuildFileSkip), so the
// same build that has its genindex.html and search.html left out stores
// each page twice, the copy competing with the page for the top results,
// the reason sphinxCopies exists.
func TestHR43SphinxCopiesOfABuildWithoutSearchIndexAreLeftOut(t *testing.T) {
	t.Parallel()
	head := `<html><head><script src="_static/documentation_options.js?v=1"></script></head>`
	tree := map[string]string{
		"arm/index.html":                       head + "<body><h1>BIND 9 Administrator Reference Manual</h1><p>BIND is a name server.</p></body></html>",
		"arm/genindex.html":                    head + "<body><h1>Index</h1><p>allow-query</p></body></html>",
		"arm/_sources/index.rst.txt":           "BIND 9 Administrator Reference Manual\n=====================================\n\nBIND is a name server.\n",
		"arm/_static/documentation_options.js": "var DOCUMENTATION_OPTIONS = {};",
		"arm/_static/sample.html":              "<html><body><p>A sample page the theme ships.</p></body></html>",
	}
	got, skipped, err := walkDefault(writeTree(t, tree))
	if err != nil || !slices.Equal(got, []string{"arm/index.html"}) {
		t.Errorf("walk: files %q, skipped %q, %v; want the page alone", got, skipped, err)
	}
	has := func(r string) bool { _, ok := tree[r]; return ok }
	for _, rel := range []string{"arm/_sources/index.rst.txt", "arm/_static/sample.html"} {
		if r := ingest.BuildFileSkip(rel, has, func(r string) []byte { return []byte(tree[r]) }); r == "" {
			t.Errorf("BuildFileSkip(%s) = \"\"; a copy or asset of the Sphinx build", rel)
		}
	}
}
