package api_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// internalText is what a server-side error says; no response may carry it.
const internalText = "dial tcp 10.9.8.7:5432: password authentication failed for user ragd_owner"

func noLeak(t *testing.T, body string) {
	t.Helper()
	for _, leak := range []string{"10.9.8.7", "password", "ragd_owner", "closed pool", "goroutine", ".go:", "dial tcp", "connection refused"} {
		if strings.Contains(body, leak) {
			t.Errorf("5xx body leaks %q: %s", leak, body)
		}
	}
}

func TestServerErrorsCarryNoInternalText(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.srv.API()
	huma.Register(a, huma.Operation{OperationID: "boom", Method: "GET", Path: "/v1/boom"},
		func(context.Context, *struct{}) (*struct{}, error) { return nil, errors.New(internalText) })
	huma.Register(a, huma.Operation{OperationID: "panic", Method: "GET", Path: "/v1/panic"},
		func(context.Context, *struct{}) (*struct{}, error) { panic(internalText) })
	admin := token(t, b.a.ID, auth.RoleAdmin)
	for _, path := range []string{"/v1/boom", "/v1/panic"} {
		w := b.do(req{method: "GET", path: path, token: admin, header: map[string]string{"X-Request-ID": "trace-" + path[4:]}})
		p := problem(t, w, http.StatusInternalServerError)
		noLeak(t, w.Body.String())
		if !strings.Contains(p.Detail, "trace-"+path[4:]) || len(p.Errors) != 0 {
			t.Errorf("%s: problem %+v", path, p)
		}
	}
	// The cause is in the log, with the request id.
	logs := b.logBuf.String()
	if !strings.Contains(logs, internalText) || !strings.Contains(logs, "request_id=trace-boom") || !strings.Contains(logs, "request_id=trace-panic") {
		t.Errorf("log lacks the cause or request id:\n%s", logs)
	}
}

// slowIngester waits for the request's deadline (a slow pipeline).
type slowIngester struct{ api.Ingester }

func (slowIngester) Upsert(ctx context.Context, _ tenant.Tenant, _ ingest.Document) (ingest.Outcome, error) {
	<-ctx.Done()
	return ingest.Outcome{}, fmt.Errorf("ingest: embed: %w", ctx.Err())
}

func TestTimeout(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *api.Deps) {
		d.Ingester = slowIngester{d.Ingester}
		d.Limits.RequestTimeout = 300 * time.Millisecond
	})
	w := b.do(req{method: "PUT", path: "/v1/documents", token: token(t, b.a.ID, auth.RoleEditor), body: map[string]any{"source_uri": "a.md", "content": "x"}})
	p := problem(t, w, http.StatusGatewayTimeout)
	if !strings.Contains(p.Detail, "time limit") {
		t.Errorf("detail %q", p.Detail)
	}
}

func TestDatabaseFailures(t *testing.T) {
	t.Parallel()
	b := setup(t)
	admin := token(t, b.a.ID, auth.RoleAdmin)

	// Database unreachable: 503 with Retry-After, and /readyz says why.
	down, err := store.Open(t.Context(), "postgres://ragd_app:ragd_app@127.0.0.1:1/ragd_test?sslmode=disable&connect_timeout=2", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(down.Close)
	d := b.deps
	d.Pool = down
	d.Registry = nil
	srv, err := api.New(d)
	if err != nil {
		t.Fatal(err)
	}
	w := serve(t, srv, req{method: "GET", path: "/v1/documents", token: admin})
	problem(t, w, http.StatusServiceUnavailable)
	noLeak(t, w.Body.String())
	if w.Header().Get("Retry-After") == "" {
		t.Error("503 without Retry-After")
	}
	ready := decode[api.ReadyBody](t, serve(t, srv, req{method: "GET", path: "/readyz"}), http.StatusServiceUnavailable)
	if ready.Status != "not_ready" || ready.Checks[0].Name != "database" || ready.Checks[0].OK || ready.Checks[2].Name != "embedding_model" || !ready.Checks[2].OK {
		t.Errorf("readyz: %+v", ready)
	}
	if w := serve(t, srv, req{method: "GET", path: "/healthz"}); w.Code != 200 {
		t.Errorf("healthz with the database down: %d", w.Code)
	}

	// A closed pool (an internal fault, not an outage): 500, generic.
	closed, err := store.Open(t.Context(), testdb.URL(), store.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	d.Pool = closed
	srv, err = api.New(d)
	if err != nil {
		t.Fatal(err)
	}
	w = serve(t, srv, req{method: "GET", path: "/v1/documents", token: admin})
	problem(t, w, http.StatusInternalServerError)
	noLeak(t, w.Body.String())
}

// TestReadyzUnmigratedDatabase serves with an application-role pool whose
// search_path starts at an empty schema (no goose table: version 0): the
// database answers, the migrations check fails and says what to run.
func TestReadyzUnmigratedDatabase(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	owner := testdb.Owner(t)
	var appRole string
	if err := b.deps.Pool.QueryRow(ctx, "SELECT current_user").Scan(&appRole); err != nil {
		t.Fatal(err)
	}
	schema := fmt.Sprintf("readyz_%d", time.Now().UnixNano())
	for _, sql := range []string{"CREATE SCHEMA " + schema, fmt.Sprintf("GRANT USAGE ON SCHEMA %s TO %q", schema, appRole)} {
		if _, err := owner.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { _, _ = owner.Exec(context.WithoutCancel(ctx), "DROP SCHEMA "+schema+" CASCADE") })
	pool, err := store.Open(ctx, testdb.URL()+"&search_path="+schema+",public", store.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	d := b.deps
	d.Pool = pool
	d.Registry = nil
	srv, err := api.New(d)
	if err != nil {
		t.Fatal(err)
	}
	ready := decode[api.ReadyBody](t, serve(t, srv, req{method: "GET", path: "/readyz"}), http.StatusServiceUnavailable)
	if len(ready.Checks) != 3 || !ready.Checks[0].OK || ready.Checks[1].Name != "migrations" || ready.Checks[1].OK ||
		!strings.Contains(ready.Checks[1].Error, "at version 0") || !strings.Contains(ready.Checks[1].Error, "ragd migrate up") {
		t.Fatalf("readyz on an unmigrated schema: %+v", ready)
	}
}

func TestHealthMetricsDocs(t *testing.T) {
	t.Parallel()
	b := setup(t)
	if h := decode[api.HealthBody](t, b.do(req{method: "GET", path: "/healthz"}), 200); h.Status != "ok" {
		t.Fatalf("healthz: %+v", h)
	}
	ready := decode[api.ReadyBody](t, b.do(req{method: "GET", path: "/readyz"}), 200)
	if ready.Status != "ready" || len(ready.Checks) != 3 {
		t.Fatalf("readyz: %+v", ready)
	}
	d := b.deps
	d.Embedder = nil
	d.Registry = nil
	srv, err := api.New(d)
	if err != nil {
		t.Fatal(err)
	}
	ready = decode[api.ReadyBody](t, serve(t, srv, req{method: "GET", path: "/readyz"}), 503)
	if ready.Checks[2].Name != "embedding_model" || ready.Checks[2].OK || !ready.Checks[0].OK || !ready.Checks[1].OK {
		t.Fatalf("readyz without a model: %+v", ready)
	}

	for path, want := range map[string]string{"/openapi.json": `"openapi":"3.1.0"`, "/openapi.yaml": "openapi: 3.1.0", "/docs": "<!doctype html>"} {
		w := b.do(req{method: "GET", path: path})
		if w.Code != 200 || !strings.Contains(w.Body.String(), want) {
			t.Errorf("%s: %d, lacks %q", path, w.Code, want)
		}
	}
	w := b.do(req{method: "GET", path: "/metrics"})
	for _, want := range []string{`ragd_http_requests_total{operation="healthz",status="200"} 1`, `operation="openapi"`, "ragd_db_pool_max_connections", "go_goroutines"} {
		if !strings.Contains(w.Body.String(), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// TestOpenAPIDocumentIsCurrent fails when openapi/openapi.json is stale
// (regenerate with `make generate`).
func TestOpenAPIDocumentIsCurrent(t *testing.T) {
	t.Parallel()
	got, err := api.OpenAPIJSON()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../openapi/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatal("openapi/openapi.json is out of date: run `make generate`")
	}
	for _, s := range []string{`"bearerFormat": "JWT"`, `"/v1/answer"`, `"text/event-stream"`, `"application/problem+json"`, `"additionalProperties": false`} {
		if !strings.Contains(string(got), s) {
			t.Errorf("document lacks %s", s)
		}
	}
}

func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	entered := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		time.Sleep(300 * time.Millisecond)
		io.WriteString(w, "finished")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- api.Serve(ctx, api.NewHTTPServer(h, api.Limits{}, nil), ln, 5*time.Second) }()
	type result struct {
		body string
		err  error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			got <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- result{string(b), err}
	}()
	<-entered
	cancel()
	r := <-got
	if r.err != nil || r.body != "finished" {
		t.Fatalf("in-flight request: %q, %v", r.body, r.err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Fatal("still accepting after shutdown")
	}
}
