package job_test

import (
	"context"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestDisabledTenantsJobWaits: a job of a tenant disabled before its items
// are worked stays queued (no item claimed, none failed, no attempt
// counted), and is worked to the end once the tenant is enabled again.
// Before, every item was failed for good with "the tenant is disabled".
func TestDisabledTenantsJobWaits(t *testing.T) {
	t.Parallel()
	f := setup(t)
	s := f.service(time.Minute)
	ctx := operator(context.Background())
	files := []job.File{
		{SourceURI: "https://x.test/a.md", ContentType: extract.TypeMarkdown, Content: md("Alpha", 40)},
		{SourceURI: "https://x.test/b.md", ContentType: extract.TypeMarkdown, Content: md("Beta", 40)},
	}
	j, err := s.Create(ctx, f.tn, job.OriginAPI, "two files", files)
	if err != nil {
		t.Fatal(err)
	}
	status := func(st string) {
		t.Helper()
		if _, err := store.New().SetTenantStatus(context.Background(), testdb.Owner(t), store.SetTenantStatusParams{Slug: f.tn.Slug, Status: st}); err != nil {
			t.Fatal(err)
		}
	}
	status("disabled")
	for range 3 {
		ok, err := s.Work(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			t.Fatal("claimed an item of a disabled tenant")
		}
	}
	for _, it := range items(t, s, f.tn, j.ID) {
		if it.Stage != job.StageQueued || it.Attempts != 0 || it.Error != "" {
			t.Errorf("item of the disabled tenant: %+v, want queued, no attempt, no error", it)
		}
	}
	status("active")
	if n := drain(t, s); n != 2 {
		t.Fatalf("worked %d items once enabled, want 2", n)
	}
	j, err = s.Get(ctx, f.tn.ID, j.ID)
	if err != nil {
		t.Fatal(err)
	}
	if j.Status != job.StatusCompleted || j.Stored != 2 || j.Failed != 0 {
		t.Errorf("job once enabled: %+v, want completed with 2 stored", j)
	}
}
