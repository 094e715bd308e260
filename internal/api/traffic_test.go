package api_test

import (
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/app"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/llm"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// setLimits stores a tenant's own limits with the owner role, as `ragd
// tenant limits` does.
func setLimits(t *testing.T, id uuid.UUID, l tenant.Limits) {
	t.Helper()
	setSettings(t, id, tenant.Settings{Limits: &l})
}

// setSettings replaces a tenant's settings with the owner role.
func setSettings(t *testing.T, id uuid.UUID, set tenant.Settings) {
	t.Helper()
	raw, err := json.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.New().UpdateTenantSettings(t.Context(), testdb.Owner(t), store.UpdateTenantSettingsParams{ID: id, Settings: raw}); err != nil {
		t.Fatal(err)
	}
}

// runRecorder starts the event writer of the bundle's deps for the test.
func runRecorder(t *testing.T, d api.Deps) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.WithoutCancel(t.Context()))
	done := make(chan struct{})
	go func() { d.Recorder.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
}

// TestRateLimitPerTenantAndClass: the fifth query request within a burst
// of four is refused. The rate refills one token in 20 s, longer than any
// run takes to send the five (at 2 per second, a run slowed by the race
// detector on a loaded machine refilled one and saw 200 instead of 429).
func TestRateLimitPerTenantAndClass(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *api.Deps) { d.Limits.RateBurst = 80 * time.Second })
	rate := 0.05
	setLimits(t, b.a.ID, tenant.Limits{QueryRate: &rate}) // bucket of 80 s × 0.05/s = 4 requests
	ta, tb := token(t, b.a.ID, auth.RoleAdmin), token(t, b.b.ID, auth.RoleAdmin)
	search := func(tok string) *httptest.ResponseRecorder {
		return b.do(req{method: "POST", path: "/v1/search", token: tok, body: map[string]any{"query": "install widgets"}})
	}
	for i := range 4 {
		if w := search(ta); w.Code != http.StatusOK {
			t.Fatalf("search %d within the burst: %d %s", i+1, w.Code, w.Body.String())
		}
	}
	w := search(ta)
	p := problem(t, w, http.StatusTooManyRequests)
	if ra, err := strconv.Atoi(w.Header().Get("Retry-After")); err != nil || ra < 1 {
		t.Errorf("Retry-After %q, want whole seconds >= 1", w.Header().Get("Retry-After"))
	}
	if !strings.Contains(p.Detail, "0.05 query requests per second") {
		t.Errorf("detail %q does not state the limit", p.Detail)
	}
	// The other tenant, and the other classes of the same tenant, are not limited.
	if w := search(tb); w.Code != http.StatusOK {
		t.Errorf("tenant b: %d, want 200", w.Code)
	}
	if w := b.do(req{method: "GET", path: "/v1/tenant", token: ta}); w.Code != http.StatusOK {
		t.Errorf("tenant a's admin route: %d, want 200", w.Code)
	}
	m := b.do(req{method: "GET", path: "/metrics"}).Body.String()
	if !strings.Contains(m, `ragd_requests_refused_total{class="query",reason="rate_limit"} 1`) {
		t.Errorf("metrics lack the refused request")
	}
	if strings.Contains(m, b.a.ID.String()) {
		t.Errorf("metrics carry a tenant id as a label")
	}
}

func TestAdmissionShedsWith503(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *api.Deps) { d.Limits.MaxInFlight, d.Limits.MaxQueued = 1, -1 })
	// Hold the one slot with a request that blocks until released: a file
	// upload whose body is still being sent (a multipart body is read by
	// its handler, inside the slot; a JSON body is read before the slot is
	// taken, TestSlowBodiesDoNotShedOtherTenants).
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	tok := token(t, b.a.ID, auth.RoleEditor)
	started := make(chan struct{})
	done := make(chan int)
	go func() {
		r, _ := http.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", readerNotify{pr, started})
		r.Header.Set("Authorization", "Bearer "+tok)
		r.Header.Set("Content-Type", mw.FormDataContentType())
		w := httptest.NewRecorder()
		b.srv.ServeHTTP(w, r)
		done <- w.Code
	}()
	<-started
	w := b.do(req{method: "GET", path: "/v1/tenant", token: token(t, b.b.ID, auth.RoleReader)})
	problem(t, w, http.StatusServiceUnavailable)
	if w.Header().Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q, want 1", w.Header().Get("Retry-After"))
	}
	_ = mw.WriteField("source_uri", "a.md")
	part, _ := mw.CreateFormFile("file", "a.md")
	_, _ = part.Write([]byte("# A\n\nwidgets"))
	_ = mw.Close()
	_ = pw.Close()
	if code := <-done; code != http.StatusOK {
		t.Fatalf("the admitted write: %d", code)
	}
	if w := b.do(req{method: "GET", path: "/v1/tenant", token: token(t, b.b.ID, auth.RoleReader)}); w.Code != http.StatusOK {
		t.Fatalf("after the slot is free: %d", w.Code)
	}
}

func TestStorageQuotas(t *testing.T) {
	t.Parallel()
	b := setup(t)
	one, big := int64(1), int64(1<<20)
	setLimits(t, b.a.ID, tenant.Limits{MaxDocuments: &one, MaxBytes: &big})
	tok := token(t, b.a.ID, auth.RoleEditor)
	b.upsert(tok, "install.md", docInstall)
	b.upsert(tok, "install.md", docInstall+"\nMore text.\n") // replacing the one document is allowed
	w := b.do(req{method: "PUT", path: "/v1/documents", token: tok,
		body: map[string]any{"source_uri": "billing.md", "content": docBilling, "content_type": "markdown"}})
	p := problem(t, w, http.StatusUnprocessableEntity)
	if p.Type != "https://ragd.dev/problems/quota-exceeded" || !strings.Contains(p.Detail, "its quota of 1 documents") {
		t.Errorf("quota problem: %+v", p)
	}
	// The quota counts every document of the tenant, those the writer
	// cannot read included, and its problem counts none of them for a
	// writer below the management view: an editor without group hr cannot
	// store past the quota next to hr's documents, nor learn how many
	// there are.
	two := int64(2)
	admin := token(t, b.b.ID, auth.RoleAdmin)
	for _, uri := range []string{"hr/pay.md", "hr/bonus.md"} {
		decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: admin,
			body: map[string]any{"source_uri": uri, "content": docBilling, "content_type": "markdown", "access": []string{"group:hr"}}}), http.StatusOK)
	}
	setLimits(t, b.b.ID, tenant.Limits{MaxDocuments: &two})
	eve, err := auth.Issue(secret, b.b.ID, auth.RoleEditor, time.Hour, auth.WithSubject("eve"), auth.WithGroups("", "eng"))
	if err != nil {
		t.Fatal(err)
	}
	w = b.do(req{method: "PUT", path: "/v1/documents", token: eve,
		body: map[string]any{"source_uri": "eng/notes.md", "content": docInstall, "content_type": "markdown"}})
	if p := problem(t, w, http.StatusUnprocessableEntity); p.Type != "https://ragd.dev/problems/quota-exceeded" || strings.Contains(p.Detail, "stores") {
		t.Errorf("an editor who cannot read hr's documents, at the quota: %+v", p)
	}
	if p := problem(t, b.do(req{method: "PUT", path: "/v1/documents", token: admin,
		body: map[string]any{"source_uri": "eng/notes.md", "content": docInstall, "content_type": "markdown"}}), http.StatusUnprocessableEntity); !strings.Contains(p.Detail, "stores 2 documents") {
		t.Errorf("the admin at the quota: %+v", p)
	}
	// At the byte quota, a write to a hidden document's source_uri is
	// judged like a write of a new document, whatever the hidden
	// document's size: the 409 never depends on it.
	const room = 300 // what a new document may add
	quota := decode[api.Usage](t, b.do(req{method: "GET", path: "/v1/tenant/usage", token: admin}), http.StatusOK).Storage.Bytes + room
	setLimits(t, b.b.ID, tenant.Limits{MaxBytes: &quota})
	for _, size := range []int64{room - 10, room + 10} {
		body := "# Notes\n\n" + strings.Repeat("x", int(size)-9)
		got := b.do(req{method: "PUT", path: "/v1/documents", token: eve, body: map[string]any{"source_uri": "hr/pay.md", "content": body, "content_type": "markdown"}})
		want := http.StatusConflict
		if size > room {
			want = http.StatusUnprocessableEntity
		}
		if got.Code != want {
			t.Errorf("a %d-byte write to a hidden source_uri with %d bytes of room: %d, want %d", size, room, got.Code, want)
		}
	}
	setLimits(t, b.b.ID, tenant.Limits{MaxDocuments: &two})
	// The usage route is management: its storage counts every document,
	// as the quota does, for an admin whose own groups do not include hr.
	u := decode[api.Usage](t, b.do(req{method: "GET", path: "/v1/tenant/usage", token: admin}), http.StatusOK)
	if u.Storage.Documents != 2 || u.Storage.QuotaDocuments != 2 {
		t.Errorf("usage storage for an admin outside hr: %+v", u.Storage)
	}
	setLimits(t, b.b.ID, tenant.Limits{})
	small := int64(100)
	setLimits(t, b.b.ID, tenant.Limits{MaxBytes: &small})
	w = b.do(req{method: "PUT", path: "/v1/documents", token: token(t, b.b.ID, auth.RoleEditor),
		body: map[string]any{"source_uri": "install.md", "content": docInstall, "content_type": "markdown"}})
	if p := problem(t, w, http.StatusUnprocessableEntity); !strings.Contains(p.Detail, "its quota of 100 bytes") {
		t.Errorf("byte quota: %+v", p)
	}
}

func TestUsageCounters(t *testing.T) {
	t.Parallel()
	b := setup(t)
	runRecorder(t, b.deps)
	admin := token(t, b.a.ID, auth.RoleAdmin)
	b.upsert(admin, "install.md", docInstall)
	for range 3 {
		decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: admin, body: map[string]any{"query": "upgrade"}}), 200)
	}
	// Tenant b's traffic is not tenant a's usage.
	b.do(req{method: "POST", path: "/v1/search", token: token(t, b.b.ID, auth.RoleReader), body: map[string]any{"query": "upgrade"}})
	var u api.Usage
	deadline := time.Now().Add(10 * time.Second)
	for {
		u = decode[api.Usage](t, b.do(req{method: "GET", path: "/v1/tenant/usage?days=1", token: admin}), 200)
		if u.Requests.Query >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if u.Requests.Query != 3 || u.Requests.Write != 1 || u.EmbeddedChunks < 1 {
		t.Errorf("usage %+v, want 3 queries, 1 write, embedded chunks", u)
	}
	if u.Storage.Documents != 1 || u.Storage.Chunks < 1 || u.Storage.Bytes < 100 || u.Rates.Query != 1000 {
		t.Errorf("storage/rates %+v", u)
	}
	if w := b.do(req{method: "GET", path: "/v1/tenant/usage", token: token(t, b.a.ID, auth.RoleReader)}); w.Code != http.StatusForbidden {
		t.Errorf("reader reads usage: %d, want 403", w.Code)
	}
}

func TestMetricsToken(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *api.Deps) { d.Limits.MetricsToken = "metrics-secret-0123456789" })
	problem(t, b.do(req{method: "GET", path: "/metrics"}), http.StatusUnauthorized)
	problem(t, b.do(req{method: "GET", path: "/metrics", token: "wrong-token-0123456789"}), http.StatusUnauthorized)
	if w := b.do(req{method: "GET", path: "/metrics", token: "metrics-secret-0123456789"}); w.Code != 200 || !strings.Contains(w.Body.String(), "ragd_admission_in_flight") {
		t.Errorf("metrics with the token: %d", w.Code)
	}
}

// readerNotify closes started on the first Read: the handler is reading the
// body, so the request holds its admission slot.
type readerNotify struct {
	r       io.Reader
	started chan struct{}
}

func (n readerNotify) Read(p []byte) (int, error) {
	select {
	case <-n.started:
	default:
		close(n.started)
	}
	return n.r.Read(p)
}

// TestProviderTokensCounted: the tokens the LLM reports for an answer
// reach the tenant's usage.
func TestProviderTokensCounted(t *testing.T) {
	t.Parallel()
	chat := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"Run widgetctl upgrade [1]."}}],"usage":{"total_tokens":321}}`)
	}))
	t.Cleanup(chat.Close)
	gen, err := llm.New(chat.URL+"/v1", "fake-chat", llm.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	b := setup(t)
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(t.Context(), cfg, b.deps.Pool, app.WithEmbedder(localEmbedder(t)), app.WithLLM(gen))
	if err != nil {
		t.Fatal(err)
	}
	d := a.APIDeps(b.deps.Verifier)
	srv, err := api.New(d)
	if err != nil {
		t.Fatal(err)
	}
	runRecorder(t, d)
	admin := token(t, b.a.ID, auth.RoleAdmin)
	b.upsert(admin, "install.md", docInstall)
	ans := decode[api.AnswerResponse](t, serve(t, srv, req{method: "POST", path: "/v1/answer", token: admin,
		body: map[string]any{"question": "How do I upgrade widgetctl to a newer release?"}}), http.StatusOK)
	if ans.Mode != "llm" {
		t.Fatalf("answer mode %q (refused %v %s), want llm", ans.Mode, ans.Refused, ans.RefusalReason)
	}
	deadline := time.Now().Add(10 * time.Second)
	var u api.Usage
	for {
		u = decode[api.Usage](t, serve(t, srv, req{method: "GET", path: "/v1/tenant/usage", token: admin}), http.StatusOK)
		if u.ProviderTokens > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if u.ProviderTokens != 321 {
		t.Errorf("provider tokens %d, want 321", u.ProviderTokens)
	}
}
