package reliability

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/model"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// The leak fuzzer's size. RAGD_SOAK (a duration) replaces leakDuration, e.g.
// `make soak SOAK=10m`; RAGD_SOAK_TENANTS replaces leakTenants.
const (
	leakTenants   = 50
	leakDuration  = 5 * time.Second
	leakWorkers   = 6 // request goroutines
	leakIngesters = 2 // goroutines that only ingest, concurrently with the rest
)

// vocabulary is shared by every tenant, so every tenant's documents are
// relevant to every other tenant's queries: a missing tenant filter anywhere
// would surface foreign chunks at once.
var vocabulary = strings.Fields(`widget install upgrade release billing invoice refund account password backup
	restore index vacuum query table column server client network latency cache memory disk storage replica
	failover schema migration token deploy cluster node shard metric alert trace session quota region archive`)

var (
	canaryRE = regexp.MustCompile(`zq[a-z]{10}`)
	uuidRE   = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	slugRE   = regexp.MustCompile(`leak-[0-9a-f]{8}`)
	// reasonRE is a response's confidence_reason field, as JSON writes it.
	reasonRE = regexp.MustCompile(`"confidence_reason":"(?:[^"\\]|\\.)*"`)
)

// leakTenant is one tenant and the fuzzer's model of what it stores. mu is
// held for the whole of every request made with the tenant's tokens, so the
// model is exact while other tenants' requests interleave freely.
type leakTenant struct {
	idx    int
	id     uuid.UUID
	slug   string
	canary string
	prefix string // source_uri prefix only this tenant uses
	tokens [4]string

	mu         sync.Mutex
	evalSets   map[string]int // evaluation set name → questions in its latest version
	runs       []uuid.UUID    // evaluation runs made
	docs       map[uuid.UUID]*leakDoc
	byURI      map[string]uuid.UUID
	candidates int // settings.candidates as last patched (0 = default)
	version    int // bumped by every write: results are cached per version
	results    map[string]string
	seq        int
	// lastEvent is the event_id of the tenant's latest search (read by
	// other tenants' operations, which do not hold mu).
	lastEvent atomic.Pointer[string]
}

type leakDoc struct {
	id                  uuid.UUID
	uri, title, content string
	chunks              int
}

func (lt *leakTenant) chunkTotal() int64 {
	n := 0
	for _, d := range lt.docs {
		n += d.chunks
	}
	return int64(n)
}

// fuzzer holds the tenants and the global ownership registry: every id,
// canary and slug seen, and the tenant it belongs to.
type fuzzer struct {
	t           *testing.T
	s           *server
	tenants     []*leakTenant
	notFound    string // the 404 detail for an id no tenant has
	runNotFound string // the 404 detail for an evaluation run no tenant has

	// routes matches a request to the server's route (http.ServeMux, the
	// production matcher, over api.Server.Routes); served counts each
	// route's 2xx responses. A route the server registers that no request
	// reached with success fails the run.
	routes *http.ServeMux
	served sync.Map // route pattern → *atomic.Int64
	// touring: the sequential tour before the randomized phase, in which
	// every operation runs with a role that allows it (f.role).
	touring bool

	regMu     sync.Mutex
	owner     map[string]int
	known     []string // document ids ever written, any tenant (targets for cross-tenant probes)
	knownRuns []string // evaluation run ids, any tenant

	quiet      bool // count violations without failing (the self-test)
	violations atomic.Int64
	ops        sync.Map // op name → *atomic.Int64
	statuses   sync.Map // status → *atomic.Int64
}

func (f *fuzzer) count(m *sync.Map, key string) {
	v, _ := m.LoadOrStore(key, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

// own registers key as belonging to tenant idx; a key already owned by
// another tenant is a leak.
func (f *fuzzer) own(key string, idx int) (other int, clash bool) {
	f.regMu.Lock()
	defer f.regMu.Unlock()
	if o, ok := f.owner[key]; ok {
		return o, o != idx
	}
	f.owner[key] = idx
	return idx, false
}

func (f *fuzzer) ownerOf(key string) (int, bool) {
	f.regMu.Lock()
	defer f.regMu.Unlock()
	o, ok := f.owner[key]
	return o, ok
}

func (f *fuzzer) violate(format string, a ...any) {
	if f.violations.Add(1) <= 20 && !f.quiet {
		f.t.Errorf("violation: "+format, a...)
	}
}

// inspect checks one response to tenant lt: every canary, tenant slug and
// UUID in it must be the tenant's own, except values the client itself sent
// that an error echoes, and the request id.
func (f *fuzzer) inspect(lt *leakTenant, op string, c call, r reply) {
	f.count(&f.statuses, fmt.Sprint(r.Status))
	if r.Status >= 500 && !eventPending(op, r) {
		f.violate("%s: %d from a healthy server: %s", op, r.Status, r)
	}
	sent := c.Path
	switch b := c.Body.(type) {
	case string:
		sent += b
	case []byte:
		sent += string(b)
	case nil:
	default:
		raw, _ := json.Marshal(b)
		sent += string(raw)
	}
	echo := func(v string) bool { return r.Status >= 400 && strings.Contains(sent, v) }
	body := string(r.Body)
	// A refusal's reason names the question's words that no document
	// contains ("no document mentions “zq…”"): a canary there that the
	// request itself holds is the caller's own word repeated, not a leak.
	// Anywhere else (a result, a source, another field) it still counts.
	body = reasonRE.ReplaceAllStringFunc(body, func(field string) string {
		for _, m := range canaryRE.FindAllString(field, -1) {
			if !strings.Contains(sent, m) {
				return field
			}
		}
		return `"confidence_reason":""`
	})
	for _, m := range canaryRE.FindAllString(body, -1) {
		if m != lt.canary && !echo(m) {
			o, _ := f.ownerOf(m)
			f.violate("%s by tenant %d: response carries tenant %d's canary %s: %s", op, lt.idx, o, m, r)
		}
	}
	for _, m := range slugRE.FindAllString(body, -1) {
		if m != lt.slug && !echo(m) {
			f.violate("%s by tenant %d: response carries another tenant's slug %s", op, lt.idx, m)
		}
	}
	reqID := r.Header.Get("X-Request-ID")
	for _, m := range uuidRE.FindAllString(body, -1) {
		if m == reqID || echo(m) {
			continue
		}
		if o, clash := f.own(m, lt.idx); clash {
			f.violate("%s by tenant %d: response carries id %s of tenant %d: %s", op, lt.idx, m, o, r)
		}
	}
}

func newCanary(r *rand.Rand) string {
	b := []byte("zq")
	for range 10 {
		b = append(b, byte('a'+r.IntN(26)))
	}
	return string(b)
}

func words(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = vocabulary[r.IntN(len(vocabulary))]
	}
	return strings.Join(w, " ")
}

// docText is a Markdown document of sections sections, each of a few
// sentences over the shared vocabulary, carrying the tenant's canary.
func docText(r *rand.Rand, canary string, sections int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Notes on %s\n\nThe private codeword of this account is %s.\n\n", words(r, 2), canary)
	for i := range sections {
		fmt.Fprintf(&b, "## %s %d\n\n", words(r, 2), i)
		for range 4 {
			fmt.Fprintf(&b, "The %s handles the %s of every %s. ", words(r, 1), words(r, 2), words(r, 1))
		}
		fmt.Fprintf(&b, "Ask about %s for details.\n\n", canary)
	}
	return b.String()
}

func soakDuration(t *testing.T) time.Duration {
	if v := os.Getenv("RAGD_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("RAGD_SOAK=%q: %v", v, err)
		}
		return d
	}
	return leakDuration
}

// TestLeakFuzz is the cross-tenant leak fuzzer (docs/SECURITY.md): 50
// tenants with unique canary words, randomized interleaved requests over
// every route the server registers (api.Server.Routes of the production
// wiring; a route no request reached with a 2xx fails the run) with each
// tenant's tokens (all three roles) through a real HTTP server on a
// two-connection pool, ingestion running concurrently, and every response
// inspected. It also checks, per tenant, exact document and
// chunk counts, and that its search scores and confidence never change while
// only other tenants' data does (so no statistic is shared across tenants).
func TestLeakFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("leak fuzzer: not in -short")
	}
	t.Parallel()
	n := leakTenants
	if v := os.Getenv("RAGD_SOAK_TENANTS"); v != "" {
		if _, err := fmt.Sscan(v, &n); err != nil || n < 2 {
			t.Fatalf("RAGD_SOAK_TENANTS=%q", v)
		}
	}
	f := runLeak(t, n, soakDuration(t), nil)
	if v := f.violations.Load(); v > 0 {
		t.Errorf("%d violations (first 20 above)", v)
	}
}

// TestLeakFuzzDetectsLeaks proves the fuzzer can fail: a middleware that
// serves every search with another bearer token (a tenant mix-up bug) must
// be caught.
func TestLeakFuzzDetectsLeaks(t *testing.T) {
	if testing.Short() {
		t.Skip("leak fuzzer: not in -short")
	}
	t.Parallel()
	var tenants atomic.Pointer[[]*leakTenant]
	wrap := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if ts := tenants.Load(); ts != nil && r.URL.Path == "/v1/search" {
				// Every search is served with another tenant's token.
				mine := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
				for {
					o := (*ts)[rand.IntN(len(*ts))]
					if !slices.Contains(o.tokens[:], mine) {
						r.Header.Set("Authorization", "Bearer "+o.tokens[auth.RoleReader])
						break
					}
				}
			}
			next.ServeHTTP(w, r)
		})
	}
	f := runLeak(t, 4, time.Second, func(f *fuzzer) {
		f.quiet = true
		tenants.Store(&f.tenants)
	}, wrap)
	if f.violations.Load() == 0 {
		t.Fatal("the fuzzer missed responses served with another tenant's token")
	}
	t.Logf("caught %d violations", f.violations.Load())
}

// runLeak seeds n tenants, runs the fuzzer for dur and audits every tenant.
// ready, if set, runs after seeding (before the randomized phase).
func runLeak(t *testing.T, n int, dur time.Duration, ready func(*fuzzer), wrap ...func(http.Handler) http.Handler) *fuzzer {
	seed := testSeed(t)
	t.Logf("seed %d, %d tenants, %s", seed, n, dur)
	rnd := rand.New(rand.NewPCG(seed, 1))
	o := options{MaxConns: 2}
	if len(wrap) > 0 {
		o.Wrap = wrap[0]
	}
	s := newServer(t, o)
	f := &fuzzer{t: t, s: s, owner: map[string]int{}, routes: http.NewServeMux()}
	for _, route := range s.API.Routes() {
		f.routes.Handle(route, http.NotFoundHandler())
	}
	start := time.Now()
	for i := range n {
		tn := testdb.NewTenant(t, "leak", "")
		lt := &leakTenant{idx: i, id: tn.ID, slug: tn.Slug, canary: newCanary(rnd), docs: map[uuid.UUID]*leakDoc{},
			byURI: map[string]uuid.UUID{}, results: map[string]string{}, evalSets: map[string]int{}}
		lt.prefix = fmt.Sprintf("t%02d-%s/", i, lt.canary)
		for _, role := range []auth.Role{auth.RoleReader, auth.RoleEditor, auth.RoleAdmin} {
			lt.tokens[role] = token(t, tn.ID, role)
		}
		for _, k := range []string{lt.canary, lt.slug, lt.id.String()} {
			if _, clash := f.own(k, i); clash {
				t.Fatalf("duplicate key %s", k)
			}
		}
		f.tenants = append(f.tenants, lt)
	}
	// The 404 of an id that exists nowhere: another tenant's id must get
	// exactly the same answer (no existence oracle).
	nf := s.do(call{Method: "GET", Path: "/v1/documents/" + uuid.NewString(), Token: f.tenants[0].tokens[auth.RoleReader]})
	f.notFound = wantProblem(t, nf, http.StatusNotFound).Detail
	nf = s.do(call{Method: "GET", Path: "/v1/eval/runs/" + uuid.NewString(), Token: f.tenants[0].tokens[auth.RoleAdmin]})
	f.runNotFound = wantProblem(t, nf, http.StatusNotFound).Detail

	// Seed: three documents per tenant, one of them at a source_uri every
	// tenant uses (shared/common.md).
	var wg sync.WaitGroup
	seedc := make(chan *leakTenant)
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, uint64(100+w)))
			for lt := range seedc {
				lt.mu.Lock()
				f.upsert(r, lt, lt.prefix+"guide.md", "markdown", docText(r, lt.canary, 1), false)
				f.upsert(r, lt, "shared/common.md", "markdown", docText(r, lt.canary, 0), false)
				f.upsert(r, lt, lt.prefix+"notes.txt", "text", "Plain notes. "+words(r, 12)+". The codeword is "+lt.canary+".", false)
				lt.mu.Unlock()
			}
		}()
	}
	for _, lt := range f.tenants {
		seedc <- lt
	}
	close(seedc)
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	seeded := time.Since(start)
	if ready != nil {
		ready(f)
	}
	if !f.quiet {
		// The tour: every operation once, allowed, for one tenant, so that
		// every route is reached whatever the random draws below.
		f.touring = true
		lt, r := f.tenants[0], rand.New(rand.NewPCG(seed, 998))
		lt.mu.Lock()
		for _, op := range f.operations() {
			op.run(r, lt)
		}
		lt.mu.Unlock()
		f.touring = false
	}

	goroutines := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), dur)
	defer cancel()
	var total atomic.Int64
	for w := range leakWorkers + leakIngesters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, uint64(w)))
			for ctx.Err() == nil && (f.quiet || f.violations.Load() < 20) {
				lt := f.tenants[r.IntN(len(f.tenants))]
				lt.mu.Lock()
				if w >= leakWorkers {
					f.opIngest(r, lt, r.IntN(4) == 0)
				} else {
					f.step(r, lt)
				}
				lt.mu.Unlock()
				total.Add(1)
			}
		}()
	}
	if dur >= time.Minute {
		go f.progress(ctx, &total)
	}
	wg.Wait()
	ran := time.Since(start) - seeded

	// Final audit: every tenant's listing, counts and statistics.
	if !f.quiet {
		for _, lt := range f.tenants {
			lt.mu.Lock()
			f.opList(rand.New(rand.NewPCG(seed, 999)), lt, true)
			f.opTenant(lt)
			lt.mu.Unlock()
			consistency(t, lt.id)
		}
	}
	if !f.quiet {
		for _, route := range s.API.Routes() {
			if n, ok := f.served.Load(route); !ok || n.(*atomic.Int64).Load() == 0 {
				t.Errorf("the server registers %s, but no request of the fuzzer reached it with success: exercise it", route)
			}
		}
	}
	var ops []string
	f.ops.Range(func(k, v any) bool { ops = append(ops, fmt.Sprintf("%s=%d", k, v.(*atomic.Int64).Load())); return true })
	var sts []string
	f.statuses.Range(func(k, v any) bool { sts = append(sts, fmt.Sprintf("%s=%d", k, v.(*atomic.Int64).Load())); return true })
	sort.Strings(ops)
	sort.Strings(sts)
	t.Logf("seeded %d tenants in %s; %d operations in %s (%.0f/s); ops: %s; statuses: %s; violations: %d",
		len(f.tenants), seeded.Round(time.Millisecond), total.Load(), ran.Round(time.Millisecond), float64(total.Load())/ran.Seconds(),
		strings.Join(ops, " "), strings.Join(sts, " "), f.violations.Load())
	s.client.CloseIdleConnections()
	// Work the run started may still be finishing (an ingestion job's
	// worker, a connection closing): a leak is what stays. A fixed pause
	// failed on a loaded machine (33 → 65 goroutines after 100 ms).
	g := runtime.NumGoroutine()
	for deadline := time.Now().Add(30 * time.Second); g > goroutines+20 && time.Now().Before(deadline); g = runtime.NumGoroutine() {
		time.Sleep(100 * time.Millisecond)
	}
	if g > goroutines+20 && !f.quiet {
		buf := make([]byte, 1<<20)
		t.Errorf("goroutines grew from %d to %d over the run and stayed for 30 s:\n%s", goroutines, g, buf[:runtime.Stack(buf, true)])
	}
	return f
}

func (f *fuzzer) progress(ctx context.Context, total *atomic.Int64) {
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	start := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			st := f.s.Pool.Stat()
			f.t.Logf("soak %s: %d ops, heap %d MiB, goroutines %d, pool conns %d/%d, violations %d",
				time.Since(start).Round(time.Second), total.Load(), m.HeapAlloc>>20, runtime.NumGoroutine(),
				st.TotalConns(), st.MaxConns(), f.violations.Load())
		}
	}
}

// operation is one kind of request the fuzzer makes; weight is its share
// (in percent) of the randomized phase.
type operation struct {
	name   string
	weight int
	run    func(*rand.Rand, *leakTenant)
}

// operations are every operation, in the tour's order (writes first, the
// deletes last, so that each finds what it needs).
func (f *fuzzer) operations() []operation {
	return []operation{
		{"ingest", 8, func(r *rand.Rand, lt *leakTenant) { f.opIngest(r, lt, false) }},
		{"upload", 2, func(r *rand.Rand, lt *leakTenant) { f.opIngest(r, lt, true) }},
		{"search", 25, f.opSearch},
		{"answer", 12, f.opAnswer},
		{"list", 10, func(r *rand.Rand, lt *leakTenant) { f.opList(r, lt, false) }},
		{"get", 8, f.opGet},
		{"access", 2, f.opAccess},
		{"metadata", 2, f.opMetadata},
		{"tenant", 7, func(_ *rand.Rand, lt *leakTenant) { f.opTenant(lt) }},
		{"settings", 4, f.opSettings},
		{"model", 2, f.opModel},
		{"public", 5, func(_ *rand.Rand, lt *leakTenant) { f.opPublic(lt) }},
		{"evalset", 2, f.opEvalSet},
		{"evalrun", 2, f.opEvalRun},
		{"evalget", 1, f.opEvalGet},
		{"events", 3, f.opEvents},
		{"feedback", 3, f.opFeedback},
		{"usage", 2, f.opUsage},
		{"job", 1, f.opJob},
		{"foreign", 6, f.opForeign},
		{"badtoken", 4, f.opBadToken},
		{"delete", 2, func(r *rand.Rand, lt *leakTenant) { f.opDelete(r, lt, false) }},
		{"delete-by-uri", 2, func(r *rand.Rand, lt *leakTenant) { f.opDelete(r, lt, true) }},
	}
}

// step runs one randomly chosen operation for lt (lt.mu held).
func (f *fuzzer) step(r *rand.Rand, lt *leakTenant) {
	ops := f.operations()
	total := 0
	for _, op := range ops {
		total += op.weight
	}
	n := r.IntN(total)
	for _, op := range ops {
		if n < op.weight {
			op.run(r, lt)
			return
		}
		n -= op.weight
	}
}

// decode unmarshals a response body for a worker goroutine (which must not
// call t.Fatal); a body that does not decode is a violation.
func (f *fuzzer) decode(r reply, v any) bool {
	if err := json.Unmarshal(r.Body, v); err != nil {
		f.violate("undecodable %T: %v: %s", v, err, r)
		return false
	}
	return true
}

func (f *fuzzer) send(lt *leakTenant, op string, c call) (reply, bool) {
	f.count(&f.ops, op)
	r, err := f.s.send(context.Background(), c)
	if err != nil {
		f.violate("%s: transport error: %v", op, err)
		return r, false
	}
	f.inspect(lt, op, c, r)
	f.cover(c, r)
	return r, true
}

// cover counts a successful response for the route c reached.
func (f *fuzzer) cover(c call, r reply) {
	if r.Status < 200 || r.Status > 299 {
		return
	}
	req, err := http.NewRequest(c.Method, "http://ragd"+c.Path, nil)
	if err != nil {
		return
	}
	if _, pattern := f.routes.Handler(req); pattern != "" {
		f.count(&f.served, pattern)
	}
}

// role picks a random role and reports whether it allows min; during the
// tour it picks min.
func (f *fuzzer) role(r *rand.Rand, min auth.Role) (auth.Role, bool) {
	if f.touring {
		return min, true
	}
	ro := auth.Role(1 + r.IntN(3))
	return ro, ro.Allows(min)
}

func (f *fuzzer) expectForbidden(op string, r reply) {
	if r.Status != http.StatusForbidden {
		f.violate("%s with too low a role: %s", op, r)
	}
}

// upsert writes a document as lt's editor through PUT (or the multipart
// upload) and updates the model. Caller holds lt.mu.
func (f *fuzzer) upsert(r *rand.Rand, lt *leakTenant, uri, typ, content string, upload bool) {
	c := call{Method: "PUT", Path: "/v1/documents", Token: lt.tokens[auth.RoleEditor],
		Body: map[string]any{"source_uri": uri, "content": content, "content_type": typ, "metadata": map[string]any{"owner": lt.canary}}}
	op := "upsert"
	if upload {
		op = "upload"
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		name := "f.md"
		if typ == "text" {
			name = "f.txt"
		}
		fw, _ := mw.CreateFormFile("file", name)
		fw.Write([]byte(content))
		mw.WriteField("source_uri", uri)
		mw.WriteField("metadata", `{"owner":"`+lt.canary+`"}`)
		mw.Close()
		c = call{Method: "POST", Path: "/v1/documents/upload", Token: lt.tokens[auth.RoleEditor], Body: buf.Bytes(), ContentType: mw.FormDataContentType()}
	}
	resp, ok := f.send(lt, op, c)
	if !ok {
		return
	}
	if resp.Status != http.StatusOK {
		f.violate("%s %s for tenant %d: %s", op, uri, lt.idx, resp)
		return
	}
	var w api.DocumentWrite
	if json.Unmarshal(resp.Body, &w) != nil {
		f.violate("%s: undecodable %s", op, resp)
		return
	}
	prev, existed := lt.byURI[uri]
	want := "added"
	if existed {
		want = "updated"
		if d := lt.docs[prev]; d.content == content {
			want = "unchanged"
		}
	}
	if w.Status != want || (existed && w.ID != prev) || w.SourceURI != uri || w.Chunks < 1 {
		f.violate("%s %s for tenant %d: got %+v, want status %s (existing %v)", op, uri, lt.idx, w, want, existed)
	}
	lt.byURI[uri] = w.ID
	lt.docs[w.ID] = &leakDoc{id: w.ID, uri: uri, content: content, chunks: w.Chunks}
	f.regMu.Lock()
	f.known = append(f.known, w.ID.String())
	f.regMu.Unlock()
	if w.Status != "unchanged" {
		lt.version++
	}
}

// opIngest adds a new document, or replaces or re-sends an existing one,
// through PUT /v1/documents or (upload) the multipart upload.
func (f *fuzzer) opIngest(r *rand.Rand, lt *leakTenant, upload bool) {
	ro, ok := f.role(r, auth.RoleEditor)
	if !ok {
		c := call{Method: "PUT", Path: "/v1/documents", Token: lt.tokens[ro],
			Body: map[string]any{"source_uri": lt.prefix + "denied.md", "content": "x " + lt.canary}}
		if resp, sent := f.send(lt, "upsert-denied", c); sent {
			f.expectForbidden("upsert", resp)
		}
		return
	}
	uri := ""
	content := docText(r, lt.canary, 1+r.IntN(4))
	switch n := r.IntN(10); {
	case n < 4 || len(lt.docs) == 0:
		lt.seq++
		uri = fmt.Sprintf("%sdoc-%d.md", lt.prefix, lt.seq)
	case n < 5:
		uri = "shared/common.md"
	default:
		d := pick(r, lt.docs)
		uri = d.uri
		if n < 7 {
			content = d.content // unchanged
		}
	}
	typ := "markdown"
	if strings.HasSuffix(uri, ".txt") {
		typ = "text"
	}
	f.upsert(r, lt, uri, typ, content, upload)
}

func pick(r *rand.Rand, docs map[uuid.UUID]*leakDoc) *leakDoc {
	ids := make([]uuid.UUID, 0, len(docs))
	for id := range docs {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) })
	return docs[ids[r.IntN(len(ids))]]
}

// other returns a random tenant other than lt.
func (f *fuzzer) other(r *rand.Rand, lt *leakTenant) *leakTenant {
	for {
		o := f.tenants[r.IntN(len(f.tenants))]
		if o != lt {
			return o
		}
	}
}

// query builds a search text: shared words, sometimes the tenant's own
// canary, sometimes another tenant's (an attacker guessing).
func (f *fuzzer) query(r *rand.Rand, lt *leakTenant) string {
	q := words(r, 1+r.IntN(3))
	switch r.IntN(4) {
	case 0:
		q += " " + lt.canary
	case 1:
		q = f.other(r, lt).canary + " " + q
	case 2:
		q = "what is the private codeword " + f.other(r, lt).canary
	}
	return q
}

func (f *fuzzer) opSearch(r *rand.Rand, lt *leakTenant) {
	body := map[string]any{"query": f.query(r, lt), "top_k": 1 + r.IntN(20)}
	foreignFilter := false
	switch r.IntN(6) {
	case 0:
		body["source_uri_prefix"] = lt.prefix
	case 1:
		body["source_uri_prefix"] = f.other(r, lt).prefix
		foreignFilter = true
	case 2:
		body["metadata"] = map[string]any{"owner": f.other(r, lt).canary}
		foreignFilter = true
	case 3:
		body["source_uri_prefix"] = "shared/"
	}
	ro, _ := f.role(r, auth.RoleReader)
	c := call{Method: "POST", Path: "/v1/search", Token: lt.tokens[ro], Body: body}
	resp, ok := f.send(lt, "search", c)
	if !ok {
		return
	}
	if resp.Status != http.StatusOK {
		f.violate("search by tenant %d: %s", lt.idx, resp)
		return
	}
	var sr api.SearchResponse
	if !f.decode(resp, &sr) {
		return
	}
	if sr.EventID != "" {
		lt.lastEvent.Store(&sr.EventID)
	}
	for _, res := range sr.Results {
		d, ok := lt.docs[res.DocumentID]
		if !ok || d.uri != res.SourceURI {
			f.violate("search by tenant %d returned a document it does not have: %+v", lt.idx, res)
		}
	}
	if foreignFilter && len(sr.Results) > 0 {
		f.violate("search by tenant %d filtered to another tenant's prefix/metadata returned %d results", lt.idx, len(sr.Results))
	}
	for k := range sr.TimingsMS {
		if !slices.Contains([]string{"embed", "retrieve", "vector", "keyword", "fuse", "rerank"}, k) {
			f.violate("search timings carry an unexpected key %q", k)
		}
	}
	// Scores are a function of the tenant's own data: the same query on the
	// same version of it gives the same ids, BM25 scores, distances and
	// confidence, however much other tenants have written since.
	raw, _ := json.Marshal(body)
	key := fmt.Sprintf("%d|%d|%s", lt.version, lt.candidates, raw)
	var fp strings.Builder
	fmt.Fprintf(&fp, "conf=%.6f skipped=%v", sr.Confidence, sr.KeywordSkipped)
	for _, res := range sr.Results {
		fmt.Fprintf(&fp, " %s", res.ChunkID)
		if res.KeywordScore != nil {
			fmt.Fprintf(&fp, "/k%.6f", *res.KeywordScore)
		}
		if res.VectorDistance != nil {
			fmt.Fprintf(&fp, "/v%.5f", *res.VectorDistance)
		}
	}
	if prev, ok := lt.results[key]; ok && prev != fp.String() {
		f.violate("tenant %d: the same search on unchanged data scored differently after other tenants' writes:\n  %s\n  %s", lt.idx, prev, fp.String())
	}
	lt.results[key] = fp.String()
}

func (f *fuzzer) opAnswer(r *rand.Rand, lt *leakTenant) {
	q := f.query(r, lt)
	if r.IntN(2) == 0 {
		q = "What does the " + words(r, 2) + " do? " + q
	}
	ro, _ := f.role(r, auth.RoleReader)
	c := call{Method: "POST", Path: "/v1/answer", Token: lt.tokens[ro], Body: map[string]any{"question": q, "top_k": 1 + r.IntN(8)}}
	sse := r.IntN(3) == 0
	if sse {
		c.Header = map[string]string{"Accept": "text/event-stream"}
	}
	resp, ok := f.send(lt, "answer", c)
	if !ok {
		return
	}
	if resp.Status != http.StatusOK {
		f.violate("answer by tenant %d: %s", lt.idx, resp)
		return
	}
	var ar api.AnswerResponse
	if sse {
		data, found := sseEvent(resp.Body, "done")
		if !found {
			f.violate("answer stream without a done event: %s", resp)
			return
		}
		if err := json.Unmarshal(data, &ar); err != nil {
			f.violate("answer done event: %v", err)
			return
		}
	} else {
		if !f.decode(resp, &ar) {
			return
		}
	}
	srcs := map[string]bool{}
	for _, s := range ar.Sources {
		srcs[s.ChunkID] = true
		if _, ok := lt.byURI[s.SourceURI]; !ok {
			f.violate("answer for tenant %d used a source it does not have: %s", lt.idx, s.SourceURI)
		}
	}
	for _, c := range ar.Citations {
		if !srcs[c.ChunkID] {
			f.violate("answer for tenant %d cites a chunk that is not one of its sources: %+v", lt.idx, c)
		}
	}
}

// sseEvent returns the data of the first event named name.
func sseEvent(body []byte, name string) ([]byte, bool) {
	for _, ev := range strings.Split(string(body), "\n\n") {
		var event, data string
		for _, line := range strings.Split(ev, "\n") {
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				event = v
			} else if v, ok := strings.CutPrefix(line, "data: "); ok {
				data = v
			}
		}
		if event == name {
			return []byte(data), true
		}
	}
	return nil, false
}

// opList pages through the tenant's documents (optionally under a prefix)
// and compares them with the model.
func (f *fuzzer) opList(r *rand.Rand, lt *leakTenant, all bool) {
	prefix := ""
	if !all {
		switch r.IntN(4) {
		case 0:
			prefix = lt.prefix
		case 1:
			prefix = f.other(r, lt).prefix
		case 2:
			prefix = "shared/"
		}
	}
	limit := 1 + r.IntN(5)
	ro, _ := f.role(r, auth.RoleReader)
	got := map[uuid.UUID]api.Document{}
	cursor := ""
	for page := 0; page < 200; page++ {
		q := url.Values{"limit": {fmt.Sprint(limit)}}
		if prefix != "" {
			q.Set("source_uri_prefix", prefix)
		}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		resp, ok := f.send(lt, "list", call{Method: "GET", Path: "/v1/documents?" + q.Encode(), Token: lt.tokens[ro]})
		if !ok {
			return
		}
		if resp.Status != http.StatusOK {
			f.violate("list by tenant %d: %s", lt.idx, resp)
			return
		}
		var dl api.DocumentList
		if !f.decode(resp, &dl) {
			return
		}
		for _, d := range dl.Documents {
			got[d.ID] = d
		}
		if cursor = dl.NextCursor; cursor == "" {
			break
		}
	}
	want := 0
	for _, d := range lt.docs {
		if !strings.HasPrefix(d.uri, prefix) {
			continue
		}
		want++
		g, ok := got[d.id]
		if !ok {
			f.violate("list for tenant %d misses its document %s", lt.idx, d.uri)
			continue
		}
		if g.SourceURI != d.uri || g.Chunks != d.chunks || ingestSHA(d.content) != g.ContentSHA256 {
			f.violate("list for tenant %d: %s is %+v, want %d chunks", lt.idx, d.uri, g, d.chunks)
		}
	}
	if len(got) != want {
		f.violate("list for tenant %d under %q: %d documents, the tenant has %d", lt.idx, prefix, len(got), want)
	}
}

func (f *fuzzer) opGet(r *rand.Rand, lt *leakTenant) {
	if len(lt.docs) == 0 {
		return
	}
	d := pick(r, lt.docs)
	ro, _ := f.role(r, auth.RoleReader)
	resp, ok := f.send(lt, "get", call{Method: "GET", Path: "/v1/documents/" + d.id.String() + "?include_content=true", Token: lt.tokens[ro]})
	if !ok {
		return
	}
	var doc api.Document
	if resp.Status != http.StatusOK {
		f.violate("get own document by tenant %d: %s", lt.idx, resp)
		return
	}
	if !f.decode(resp, &doc) {
		return
	}
	// include_content returns the extracted text (what chunk offsets point
	// into), not the bytes as uploaded: compare what survives extraction.
	if doc.Content == nil || !strings.Contains(*doc.Content, lt.canary) || doc.ContentSHA256 != ingestSHA(d.content) ||
		doc.SourceURI != d.uri || doc.Chunks != d.chunks {
		f.violate("get by tenant %d: %s differs from what it wrote", lt.idx, d.uri)
	}
	if o, _ := doc.Metadata["owner"].(string); o != lt.canary {
		f.violate("get by tenant %d: metadata %v", lt.idx, doc.Metadata)
	}
}

// opForeign aims at another tenant's document by id or source_uri, with
// every method; the answer must be exactly the 404 of an id that exists
// nowhere (or 403 for a reader's delete).
func (f *fuzzer) opForeign(r *rand.Rand, lt *leakTenant) {
	f.regMu.Lock()
	var target string
	for range 10 {
		target = f.known[r.IntN(len(f.known))]
		if f.owner[target] != lt.idx {
			break
		}
	}
	f.regMu.Unlock()
	if o, _ := f.ownerOf(target); o == lt.idx {
		return
	}
	other := f.other(r, lt)
	ro, _ := f.role(r, auth.RoleReader)
	var c call
	switch r.IntN(4) {
	case 0:
		c = call{Method: "GET", Path: "/v1/documents/" + target, Token: lt.tokens[ro]}
	case 1:
		c = call{Method: "GET", Path: "/v1/documents/" + target + "?include_content=true", Token: lt.tokens[ro]}
	case 2:
		c = call{Method: "DELETE", Path: "/v1/documents/" + target, Token: lt.tokens[ro]}
	default:
		c = call{Method: "DELETE", Path: "/v1/documents?source_uri=" + url.QueryEscape(other.prefix+"guide.md"), Token: lt.tokens[ro]}
	}
	resp, ok := f.send(lt, "foreign", c)
	if !ok {
		return
	}
	if c.Method == "DELETE" && !ro.Allows(auth.RoleEditor) {
		f.expectForbidden("foreign delete", resp)
		return
	}
	if resp.Status != http.StatusNotFound {
		f.violate("tenant %d %s %s (another tenant's): %s", lt.idx, c.Method, c.Path, resp)
		return
	}
	var p problem
	if !f.decode(resp, &p) {
		return
	}
	if p.Detail != f.notFound {
		f.violate("404 for another tenant's id differs from a nonexistent id's: %q vs %q", p.Detail, f.notFound)
	}
}

// opDelete deletes one of the tenant's own documents, by id or (byURI) by
// source_uri.
func (f *fuzzer) opDelete(r *rand.Rand, lt *leakTenant, byURI bool) {
	if len(lt.docs) <= 1 {
		return
	}
	d := pick(r, lt.docs)
	ro, allowed := f.role(r, auth.RoleEditor)
	c := call{Method: "DELETE", Path: "/v1/documents/" + d.id.String(), Token: lt.tokens[ro]}
	if byURI {
		c.Path = "/v1/documents?source_uri=" + url.QueryEscape(d.uri)
	}
	resp, ok := f.send(lt, "delete", c)
	if !ok {
		return
	}
	if !allowed {
		f.expectForbidden("delete", resp)
		return
	}
	var w api.DocumentWrite
	if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &w) != nil || w.ID != d.id || w.Status != "deleted" {
		f.violate("delete own %s by tenant %d: %s", d.uri, lt.idx, resp)
		return
	}
	delete(lt.docs, d.id)
	delete(lt.byURI, d.uri)
	lt.version++
}

// opTenant checks GET /v1/tenant: the caller's own tenant and its exact counts.
func (f *fuzzer) opTenant(lt *leakTenant) {
	resp, ok := f.send(lt, "tenant", call{Method: "GET", Path: "/v1/tenant", Token: lt.tokens[auth.RoleReader]})
	if !ok {
		return
	}
	if resp.Status != http.StatusOK {
		f.violate("tenant info %d: %s", lt.idx, resp)
		return
	}
	var ti api.TenantInfo
	if !f.decode(resp, &ti) {
		return
	}
	wantCand := lt.candidates
	if wantCand == 0 {
		wantCand = tenant.DefaultCandidates
	}
	if ti.ID != lt.id || ti.Slug != lt.slug || ti.Documents != int64(len(lt.docs)) || ti.Chunks != lt.chunkTotal() || ti.Settings.Candidates != wantCand {
		f.violate("tenant %d info %+v, want %d documents, %d chunks, candidates %d", lt.idx, ti, len(lt.docs), lt.chunkTotal(), wantCand)
	}
}

func (f *fuzzer) opSettings(r *rand.Rand, lt *leakTenant) {
	ro, allowed := f.role(r, auth.RoleAdmin)
	cand := 10 + r.IntN(21)
	resp, ok := f.send(lt, "settings", call{Method: "PATCH", Path: "/v1/tenant/settings", Token: lt.tokens[ro], Body: map[string]any{"candidates": cand}})
	if !ok {
		return
	}
	if !allowed {
		f.expectForbidden("settings", resp)
		return
	}
	if resp.Status != http.StatusOK {
		f.violate("settings by tenant %d: %s", lt.idx, resp)
		return
	}
	lt.candidates = cand
}

// opModel: POST /v1/tenant/model with the tenant's active model (no
// switch: nothing to re-embed) answers with the caller's own tenant's
// model and exact chunk count, for admins only.
func (f *fuzzer) opModel(r *rand.Rand, lt *leakTenant) {
	ro, allowed := f.role(r, auth.RoleAdmin)
	resp, ok := f.send(lt, "model", call{Method: "POST", Path: "/v1/tenant/model", Token: lt.tokens[ro], Body: map[string]any{"model": embed.LocalModelName}})
	if !ok {
		return
	}
	if !allowed {
		f.expectForbidden("model", resp)
		return
	}
	if resp.Status != http.StatusAccepted {
		f.violate("model switch by tenant %d: %s", lt.idx, resp)
		return
	}
	var st model.Status
	if !f.decode(resp, &st) {
		return
	}
	if st.Active != embed.LocalModelName || st.Target != "" || st.Chunks != lt.chunkTotal() || st.ActiveCoverage != 1 {
		f.violate("tenant %d model %+v, want %s covering its %d chunks", lt.idx, st, embed.LocalModelName, lt.chunkTotal())
	}
}

// opEvents lists the tenant's retrieval events as its admin: every chunk
// an event names is the tenant's own. The questions and filters are
// left out of the generic inspection: the fuzzer's own searches ask for
// other tenants' canaries and prefixes (an attacker guessing), and events
// record what was asked.
func (f *fuzzer) opEvents(r *rand.Rand, lt *leakTenant) {
	ro, allowed := f.role(r, auth.RoleAdmin)
	path := "/v1/events?limit=" + fmt.Sprint(1+r.IntN(50))
	if r.IntN(3) == 0 {
		path += "&refused=" + fmt.Sprint(r.IntN(2) == 0)
	}
	c := call{Method: "GET", Path: path, Token: lt.tokens[ro]}
	f.count(&f.ops, "events")
	resp, err := f.s.send(context.Background(), c)
	if err != nil {
		f.violate("events: transport error: %v", err)
		return
	}
	f.cover(c, resp)
	if !allowed {
		f.expectForbidden("events", resp)
		return
	}
	if resp.Status != http.StatusOK {
		f.violate("events of tenant %d: %s", lt.idx, resp)
		return
	}
	var l api.EventList
	if !f.decode(resp, &l) {
		return
	}
	for i := range l.Events {
		l.Events[i].Question, l.Events[i].Rewritten, l.Events[i].Filters, l.Events[i].QuestionSHA = nil, nil, nil, ""
	}
	stripped, _ := json.Marshal(l)
	resp.Body = stripped
	f.inspect(lt, "events", c, resp)
}

// opJob submits a one-document ingestion job as the tenant's editor, works
// it to the end with a worker limited to the tenant, records the document
// it stored, and reads the job through every job route (list, one, its
// progress stream): each response is inspected like any other.
func (f *fuzzer) opJob(r *rand.Rand, lt *leakTenant) {
	lt.seq++
	uri := fmt.Sprintf("%sjob-%d.md", lt.prefix, lt.seq)
	content := docText(r, lt.canary, 1+r.IntN(2))
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("files", uri)
	fw.Write([]byte(content))
	mw.WriteField("metadata", `{"owner":"`+lt.canary+`"}`)
	mw.Close()
	created, ok := f.send(lt, "job", call{Method: "POST", Path: "/v1/ingest/jobs", Token: lt.tokens[auth.RoleEditor],
		Body: buf.Bytes(), ContentType: mw.FormDataContentType()})
	if !ok {
		return
	}
	var out struct {
		ID uuid.UUID `json:"id"`
	}
	if created.Status != http.StatusAccepted || !f.decode(created, &out) {
		f.violate("job submission for tenant %d: %s", lt.idx, created)
		return
	}
	// Work the tenant's queue until this job's document is final. Another
	// operation of the same tenant may run a worker too and be the one that
	// claimed it: then this one finds nothing to do while the document is
	// still under way, and waits for it (bounded) instead of reading it
	// half done.
	w := job.New(f.s.Pool, f.s.Deps.Ingester, job.Options{Tenants: []uuid.UUID{lt.id}})
	ro, _ := f.role(r, auth.RoleReader)
	var d api.JobDetail
	for deadline := time.Now().Add(2 * time.Minute); ; {
		for {
			worked, err := w.Work(context.Background())
			if err != nil {
				f.violate("job worker for tenant %d: %v", lt.idx, err)
				return
			}
			if !worked {
				break
			}
		}
		one, ok := f.send(lt, "job", call{Method: "GET", Path: "/v1/ingest/jobs/" + out.ID.String(), Token: lt.tokens[ro]})
		if !ok {
			return
		}
		if one.Status != http.StatusOK || !f.decode(one, &d) {
			f.violate("job of tenant %d: %s", lt.idx, one)
			return
		}
		if len(d.Documents) != 1 || d.Documents[0].Finished != nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(d.Documents) != 1 || d.Documents[0].Stage != job.StageStored || d.Documents[0].DocumentID == nil || d.Documents[0].SourceURI != uri {
		f.violate("job of tenant %d: documents %+v, want %s stored", lt.idx, d.Documents, uri)
		return
	}
	id := *d.Documents[0].DocumentID
	lt.byURI[uri] = id
	lt.docs[id] = &leakDoc{id: id, uri: uri, content: content, chunks: d.Documents[0].Chunks}
	f.regMu.Lock()
	f.known = append(f.known, id.String())
	f.regMu.Unlock()
	lt.version++
	f.send(lt, "job", call{Method: "GET", Path: "/v1/ingest/jobs?limit=" + fmt.Sprint(1+r.IntN(20)), Token: lt.tokens[ro]})
	f.send(lt, "job", call{Method: "GET", Path: "/v1/ingest/jobs/" + out.ID.String() + "/events", Token: lt.tokens[ro]})
	// Another tenant's job is a 404, exactly like a job that exists nowhere.
	o := f.other(r, lt)
	if resp, ok := f.send(lt, "job", call{Method: "GET", Path: "/v1/ingest/jobs/" + out.ID.String(), Token: o.tokens[auth.RoleAdmin]}); ok && resp.Status != http.StatusNotFound {
		f.violate("tenant %d read tenant %d's job: %s", o.idx, lt.idx, resp)
	}
}

// opFeedback rates the tenant's latest search (204, or 404 while the
// writer has not stored it yet) and tries another tenant's latest event,
// which must be a 404 exactly like an id that exists nowhere.
func (f *fuzzer) opFeedback(r *rand.Rand, lt *leakTenant) {
	target, own := lt, true
	if !f.touring && r.IntN(3) == 0 {
		target, own = f.other(r, lt), false
	}
	id := target.lastEvent.Load()
	if id == nil {
		return
	}
	ro, _ := f.role(r, auth.RoleReader)
	c := call{Method: "POST", Path: "/v1/events/" + *id + "/feedback", Token: lt.tokens[ro],
		Body: map[string]any{"helpful": r.IntN(2) == 0, "note": words(r, 3), "source_uri": lt.prefix + "guide.md"}}
	for tries := 0; ; tries++ {
		resp, ok := f.send(lt, "feedback", c)
		if !ok {
			return
		}
		switch {
		case !own && resp.Status != http.StatusNotFound:
			f.violate("feedback by tenant %d on tenant %d's event: %s", lt.idx, target.idx, resp)
		case own && resp.Status == http.StatusNotFound && f.touring && tries < 50:
			time.Sleep(100 * time.Millisecond) // the writer stores events within about half a second
			continue
		case own && eventPending("feedback", resp) && tries < 10:
			// The event this server answered is not written yet (the
			// recorder writes in batches, slower under the race
			// detector): the documented answer is 503 with Retry-After,
			// and a client retries.
			time.Sleep(time.Second)
			continue
		case own && resp.Status == http.StatusUnprocessableEntity && bytes.Contains(resp.Body, []byte("source_uri names no document")):
			// guide.md was deleted by another operation: a source that is
			// not a document is refused.
		case own && resp.Status != http.StatusNoContent && resp.Status != http.StatusNotFound:
			f.violate("feedback by tenant %d: %s", lt.idx, resp)
		}
		return
	}
}

// eventPending reports the feedback endpoint's answer for an event this
// server has queued and not yet written within its wait: 503 with
// Retry-After, a retryable answer of a healthy server, not a fault. For
// another tenant's event the answer must still be 404 (opFeedback).
func eventPending(op string, r reply) bool {
	return op == "feedback" && r.Status == http.StatusServiceUnavailable && r.Header.Get("Retry-After") != ""
}

// opUsage reads the tenant's usage as its admin: storage is its own,
// counted exactly.
func (f *fuzzer) opUsage(r *rand.Rand, lt *leakTenant) {
	ro, allowed := f.role(r, auth.RoleAdmin)
	resp, ok := f.send(lt, "usage", call{Method: "GET", Path: "/v1/tenant/usage", Token: lt.tokens[ro]})
	if !ok {
		return
	}
	if !allowed {
		f.expectForbidden("usage", resp)
		return
	}
	if resp.Status != http.StatusOK {
		f.violate("usage of tenant %d: %s", lt.idx, resp)
		return
	}
	var u api.Usage
	if !f.decode(resp, &u) {
		return
	}
	if u.Storage.Documents != int64(len(lt.docs)) || u.Storage.Chunks != lt.chunkTotal() {
		f.violate("usage of tenant %d: storage %+v, want %d documents, %d chunks", lt.idx, u.Storage, len(lt.docs), lt.chunkTotal())
	}
}

// opBadToken: tokens that must not work — an unknown tenant, another
// secret, a tampered tenant claim — all get the same generic 401.
func (f *fuzzer) opBadToken(r *rand.Rand, lt *leakTenant) {
	var tok string
	switch r.IntN(3) {
	case 0:
		tok, _ = auth.Issue(secret, uuid.New(), auth.RoleAdmin, time.Hour)
	case 1:
		tok, _ = auth.Issue(strings.Repeat("k", 40), f.other(r, lt).id, auth.RoleAdmin, time.Hour)
	default:
		// Splice another tenant's claims into this tenant's signature.
		mine := strings.Split(lt.tokens[auth.RoleReader], ".")
		theirs := strings.Split(f.other(r, lt).tokens[auth.RoleAdmin], ".")
		tok = mine[0] + "." + theirs[1] + "." + mine[2]
	}
	resp, ok := f.send(lt, "badtoken", call{Method: "GET", Path: "/v1/documents", Token: tok})
	if ok && resp.Status != http.StatusUnauthorized {
		f.violate("bad token: %s", resp)
	}
}

// opPublic reads every unauthenticated route the server registers (the
// routes outside /v1: health, readiness, metrics, the OpenAPI document and
// the docs page): none may name a tenant.
func (f *fuzzer) opPublic(lt *leakTenant) {
	for _, route := range f.s.API.Routes() {
		method, p, _ := strings.Cut(route, " ")
		if strings.HasPrefix(p, "/v1/") || method != http.MethodGet {
			continue
		}
		f.count(&f.ops, "public")
		c := call{Method: method, Path: p}
		resp, err := f.s.send(context.Background(), c)
		if err != nil || resp.Status != http.StatusOK {
			f.violate("GET %s: %v %v", p, err, resp)
			continue
		}
		f.cover(c, resp)
		b := string(resp.Body)
		if canaryRE.MatchString(b) || slugRE.MatchString(b) || strings.Contains(b, lt.id.String()) {
			f.violate("GET %s names a tenant", p)
		}
	}
}

// putEvalSet stores a set of one to three questions over lt's documents
// under name as lt's admin and updates the model. Caller holds lt.mu.
func (f *fuzzer) putEvalSet(r *rand.Rand, lt *leakTenant, name string) {
	var qs []map[string]any
	for i := range 1 + r.IntN(3) {
		q := map[string]any{"question": fmt.Sprintf("what is the %s of %s %d?", words(r, 2), lt.canary, i), "relevant": []string{}}
		if len(lt.docs) > 0 && r.IntN(3) > 0 {
			q["relevant"] = []string{pick(r, lt.docs).uri} // unanswerable otherwise
		}
		qs = append(qs, q)
	}
	resp, ok := f.send(lt, "evalset", call{Method: "PUT", Path: "/v1/eval/sets/" + name, Token: lt.tokens[auth.RoleAdmin],
		Body: map[string]any{"questions": qs}})
	if !ok {
		return
	}
	var set struct {
		Name      string `json:"name"`
		Questions int    `json:"questions"`
	}
	if resp.Status != http.StatusOK || !f.decode(resp, &set) || set.Name != name || set.Questions != len(qs) {
		f.violate("eval set %s by tenant %d (%d questions): %s", name, lt.idx, len(qs), resp)
		return
	}
	lt.evalSets[name] = len(qs)
}

// opEvalSet: PUT /v1/eval/sets/{name} (admin).
func (f *fuzzer) opEvalSet(r *rand.Rand, lt *leakTenant) {
	name := fmt.Sprintf("fuzz-%d", r.IntN(3))
	if ro, allowed := f.role(r, auth.RoleAdmin); !allowed {
		c := call{Method: "PUT", Path: "/v1/eval/sets/" + name, Token: lt.tokens[ro],
			Body: map[string]any{"questions": []map[string]any{{"question": "denied " + lt.canary + "?", "relevant": []string{}}}}}
		if resp, sent := f.send(lt, "evalset-denied", c); sent {
			f.expectForbidden("eval set", resp)
		}
		return
	}
	f.putEvalSet(r, lt, name)
}

// opEvalRun: POST /v1/eval/runs (admin) over one of lt's sets (stored
// first when it has none); the report is the tenant's own.
func (f *fuzzer) opEvalRun(r *rand.Rand, lt *leakTenant) {
	ro, allowed := f.role(r, auth.RoleAdmin)
	if !allowed {
		if resp, sent := f.send(lt, "evalrun-denied", call{Method: "POST", Path: "/v1/eval/runs", Token: lt.tokens[ro],
			Body: map[string]any{"set": "fuzz-0"}}); sent {
			f.expectForbidden("eval run", resp)
		}
		return
	}
	if len(lt.evalSets) == 0 {
		f.putEvalSet(r, lt, "fuzz-0")
	}
	names := make([]string, 0, len(lt.evalSets))
	for n := range lt.evalSets {
		names = append(names, n)
	}
	if len(names) == 0 {
		return // the set was refused: a violation already
	}
	sort.Strings(names)
	name := names[r.IntN(len(names))]
	resp, ok := f.send(lt, "evalrun", call{Method: "POST", Path: "/v1/eval/runs", Token: lt.tokens[auth.RoleAdmin],
		Body: map[string]any{"set": name, "top_k": 1 + r.IntN(10)}})
	if !ok {
		return
	}
	var rep struct {
		ID        uuid.UUID `json:"id"`
		Questions int       `json:"questions"`
		Set       struct {
			Name string `json:"name"`
		} `json:"set"`
	}
	if resp.Status != http.StatusOK || !f.decode(resp, &rep) || rep.ID == uuid.Nil || rep.Set.Name != name || rep.Questions != lt.evalSets[name] {
		f.violate("eval run of %s (%d questions) by tenant %d: %s", name, lt.evalSets[name], lt.idx, resp)
		return
	}
	lt.runs = append(lt.runs, rep.ID)
	f.regMu.Lock()
	f.knownRuns = append(f.knownRuns, rep.ID.String())
	f.regMu.Unlock()
}

// opEvalGet: GET /v1/eval/runs/{id} (admin) of one of lt's runs (the tour
// always, when it has one), of another tenant's run or of a run that exists
// nowhere: the last two get the same 404.
func (f *fuzzer) opEvalGet(r *rand.Rand, lt *leakTenant) {
	ro, allowed := f.role(r, auth.RoleAdmin)
	target, own := uuid.NewString(), false
	switch n := r.IntN(3); {
	case len(lt.runs) > 0 && (n == 0 || f.touring):
		target, own = lt.runs[r.IntN(len(lt.runs))].String(), true
	case n == 1:
		f.regMu.Lock()
		if len(f.knownRuns) > 0 {
			if k := f.knownRuns[r.IntN(len(f.knownRuns))]; f.owner[k] != lt.idx {
				target = k
			}
		}
		f.regMu.Unlock()
	}
	resp, ok := f.send(lt, "evalget", call{Method: "GET", Path: "/v1/eval/runs/" + target, Token: lt.tokens[ro]})
	switch {
	case !ok:
	case !allowed:
		f.expectForbidden("eval run read", resp)
	case own:
		var rep struct {
			ID string `json:"id"`
		}
		if resp.Status != http.StatusOK || !f.decode(resp, &rep) || rep.ID != target {
			f.violate("own eval run %s of tenant %d: %s", target, lt.idx, resp)
		}
	default:
		var p problem
		if resp.Status != http.StatusNotFound || !f.decode(resp, &p) || p.Detail != f.runNotFound {
			f.violate("eval run %s (not tenant %d's): %s, want the 404 %q of a run that exists nowhere", target, lt.idx, resp, f.runNotFound)
		}
	}
}

// opAccess: PATCH /v1/documents/{id}/access (editor) of one of lt's
// documents, to tenant-wide (the only list this fuzzer's tokens, which
// carry no groups, keep readable to every role) — or of another tenant's
// document, which must be the 404 of a document that exists nowhere.
func (f *fuzzer) opAccess(r *rand.Rand, lt *leakTenant) {
	ro, allowed := f.role(r, auth.RoleEditor)
	target, own := f.docTarget(r, lt)
	resp, ok := f.send(lt, "access", call{Method: "PATCH", Path: "/v1/documents/" + target + "/access", Token: lt.tokens[ro],
		Body: map[string]any{"access": []string{}}})
	switch {
	case !ok:
	case !allowed:
		f.expectForbidden("access change", resp)
	case own:
		var d api.Document
		if resp.Status != http.StatusOK || !f.decode(resp, &d) || d.ID.String() != target || len(d.Access) != 0 {
			f.violate("access change of tenant %d's own document %s: %s", lt.idx, target, resp)
		}
	default:
		var p problem
		if resp.Status != http.StatusNotFound || !f.decode(resp, &p) || p.Detail != f.notFound {
			f.violate("access change of %s (not tenant %d's): %s, want the 404 %q", target, lt.idx, resp, f.notFound)
		}
	}
}

// docTarget picks the document a write by lt names: one of lt's own
// (always while touring), or another tenant's known document, or an id
// that exists nowhere.
func (f *fuzzer) docTarget(r *rand.Rand, lt *leakTenant) (target string, own bool) {
	target, own = uuid.NewString(), false
	if d := pick(r, lt.docs); d != nil && (r.IntN(2) == 0 || f.touring) {
		target, own = d.id.String(), true
	} else {
		f.regMu.Lock()
		if len(f.known) > 0 {
			if k := f.known[r.IntN(len(f.known))]; f.owner[k] != lt.idx {
				target = k
			}
		}
		f.regMu.Unlock()
	}
	return target, own
}

// opMetadata: PATCH /v1/documents/{id}/metadata (editor) of one of lt's
// documents, keeping its owner canary (opGet checks it) — or of another
// tenant's document, which must be the 404 of a document that exists
// nowhere and must leave its canary alone.
func (f *fuzzer) opMetadata(r *rand.Rand, lt *leakTenant) {
	ro, allowed := f.role(r, auth.RoleEditor)
	target, own := f.docTarget(r, lt)
	n := r.IntN(1000)
	resp, ok := f.send(lt, "metadata", call{Method: "PATCH", Path: "/v1/documents/" + target + "/metadata", Token: lt.tokens[ro],
		Body: map[string]any{"metadata": map[string]any{"owner": lt.canary, "touched": n}}})
	switch {
	case !ok:
	case !allowed:
		f.expectForbidden("metadata change", resp)
	case own:
		var d api.Document
		if resp.Status != http.StatusOK || !f.decode(resp, &d) || d.ID.String() != target || d.Metadata["owner"] != lt.canary {
			f.violate("metadata change of tenant %d's own document %s: %s", lt.idx, target, resp)
		}
	default:
		var p problem
		if resp.Status != http.StatusNotFound || !f.decode(resp, &p) || p.Detail != f.notFound {
			f.violate("metadata change of %s (not tenant %d's): %s, want the 404 %q", target, lt.idx, resp, f.notFound)
		}
	}
}

// ingestSHA is the hex sha256 the API reports for content.
func ingestSHA(content string) string {
	return fmt.Sprintf("%x", sha256.Sum256([]byte(content)))
}
