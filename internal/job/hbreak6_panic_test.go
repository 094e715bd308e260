package job_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// panicky is an Upserter whose pipeline panics on one document (a bug in
// an extractor or the chunker reached by one crafted file).
type panicky struct{ next job.Upserter }

func (p panicky) Upsert(ctx context.Context, t tenant.Tenant, d ingest.Document) (ingest.Outcome, error) {
	if d.SourceURI == "crash.md" {
		var m map[string]int
		m["boom"]++ // nil map write: a runtime panic, as a parser bug would raise
	}
	return p.next.Upsert(ctx, t, d)
}

// TestPanickingDocumentFailsItsItemNotTheServer (breaker h-break6): a PUT
// whose processing panics is contained by the HTTP middleware (500 for
// that request; internal/api/middleware.go recovers). The same document in
// an ingestion job panics in Service.process, in a worker goroutine of
// `ragd serve` with no recover: the whole server process dies, every
// request in flight with it; the item's lease then expires, another server
// (or the restarted one) claims it and dies too — up to MaxAttempts (5)
// crashes per such document, and an archive can hold many. Want: the item
// failed with a reason, the worker alive to take the next one.
func TestPanickingDocumentFailsItsItemNotTheServer(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := operator(context.Background())
	s := job.New(testdb.App(t), panicky{f.pipe}, job.Options{Workers: 1, Lease: time.Minute, MaxAttempts: 3,
		RetryDelay: 10 * time.Millisecond, Poll: 20 * time.Millisecond, Tenants: []uuid.UUID{f.tn.ID}})
	j, err := s.Create(ctx, f.tn, job.OriginAPI, "", []job.File{
		{SourceURI: "crash.md", ContentType: extract.TypeMarkdown, Content: md("Crash", 20)},
		{SourceURI: "fine.md", ContentType: extract.TypeMarkdown, Content: md("Fine", 20)},
	})
	if err != nil {
		t.Fatal(err)
	}
	work := func() (ok bool, err error, panicked any) {
		defer func() { panicked = recover() }()
		ok, err = s.Work(ctx)
		return
	}
	for i := 0; i < 2; i++ {
		if _, err, p := work(); p != nil || err != nil {
			t.Fatalf("Work %d: the panic of one document reached the worker's goroutine (in `ragd serve`: the process dies): %v %v", i+1, p, err)
		}
	}
	its := items(t, s, f.tn, j.ID)
	if its[0].Stage != job.StageFailed || its[1].Stage != job.StageStored {
		t.Fatalf("items %s", fmt.Sprint(its))
	}
}
