package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/cli"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// faultCorpus is what the fault tests search: enough distinct documents for
// fusion and reranking to have an order to keep or change.
var faultCorpus = map[string]string{
	"ops/backups.md":     "# Backups\n\nThe backup window is 02:00 UTC every night. Backups are kept for thirty days.\n",
	"ops/restore.md":     "# Restore\n\nRun ragdctl restore with the snapshot id to restore a backup into a new cluster.\n",
	"ops/failover.md":    "# Failover\n\nPromote the replica when the primary fails; backups continue from the new primary.\n",
	"ops/maintenance.md": "# Maintenance\n\nMaintenance happens on the first Sunday of each month, after the nightly backup.\n",
	"billing/refunds.md": "# Refunds\n\nRefunds are processed within ten business days of the request.\n",
}

// seedFaultCorpus writes faultCorpus for a new tenant through s and returns
// the tenant and a reader's token.
func seedFaultCorpus(t *testing.T, s *server, prefix string) (testdb.Tenant, string) {
	t.Helper()
	tn := testdb.NewTenant(t, prefix, "")
	ed := token(t, tn.ID, auth.RoleEditor)
	for uri, content := range faultCorpus {
		if r := s.do(call{Method: "PUT", Path: "/v1/documents", Token: ed, Body: map[string]any{"source_uri": uri, "content": content}}); r.Status != 200 {
			t.Fatalf("seed %s: %s", uri, r)
		}
	}
	return tn, token(t, tn.ID, auth.RoleReader)
}

var providerFaults = []fault{fault429, fault500, faultGarbage, faultHang}

// TestEmbeddingProviderFaults: an embeddings API that answers 429, 500,
// garbage or nothing → search still answers 200 from the keyword leg with
// degraded: true, within the retry budget; answers degrade the same way; a
// document write fails cleanly with nothing stored.
func TestEmbeddingProviderFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("provider faults: not in -short")
	}
	t.Parallel()
	p, client := newEmbedProvider(t)
	s := newServer(t, options{Embedder: client})
	tn, rd := seedFaultCorpus(t, s, "fault-embed")
	ed := token(t, tn.ID, auth.RoleEditor)

	healthy := searchOK(t, s, rd, "when is the nightly backup window")
	if healthy.Degraded || healthy.Results[0].VectorRank == nil {
		t.Fatalf("healthy provider: %+v", healthy)
	}
	for _, f := range providerFaults {
		t.Run(string(f), func(t *testing.T) {
			p.set(f)
			defer p.set(faultNone)
			before := p.calls.Load()
			start := time.Now()
			sr := searchOK(t, s, rd, "when is the nightly backup window")
			took := time.Since(start)
			if !sr.Degraded || len(sr.Results) == 0 || sr.Results[0].KeywordRank == nil || sr.Results[0].VectorRank != nil {
				t.Fatalf("want degraded keyword-only results: %+v", sr)
			}
			if sr.Results[0].SourceURI != "ops/backups.md" {
				t.Errorf("keyword leg's best: %s", sr.Results[0].SourceURI)
			}
			if len(sr.DegradedReasons) != 1 || sr.DegradedReasons[0].Leg != "vector" ||
				!strings.HasPrefix(sr.DegradedReasons[0].Reason, "embedding the question with ") ||
				strings.Contains(sr.DegradedReasons[0].Reason, "secret-internal-detail") || strings.Contains(sr.DegradedReasons[0].Reason, p.URL) {
				t.Errorf("degraded_reasons %+v: want the vector leg's failure, without the provider's text", sr.DegradedReasons)
			}
			wantCalls := int64(2) // one retry
			if f == faultGarbage {
				wantCalls = 1 // a malformed 200 is not retried
			}
			if got := p.calls.Load() - before; got != wantCalls || took > 2*embedTimeout+2*time.Second {
				t.Errorf("%d provider calls in %s, want %d within the retry budget", got, took, wantCalls)
			}
			r := s.do(call{Method: "POST", Path: "/v1/answer", Token: rd, Body: map[string]any{"question": "When is the backup window?"}})
			var ar api.AnswerResponse
			r.json(t, &ar)
			if r.Status != 200 || !ar.Degraded || ar.Refused || len(ar.DegradedReasons) == 0 || ar.DegradedReasons[0].Leg != "vector" {
				t.Errorf("answer: %s", r)
			}
			// A write cannot be embedded: it fails as a whole, retryably.
			before2 := countRows(t, tn.ID)
			w := s.do(call{Method: "PUT", Path: "/v1/documents", Token: ed, Body: map[string]any{"source_uri": "ops/new.md", "content": "# New\n\nA new page about quotas."}})
			if after := countRows(t, tn.ID); after != before2 {
				t.Errorf("failed write stored rows: %+v → %+v", before2, after)
			}
			if w.Status != http.StatusServiceUnavailable || w.Header.Get("Retry-After") == "" {
				t.Errorf("document write while the embedding provider fails: %s (Retry-After %q); want 503 with Retry-After",
					w, w.Header.Get("Retry-After"))
			}
			if bytes.Contains(w.Body, []byte("secret-internal-detail")) || bytes.Contains(w.Body, []byte(p.URL)) {
				t.Errorf("the provider's error reached the client: %s", w)
			}
		})
	}
	p.set(faultNone)
	if sr := searchOK(t, s, rd, "when is the nightly backup window"); sr.Degraded {
		t.Errorf("not recovered: %+v", sr)
	}
	consistency(t, tn.ID)
}

func searchOK(t *testing.T, s *server, tok, q string) api.SearchResponse {
	t.Helper()
	r := s.do(call{Method: "POST", Path: "/v1/search", Token: tok, Body: map[string]any{"query": q, "top_k": 5}})
	if r.Status != http.StatusOK {
		t.Fatalf("search: %s", r)
	}
	var sr api.SearchResponse
	r.json(t, &sr)
	return sr
}

// TestLLMProviderFaults: a chat API that answers 429, 500, garbage, nothing,
// or drops a stream midway → /v1/answer answers extractively with
// degraded: true and valid citations, as JSON and as a stream.
func TestLLMProviderFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("provider faults: not in -short")
	}
	t.Parallel()
	p, gen := newLLMProvider(t, func(string) string { return "The backup window is 02:00 UTC every night [1]." })
	s := newServer(t, options{LLM: gen})
	_, rd := seedFaultCorpus(t, s, "fault-llm")
	ask := func(t *testing.T, sse bool) api.AnswerResponse {
		t.Helper()
		c := call{Method: "POST", Path: "/v1/answer", Token: rd, Body: map[string]any{"question": "When is the backup window?"}}
		if sse {
			c.Header = map[string]string{"Accept": "text/event-stream"}
		}
		start := time.Now()
		r := s.do(c)
		if r.Status != http.StatusOK || time.Since(start) > 5*time.Second {
			t.Fatalf("answer after %s: %s", time.Since(start), r)
		}
		body := r.Body
		if sse {
			var ok bool
			if body, ok = sseEvent(r.Body, "done"); !ok {
				t.Fatalf("no done event: %s", r)
			}
		}
		var ar api.AnswerResponse
		if err := json.Unmarshal(body, &ar); err != nil {
			t.Fatal(err)
		}
		checkAnswerRules(t, ar)
		if bytes.Contains(r.Body, []byte(p.URL)) || bytes.Contains(r.Body, []byte("secret-internal-detail")) {
			t.Errorf("provider details reached the client: %s", r)
		}
		return ar
	}
	for _, sse := range []bool{false, true} {
		if ar := ask(t, sse); ar.Mode != "llm" || ar.Degraded || ar.Refused {
			t.Fatalf("healthy LLM (sse=%v): %+v", sse, ar)
		}
	}
	for _, f := range append(providerFaults, faultCut) {
		for _, sse := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/sse=%v", f, sse), func(t *testing.T) {
				p.set(f)
				defer p.set(faultNone)
				ar := ask(t, sse)
				if f == faultCut && !sse {
					// Only streams are cut; a plain completion is whole.
					if ar.Mode != "llm" || ar.Degraded {
						t.Errorf("%+v", ar)
					}
					return
				}
				if ar.Mode != "extractive" || !ar.Degraded || ar.Refused || len(ar.Citations) == 0 {
					t.Errorf("want a degraded extractive answer: %+v", ar)
				}
			})
		}
	}
}

// TestRerankProviderFaults: a rerank API that fails → the fused order is
// kept, with degraded: true and no rerank scores.
func TestRerankProviderFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("provider faults: not in -short")
	}
	t.Parallel()
	p, rr := newRerankProvider(t)
	plain := newServer(t, options{})
	reranked := newServer(t, options{Reranker: rr})
	_, rd := seedFaultCorpus(t, plain, "fault-rerank")
	const q = "backup restore failover maintenance"
	order := func(sr api.SearchResponse) []string {
		var out []string
		for _, r := range sr.Results {
			out = append(out, r.SourceURI)
		}
		return out
	}
	fused := searchOK(t, plain, rd, q)
	ok := searchOK(t, reranked, rd, q)
	if ok.Degraded || ok.Results[0].RerankScore == nil || strings.Join(order(ok), " ") == strings.Join(order(fused), " ") {
		t.Fatalf("healthy reranker should reorder: fused %v, reranked %v", order(fused), order(ok))
	}
	for _, f := range providerFaults {
		t.Run(string(f), func(t *testing.T) {
			p.set(f)
			defer p.set(faultNone)
			sr := searchOK(t, reranked, rd, q)
			if !sr.Degraded || strings.Join(order(sr), " ") != strings.Join(order(fused), " ") {
				t.Errorf("want the fused order %v, degraded; got %v degraded=%v", order(fused), order(sr), sr.Degraded)
			}
			if len(sr.DegradedReasons) != 1 || sr.DegradedReasons[0].Leg != "rerank" || !strings.HasPrefix(sr.DegradedReasons[0].Reason, "the reranker failed (") {
				t.Errorf("degraded_reasons %+v: want the reranker's failure", sr.DegradedReasons)
			}
			for _, r := range sr.Results {
				if r.RerankScore != nil {
					t.Errorf("rerank score on a failed rerank: %+v", r)
				}
			}
		})
	}
}

// TestIngestResumesAfterProviderFaults runs `ragd ingest` (in-process) with
// an embeddings API that rate-limits the first call and rejects documents
// carrying a marker: the summary names each failed file with its reason,
// the others are stored, and a rerun once the provider is healthy completes
// the job without re-embedding what was stored.
func TestIngestResumesAfterProviderFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("provider faults: not in -short")
	}
	t.Parallel()
	emb := local(t)
	var calls atomic.Int64
	var reject atomic.Bool
	reject.Store(true)
	fake := newFakeEmbedServer(t, func(w http.ResponseWriter, inputs []string) bool {
		n := calls.Add(1)
		if n == 1 {
			w.Header().Set("Retry-After", "0")
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return true
		}
		for _, in := range inputs {
			if reject.Load() && strings.Contains(in, "FAILME") {
				http.Error(w, `{"error":{"message":"input rejected"}}`, http.StatusBadRequest)
				return true
			}
		}
		return false
	})
	tn := testdb.NewTenant(t, "fault-ingest", "")
	dir := t.TempDir()
	for i := range 6 {
		body := fmt.Sprintf("# Page %d\n\nThis page covers topic %d of the runbook.\n", i, i)
		if i%3 == 1 {
			body += "\nFAILME marker paragraph.\n"
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%d.md", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(), "HOME": os.Getenv("HOME"),
		"RAGD_EMBED_BASE_URL": fake.URL + "/v1", "RAGD_EMBED_MODEL": emb.Model(), "RAGD_EMBED_DIMS": fmt.Sprint(emb.Dims()),
		"RAGD_PROVIDER_TIMEOUT": "5s", "RAGD_LOG_LEVEL": "error"}
	run := func() (int, map[string]any, string) {
		var out, errb bytes.Buffer
		code := cli.Run(context.Background(), []string{"ingest", "--tenant", tn.Slug, "--workers", "1", "--json", dir},
			func(k string) string { return env[k] }, strings.NewReader(""), &out, &errb)
		var sum map[string]any
		json.Unmarshal(out.Bytes(), &sum)
		return code, sum, out.String() + errb.String()
	}
	code, sum, out := run()
	if code != 1 || sum["added"] != 4.0 || sum["failed"] != 2.0 || !strings.Contains(out, "p1.md") || !strings.Contains(out, "p4.md") ||
		!strings.Contains(out, "HTTP 400") {
		t.Fatalf("first run: exit %d, want 1 with p1.md and p4.md failed (HTTP 400) and 4 added:\n%s", code, out)
	}
	consistency(t, tn.ID)
	reject.Store(false)
	code, sum, out = run()
	if code != 0 || sum["added"] != 2.0 || sum["unchanged"] != 4.0 || sum["embedded"] != 2.0 {
		t.Fatalf("rerun: exit %d, want 2 added, 4 unchanged, 2 embedded:\n%s", code, out)
	}
	if c := countRows(t, tn.ID); c.Docs != 6 {
		t.Fatalf("%d documents after the rerun", c.Docs)
	}
	consistency(t, tn.ID)
}

// newFakeEmbedServer is an embeddings API backed by the local model; hook
// may answer a request itself (returning true).
func newFakeEmbedServer(t *testing.T, hook func(w http.ResponseWriter, inputs []string) bool) *provider {
	t.Helper()
	emb := local(t)
	p := &provider{}
	p.Server = newHTTPTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.calls.Add(1)
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		if hook != nil && hook(w, req.Input) {
			return
		}
		vecs, err := emb.Embed(r.Context(), req.Input)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		data := make([]map[string]any, len(vecs))
		for i, v := range vecs {
			data[i] = map[string]any{"index": i, "embedding": v}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	return p
}

// proxy is a TCP proxy to PostgreSQL that the test can take down (closing
// every connection, refusing new ones) and bring back on the same port.
type proxy struct {
	t      *testing.T
	addr   string
	target string
	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]bool
	// stall holds client→server bytes back: queries sent meanwhile are in
	// flight, waiting for an answer, when the proxy goes down. Bytes that
	// contain stallMarker set it, so a query can be caught in the middle of
	// a transaction.
	stall atomic.Bool
}

// stallMarker, in a query parameter, stalls the proxy.
const stallMarker = "zqstallmarker"

// pipe copies client bytes to the server, holding them while stalled.
func (p *proxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && bytes.Contains(buf[:n], []byte(stallMarker)) {
			p.stall.Store(true)
		}
		for n > 0 && p.stall.Load() {
			time.Sleep(5 * time.Millisecond)
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func newProxy(t *testing.T, target string) *proxy {
	p := &proxy{t: t, target: target, conns: map[net.Conn]bool{}}
	p.up("127.0.0.1:0")
	t.Cleanup(p.down)
	return p
}

func (p *proxy) up(addr string) {
	var ln net.Listener
	var err error
	for range 50 { // the port may linger briefly after down
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		p.t.Fatalf("proxy listen %s: %v", addr, err)
	}
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.DialTimeout("tcp", p.target, 2*time.Second)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			if p.ln != ln {
				p.mu.Unlock()
				c.Close()
				up.Close()
				return
			}
			p.conns[c], p.conns[up] = true, true
			p.mu.Unlock()
			go func() { p.pipe(up, c); up.Close() }()
			go func() { io.Copy(c, up); c.Close() }()
		}
	}()
}

func (p *proxy) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
	p.conns = map[net.Conn]bool{}
}

// TestDatabaseOutage puts PostgreSQL behind a proxy and takes it away under
// traffic: requests fail fast with 503 and Retry-After (never a 500, never a
// hang), /readyz says not ready while /healthz stays up, and once the
// database is back the same server recovers by itself; no write is left
// half done.
func TestDatabaseOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("database outage: not in -short")
	}
	t.Parallel()
	u, err := url.Parse(testdb.URL())
	if err != nil {
		t.Fatal(err)
	}
	px := newProxy(t, u.Host)
	u.Host = px.addr
	q := u.Query()
	q.Set("connect_timeout", "2")
	u.RawQuery = q.Encode()
	s := newServer(t, options{DatabaseURL: u.String(), MaxConns: 2})
	tn, rd := seedFaultCorpus(t, s, "fault-db")
	ed := token(t, tn.ID, auth.RoleEditor)

	// 1. The connection drops while a query is in flight in the middle of a
	// transaction (the keyword leg of a search; the final write of an
	// upsert): 503 with Retry-After, not a 500.
	for _, c := range []call{
		{Method: "POST", Path: "/v1/search", Token: rd, Body: map[string]any{"query": "backup window " + stallMarker}},
		{Method: "PUT", Path: "/v1/documents", Token: ed, Body: map[string]any{"source_uri": "ops/inflight.md", "content": "# In flight\n\nWritten as the database went away " + stallMarker + ".\n"}},
	} {
		done := make(chan reply, 1)
		go func() { r, _ := s.send(context.Background(), c); done <- r }()
		for deadline := time.Now().Add(5 * time.Second); !px.stall.Load() && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		if !px.stall.Load() {
			t.Fatalf("%s %s never reached the database", c.Method, c.Path)
		}
		time.Sleep(50 * time.Millisecond)
		px.down()
		px.stall.Store(false)
		if r := <-done; r.Status != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" {
			t.Errorf("%s %s in flight when the connection dropped: %s (Retry-After %q); want 503 with Retry-After",
				c.Method, c.Path, r, r.Header.Get("Retry-After"))
		}
		px.up(px.addr)
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if r := s.do(call{Method: "GET", Path: "/v1/tenant", Token: rd}); r.Status == 200 {
				break
			}
		}
	}
	if c := countRows(t, tn.ID); c.Docs != len(faultCorpus) {
		t.Errorf("the write cut off mid-transaction left %d documents, want %d", c.Docs, len(faultCorpus))
	}

	// 2. An outage under steady traffic.

	// Traffic: searches, listings and writes, all the time.
	ctx, cancel := context.WithCancel(context.Background())
	type obs struct {
		at     time.Time
		status int
		took   time.Duration
		retry  string
	}
	var mu sync.Mutex
	var seen []obs
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				var c call
				switch (w + i) % 3 {
				case 0:
					c = call{Method: "POST", Path: "/v1/search", Token: rd, Body: map[string]any{"query": "backup window"}}
				case 1:
					c = call{Method: "GET", Path: "/v1/documents", Token: rd}
				default:
					c = call{Method: "PUT", Path: "/v1/documents", Token: ed, Body: map[string]any{"source_uri": fmt.Sprintf("load/w%d.md", w),
						"content": fmt.Sprintf("# W\n\nWrite %d of worker %d about backups.\n", i, w)}}
				}
				start := time.Now()
				r, err := s.send(context.Background(), c)
				if err != nil {
					t.Errorf("transport: %v", err)
					return
				}
				mu.Lock()
				seen = append(seen, obs{at: start, status: r.Status, took: time.Since(start), retry: r.Header.Get("Retry-After")})
				mu.Unlock()
				if r.Status >= 500 && r.Status != 503 {
					t.Errorf("%s %s during the outage test: %s", c.Method, c.Path, r)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	time.Sleep(500 * time.Millisecond)
	px.down()
	downAt := time.Now()
	time.Sleep(2 * time.Second)
	ready := s.do(call{Method: "GET", Path: "/readyz"})
	health := s.do(call{Method: "GET", Path: "/healthz"})
	px.up(px.addr)
	upAt := time.Now()
	// Recovery: the first success after the database is back.
	var recovered time.Duration
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if r := s.do(call{Method: "GET", Path: "/v1/tenant", Token: rd}); r.Status == 200 {
			recovered = time.Since(upAt)
			break
		}
	}
	time.Sleep(500 * time.Millisecond)
	cancel()
	wg.Wait()

	if ready.Status != http.StatusServiceUnavailable || health.Status != http.StatusOK {
		t.Errorf("during the outage: readyz %d (want 503), healthz %d (want 200)", ready.Status, health.Status)
	}
	if recovered == 0 {
		t.Fatal("the server did not recover within 15 s of the database returning")
	}
	var during, unavailable, slow int
	for _, o := range seen {
		if !o.at.After(downAt.Add(100*time.Millisecond)) || !o.at.Before(upAt) {
			continue
		}
		// Started during the outage: none may wait long. Answered during it:
		// every one is a 503 (one still in flight when the database returns
		// may reach it and succeed).
		if o.took > 3*time.Second {
			slow++
		}
		if o.at.Add(o.took).Before(upAt) {
			during++
			if o.status == http.StatusServiceUnavailable {
				unavailable++
				if o.retry == "" {
					t.Errorf("503 without Retry-After")
				}
			}
		}
	}
	if during == 0 || unavailable != during || slow > 0 {
		t.Errorf("during the outage: %d requests, %d answered 503, %d took over 3 s", during, unavailable, slow)
	}
	t.Logf("outage: %d requests answered 503 (max wait under 3 s); recovered %s after the database returned", unavailable, recovered.Round(time.Millisecond))
	consistency(t, tn.ID)
}
