package job_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/job"
)

// TestHBreak8SlowDocumentsDoNotStarveOtherTenants (found by h-break8): two
// 800 KB Markdown files of "*a_ " repeated (mismatched emphasis, which the
// Markdown parser takes quadratic time over: minutes each) submitted by
// one tenant to POST /v1/ingest/jobs took both of ragd serve's workers
// (RAGD_INGEST_WORKERS=2), and another tenant's 29-byte job then stayed
// "queued" for as long as they ran (still queued after 40 s and more): the
// fair claim order does not help once every worker is inside one
// document, and a document has no deadline (extraction ignores its
// context; the lease is renewed while it runs). Another tenant's small
// document must be stored within seconds.
func TestHBreak8SlowDocumentsDoNotStarveOtherTenants(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a, b := f.tn, newTenant(t, "job-b")
	s := f.service(time.Minute, a.ID, b.ID)
	ctx, cancel := context.WithCancel(operator(context.Background()))
	defer cancel()
	slow := []byte(strings.Repeat("*a_ ", 100000)) // 400 KB
	if _, err := s.Create(ctx, a, job.OriginAPI, "slow", []job.File{
		{SourceURI: "slow1.md", ContentType: extract.TypeMarkdown, Content: slow},
		{SourceURI: "slow2.md", ContentType: extract.TypeMarkdown, Content: slow},
	}); err != nil {
		t.Fatal(err)
	}
	go s.Run(ctx)
	time.Sleep(2 * time.Second) // both workers inside A's documents
	jb, err := s.Create(ctx, b, job.OriginAPI, "small", []job.File{
		{SourceURI: "small.md", ContentType: extract.TypeMarkdown, Content: []byte("# Small\n\nA small document of another tenant.\n")},
	})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		j, err := s.Get(ctx, b.ID, jb.ID)
		if err != nil {
			t.Fatal(err)
		}
		if j.Done == j.Total {
			t.Logf("B's job done: %+v", j)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("another tenant's one small document is still not done after 20 s (job %+v): the workers are all inside one tenant's slow documents", j)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
