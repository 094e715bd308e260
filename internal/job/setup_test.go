package job_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

var (
	localOnce sync.Once
	localEmb  embed.Embedder
	localErr  error
)

func local(t testing.TB) embed.Embedder {
	t.Helper()
	localOnce.Do(func() { localEmb, localErr = embed.NewLocal(embed.DefaultModelDir(os.Getenv)) })
	if localErr != nil {
		t.Fatalf("embedding model unavailable (run `make setup`): %v", localErr)
	}
	return localEmb
}

// provider is an in-process OpenAI-compatible embeddings API backed by the
// local model. When hold is set, a request blocks until the client gives up
// (its context ends), after signalling on held: a provider that hangs.
type provider struct {
	*httptest.Server
	hold  atomic.Bool
	down  atomic.Bool // answer 503 to every request
	held  chan struct{}
	calls atomic.Int64
}

func newProvider(t *testing.T) (*provider, *embed.OpenAI) {
	t.Helper()
	emb := local(t)
	p := &provider{held: make(chan struct{}, 16)}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.calls.Add(1)
		if p.down.Load() {
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
			return
		}
		if p.hold.Load() {
			// The body read to its end, the server notices the client
			// hanging up (and ends r's context).
			_, _ = io.Copy(io.Discard, r.Body)
			p.held <- struct{}{}
			<-r.Context().Done()
			return
		}
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		vecs, err := emb.Embed(r.Context(), req.Input)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		data := make([]map[string]any, len(vecs))
		for i, v := range vecs {
			data[i] = map[string]any{"object": "embedding", "index": i, "embedding": v}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": emb.Model()})
	}))
	t.Cleanup(p.Close)
	c, err := embed.NewOpenAI(p.URL+"/v1", emb.Model(), emb.Dims(), embed.WithOpenAIMaxRetries(1),
		embed.WithOpenAIBackoff(time.Millisecond, 5*time.Millisecond), embed.WithOpenAITimeout(30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return p, c
}

// fixture is one test's tenant, provider, pipeline and options.
type fixture struct {
	t    *testing.T
	prov *provider
	pipe *ingest.Pipeline
	tn   tenant.Tenant
}

func setup(t *testing.T) *fixture {
	t.Helper()
	prov, emb := newProvider(t)
	pipe, err := ingest.New(testdb.App(t), emb, 1)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, prov: prov, pipe: pipe, tn: newTenant(t, "job")}
}

func newTenant(t *testing.T, prefix string) tenant.Tenant {
	t.Helper()
	tn := testdb.NewTenant(t, prefix, "")
	tt, err := tenant.Load(operator(context.Background()), testdb.App(t), tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	return tt
}

// service returns a job service limited to the given tenants (so tests
// running in parallel never take each other's items).
func (f *fixture) service(lease time.Duration, tenants ...uuid.UUID) *job.Service {
	if len(tenants) == 0 {
		tenants = []uuid.UUID{f.tn.ID}
	}
	return job.New(testdb.App(f.t), f.pipe, job.Options{Workers: 2, Lease: lease, MaxAttempts: 3, RetryDelay: 10 * time.Millisecond,
		Poll: 20 * time.Millisecond, Tenants: tenants})
}

// drain works items until none is claimable; returns how many it worked.
func drain(t *testing.T, s *job.Service) int {
	t.Helper()
	n := 0
	for {
		ok, err := s.Work(operator(context.Background()))
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return n
		}
		n++
	}
}

// items returns every item of job id.
func items(t *testing.T, s *job.Service, tn tenant.Tenant, id uuid.UUID) []job.Item {
	t.Helper()
	its, err := s.Items(operator(context.Background()), tn.ID, id, -1, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return its
}

// docState is what the tenant stores for a source_uri: how many documents,
// the document's chunk_count and the chunks actually present.
func docState(t *testing.T, tn tenant.Tenant, uri string) (docs, chunkCount, chunks int) {
	t.Helper()
	ctx := operator(context.Background())
	err := store.InTenant(ctx, testdb.App(t), tn.ID, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `SELECT count(*), coalesce(max(d.chunk_count), 0),
			(SELECT count(*) FROM chunks c JOIN documents d2 ON d2.id = c.document_id WHERE d2.source_uri = $1)
			FROM documents d WHERE d.source_uri = $1`, uri).Scan(&docs, &chunkCount, &chunks)
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs, chunkCount, chunks
}

// operator is ctx as the operator's commands run: every document and job of
// the tenant visible (store.AllDocuments), as the workers' own bookkeeping.
func operator(ctx context.Context) context.Context {
	return store.WithVisibility(ctx, store.AllDocuments())
}
