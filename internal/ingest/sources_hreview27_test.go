package ingest_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
)

// TestHReview27ExcludedPageKeepsItsSourceBesideOtherPairs: "Pages an
// --exclude leaves out are no pages: their sources are all the run has of
// them" (renderedSources' kept). But once two other text files have pages
// beside them, the "parts those pages include" rule leaves out every other
// text file of the directory, and it counts the text file of an excluded
// page among them: a user who excludes api.html (its tables render badly)
// to ingest api.md instead gets neither, and with --prune the document an
// earlier run stored for api.md is deleted (Linked).
func TestHReview27ExcludedPageKeepsItsSourceBesideOtherPairs(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"docs/install.html": "<h1>Install</h1><p>Run the installer.</p>",
		"docs/install.md":   "# Install\n\nRun the installer.\n",
		"docs/usage.html":   "<h1>Usage</h1><p>Start the service.</p>",
		"docs/usage.md":     "# Usage\n\nStart the service.\n",
		"docs/api.html":     "<h1>API</h1><table><tr><td>GET</td><td>/v1/items</td></tr></table>",
		"docs/api.md":       "# API\n\n| Method | Path |\n|---|---|\n| GET | /v1/items |\n",
	})
	var linked []string
	files, fails, err := ingest.Walk([]string{dir}, ingest.WalkOptions{BaseURI: "https://docs.example/", Exclude: []string{"docs/api.html"}, Linked: &linked})
	if err != nil {
		t.Fatal(err)
	}
	got := relPaths(dir, files)
	if !slices.Contains(got, "docs/api.md") {
		var reasons []string
		for _, f := range fails {
			reasons = append(reasons, strings.TrimPrefix(f.Path, dir+"/")+": "+f.Reason)
		}
		t.Errorf("--exclude docs/api.html: files %q (skipped %q); want docs/api.md among them: its page is excluded, so it is the only copy of the API reference", got, reasons)
	}
	if slices.Contains(linked, "https://docs.example/docs/api.md") {
		t.Errorf("Linked %q: --prune would delete docs/api.md's document though no listed file is its copy", linked)
	}
}
