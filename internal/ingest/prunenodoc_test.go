package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
)

// A page an earlier run stored that this run finds to be no document (an
// index of links, a build's generated page) is deleted by a prune, as a
// gone file's is: the tenant holds what a fresh ingest of the tree would.
func TestPruneDeletesPagesNowNoDocument(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	root := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("guide.html", "<html><body><main><h1>Guide</h1><p>Configure the relay with the hosts option and restart the daemon.</p></main></body></html>")
	write("concepts.html", "<html><body><main><h1>Concepts</h1><p>An early version of this page explained concepts in prose.</p></main></body></html>")
	const base = "https://example.test/spec/"
	walk := func() []ingest.File {
		files, _, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: base})
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	if sum, err := p.IngestFiles(ctx, tn, walk(), 2, ingest.Prune{}, nil); err != nil || sum.Added != 2 {
		t.Fatalf("first run: %+v, %v", sum, err)
	}
	// The page becomes an index: terms each followed by links alone.
	var index strings.Builder
	index.WriteString("<html><body><main><h1>Concept Index</h1><dl>")
	for range 60 {
		index.WriteString(`<dt>term</dt><dd><p><a href="guide.html#s">Configuring the relay hosts option <small>[Relay]</small></a></p></dd>`)
	}
	index.WriteString("</dl></main></body></html>")
	write("concepts.html", index.String())
	sum, err := p.IngestFiles(ctx, tn, walk(), 2, ingest.Prune{Prefix: base, Roots: []string{root}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Deleted != 1 || !slices.Equal(sum.DeletedDocuments, []string{base + "concepts.html"}) || len(sum.SkippedFiles) != 1 {
		t.Fatalf("pruning run: deleted %v, skipped %+v; want the index page's earlier document deleted", sum.DeletedDocuments, sum.SkippedFiles)
	}
	if docs, _ := consistency(t, tn); docs != 1 {
		t.Fatalf("%d documents, want the guide alone", docs)
	}
}
