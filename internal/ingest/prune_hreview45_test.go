package ingest_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
)

// TestHReview45PruneGuardIgnoresKeptDocuments: the prune guard stops a
// prune that would delete more than 10 documents and more than half of
// those under the prefix (a subdirectory ingested with its parent's base
// URI). Documents the API uploaded under the prefix are never deleted
// now, yet they still count in the guard's "of those under the prefix":
// a handbook of 14 ingested pages with 20 API uploads beside them, pruned
// from a subdirectory by mistake, loses 13 of its 14 pages without a
// word (13 is not more than half of 34). Before c73b100 the same run
// counted the uploads among the lost and the guard stopped it. What a
// user sees: `ragd ingest --prune` deletes almost the whole tree the
// guard exists to protect, because the tenant also uploaded documents
// through the API.
func TestHReview45PruneGuardIgnoresKeptDocuments(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	root := t.TempDir()
	const base = "https://guard.test/handbook"
	for i := range 14 {
		text := fmt.Sprintf("# Page %d\n\nWhat page %d of the handbook says about topic %d.\n", i, i, i)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("p%02d.md", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, _, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: base})
	if err != nil {
		t.Fatal(err)
	}
	if sum, err := p.IngestFiles(ctx, tn, files, 2, ingest.Prune{Prefix: base + "/", Roots: []string{root}}, nil); err != nil || sum.Added != 14 {
		t.Fatalf("first run: %+v, %v", sum, err)
	}
	for i := range 20 {
		uri := fmt.Sprintf("%s/uploads/faq-%02d.md", base, i)
		text := fmt.Sprintf("# FAQ %d\n\nAnswer %d, uploaded through the API.\n", i, i)
		if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: uri, ContentType: "text/markdown", Content: []byte(text)}); err != nil {
			t.Fatal(err)
		}
	}
	// The mistake the guard is for: a part of the tree (here one page)
	// ingested with the whole tree's base URI and --prune.
	sub := t.TempDir()
	if err := os.WriteFile(filepath.Join(sub, "p00.md"), []byte("# Page 0\n\nWhat page 0 of the handbook says about topic 0.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, _, err = ingest.Walk([]string{sub}, ingest.WalkOptions{BaseURI: base})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := p.IngestFiles(ctx, tn, files, 2, ingest.Prune{Prefix: base + "/", Roots: []string{sub}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Deleted != 0 {
		t.Errorf("the prune deleted %d of the 14 ingested pages (guard not triggered: %d kept uploads counted as documents it could delete); failures %+v",
			sum.Deleted, len(sum.KeptDocuments), sum.Failures)
	}
}

// TestHReview45PruneKeepsPreMigrationUploadWithFragment: a document
// stored before migration 00035 (from_files NULL) is kept by a prune
// "except superseded spellings of a file's source_uri". An upload the API
// stored before the upgrade under the prefix, with a source_uri that is
// no EscapePath spelling of any file ("…/billing.html#refunds", a section
// uploaded on its own; a query string does the same), is taken for a
// superseded spelling (Prune.misspelt) and deleted, though no file of the
// run has its name and nobody knows who wrote it. What a user sees: the
// first `ragd ingest --prune` after the upgrade deletes API uploads the
// release notes promise to keep, reported as DELETED "its file is gone".
func TestHReview45PruneKeepsPreMigrationUploadWithFragment(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	root := t.TempDir()
	const base = "https://frag.test/docs"
	if err := os.WriteFile(filepath.Join(root, "index.md"), []byte("# Docs\n\nThe start page of the docs.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	uploads := []string{base + "/billing.html#refunds", base + "/search?q=refund"}
	for i, uri := range uploads {
		text := fmt.Sprintf("# Upload %d\n\nA section uploaded through the API, number %d.\n", i, i)
		if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: uri, ContentType: "text/markdown", Content: []byte(text)}); err != nil {
			t.Fatal(err)
		}
	}
	// Stored before the migration: no writer recorded.
	forgetWriters(t, tn)
	files, _, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: base})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := p.IngestFiles(ctx, tn, files, 2, ingest.Prune{Prefix: base + "/", Roots: []string{root}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := p.ListSourceURIs(ctx, tn, base+"/")
	if err != nil {
		t.Fatal(err)
	}
	for _, uri := range uploads {
		if _, ok := stored[uri]; !ok {
			t.Errorf("pre-migration upload %s deleted by the prune (deleted %q, kept %+v); stored now %q",
				uri, sum.DeletedDocuments, sum.KeptDocuments, slices.Sorted(maps.Keys(stored)))
		}
	}
}
