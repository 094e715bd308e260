package ingest_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// writeWhileDeleted stores first, then writes second to the same
// source_uri and deletes the document while that write is being extracted
// (after it read the stored row, before it writes). It returns the second
// write's outcome and the document stored in the end.
func writeWhileDeleted(t *testing.T, p *ingest.Pipeline, tn tenant.Tenant, first, second ingest.Document) (ingest.Outcome, storedDoc) {
	t.Helper()
	ctx := context.Background()
	upsert(t, p, tn, first)
	deleted := false
	wctx := ingest.WithStageObserver(ctx, func(s ingest.Stage) error {
		if s == ingest.StageExtracted && !deleted {
			deleted = true
			if _, err := p.DeleteBySourceURI(ctx, tn, first.SourceURI); err != nil {
				t.Errorf("delete: %v", err)
			}
		}
		return nil
	})
	out, err := p.Upsert(wctx, tn, second)
	if err != nil {
		t.Fatal(err)
	}
	if !deleted {
		t.Fatal("the delete did not run during the write")
	}
	d, ok := readDoc(t, tn, second.SourceURI)
	if !ok {
		t.Fatalf("write %+v stored nothing", out)
	}
	if out.Status != ingest.StatusAdded {
		t.Errorf("status %s, want added (the document it replaced was deleted)", out.Status)
	}
	return out, d
}

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
	const uri = "docs/notes.md"
	_, d := writeWhileDeleted(t, p, tn,
		ingest.Document{SourceURI: uri, Title: "Named by an editor", ContentType: "text/markdown",
			Content: []byte("# Old notes\n\nThe old release notes.\n")},
		ingest.Document{SourceURI: uri, ContentType: "text/markdown", Content: []byte("# Release notes\n\nVersion 2 adds widgets.\n")})
	if d.Title != "Release notes" {
		t.Errorf("the new document's title is %q, want the content's %q: the deleted document's named title was carried over", d.Title, "Release notes")
	}
}

// The same for the type: a write that names no content type keeps the
// text type the stored document was read as, and must not keep it from a
// document deleted meanwhile. A Markdown document at a source_uri without
// an extension, deleted while a write of new plain content to that
// source_uri is extracted, came back as text/markdown, read as Markdown,
// which neither order of the two requests gives (delete then write: the
// content's text/plain; write then delete: no document).
func TestDeleteDuringWriteLendsNoContentType(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	const uri = "docs/guide"
	_, d := writeWhileDeleted(t, p, tn,
		ingest.Document{SourceURI: uri, ContentType: "text/markdown", Content: []byte("# Guide\n\nThe old guide.\n")},
		ingest.Document{SourceURI: uri, Content: []byte("# 1 is the exit code of a failed run.\n\n* starred lines are notes.\n")})
	if d.ContentType != "text/plain" {
		t.Errorf("the new document's content type is %q, want text/plain (its bytes, no type named): the deleted document's type was carried over", d.ContentType)
	}
}
