package job_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestStoredDocumentsReportTheirEmbeddedChunks: the tenant's usage counts
// the chunk texts a job's documents sent to the embedding model, as a PUT's
// (OnStored, wired to the usage recorder by the server): a stored document
// reports its count once, an unchanged one 0, a failed one nothing.
func TestStoredDocumentsReportTheirEmbeddedChunks(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var mu sync.Mutex
	got := map[uuid.UUID]int{}
	calls := 0
	s := job.New(testdb.App(t), f.pipe, job.Options{Workers: 1, Lease: time.Minute, MaxAttempts: 1, RetryDelay: time.Millisecond,
		Poll: 20 * time.Millisecond, Tenants: []uuid.UUID{f.tn.ID},
		OnStored: func(id uuid.UUID, n int) {
			mu.Lock()
			defer mu.Unlock()
			got[id] += n
			calls++
		}})
	ctx := operator(context.Background())
	files := []job.File{
		{SourceURI: "https://x.test/a.md", ContentType: extract.TypeMarkdown, Content: md("Alpha", 300)},
		{SourceURI: "https://x.test/e.txt", ContentType: extract.TypePlain, Content: []byte("   \n  ")},
	}
	if _, err := s.Create(ctx, f.tn, job.OriginAPI, "two files", files); err != nil {
		t.Fatal(err)
	}
	drain(t, s)
	_, _, chunks := docState(t, f.tn, "https://x.test/a.md")
	if calls != 1 || got[f.tn.ID] != chunks || chunks == 0 {
		t.Errorf("OnStored: %d calls, %d embedded for the tenant; want 1 call with the document's %d chunks", calls, got[f.tn.ID], chunks)
	}
	// The same file again: unchanged, nothing embedded.
	if _, err := s.Create(ctx, f.tn, job.OriginAPI, "again", files[:1]); err != nil {
		t.Fatal(err)
	}
	drain(t, s)
	if calls != 2 || got[f.tn.ID] != chunks {
		t.Errorf("unchanged document: %d calls, %d embedded; want one more call adding 0", calls, got[f.tn.ID])
	}
}
