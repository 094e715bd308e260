package job_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// A job's document whose time ran out while it waited for another writer
// of the same source_uri (the document's row lock, held here by a
// transaction standing in for a long synchronous PUT or another job) is
// not a document that "takes too long": another attempt, once the lock is
// free, stores it in no time. It must not fail for good with "split it
// into smaller documents" (context.DeadlineExceeded was a transient
// failure, retried, before RAGD_INGEST_DOCUMENT_TIMEOUT).
func TestDocumentTimedOutWaitingForAnotherWriterIsRetried(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := operator(context.Background())
	const uri = "locked.md"
	if _, err := f.pipe.Upsert(ctx, f.tn, ingest.Document{SourceURI: uri, ContentType: extract.TypeMarkdown, Content: md("Old", 20)}); err != nil {
		t.Fatal(err)
	}
	// The document's time is long enough for a 20-word document on a
	// loaded machine (300 ms ran out on all three attempts under the race
	// detector at load 10), and short enough to wait out while locked.
	s := job.New(testdb.App(t), f.pipe, job.Options{Workers: 1, Lease: time.Minute, MaxAttempts: 5, RetryDelay: time.Millisecond,
		Poll: 20 * time.Millisecond, DocumentTimeout: 2 * time.Second, Tenants: []uuid.UUID{f.tn.ID}})
	j, err := s.Create(ctx, f.tn, job.OriginAPI, "", []job.File{{SourceURI: uri, ContentType: extract.TypeMarkdown, Content: md("New", 20)}})
	if err != nil {
		t.Fatal(err)
	}
	// Another writer holds the document's row for longer than the
	// document's time; the worker's attempt runs (and times out) meanwhile.
	err = store.InTenant(ctx, testdb.App(t), f.tn.ID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT 1 FROM documents WHERE source_uri = $1 FOR UPDATE", uri); err != nil {
			return err
		}
		ok, err := s.Work(ctx)
		if !ok && err == nil {
			t.Error("no item to work")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// The lock is free: whatever attempts are left store the document.
	for range 50 {
		if its := items(t, s, f.tn, j.ID); job.Final(its[0].Stage) {
			break
		}
		drain(t, s)
		time.Sleep(20 * time.Millisecond) // the retry's delay
	}
	it := items(t, s, f.tn, j.ID)[0]
	if it.Stage != job.StageStored {
		t.Fatalf("item = stage %s, attempts %d, error %q; want stored once the other writer let go (the document is small, not slow)",
			it.Stage, it.Attempts, it.Error)
	}
	if strings.Contains(it.Error, "split it") {
		t.Fatalf("error %q advises splitting a 20-word document", it.Error)
	}
}
