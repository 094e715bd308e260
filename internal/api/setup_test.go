package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/app"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

const secret = "api-test-secret-0123456789abcdef0123456789"

var (
	embedOnce sync.Once
	embedder  embed.Embedder
	embedErr  error
)

// localEmbedder loads the USE-lite model once per test binary (about 2 s).
// A missing model fails the test with the fix, the way testdb does.
func localEmbedder(t testing.TB) embed.Embedder {
	t.Helper()
	embedOnce.Do(func() { embedder, embedErr = embed.NewLocal(embed.DefaultModelDir(os.Getenv)) })
	if embedErr != nil {
		t.Fatalf("embedding model unavailable (run `make setup` or scripts/fetch-model.sh): %v", embedErr)
	}
	return embedder
}

// bundle is one test's server and tenants.
type bundle struct {
	t      *testing.T
	srv    *api.Server
	deps   api.Deps
	a, b   testdb.Tenant // two tenants of the test
	logBuf *syncBuffer
}

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

// deps wires the server as `ragd serve` does (app.New, app.App.APIDeps) on
// the test database (application role), with the local model and this
// suite's smaller limits.
func deps(t *testing.T, logs io.Writer) api.Deps {
	t.Helper()
	pool := testdb.App(t)
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxBodyBytes, cfg.MaxQueryChars, cfg.MaxTopK, cfg.RequestTimeout = 64<<10, 200, 20, 20*time.Second
	a, err := app.New(t.Context(), cfg, pool, app.WithLogger(log), app.WithEmbedder(localEmbedder(t)))
	if err != nil {
		t.Fatal(err)
	}
	v, err := auth.New(t.Context(), auth.Options{Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	return a.APIDeps(v)
}

// setup makes a server with two fresh tenants; mod may adjust the deps.
func setup(t *testing.T, mod ...func(*api.Deps)) *bundle {
	t.Helper()
	b := &bundle{t: t, logBuf: &syncBuffer{}}
	b.deps = deps(t, b.logBuf)
	for _, m := range mod {
		m(&b.deps)
	}
	srv, err := api.New(b.deps)
	if err != nil {
		t.Fatal(err)
	}
	b.srv = srv
	b.a = testdb.NewTenant(t, "api-a", "")
	b.b = testdb.NewTenant(t, "api-b", "")
	return b
}

func token(t *testing.T, tenantID uuid.UUID, role auth.Role) string {
	t.Helper()
	tok, err := auth.Issue(secret, tenantID, role, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// req is one request: method, path, optional bearer token, body and headers.
type req struct {
	method, path, token string
	body                any // string/[]byte sent as is; anything else as JSON
	header              map[string]string
}

func (b *bundle) do(r req) *httptest.ResponseRecorder {
	b.t.Helper()
	return serve(b.t, b.srv, r)
}

func serve(t *testing.T, h http.Handler, r req) *httptest.ResponseRecorder {
	t.Helper()
	var body io.Reader
	ct := ""
	switch v := r.body.(type) {
	case nil:
	case string:
		body = strings.NewReader(v)
		ct = "application/json"
	case []byte:
		body = bytes.NewReader(v)
		ct = "application/json"
	default:
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		body = bytes.NewReader(raw)
		ct = "application/json"
	}
	hr := httptest.NewRequestWithContext(t.Context(), r.method, r.path, body)
	if ct != "" {
		hr.Header.Set("Content-Type", ct)
	}
	if r.token != "" {
		hr.Header.Set("Authorization", "Bearer "+r.token)
	}
	for k, v := range r.header {
		hr.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, hr)
	return w
}

// decode unmarshals the response body, failing the test on an unexpected status.
func decode[T any](t *testing.T, w *httptest.ResponseRecorder, status int) T {
	t.Helper()
	var v T
	if w.Code != status {
		t.Fatalf("status %d, want %d; body: %s", w.Code, status, w.Body.String())
	}
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatalf("decode %T: %v; body: %s", v, err, w.Body.String())
	}
	return v
}

// problem checks an RFC 9457 problem response and returns it.
func problem(t *testing.T, w *httptest.ResponseRecorder, status int) api.Problem {
	t.Helper()
	if ct := w.Header().Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("Content-Type %q, want application/problem+json (status %d, body %s)", ct, w.Code, w.Body.String())
	}
	p := decode[api.Problem](t, w, status)
	if p.Status != status || p.Title != http.StatusText(status) {
		t.Errorf("problem status/title = %d %q, want %d %q", p.Status, p.Title, status, http.StatusText(status))
	}
	if id := w.Header().Get("X-Request-ID"); id == "" || p.RequestID != id {
		t.Errorf("request id: header %q, body %q", id, p.RequestID)
	}
	return p
}

// upsert writes a document for tenant id through the API.
func (b *bundle) upsert(tok, uri, content string) api.DocumentWrite {
	b.t.Helper()
	return decode[api.DocumentWrite](b.t, b.do(req{method: "PUT", path: "/v1/documents", token: tok,
		body: map[string]any{"source_uri": uri, "content": content, "content_type": "markdown"}}), http.StatusOK)
}

// disable marks a tenant disabled with the owner role (an operator action).
func disable(t *testing.T, slug string) {
	t.Helper()
	if _, err := store.New().SetTenantStatus(t.Context(), testdb.Owner(t), store.SetTenantStatusParams{Slug: slug, Status: "disabled"}); err != nil {
		t.Fatal(err)
	}
}

const (
	docInstall = `# Installing Widgets

Widgets are installed with the widgetctl command. Run widgetctl install to fetch the latest release.

## Upgrading

Run widgetctl upgrade to move to a newer release without downtime.
`
	docBilling = `# Billing

Invoices are emailed on the first day of each month. Refunds are processed within ten business days.
`
)

type tenantT = tenant.Tenant

var errNotFound = ingest.ErrNotFound
