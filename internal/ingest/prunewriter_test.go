package ingest_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// A prune deletes only what `ragd ingest` stored: a document uploaded
// through the API under the run's prefix names no file and is kept (it
// was deleted as "its file is gone"); the last write decides, an unchanged
// one too; a document stored before writers were recorded is kept and
// reported; and the delete itself checks the writer, so an API write that
// took a source_uri after the prune listed it survives.
func TestPruneDeletesOnlyWhatIngestStored(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	root := t.TempDir()
	pages := map[string]string{
		"a.md": "# Alpha\n\nThe alpha page explains replication slots.\n",
		"b.md": "# Beta\n\nThe beta page explains logical decoding.\n",
		"c.md": "# Gamma\n\nThe gamma page explains write-ahead logging.\n",
		"d.md": "# Delta\n\nThe delta page explains vacuum freezing.\n",
	}
	for name, text := range pages {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const base = "https://w.test/docs"
	run := func() ingest.Summary {
		t.Helper()
		files, _, err := ingest.Walk([]string{root}, ingest.WalkOptions{BaseURI: base})
		if err != nil {
			t.Fatal(err)
		}
		sum, err := p.IngestFiles(ctx, tn, files, 2, ingest.Prune{Prefix: base + "/", Roots: []string{root}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	api := func(uri, text string) {
		t.Helper()
		if _, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: uri, ContentType: "text/markdown", Content: []byte(text)}); err != nil {
			t.Fatal(err)
		}
	}
	stored := func() []string {
		t.Helper()
		m, err := p.ListSourceURIs(ctx, tn, base+"/")
		if err != nil {
			t.Fatal(err)
		}
		return slices.Sorted(maps.Keys(m))
	}
	if sum := run(); sum.Added != 4 {
		t.Fatalf("first run: %+v", sum)
	}
	// An upload under the prefix, and the API writing a.md's very content
	// (unchanged, but now the API's).
	api(base+"/notes/meeting.md", "# Meeting\n\nNotes uploaded through the API.\n")
	api(base+"/a.md", pages["a.md"])
	for _, name := range []string{"a.md", "b.md"} {
		if err := os.Remove(filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	sum := run()
	if !slices.Equal(sum.DeletedDocuments, []string{base + "/b.md"}) || sum.Deleted != 1 {
		t.Errorf("deleted %q (%d), want only b.md", sum.DeletedDocuments, sum.Deleted)
	}
	wantKept := []ingest.KeptDocument{{SourceURI: base + "/a.md", Writer: "api"}, {SourceURI: base + "/notes/meeting.md", Writer: "api"}}
	if !slices.Equal(sum.KeptDocuments, wantKept) {
		t.Errorf("kept %+v, want %+v", sum.KeptDocuments, wantKept)
	}
	if got, want := stored(), []string{base + "/a.md", base + "/c.md", base + "/d.md", base + "/notes/meeting.md"}; !slices.Equal(got, want) {
		t.Fatalf("stored %q, want %q", got, want)
	}

	// The file back with the same content: the unchanged write makes the
	// document the run's again, so the next prune deletes it when it goes.
	if err := os.WriteFile(filepath.Join(root, "a.md"), []byte(pages["a.md"]), 0o644); err != nil {
		t.Fatal(err)
	}
	if sum := run(); sum.Unchanged != 3 || sum.Deleted != 0 {
		t.Fatalf("run with a.md back: %+v", sum)
	}
	if err := os.Remove(filepath.Join(root, "a.md")); err != nil {
		t.Fatal(err)
	}
	if sum := run(); !slices.Equal(sum.DeletedDocuments, []string{base + "/a.md"}) {
		t.Errorf("a.md's file gone after the run took it back: deleted %q", sum.DeletedDocuments)
	}

	// A document stored before writers were recorded (NULL) is kept and
	// named, whatever its file.
	pool := testdb.App(t)
	forgetWriters(t, tn, base+"/c.md")
	if err := os.Remove(filepath.Join(root, "c.md")); err != nil {
		t.Fatal(err)
	}
	sum = run()
	if sum.Deleted != 0 || !slices.Contains(sum.KeptDocuments, ingest.KeptDocument{SourceURI: base + "/c.md", Writer: "unknown"}) {
		t.Errorf("a pre-migration document whose file is gone: deleted %q, kept %+v", sum.DeletedDocuments, sum.KeptDocuments)
	}

	// The delete checks the writer: d.md, listed as the run's, then
	// rewritten through the API, is not deleted by the prune's statement;
	// a document the run stored is.
	api(base+"/d.md", "# Delta\n\nRewritten through the API.\n")
	err := store.InTenant(ctx, pool, tn.ID, func(tx pgx.Tx) error {
		q := store.New()
		if _, err := q.PruneDocument(ctx, tx, store.PruneDocumentParams{TenantID: tn.ID, SourceUri: base + "/d.md", Unknown: true}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("prune of an API-written document: %v, want not found", err)
		}
		if _, err := q.PruneDocument(ctx, tx, store.PruneDocumentParams{TenantID: tn.ID, SourceUri: base + "/c.md", Unknown: false}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("prune of a document of unknown writer without unknown: %v, want not found", err)
		}
		_, err := q.PruneDocument(ctx, tx, store.PruneDocumentParams{TenantID: tn.ID, SourceUri: base + "/c.md", Unknown: true})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := stored(), []string{base + "/d.md", base + "/notes/meeting.md"}; !slices.Equal(got, want) {
		t.Errorf("stored %q, want %q", got, want)
	}
	consistency(t, tn)
}

// forgetWriters makes the tenant's documents at uris (every document when
// none is given) documents of no recorded writer, as migration 00035
// leaves those stored before it.
func forgetWriters(t *testing.T, tn tenant.Tenant, uris ...string) {
	t.Helper()
	if uris == nil {
		uris = []string{} // an array, not NULL
	}
	err := store.InTenant(context.Background(), testdb.App(t), tn.ID, func(tx pgx.Tx) error {
		_, err := tx.Exec(context.Background(), "UPDATE documents SET from_files = NULL WHERE cardinality($1::text[]) = 0 OR source_uri = ANY($1)", uris)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
