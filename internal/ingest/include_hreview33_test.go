package ingest_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
)

func hreview33SphinxTree(t *testing.T) string {
	return writeTree(t, map[string]string{
		"html/searchindex.js":       "Search.setIndex({})",
		"html/intro.html":           "<h1>Intro</h1><p>Hello.</p>",
		"html/genindex.html":        "<h1>Index</h1><p>intro() (in module quokka)</p>",
		"html/search.html":          "<h1>Search</h1><p>Please activate JavaScript to enable the search functionality.</p>",
		"html/_modules/quokka.html": "<h1>Source code for quokka</h1><pre>def intro():\n    return 1\n</pre>",
		"html/_static/sample.html":  "<h1>Sample</h1><p>A page the tutorial parses.</p>",
		"notes/readme.md":           "# Notes\n\nSome notes.\n",
	})
}

func hreview33Rels(t *testing.T, dir string, files []ingest.File) []string {
	var got []string
	for _, f := range files {
		r, err := filepath.Rel(dir, f.Path)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, filepath.ToSlash(r))
	}
	slices.Sort(got)
	return got
}

// TestHReview33BroadGlobBesideAKindGlob: '*.html' is a glob of every page
// and keeps the walk's rules for a Sphinx build's copy directories; adding
// '*.md' for the Markdown notes beside the build names no page of
// _modules/ or _static/, yet it makes the walk enter them and '*.html'
// then takes in the highlighted source and the static sample page.
func TestHReview33BroadGlobBesideAKindGlob(t *testing.T) {
	t.Parallel()
	dir := hreview33SphinxTree(t)
	files, _, err := ingest.Walk([]string{dir}, ingest.WalkOptions{Include: []string{"*.html"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := hreview33Rels(t, dir, files); !slices.Equal(got, []string{"html/intro.html"}) {
		t.Fatalf("--include '*.html': %q (the baseline)", got)
	}
	files, _, err = ingest.Walk([]string{dir}, ingest.WalkOptions{Include: []string{"*.html", "*.md"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := hreview33Rels(t, dir, files), []string{"html/intro.html", "notes/readme.md"}; !slices.Equal(got, want) {
		t.Errorf("--include '*.html' --include '*.md': %q; want %q (no _modules/ or _static/ page: neither glob names them)", got, want)
	}
}

// TestHReview33DoubleStarIsABroadGlob: '**' selects every file as '**/*'
// does, and must keep the generated index and search pages out as '**/*'
// does; broadGlob does not know it, so '**' takes them in.
func TestHReview33DoubleStarIsABroadGlob(t *testing.T) {
	t.Parallel()
	dir := hreview33SphinxTree(t)
	files, _, err := ingest.Walk([]string{dir}, ingest.WalkOptions{Include: []string{"**/*"}})
	if err != nil {
		t.Fatal(err)
	}
	want := hreview33Rels(t, dir, files)
	if !slices.Equal(want, []string{"html/intro.html", "notes/readme.md"}) {
		t.Fatalf("--include '**/*': %q (the baseline)", want)
	}
	files, _, err = ingest.Walk([]string{dir}, ingest.WalkOptions{Include: []string{"**"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := hreview33Rels(t, dir, files); !slices.Equal(got, want) {
		t.Errorf("--include '**': %q; want what '**/*' gives, %q", got, want)
	}
}

// TestHReview33BraceGlobOfPagesIsBroad: '*.{html,md}' (doublestar's
// alternatives) selects the same files as '*.html' and '*.md' together,
// and must keep the generated index and search pages and the build's copy
// directories out as those two globs do; broadGlob knows only a fixed list
// of spellings, so the brace glob counts as naming those pages and takes
// them all in.
func TestHReview33BraceGlobOfPagesIsBroad(t *testing.T) {
	t.Parallel()
	dir := hreview33SphinxTree(t)
	files, _, err := ingest.Walk([]string{dir}, ingest.WalkOptions{Include: []string{"*.html", "*.md"}})
	if err != nil {
		t.Fatal(err)
	}
	want := hreview33Rels(t, dir, files)
	if !slices.Equal(want, []string{"html/intro.html", "notes/readme.md"}) {
		t.Fatalf("--include '*.html' --include '*.md': %q (the baseline)", want)
	}
	files, _, err = ingest.Walk([]string{dir}, ingest.WalkOptions{Include: []string{"*.{html,md}"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := hreview33Rels(t, dir, files); !slices.Equal(got, want) {
		t.Errorf("--include '*.{html,md}': %q; want what '*.html' with '*.md' gives, %q", got, want)
	}
}
