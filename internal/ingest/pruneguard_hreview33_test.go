package ingest_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
)

// TestHReview33PruneGuardCountsSupersededSpellings: a tenant whose twelve
// pages have spaces in their names holds them under the unescaped
// source_uris ragd wrote before; one page has since been deleted. The
// pruning run re-ingests the eleven under their escaped source_uris and
// must delete the eleven superseded spellings and the one gone page: no
// document is lost (eleven files, eleven documents after). The guard
// counts the superseded copies as deletions of "files not under the
// ingested paths" and stops the prune, so the tenant keeps every page
// twice.
func TestHReview33PruneGuardCountsSupersededSpellings(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	root := t.TempDir()
	const base = "https://example.test/notes"
	for i := range 12 {
		name := fmt.Sprintf("meeting note %02d.md", i)
		text := fmt.Sprintf("# Meeting %d\n\nWhat meeting %d decided about topic %d.\n", i, i, i)
		if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: base + "/" + name, ContentType: "text/markdown", Content: []byte(text), FromFiles: true}); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			continue // deleted since
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, _, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: base})
	if err != nil || len(files) != 11 {
		t.Fatalf("walk: %d files, %v", len(files), err)
	}
	sum, err := p.IngestFiles(ctx, tn, files, 2, ingest.Prune{Prefix: base + "/", Roots: []string{root}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 0 || sum.Deleted != 12 {
		t.Errorf("prune after the upgrade: deleted %d, failed %d %+v; want the 11 superseded spellings and the 1 gone page deleted, no failure",
			sum.Deleted, sum.Failed, sum.Failures)
	}
	if docs, _ := consistency(t, tn); docs != 11 {
		t.Errorf("%d documents for 11 files", docs)
	}
}

// TestHReview33PruneGuardCountsLinkedCopies: a directory ships every page
// twice, as p.html and p.html.gz (the same text). ragd before 0ab887c
// ingested both (24 documents); now the walk skips each .gz as the same
// content as its page and lists it for --prune, so the first pruning run
// after the upgrade deletes the 11 twins of the 11 pages still there and
// the one page (and its twin) deleted since. Every page stays a document;
// the guard counts the twins, which the run's own files replace, as lost
// ("their files are not under the ingested paths") and stops the prune.
func TestHReview33PruneGuardCountsLinkedCopies(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	root := t.TempDir()
	const base = "https://example.test/manual"
	var before []ingest.File
	for i := range 12 {
		page := []byte(fmt.Sprintf("<html><head><title>Page %d</title></head><body><main><h1>Page %d</h1><p>What page %d says about topic %d.</p></main></body></html>", i, i, i, i))
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		if _, err := zw.Write(page); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		for name, data := range map[string][]byte{fmt.Sprintf("p%02d.html", i): page, fmt.Sprintf("p%02d.html.gz", i): gz.Bytes()} {
			path := filepath.Join(root, name)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			before = append(before, ingest.File{Path: path, SourceURI: base + "/" + name, ContentType: "text/html"})
		}
	}
	// What the walk gave before identical files were skipped: all 24.
	if sum, err := p.IngestFiles(ctx, tn, before, 2, ingest.Prune{}, nil); err != nil || sum.Added != 24 {
		t.Fatalf("the earlier run: %+v, %v", sum, err)
	}
	for _, name := range []string{"p00.html", "p00.html.gz"} {
		if err := os.Remove(filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	var linked []string
	files, _, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: base, Linked: &linked})
	if err != nil || len(files) != 11 || len(linked) != 11 {
		t.Fatalf("walk: %d files, %d linked, %v", len(files), len(linked), err)
	}
	sum, err := p.IngestFiles(ctx, tn, files, 2, ingest.Prune{Prefix: base + "/", Roots: []string{root}, Linked: linked}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 0 || sum.Deleted != 13 {
		t.Errorf("prune after the upgrade: deleted %d, failed %d %+v; want the 11 twins and the gone page's two documents deleted, no failure",
			sum.Deleted, sum.Failed, sum.Failures)
	}
	if docs, _ := consistency(t, tn); docs != 11 {
		t.Errorf("%d documents for 11 pages", docs)
	}
}
