package ingest_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
)

// A document deleted while a new write to its source_uri is being
// extracted must not lend that write anything: the write then makes a new
// document, as after the delete. The write read the deleted document's
// named title before extracting ("a title named earlier is kept") and
// stored it on the new document: the result was "Named by an editor",
// which neither order of the two requests gives (delete then write: the
// content's title "Release notes"; write then delete: no document).
func TestDeleteDuringWriteLendsNoTitle(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	const uri = "docs/notes.md"
	upsert(t, p, tn, ingest.Document{SourceURI: uri, Title: "Named by an editor", ContentType: "text/markdown",
		Content: []byte("# Old notes\n\nThe old release notes.\n")})
	deleted := false
	wctx := ingest.WithStageObserver(ctx, func(s ingest.Stage) error {
		if s == ingest.StageExtracted && !deleted {
			deleted = true
			if _, err := p.DeleteBySourceURI(ctx, tn, uri); err != nil {
				t.Errorf("delete: %v", err)
			}
		}
		return nil
	})
	out, err := p.Upsert(wctx, tn, ingest.Document{SourceURI: uri, ContentType: "text/markdown",
		Content: []byte("# Release notes\n\nVersion 2 adds widgets.\n")})
	if err != nil {
		t.Fatal(err)
	}
	if !deleted {
		t.Fatal("the delete did not run during the write")
	}
	d, ok := readDoc(t, tn, uri)
	if !ok {
		t.Fatalf("write %+v stored nothing", out)
	}
	if d.Title != "Release notes" {
		t.Errorf("the new document's title is %q, want the content's %q: the deleted document's named title was carried over", d.Title, "Release notes")
	}
	if out.Status != ingest.StatusAdded {
		t.Errorf("status %s, want added (the document it replaced was deleted)", out.Status)
	}
}
