package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/app"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/llm"
	"github.com/ragd-dev/ragd/internal/rerank"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// secret signs the suites' development tokens.
const secret = "reliability-secret-0123456789abcdef0123456789"

var (
	embedOnce sync.Once
	localEmb  embed.Embedder
	embedErr  error
)

// local loads the USE-lite model once per test binary; a missing model fails
// with the fix, as testdb does for a missing database.
func local(t testing.TB) embed.Embedder {
	t.Helper()
	embedOnce.Do(func() { localEmb, embedErr = embed.NewLocal(embed.DefaultModelDir(os.Getenv)) })
	if embedErr != nil {
		t.Fatalf("embedding model unavailable (run `make setup` or scripts/fetch-model.sh): %v", embedErr)
	}
	return localEmb
}

// options shape one test server. Zero fields take production defaults.
type options struct {
	// DatabaseURL of the application role (default testdb.URL()).
	DatabaseURL string
	// MaxConns of the server's own pool (default 2: connection reuse across
	// tenants on every request).
	MaxConns int32
	// Embedder for search and ingestion (default the local model, loaded
	// once per test binary).
	Embedder embed.Embedder
	// Reranker and LLM: production clients, pointed at fake providers
	// (fakes_test.go); nil = none, as with the variables unset.
	Reranker *rerank.Client
	LLM      *llm.Client
	// Config adjusts the configuration (config.Load's defaults) before the
	// server is wired.
	Config func(*config.Config)
	// Wrap, when set, wraps the API handler (fault injection, self-tests).
	Wrap func(http.Handler) http.Handler
}

// server is a real ragd HTTP server wired as `ragd serve` wires it
// (app.New, app.App.APIDeps, api.NewHTTPServer's timeouts and header limit)
// on loopback, with its own small application-role pool.
type server struct {
	t      testing.TB
	URL    string
	Pool   *pgxpool.Pool
	API    *api.Server
	Deps   api.Deps
	Logs   *syncBuffer
	client *http.Client
	ts     *httptest.Server
}

func newServer(t testing.TB, o options) *server {
	t.Helper()
	testdb.App(t) // migrations, once per binary
	if o.DatabaseURL == "" {
		o.DatabaseURL = testdb.URL()
	}
	if o.MaxConns == 0 {
		o.MaxConns = 2
	}
	if o.Embedder == nil {
		o.Embedder = local(t)
	}
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.DatabaseURL, cfg.MaxConns = o.DatabaseURL, int(o.MaxConns)
	if o.Config != nil {
		o.Config(&cfg)
	}
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	ctx := context.Background()
	pool, err := store.Open(ctx, cfg.DatabaseURL, store.Options{MaxConns: int32(cfg.MaxConns), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	a, err := app.New(ctx, cfg, pool, app.WithLogger(log), app.WithEmbedder(o.Embedder), app.WithLLM(o.LLM), app.WithReranker(o.Reranker))
	if err != nil {
		t.Fatal(err)
	}
	v, err := auth.New(ctx, auth.Options{Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	deps := a.APIDeps(v)
	// The retrieval event writer runs as under `ragd serve`.
	recCtx, stopRec := context.WithCancel(ctx)
	recDone := make(chan struct{})
	go func() { deps.Recorder.Run(recCtx); close(recDone) }()
	t.Cleanup(func() { stopRec(); <-recDone })
	srv, err := api.New(deps)
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = srv
	if o.Wrap != nil {
		h = o.Wrap(srv)
	}
	ts := httptest.NewUnstartedServer(h)
	ts.Config = api.NewHTTPServer(h, deps.Limits, log)
	ts.Start()
	t.Cleanup(ts.Close)
	t.Cleanup(func() {
		if t.Failed() {
			var errs []string
			for _, l := range strings.Split(logs.String(), "\n") {
				if strings.Contains(l, "level=ERROR") && len(errs) < 20 {
					errs = append(errs, l)
				}
			}
			t.Logf("server errors:\n%s", strings.Join(errs, "\n"))
		}
	})
	tr := &http.Transport{MaxIdleConnsPerHost: 64, IdleConnTimeout: 30 * time.Second}
	t.Cleanup(tr.CloseIdleConnections)
	return &server{t: t, URL: ts.URL, Pool: pool, API: srv, Deps: deps, Logs: logs, ts: ts,
		client: &http.Client{Transport: tr, Timeout: 60 * time.Second}}
}

// token issues a development token.
func token(t testing.TB, id uuid.UUID, role auth.Role) string {
	t.Helper()
	tok, err := auth.Issue(secret, id, role, 2*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// call is one HTTP request.
type call struct {
	Method, Path, Token string
	// Body: nil; string or []byte sent as is; io.Reader streamed (chunked);
	// anything else JSON-encoded.
	Body        any
	ContentType string // default application/json when there is a body; "-" sends none
	Header      map[string]string
}

// reply is a response, read whole.
type reply struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r reply) String() string {
	b := r.Body
	if len(b) > 600 {
		b = append(b[:600:600], "…"...)
	}
	return fmt.Sprintf("%d %s", r.Status, b)
}

// json decodes the body into v.
func (r reply) json(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %T: %v; %s", v, err, r)
	}
}

// send performs c; transport errors are returned, not fatal.
func (s *server) send(ctx context.Context, c call) (reply, error) {
	var body io.Reader
	ct := c.ContentType
	switch v := c.Body.(type) {
	case nil:
	case string:
		body = strings.NewReader(v)
	case []byte:
		body = bytes.NewReader(v)
	case io.Reader:
		body = v
	default:
		raw, err := json.Marshal(v)
		if err != nil {
			return reply{}, err
		}
		body = bytes.NewReader(raw)
	}
	if body != nil && ct == "" {
		ct = "application/json"
	}
	if ct == "-" {
		ct = "" // send no Content-Type at all
	}
	req, err := http.NewRequestWithContext(ctx, c.Method, s.URL+c.Path, body)
	if err != nil {
		return reply{}, err
	}
	if _, stream := c.Body.(io.Reader); stream {
		req.ContentLength = -1 // chunked
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	for k, v := range c.Header {
		req.Header.Set(k, v)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	return reply{Status: resp.StatusCode, Header: resp.Header, Body: raw}, err
}

// do is send that fails the test on a transport error.
func (s *server) do(c call) reply {
	s.t.Helper()
	r, err := s.send(context.Background(), c)
	if err != nil {
		s.t.Fatalf("%s %s: %v", c.Method, c.Path, err)
	}
	return r
}

// healthy fails the test unless /healthz answers 200.
func (s *server) healthy(t testing.TB) {
	t.Helper()
	r, err := s.send(context.Background(), call{Method: "GET", Path: "/healthz"})
	if err != nil || r.Status != http.StatusOK {
		t.Fatalf("server down after the case: %v %v", err, r)
	}
}

// counts are a tenant's stored rows, read directly (as the application role,
// inside the tenant's transaction) rather than through the API under test.
type counts struct{ Docs, Chunks, Embeddings, Postings int }

func countRows(t testing.TB, id uuid.UUID) counts {
	t.Helper()
	var c counts
	ctx := context.Background()
	err := store.InTenant(ctx, testdb.App(t), id, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM chunks),
			(SELECT count(*) FROM chunk_embeddings), (SELECT count(*) FROM postings)`).
			Scan(&c.Docs, &c.Chunks, &c.Embeddings, &c.Postings)
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// consistency checks that a tenant's BM25 statistics equal what its chunks
// hold and that no row is orphaned (as internal/ingest's test helper does).
func consistency(t testing.TB, id uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	err := store.InTenant(ctx, testdb.App(t), id, func(tx pgx.Tx) error {
		checks := []struct{ name, sql string }{
			{"tenant_stats.chunk_count = count(chunks)", `SELECT (SELECT coalesce(max(chunk_count), 0) FROM tenant_stats) = (SELECT count(*) FROM chunks)`},
			{"tenant_stats.token_count = Σ tsv_length", `SELECT (SELECT coalesce(max(token_count), 0) FROM tenant_stats) = (SELECT coalesce(sum(tsv_length(tsv)), 0) FROM chunks)`},
			{"term_stats.df = postings per lexeme", `SELECT NOT EXISTS (SELECT 1 FROM term_stats t FULL JOIN (SELECT lexeme, count(*) c FROM postings GROUP BY lexeme) p USING (lexeme)
				WHERE t.df IS DISTINCT FROM p.c)`},
			{"postings = chunk lexemes", `SELECT (SELECT count(*) FROM postings) = (SELECT coalesce(sum(length(tsv)), 0) FROM chunks)`},
			{"no orphan postings", `SELECT NOT EXISTS (SELECT 1 FROM postings p WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = p.chunk_id))`},
			{"every chunk has an embedding", `SELECT NOT EXISTS (SELECT 1 FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id))`},
			{"no orphan embeddings", `SELECT NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = e.chunk_id))`},
			{"documents.chunk_count = chunks", `SELECT NOT EXISTS (SELECT 1 FROM documents d WHERE d.chunk_count <> (SELECT count(*) FROM chunks c WHERE c.document_id = d.id))`},
		}
		for _, c := range checks {
			var ok bool
			if err := tx.QueryRow(ctx, c.sql).Scan(&ok); err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			if !ok {
				t.Errorf("consistency: %s is false", c.name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// problem is the RFC 9457 body shape.
type problem struct {
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail"`
	RequestID string `json:"request_id"`
	Errors    []struct {
		Message  string `json:"message"`
		Location string `json:"location"`
	} `json:"errors"`
}

// wantProblem checks that r is a problem with the status and returns it.
func wantProblem(t testing.TB, r reply, status int) problem {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r)
	}
	var p problem
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("Content-Type %q on %d", ct, r.Status)
		return p
	}
	r.json(t, &p)
	if p.Status != status {
		t.Errorf("problem status %d, want %d", p.Status, status)
	}
	return p
}

// testSeed is the seed of a randomized test: fixed, so that every run sends
// the same inputs and a failure reproduces, unless RAGD_TEST_SEED sets
// another (a soak run exploring new inputs). It is logged either way.
func testSeed(t *testing.T) uint64 {
	t.Helper()
	seed := uint64(20261203)
	if s := os.Getenv("RAGD_TEST_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("RAGD_TEST_SEED: %v", err)
		}
		seed = v
	}
	t.Logf("seed %d (RAGD_TEST_SEED to change)", seed)
	return seed
}
