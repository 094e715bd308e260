package ingest_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
)

// TestWalkKeepsTextSourcesWhenTheirPagesAreExcluded: renderedSources leaves
// a directory's text files out as copies of the HTML pages beside them, but
// it counts those pages whatever --exclude says. A user who wants the
// AsciiDoc of a git-doc directory and not its HTML (--exclude '*.html')
// gets neither: the pages are excluded and the text files are skipped as
// "the sources of the HTML pages beside them" — pages nothing ingests. With
// --prune, Linked names the text files as copies of listed files (none
// is listed), so the documents an earlier run stored for them are deleted.
func TestWalkKeepsTextSourcesWhenTheirPagesAreExcluded(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"git/git-add.html":  "<h1>git-add(1)</h1><p>Add file contents to the index.</p>",
		"git/git-add.txt":   "git-add(1)\n==========\n\nAdd file contents to the index.\n",
		"git/git-diff.html": "<h1>git-diff(1)</h1><p>Show changes.</p>",
		"git/git-diff.txt":  "git-diff(1)\n===========\n\nShow changes.\n",
	})
	var linked []string
	files, fails, err := ingest.Walk([]string{dir}, ingest.WalkOptions{BaseURI: "https://docs.example/", Exclude: []string{"**/*.html"}, Linked: &linked})
	if err != nil {
		t.Fatal(err)
	}
	got := relPaths(dir, files)
	if want := []string{"git/git-add.txt", "git/git-diff.txt"}; !slices.Equal(got, want) {
		var reasons []string
		for _, f := range fails {
			reasons = append(reasons, strings.TrimPrefix(f.Path, dir+"/")+": "+f.Reason)
		}
		t.Errorf("--exclude '**/*.html': files %q (skipped %q); want the text files, whose pages are not ingested", got, reasons)
	}
	if len(linked) != 0 {
		t.Errorf("--exclude '**/*.html': Linked %q; --prune would delete the documents of files that are no copies of any listed file", linked)
	}
}

// TestWalkKeepsAFileNamedOnItsOwn: a file named as a PATH is the caller's
// explicit request ("A file named on its own is reported when it cannot be
// ingested, whatever the globs"). Named after its directory (`ragd ingest
// site site/README.md`), a README.md beside README.html is dropped without
// a word: the directory's renderedSources set is consulted for the file
// root too. Named before its directory, the same file is listed, so the
// outcome depends on argument order.
func TestWalkKeepsAFileNamedOnItsOwn(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"site/README.md":   "# Tool\n\nHow to use the tool.\n",
		"site/README.html": "<h1>Tool</h1><p>How to use the tool.</p>",
	})
	site := filepath.Join(dir, "site")
	readme := filepath.Join(site, "README.md")
	for _, order := range [][]string{{readme, site}, {site, readme}} {
		files, fails, err := ingest.Walk(order, ingest.WalkOptions{})
		if err != nil {
			t.Fatal(err)
		}
		listed := slices.ContainsFunc(files, func(f ingest.File) bool { return f.Path == readme })
		reported := slices.ContainsFunc(fails, func(f ingest.Failure) bool { return f.Path == readme })
		if !listed && !reported {
			t.Errorf("Walk(%q): README.md, named on its own, is neither listed nor reported (files %+v)", []string{filepath.Base(order[0]), filepath.Base(order[1])}, files)
		}
	}
}
