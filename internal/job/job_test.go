package job_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

func md(title string, words int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title)
	for i := range words {
		fmt.Fprintf(&b, "%s word%d ", strings.ToLower(title), i)
		if i%40 == 39 {
			b.WriteString("\n\n## Part\n\n")
		}
	}
	return []byte(b.String())
}

func TestJobStoresEveryDocumentWithItsStage(t *testing.T) {
	t.Parallel()
	f := setup(t)
	s := f.service(time.Minute)
	ctx := operator(context.Background())
	files := []job.File{
		{SourceURI: "https://x.test/a.md", ContentType: extract.TypeMarkdown, Content: md("Alpha", 300)},
		{SourceURI: "https://x.test/b.md", ContentType: extract.TypeMarkdown, Content: md("Beta", 50), Metadata: map[string]any{"team": "db"}},
		{SourceURI: "https://x.test/c.txt", ContentType: extract.TypePlain, Content: []byte("Gamma plain text body.")},
		{SourceURI: "https://x.test/d.bin", Skip: "unsupported file type .bin", Content: []byte{0, 1, 2}},
		{SourceURI: "https://x.test/e.txt", ContentType: extract.TypePlain, Content: []byte("   \n  ")},
	}
	j, err := s.Create(ctx, f.tn, job.OriginAPI, "five files", files)
	if err != nil {
		t.Fatal(err)
	}
	if j.Status != job.StatusQueued || j.Total != 5 || j.Skipped != 1 || j.Queued != 4 || j.Done != 1 {
		t.Fatalf("new job = %+v, want queued with 4 queued and 1 skipped", j)
	}
	if n := drain(t, s); n != 4 {
		t.Fatalf("worked %d items, want 4", n)
	}
	j, err = s.Get(ctx, f.tn.ID, j.ID)
	if err != nil {
		t.Fatal(err)
	}
	if j.Status != job.StatusCompletedWithFailures || j.Done != 5 || j.Stored != 3 || j.Failed != 1 || j.Skipped != 1 || j.Progress != 1 || j.Finished == nil {
		t.Fatalf("finished job = %+v", j)
	}
	its := items(t, s, f.tn, j.ID)
	want := []struct{ stage, outcome, errPart string }{
		{job.StageStored, "added", ""}, {job.StageStored, "added", ""}, {job.StageStored, "added", ""},
		{job.StageSkipped, "", "unsupported file type"}, {job.StageFailed, "", "no text"},
	}
	for i, w := range want {
		it := its[i]
		if it.Index != i || it.Stage != w.stage || it.Outcome != w.outcome || !strings.Contains(it.Error, w.errPart) || (w.errPart == "") != (it.Error == "") {
			t.Errorf("item %d = %+v, want stage %s outcome %q error containing %q", i, it, w.stage, w.outcome, w.errPart)
		}
		if w.stage == job.StageStored {
			docs, cc, chunks := docState(t, f.tn, it.SourceURI)
			if it.DocumentID == nil || docs != 1 || cc != it.Chunks || chunks != it.Chunks || it.Chunks == 0 || it.Attempts != 1 {
				t.Errorf("%s: item %+v; stored %d documents with chunk_count %d and %d chunks", it.SourceURI, it, docs, cc, chunks)
			}
		}
	}
	// The uploaded bytes are gone once an item is final.
	var left int
	err = store.InTenant(ctx, testdb.App(t), f.tn.ID, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, "SELECT count(*) FROM ingestion_items WHERE content IS NOT NULL").Scan(&left)
	})
	if err != nil || left != 0 {
		t.Fatalf("items still holding bytes: %d (%v)", left, err)
	}

	// The same files again: nothing re-embedded, every document unchanged.
	calls := f.prov.calls.Load()
	j2, err := s.Create(ctx, f.tn, job.OriginAPI, "again", files[:3])
	if err != nil {
		t.Fatal(err)
	}
	drain(t, s)
	for _, it := range items(t, s, f.tn, j2.ID) {
		if it.Stage != job.StageUnchanged || it.Outcome != "unchanged" {
			t.Errorf("re-submitted %s: stage %s outcome %s, want unchanged", it.SourceURI, it.Stage, it.Outcome)
		}
	}
	if c := f.prov.calls.Load(); c != calls {
		t.Errorf("re-submitting unchanged files called the embedding API %d times", c-calls)
	}
}

func TestJobRefusesDuplicateSourceURIs(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, err := f.service(time.Minute).Create(operator(context.Background()), f.tn, job.OriginAPI, "", []job.File{
		{SourceURI: "a.md", ContentType: extract.TypeMarkdown, Content: []byte("# A")},
		{SourceURI: "a.md", ContentType: extract.TypeMarkdown, Content: []byte("# B")},
	})
	if !errors.Is(err, job.ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
}

// A worker stopped mid-document (its context cancelled while the embedding
// API hangs) stores nothing, hands the item back, and the next worker
// finishes the job with one whole document.
func TestStoppedWorkerLeavesJobResumable(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := operator(context.Background())
	s1 := f.service(time.Minute)
	const uri = "https://x.test/held.md"
	j, err := s1.Create(ctx, f.tn, job.OriginAPI, "", []job.File{{SourceURI: uri, ContentType: extract.TypeMarkdown, Content: md("Held", 400)}})
	if err != nil {
		t.Fatal(err)
	}
	f.prov.hold.Store(true)
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { s1.Run(wctx); close(done) }()
	select {
	case <-f.prov.held:
	case <-time.After(30 * time.Second):
		t.Fatal("the worker never reached the embedding API")
	}
	it := items(t, s1, f.tn, j.ID)[0]
	if it.Stage != job.StageChunked || it.Attempts != 1 {
		t.Fatalf("while embedding: item %+v, want stage chunked, attempt 1", it)
	}
	stop()
	<-done
	it = items(t, s1, f.tn, j.ID)[0]
	if it.Stage != job.StageChunked || it.Attempts != 0 || it.Finished != nil {
		t.Fatalf("after the stop: item %+v, want chunked, handed back (attempts 0), not finished", it)
	}
	if docs, _, _ := docState(t, f.tn, uri); docs != 0 {
		t.Fatalf("a stopped worker stored %d documents", docs)
	}
	f.prov.hold.Store(false)
	if n := drain(t, f.service(time.Minute)); n != 1 {
		t.Fatalf("the next worker worked %d items, want 1", n)
	}
	it = items(t, s1, f.tn, j.ID)[0]
	docs, cc, chunks := docState(t, f.tn, uri)
	if it.Stage != job.StageStored || it.Outcome != "added" || docs != 1 || cc != chunks || chunks != it.Chunks || chunks == 0 {
		t.Fatalf("resumed: item %+v; %d documents, chunk_count %d, %d chunks", it, docs, cc, chunks)
	}
}

// claimAs claims one item of tenants the way a worker does, and never
// finishes it: what a worker killed with SIGKILL leaves behind.
func claimAs(t *testing.T, lease time.Duration, tenants ...uuid.UUID) store.IngestionClaim {
	t.Helper()
	c, ok, err := store.ClaimIngestionItem(operator(context.Background()), testdb.App(t), lease, 3, tenants)
	if err != nil || !ok {
		t.Fatalf("claim: ok=%v err=%v", ok, err)
	}
	return c
}

// A worker killed after it committed the document but before it recorded
// the outcome: its lease expires, the next worker re-runs the item, the
// pipeline finds the content unchanged, and there is still exactly one
// document with its chunks.
func TestKilledWorkerIsResumedWithoutDuplicates(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := operator(context.Background())
	const uri = "https://x.test/killed.md"
	content := md("Killed", 300)
	s := f.service(time.Minute)
	j, err := s.Create(ctx, f.tn, job.OriginAPI, "", []job.File{{SourceURI: uri, ContentType: extract.TypeMarkdown, Content: content}})
	if err != nil {
		t.Fatal(err)
	}
	// The dead worker: claimed, stored the document, died.
	c := claimAs(t, time.Hour, f.tn.ID)
	if c.BatchID != j.ID || c.Idx != 0 || c.Attempts != 1 {
		t.Fatalf("claim = %+v", c)
	}
	if _, err := f.pipe.Upsert(ctx, f.tn, ingest.Document{SourceURI: uri, ContentType: extract.TypeMarkdown, Content: content}); err != nil {
		t.Fatal(err)
	}
	// Its lease holds: no one else may take the item.
	if ok, err := s.Work(ctx); ok || err != nil {
		t.Fatalf("an item under a live lease was claimed again (ok=%v, err=%v)", ok, err)
	}
	// Time passes: the lease expires.
	err = store.InTenant(ctx, testdb.App(t), f.tn.ID, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "UPDATE ingestion_items SET lease_until = now() - interval '1 second' WHERE batch_id = $1", j.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := drain(t, s); n != 1 {
		t.Fatalf("worked %d items after the lease expired, want 1", n)
	}
	it := items(t, s, f.tn, j.ID)[0]
	docs, cc, chunks := docState(t, f.tn, uri)
	if it.Stage != job.StageUnchanged || it.Attempts != 2 || docs != 1 || cc != chunks || chunks != it.Chunks || chunks == 0 {
		t.Fatalf("after the resume: item %+v; %d documents, chunk_count %d, %d chunks", it, docs, cc, chunks)
	}
	if jj, _ := s.Get(ctx, f.tn.ID, j.ID); jj.Status != job.StatusCompleted || jj.Finished == nil {
		t.Fatalf("job = %+v, want completed", jj)
	}
}

// An item whose workers keep dying is failed after MaxAttempts claims, with
// the reason.
func TestItemFailsAfterMaxAttempts(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := operator(context.Background())
	s := f.service(time.Minute)
	j, err := s.Create(ctx, f.tn, job.OriginAPI, "", []job.File{{SourceURI: "a.md", ContentType: extract.TypeMarkdown, Content: md("A", 20)}})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		claimAs(t, time.Millisecond, f.tn.ID)
		time.Sleep(5 * time.Millisecond)
	}
	if _, ok, err := store.ClaimIngestionItem(ctx, testdb.App(t), time.Minute, 3, []uuid.UUID{f.tn.ID}); ok || err != nil {
		t.Fatalf("a fourth claim: ok=%v err=%v, want none", ok, err)
	}
	it := items(t, s, f.tn, j.ID)[0]
	if it.Stage != job.StageFailed || !strings.Contains(it.Error, "gave up after 3 attempts") {
		t.Fatalf("item = %+v, want failed after 3 attempts", it)
	}
}

// Claims go round-robin across tenants: tenant A's large job, submitted
// first, does not make B's documents wait for it.
func TestClaimsAreFairAcrossTenants(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a, b := f.tn, newTenant(t, "job-b")
	s := f.service(time.Minute, a.ID, b.ID)
	ctx := operator(context.Background())
	var big []job.File
	for i := range 8 {
		big = append(big, job.File{SourceURI: fmt.Sprintf("a%02d.txt", i), ContentType: extract.TypePlain, Content: []byte("a")})
	}
	ja, err := s.Create(ctx, a, job.OriginAPI, "", big)
	if err != nil {
		t.Fatal(err)
	}
	// A has been served twice before B submits anything.
	for i := range 2 {
		if c := claimAs(t, time.Hour, a.ID, b.ID); c.TenantID != a.ID || c.Idx != int32(i) {
			t.Fatalf("claim %d = %+v, want A's item %d", i, c, i)
		}
	}
	jb, err := s.Create(ctx, b, job.OriginAPI, "", []job.File{
		{SourceURI: "b0.txt", ContentType: extract.TypePlain, Content: []byte("b")},
		{SourceURI: "b1.txt", ContentType: extract.TypePlain, Content: []byte("b")},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 8 {
		c := claimAs(t, time.Hour, a.ID, b.ID)
		name := "A"
		if c.TenantID == b.ID {
			name = "B"
			if c.BatchID != jb.ID {
				t.Fatalf("claim %+v is not of B's job", c)
			}
		} else if c.BatchID != ja.ID {
			t.Fatalf("claim %+v is not of A's job", c)
		}
		got = append(got, fmt.Sprintf("%s%d", name, c.Idx))
	}
	want := "B0 A2 B1 A3 A4 A5 A6 A7"
	if strings.Join(got, " ") != want {
		t.Fatalf("claim order %v, want %s", got, want)
	}
}

// A tenant sees only its own jobs.
func TestJobsAreTenantScoped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	other := newTenant(t, "job-other")
	s := f.service(time.Minute)
	ctx := operator(context.Background())
	j, err := s.Create(ctx, f.tn, job.OriginAPI, "", []job.File{{SourceURI: "a.txt", ContentType: extract.TypePlain, Content: []byte("secret")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, other.ID, j.ID); !errors.Is(err, job.ErrNotFound) {
		t.Fatalf("another tenant's Get: %v, want ErrNotFound", err)
	}
	if its, err := s.Items(ctx, other.ID, j.ID, -1, 10); err != nil || len(its) != 0 {
		t.Fatalf("another tenant's Items: %d items, %v", len(its), err)
	}
	if js, err := s.List(ctx, other.ID, nil, 10); err != nil || len(js) != 0 {
		t.Fatalf("another tenant's List: %d jobs, %v", len(js), err)
	}
	// The application role cannot read the queue across tenants directly.
	var n int
	if err := testdb.App(t).QueryRow(ctx, "SELECT count(*) FROM ingestion_items").Scan(&n); err != nil || n != 0 {
		t.Fatalf("items visible without a tenant: %d (%v)", n, err)
	}
	if _, err := testdb.App(t).Exec(ctx, "INSERT INTO ingestion_turns VALUES ($1, now())", other.ID); err == nil {
		t.Fatal("the application role writes a fairness turn")
	}
	var content []byte
	err = store.InTenant(ctx, testdb.App(t), other.ID, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, "SELECT content FROM ingestion_items WHERE batch_id = $1", j.ID).Scan(&content)
	})
	if !errors.Is(err, store.ErrNotFound) || bytes.Contains(content, []byte("secret")) {
		t.Fatalf("another tenant read the item: %v", err)
	}
}

// Concurrent claimers never take the same item (FOR UPDATE SKIP LOCKED and
// the lease): every item is claimed exactly once.
func TestConcurrentClaimsTakeEachItemOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	b := newTenant(t, "job-conc")
	ctx := operator(context.Background())
	s := f.service(time.Minute, f.tn.ID, b.ID)
	const n = 30
	for _, tn := range []tenant.Tenant{f.tn, b} {
		var files []job.File
		for i := range n {
			files = append(files, job.File{SourceURI: fmt.Sprintf("f%02d.txt", i), ContentType: extract.TypePlain, Content: []byte("x")})
		}
		if _, err := s.Create(ctx, tn, job.OriginAPI, "", files); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c, ok, err := store.ClaimIngestionItem(ctx, testdb.App(t), time.Hour, 3, []uuid.UUID{f.tn.ID, b.ID})
				if err != nil {
					t.Error(err)
					return
				}
				if !ok {
					return
				}
				mu.Lock()
				seen[fmt.Sprintf("%s/%s/%d", c.TenantID, c.BatchID, c.Idx)]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != 2*n {
		t.Fatalf("%d distinct items claimed, want %d", len(seen), 2*n)
	}
	for k, c := range seen {
		if c != 1 {
			t.Errorf("item %s claimed %d times", k, c)
		}
	}
}

// workUntil works items until one is claimable (a retry's delay must pass)
// or 10 s pass.
func workUntil(t *testing.T, s *job.Service) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		ok, err := s.Work(operator(context.Background()))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			return
		}
	}
	t.Fatal("nothing became claimable within 10 s")
}

// An embedding provider that is down makes an attempt fail transiently: the
// document is queued again with the reason, retried after the delay, and
// stored once the provider is back; a provider that stays down fails it
// after MaxAttempts (3 here) with the reason.
func TestTransientFailuresAreRetried(t *testing.T) {
	t.Parallel()
	f := setup(t)
	s := f.service(time.Minute)
	ctx := operator(context.Background())
	j, err := s.Create(ctx, f.tn, job.OriginAPI, "", []job.File{{SourceURI: "a.md", ContentType: extract.TypeMarkdown, Content: md("Retry", 50)}})
	if err != nil {
		t.Fatal(err)
	}
	f.prov.down.Store(true)
	workUntil(t, s)
	it := items(t, s, f.tn, j.ID)[0]
	if job.Final(it.Stage) || it.Attempts != 1 || !strings.Contains(it.Error, "embedding model is unavailable") {
		t.Fatalf("after a failed attempt: %+v, want queued for a retry with the reason", it)
	}
	if jj, _ := s.Get(ctx, f.tn.ID, j.ID); jj.Status != job.StatusRunning {
		t.Fatalf("job %+v, want running", jj)
	}
	f.prov.down.Store(false)
	workUntil(t, s)
	it = items(t, s, f.tn, j.ID)[0]
	if it.Stage != job.StageStored || it.Attempts != 2 {
		t.Fatalf("after the provider came back: %+v, want stored at attempt 2", it)
	}

	j2, err := s.Create(ctx, f.tn, job.OriginAPI, "", []job.File{{SourceURI: "b.md", ContentType: extract.TypeMarkdown, Content: md("Down", 50)}})
	if err != nil {
		t.Fatal(err)
	}
	f.prov.down.Store(true)
	for range 3 {
		workUntil(t, s)
	}
	it = items(t, s, f.tn, j2.ID)[0]
	if it.Stage != job.StageFailed || it.Attempts != 3 || !strings.Contains(it.Error, "gave up after 3 attempts: the embedding model is unavailable") {
		t.Fatalf("after 3 failed attempts: %+v", it)
	}
	if docs, _, _ := docState(t, f.tn, "b.md"); docs != 0 {
		t.Fatalf("a failed document was stored")
	}
}

// An attempt at a job's document that takes longer than DocumentTimeout
// ends; once the attempts are used (one here) the document fails with a
// reason naming the timeout, and the worker goes on with the next
// document. (Retried within the attempts: TestDocumentTimedOutWaitingForAnotherWriterIsRetried.)
func TestDocumentOverItsTimeFailsAndTheWorkerGoesOn(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := operator(context.Background())
	s := job.New(testdb.App(t), f.pipe, job.Options{Workers: 1, Lease: time.Minute, MaxAttempts: 1, RetryDelay: 10 * time.Millisecond,
		// The held document waits out the whole timeout; the next one must
		// be stored within it, which under the race detector on a loaded
		// machine took more than 300 ms (a CI run failed so).
		Poll: 20 * time.Millisecond, DocumentTimeout: 3 * time.Second, Tenants: []uuid.UUID{f.tn.ID}})
	j, err := s.Create(ctx, f.tn, job.OriginAPI, "", []job.File{
		{SourceURI: "slow.md", ContentType: extract.TypeMarkdown, Content: md("Slow", 20)},
		{SourceURI: "fine.md", ContentType: extract.TypeMarkdown, Content: md("Fine", 20)},
	})
	if err != nil {
		t.Fatal(err)
	}
	f.prov.hold.Store(true) // the provider never answers: the document's time runs out
	if ok, err := s.Work(ctx); !ok || err != nil {
		t.Fatalf("first Work: ok=%v err=%v", ok, err)
	}
	f.prov.hold.Store(false)
	if n := drain(t, s); n != 1 {
		t.Fatalf("worked %d more items, want 1 (the slow document's attempts are used)", n)
	}
	its := items(t, s, f.tn, j.ID)
	if its[0].Stage != job.StageFailed || its[0].Attempts != 1 || !strings.Contains(its[0].Error, "gave up after 1 attempts: the document was not stored within 3s") {
		t.Fatalf("slow item = %+v, want failed once with the timeout named", its[0])
	}
	if its[1].Stage != job.StageStored {
		t.Fatalf("next item = %+v, want stored", its[1])
	}
	if docs, _, _ := docState(t, f.tn, "slow.md"); docs != 0 {
		t.Fatal("the timed-out document was stored")
	}
}
