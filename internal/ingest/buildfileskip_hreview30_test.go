package ingest

import "testing"

// TestHR30BuildFileSkipDirhtmlIndexPages: Sphinx's dirhtml builder (Read
// the Docs' "dirhtml", pip's and many projects' docs) writes the general
// index, module index and search page as genindex/index.html,
// py-modindex/index.html and search/index.html beside the build's
// searchindex.js. BuildFileSkip (as sphinxGenerated) only knows the html
// builder's genindex.html, so an archive of a dirhtml build stores the
// index pages whose every-name link lists outrank the pages — the defect
// the change set out to remove. Correct: skipped as generated pages.
func TestHR30BuildFileSkipDirhtmlIndexPages(t *testing.T) {
	tree := map[string]bool{
		"searchindex.js": true, "index.html": true, "usage/index.html": true,
		"genindex/index.html": true, "py-modindex/index.html": true, "search/index.html": true,
	}
	has := func(rel string) bool { return tree[rel] }
	for _, rel := range []string{"genindex/index.html", "py-modindex/index.html", "search/index.html"} {
		if BuildFileSkip(rel, has, nil) == "" {
			t.Errorf("%s of a dirhtml Sphinx build: stored, want skipped as a generated index/search page", rel)
		}
	}
	if r := BuildFileSkip("usage/index.html", has, nil); r != "" {
		t.Errorf("usage/index.html skipped (%s); it is a page", r)
	}
}
