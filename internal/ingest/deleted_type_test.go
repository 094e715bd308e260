package ingest_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// A write that names no content type keeps the text type the stored
// document was read as (851bd9b), read under the row lock before
// extraction, like the named title that cee5152 stops lending once the
// document is deleted meanwhile. The type is lent all the same: a
// Markdown document at a source_uri without an extension, deleted while a
// write of new plain content to that source_uri is extracted, comes back
// as a new document of type text/markdown, read as Markdown, which neither
// order of the two requests gives (delete then write: the content's
// text/plain; write then delete: no document).
func TestDeleteDuringWriteLendsNoContentType(t *testing.T) {
	t.Parallel()
	p, _, tn := setup(t)
	ctx := context.Background()
	const uri = "docs/guide"
	upsert(t, p, tn, ingest.Document{SourceURI: uri, ContentType: "text/markdown",
		Content: []byte("# Guide\n\nThe old guide.\n")})
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
	out, err := p.Upsert(wctx, tn, ingest.Document{SourceURI: uri,
		Content: []byte("# 1 is the exit code of a failed run.\n\n* starred lines are notes.\n")})
	if err != nil {
		t.Fatal(err)
	}
	if !deleted {
		t.Fatal("the delete did not run during the write")
	}
	var ct string
	err = store.InTenant(ctx, testdb.App(t), tn.ID, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `SELECT content_type FROM documents WHERE tenant_id = $1 AND source_uri = $2`, tn.ID, uri).Scan(&ct)
	})
	if err != nil {
		t.Fatalf("write %+v: %v", out, err)
	}
	if ct != "text/plain" {
		t.Errorf("the new document's content type is %q, want text/plain (its bytes, no type named): the deleted document's type was carried over", ct)
	}
}
