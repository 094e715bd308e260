package reliability

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// The principal leak fuzzer (docs/SECURITY.md, "Document permissions"):
// one tenant, documents under access lists, users whose groups overlap,
// one without a groups claim and one whose claim is malformed, and access
// lists changing while everyone searches, asks, lists and reads. Every
// document carries a canary word (in its text and its source_uri); a
// response that names a document (its id or canary) that the user could
// not read at any moment while the request ran is a violation.

// pUser is one caller of the tenant.
type pUser struct {
	name       string
	role       auth.Role
	token      string
	principals []string // what the server should derive from the token
}

// allSeeing reports whether the user reads every document on a
// management route (the admin role).
func (u *pUser) allSeeing(manage bool) bool { return manage && u.role == auth.RoleAdmin }

// span is one access list a document had, from one sequence number to
// another (both inclusive; to is open while the list is current). Spans of
// a change overlap: the change's request may commit at any point between.
type span struct {
	acl      []string
	from, to int64
}

type pDoc struct {
	id          uuid.UUID
	uri, canary string
	stable      bool       // its list never changes and it is never deleted
	change      sync.Mutex // serialises the writes of this document
	spans       []span     // guarded by pfuzz.mu
	content     string     // guarded by change
}

const openSpan = int64(1) << 62

type pfuzz struct {
	t        *testing.T
	s        *server
	tenantID uuid.UUID
	seq      atomic.Int64
	notFound string

	mu       sync.Mutex
	docs     []*pDoc
	byID     map[string]*pDoc
	byCanary map[string]*pDoc
	runs     map[uuid.UUID]*pUser // evaluation runs and who made them

	users      map[string]*pUser
	routes     *http.ServeMux
	served     sync.Map
	violations atomic.Int64
	ops        atomic.Int64
	quiet      bool // count violations without failing (the self-test)
}

func sees(principals, acl []string) bool {
	if len(acl) == 0 {
		return true
	}
	for _, a := range acl {
		if slices.Contains(principals, a) {
			return true
		}
	}
	return false
}

// visibleDuring reports whether u could read d at some moment in [s0, s1].
func (f *pfuzz) visibleDuring(u *pUser, d *pDoc, s0, s1 int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, sp := range d.spans {
		if sp.from <= s1 && sp.to >= s0 && sees(u.principals, sp.acl) {
			return true
		}
	}
	return false
}

// currentACL is d's list now (for writes, which hold d.change).
func (f *pfuzz) currentACL(d *pDoc) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return d.spans[len(d.spans)-1].acl
}

func (f *pfuzz) violate(format string, a ...any) {
	if f.violations.Add(1) <= 20 && !f.quiet {
		f.t.Errorf("violation: "+format, a...)
	}
}

// send performs c as u and inspects the response: every document it names
// must have been readable by u while the request ran (all documents on a
// management route for an admin).
func (f *pfuzz) send(u *pUser, manage bool, c call) reply {
	f.ops.Add(1)
	c.Token = u.token
	s0 := f.seq.Add(1)
	r, err := f.s.send(f.t.Context(), c)
	s1 := f.seq.Add(1)
	if err != nil {
		f.violate("%s %s: transport error: %v", c.Method, c.Path, err)
		return r
	}
	if r.Status >= 500 {
		f.violate("%s %s as %s: %s", c.Method, c.Path, u.name, r)
	}
	if r.Status >= 200 && r.Status < 300 {
		if req, err := http.NewRequest(c.Method, "http://ragd"+c.Path, nil); err == nil {
			if _, pattern := f.routes.Handler(req); pattern != "" {
				v, _ := f.served.LoadOrStore(pattern, new(atomic.Int64))
				v.(*atomic.Int64).Add(1)
			}
		}
	}
	if u.allSeeing(manage) {
		return r
	}
	sent := c.Path
	if raw, err := json.Marshal(c.Body); err == nil {
		sent += string(raw)
	}
	body := string(r.Body)
	// A value the request itself carries (a canary asked about, an id
	// addressed) reveals nothing by coming back; the documents a response
	// returns are named by their ids, which are checked always.
	check := func(key string, d *pDoc) {
		if d == nil || strings.Contains(sent, key) {
			return
		}
		if !f.visibleDuring(u, d, s0, s1) {
			f.violate("%s %s as %s %v: response names document %s (%s) it could not read: %s", c.Method, c.Path, u.name, u.principals, d.uri, key, r)
		}
	}
	for _, m := range canaryRE.FindAllString(body, -1) {
		f.mu.Lock()
		d := f.byCanary[m]
		f.mu.Unlock()
		check(m, d)
	}
	for _, m := range uuidRE.FindAllString(body, -1) {
		f.mu.Lock()
		d := f.byID[m]
		f.mu.Unlock()
		check(m, d)
	}
	return r
}

// principalToken issues a token for sub with extra claims.
func principalToken(t *testing.T, tenant uuid.UUID, role auth.Role, sub string, claims func(jwt.MapClaims)) string {
	t.Helper()
	opts := []auth.IssueOption{auth.WithSubject(sub)}
	if claims != nil {
		opts = append(opts, auth.IssueOption(claims))
	}
	tok, err := auth.Issue(secret, tenant, role, 2*time.Hour, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// aclPool are the access lists documents take.
var aclPool = [][]string{
	{}, {"group:hr"}, {"group:eng"}, {"group:eng", "group:hr"}, {"user:alice"}, {"group:fin"},
	{"group:eng", "user:carol"}, {"group:nobody"},
}

// TestPrincipalLeakFuzz: two users of one tenant with different groups get,
// through every route and both legs, exactly the documents their groups
// allow, under concurrency and access changes: 0 violations; a document a
// user cannot read answers every document endpoint with the 404 of a
// document that exists nowhere; an access change holds at the next
// request; a re-PUT or re-upload that does not mention the access list
// keeps it.
func TestPrincipalLeakFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("leak fuzzer: not in -short")
	}
	t.Parallel()
	f := runPrincipalFuzz(t, soakDuration(t), nil)
	if v := f.violations.Load(); v > 0 {
		t.Errorf("%d violations (first 20 above)", v)
	}
}

// TestPrincipalLeakFuzzDetectsLeaks proves the principal fuzzer can fail:
// a middleware that serves alice's searches and answers with the token of
// an admin in more groups (a principal mix-up bug) must be caught.
func TestPrincipalLeakFuzzDetectsLeaks(t *testing.T) {
	if testing.Short() {
		t.Skip("leak fuzzer: not in -short")
	}
	t.Parallel()
	var users atomic.Pointer[map[string]*pUser]
	wrap := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if us := users.Load(); us != nil && (r.URL.Path == "/v1/search" || r.URL.Path == "/v1/answer") &&
				r.Header.Get("Authorization") == "Bearer "+(*us)["alice"].token {
				r.Header.Set("Authorization", "Bearer "+(*us)["hradmin"].token)
			}
			next.ServeHTTP(w, r)
		})
	}
	f := runPrincipalFuzz(t, 2*time.Second, func(f *pfuzz) {
		f.quiet = true
		users.Store(&f.users)
	}, wrap)
	if f.violations.Load() == 0 {
		t.Fatal("the principal fuzzer missed alice's searches served as an admin of more groups")
	}
	t.Logf("caught %d violations", f.violations.Load())
}

// runPrincipalFuzz runs the principal fuzzer for dur; ready, if set, runs
// once the users exist (before any request); wrap wraps the API handler.
func runPrincipalFuzz(t *testing.T, dur time.Duration, ready func(*pfuzz), wrap ...func(http.Handler) http.Handler) *pfuzz {
	seed := testSeed(t)
	rnd := rand.New(rand.NewPCG(seed, 2))
	o := options{MaxConns: 2}
	if len(wrap) > 0 {
		o.Wrap = wrap[0]
	}
	s := newServer(t, o)
	tn := testdb.NewTenant(t, "acl-leak", "")
	f := &pfuzz{t: t, s: s, tenantID: tn.ID, byID: map[string]*pDoc{}, byCanary: map[string]*pDoc{},
		runs: map[uuid.UUID]*pUser{}, users: map[string]*pUser{}, routes: http.NewServeMux()}
	for _, route := range s.API.Routes() {
		f.routes.Handle(route, http.NotFoundHandler())
	}
	groups := func(g ...string) func(jwt.MapClaims) { return func(c jwt.MapClaims) { c["groups"] = g } }
	for _, u := range []struct {
		name       string
		role       auth.Role
		claims     func(jwt.MapClaims)
		principals []string
	}{
		{"alice", auth.RoleReader, groups("hr"), []string{"group:hr", "user:alice"}},
		{"bob", auth.RoleEditor, groups("eng"), []string{"group:eng", "user:bob"}},
		{"carol", auth.RoleReader, nil, []string{"user:carol"}},
		{"dave", auth.RoleReader, groups("hr", "fin"), []string{"group:fin", "group:hr", "user:dave"}},
		{"erin", auth.RoleReader, func(c jwt.MapClaims) { c["groups"] = "hr" }, []string{"user:erin"}},
		{"frank", auth.RoleReader, func(c jwt.MapClaims) { c["groups"] = []any{"hr", 7} }, []string{"user:frank"}},
		{"root", auth.RoleAdmin, nil, []string{"user:root"}},
		{"hradmin", auth.RoleAdmin, groups("hr", "eng"), []string{"group:eng", "group:hr", "user:hradmin"}},
	} {
		f.users[u.name] = &pUser{name: u.name, role: u.role, principals: u.principals,
			token: principalToken(t, tn.ID, u.role, u.name, u.claims)}
	}
	root, bob, carol := f.users["root"], f.users["bob"], f.users["carol"]
	if ready != nil {
		ready(f)
	}

	nf := s.do(call{Method: "GET", Path: "/v1/documents/" + uuid.NewString(), Token: carol.token})
	f.notFound = wantProblem(t, nf, http.StatusNotFound).Detail

	// Documents: one stable document per list, and changing ones.
	for i, acl := range aclPool {
		f.create(rnd, acl, true, i%2 == 0)
	}
	for i := range 8 {
		f.create(rnd, aclPool[rnd.IntN(len(aclPool))], false, i%2 == 1)
	}
	if t.Failed() {
		t.FailNow()
	}

	// The sequential checks: each user's view, complete and exact.
	for _, u := range f.users {
		f.checkViews(u)
	}
	f.checkHiddenEndpoints()
	f.checkEval(rnd)
	// Public and settings routes, for coverage.
	for _, p := range []string{"/healthz", "/readyz", "/metrics", "/openapi.json", "/openapi.yaml", "/openapi-3.0.json", "/openapi-3.0.yaml", "/docs"} {
		f.send(carol, false, call{Method: "GET", Path: p})
	}
	f.send(root, false, call{Method: "PATCH", Path: "/v1/tenant/settings", Body: map[string]any{"candidates": 50}})
	// An editor writes under its own group, not under one it is not in.
	bc := newCanary(rnd)
	own := &pDoc{uri: "acl/" + bc + ".md", canary: bc, stable: true, content: "# Bob\n\nEngineering notes about " + bc + "."}
	s0 := f.seq.Add(1)
	if resp := f.send(bob, true, call{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": own.uri, "content": own.content, "access": []string{"group:eng"}}}); resp.Status != http.StatusOK {
		f.violate("bob writes under group:eng: %s", resp)
	} else {
		var w api.DocumentWrite
		resp.json(t, &w)
		own.id = w.ID
		own.spans = []span{{acl: []string{"group:eng"}, from: s0, to: openSpan}}
		f.mu.Lock()
		f.docs = append(f.docs, own)
		f.byID[own.id.String()] = own
		f.byCanary[bc] = own
		f.mu.Unlock()
	}
	if resp := f.send(bob, true, call{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": "acl/bob-hr.md", "content": own.content, "access": []string{"group:hr"}}}); resp.Status != http.StatusUnprocessableEntity {
		f.violate("bob writes under group:hr (not his): %s, want 422", resp)
	}

	f.checkTrafficAndJobs(rnd)
	// Every read and change once before the random phase, whose few
	// requests under load may draw any of them never (the route coverage
	// check below): each read of a stable document, an access change and a
	// rewrite of a changing one, and both deletes (by id, by source_uri).
	var stable, changing []*pDoc
	f.mu.Lock()
	for _, x := range f.docs {
		if x.stable {
			stable = append(stable, x)
		} else {
			changing = append(changing, x)
		}
	}
	f.mu.Unlock()
	for kind := range 5 {
		f.read(rnd, carol, stable[0], stable[0].id, kind)
	}
	f.change(rnd, bob, changing[0], 0)
	f.change(rnd, bob, changing[1], 2)
	for i, byID := range []bool{true, false} {
		d := changing[2+i]
		d.change.Lock()
		f.recreate(d, f.currentACL(d), byID)
		d.change.Unlock()
	}

	// The randomized phase: searches, answers, listings and reads by every
	// user while access lists, contents and documents change.
	deadline := time.Now().Add(dur)
	names := make([]string, 0, len(f.users))
	for n := range f.users {
		names = append(names, n)
	}
	sort.Strings(names)
	var wg sync.WaitGroup
	for w := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, uint64(10+w)))
			for time.Now().Before(deadline) && (f.quiet || f.violations.Load() < 20) {
				if w == 0 {
					f.opChange(r, bob)
					continue
				}
				f.opRead(r, f.users[names[r.IntN(len(names))]])
			}
		}()
	}
	wg.Wait()
	// Afterwards, quiet again: exact views.
	for _, u := range f.users {
		f.checkViews(u)
	}
	if !f.quiet {
		for _, route := range s.API.Routes() {
			if n, ok := f.served.Load(route); !ok || n.(*atomic.Int64).Load() == 0 {
				t.Errorf("the server registers %s, but no request of the principal fuzzer reached it with success", route)
			}
		}
	}
	t.Logf("%d requests, %d violations", f.ops.Load(), f.violations.Load())
	return f
}

// create writes a new document under acl as root (the admin writes any
// list), by PUT or by upload.
func (f *pfuzz) create(r *rand.Rand, acl []string, stable, upload bool) *pDoc {
	canary := newCanary(r)
	d := &pDoc{uri: "acl/" + canary + ".md", canary: canary, stable: stable}
	d.content = docText(r, canary, 1)
	s0 := f.seq.Add(1)
	w, ok := f.write(f.users["root"], d, &acl, upload)
	if !ok {
		return nil
	}
	d.id = w.ID
	f.mu.Lock()
	d.spans = []span{{acl: acl, from: s0, to: openSpan}}
	f.docs = append(f.docs, d)
	f.byID[d.id.String()] = d
	f.byCanary[canary] = d
	f.mu.Unlock()
	return d
}

// write PUTs (or uploads) d's content as u, with acl when not nil.
func (f *pfuzz) write(u *pUser, d *pDoc, acl *[]string, upload bool) (api.DocumentWrite, bool) {
	var c call
	if upload {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		fw, _ := mw.CreateFormFile("file", "f.md")
		fw.Write([]byte(d.content))
		mw.WriteField("source_uri", d.uri)
		if acl != nil {
			raw, _ := json.Marshal(*acl)
			mw.WriteField("access", string(raw))
		}
		mw.Close()
		c = call{Method: "POST", Path: "/v1/documents/upload", Body: buf.Bytes(), ContentType: mw.FormDataContentType()}
	} else {
		body := map[string]any{"source_uri": d.uri, "content": d.content, "content_type": "markdown"}
		if acl != nil {
			body["access"] = *acl
		}
		c = call{Method: "PUT", Path: "/v1/documents", Body: body}
	}
	resp := f.send(u, true, c)
	var w api.DocumentWrite
	if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &w) != nil {
		f.violate("write %s as %s: %s", d.uri, u.name, resp)
		return w, false
	}
	return w, true
}

// accessOf reads d's stored list as root (management view).
func (f *pfuzz) accessOf(d *pDoc) ([]string, bool) {
	resp := f.send(f.users["root"], true, call{Method: "GET", Path: "/v1/documents/" + d.id.String()})
	var doc api.Document
	if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &doc) != nil {
		return nil, false
	}
	return doc.Access, true
}

// checkViews: with nothing changing, u's listing (paged), tenant counts and
// keyword search for each document's canary are exactly the documents u
// may read.
func (f *pfuzz) checkViews(u *pUser) {
	f.mu.Lock()
	want := map[uuid.UUID]*pDoc{}
	for _, d := range f.docs {
		if u.allSeeing(true) || sees(u.principals, d.spans[len(d.spans)-1].acl) {
			want[d.id] = d
		}
	}
	docs := slices.Clone(f.docs)
	f.mu.Unlock()
	got := map[uuid.UUID]bool{}
	cursor := ""
	for range 100 {
		path := "/v1/documents?limit=3"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		resp := f.send(u, true, call{Method: "GET", Path: path})
		var page api.DocumentList
		if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &page) != nil {
			f.violate("list as %s: %s", u.name, resp)
			return
		}
		for _, d := range page.Documents {
			got[d.ID] = true
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if len(got) != len(want) {
		f.violate("%s lists %d documents, may read %d", u.name, len(got), len(want))
	}
	for id, d := range want {
		if !got[id] {
			f.violate("%s does not list %s (list %v), which it may read", u.name, d.uri, f.currentACL(d))
		}
	}
	var info api.TenantInfo
	if resp := f.send(u, true, call{Method: "GET", Path: "/v1/tenant"}); resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &info) != nil {
		f.violate("tenant as %s: %s", u.name, resp)
	} else if info.Documents != int64(len(want)) {
		f.violate("GET /v1/tenant as %s counts %d documents, it may read %d", u.name, info.Documents, len(want))
	}
	// Search as the person (also for admins): each document's canary finds
	// it exactly when the person may read it.
	for _, d := range docs {
		resp := f.send(u, false, call{Method: "POST", Path: "/v1/search", Body: map[string]any{"query": d.canary, "top_k": 5}})
		var sr api.SearchResponse
		if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &sr) != nil {
			f.violate("search as %s: %s", u.name, resp)
			continue
		}
		found := slices.ContainsFunc(sr.Results, func(x api.SearchResult) bool { return x.DocumentID == d.id })
		if may := sees(u.principals, f.currentACL(d)); found != may {
			f.violate("search %q as %s %v: found %v, may read %v (list %v)", d.canary, u.name, u.principals, found, may, f.currentACL(d))
		}
	}
}

// checkHiddenEndpoints: for each stable document and each user below
// admin who may not read it, every document endpoint answers as for a
// document that exists nowhere.
func (f *pfuzz) checkHiddenEndpoints() {
	for _, d := range f.docs {
		if !d.stable {
			continue
		}
		for _, u := range f.users {
			if u.role == auth.RoleAdmin || sees(u.principals, f.currentACL(d)) {
				continue
			}
			id := d.id.String()
			calls := []call{
				{Method: "GET", Path: "/v1/documents/" + id},
				{Method: "GET", Path: "/v1/documents/" + id + "?include_content=true"},
			}
			if u.role.Allows(auth.RoleEditor) {
				calls = append(calls,
					call{Method: "PATCH", Path: "/v1/documents/" + id + "/access", Body: map[string]any{"access": []string{}}},
					call{Method: "PATCH", Path: "/v1/documents/" + id + "/metadata", Body: map[string]any{"metadata": map[string]any{"by": u.name}}},
					call{Method: "DELETE", Path: "/v1/documents/" + id},
					call{Method: "DELETE", Path: "/v1/documents?source_uri=" + url.QueryEscape(d.uri)})
			}
			for _, c := range calls {
				resp := f.send(u, true, c)
				var p problem
				if resp.Status != http.StatusNotFound || json.Unmarshal(resp.Body, &p) != nil || p.Detail != f.notFound {
					f.violate("%s %s as %s (hidden): %s, want the 404 %q of a document that exists nowhere", c.Method, c.Path, u.name, resp, f.notFound)
				}
			}
			if u.role.Allows(auth.RoleEditor) {
				// Replacing it by source_uri is refused without its content.
				resp := f.send(u, true, call{Method: "PUT", Path: "/v1/documents", Body: map[string]any{"source_uri": d.uri, "content": "overwrite", "access": []string{}}})
				if resp.Status != http.StatusConflict {
					f.violate("PUT over hidden %s as %s: %s, want 409", d.uri, u.name, resp)
				}
			}
		}
		// Still intact.
		if acl, ok := f.accessOf(d); !ok || !slices.Equal(acl, f.currentACL(d)) {
			f.violate("hidden %s after the attempts: access %v, want %v", d.uri, acl, f.currentACL(d))
		}
	}
}

// checkEval: an evaluation run's report is the runner's view, and another
// admin who reads less gets the 404 of a run that exists nowhere.
func (f *pfuzz) checkEval(r *rand.Rand) {
	hradmin, root := f.users["hradmin"], f.users["root"]
	var qs []map[string]any
	for _, d := range f.docs[:4] {
		qs = append(qs, map[string]any{"question": "what about " + d.canary + "?", "relevant": []string{d.uri}})
	}
	if resp := f.send(hradmin, false, call{Method: "PUT", Path: "/v1/eval/sets/acl", Body: map[string]any{"questions": qs}}); resp.Status != http.StatusOK {
		f.violate("eval set: %s", resp)
		return
	}
	resp := f.send(hradmin, false, call{Method: "POST", Path: "/v1/eval/runs", Body: map[string]any{"set": "acl", "top_k": 5}})
	var run struct {
		ID uuid.UUID `json:"id"`
	}
	if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &run) != nil {
		f.violate("eval run: %s", resp)
		return
	}
	if resp := f.send(hradmin, false, call{Method: "GET", Path: "/v1/eval/runs/" + run.ID.String()}); resp.Status != http.StatusOK {
		f.violate("own eval run: %s", resp)
	}
	nf := f.send(root, false, call{Method: "GET", Path: "/v1/eval/runs/" + uuid.NewString()})
	got := f.send(root, false, call{Method: "GET", Path: "/v1/eval/runs/" + run.ID.String()})
	if got.Status != http.StatusNotFound || !bytes.Equal(problemDetail(got), problemDetail(nf)) {
		f.violate("root reads hradmin's eval run: %s, want %s", got, nf)
	}
}

func problemDetail(r reply) []byte {
	var p problem
	_ = json.Unmarshal(r.Body, &p)
	return []byte(p.Detail)
}

// opRead is one random read as u: search or answer (as the person), list
// or get (management).
func (f *pfuzz) opRead(r *rand.Rand, u *pUser) {
	f.mu.Lock()
	d := f.docs[r.IntN(len(f.docs))]
	id := d.id
	f.mu.Unlock()
	f.read(r, u, d, id, r.IntN(5))
}

// read is one of opRead's requests (kind 0–4) by u about document d (id).
func (f *pfuzz) read(r *rand.Rand, u *pUser, d *pDoc, id uuid.UUID, kind int) {
	switch kind {
	case 0, 1:
		f.send(u, false, call{Method: "POST", Path: "/v1/search", Body: map[string]any{"query": words(r, 3) + " " + d.canary, "top_k": 10}})
	case 2:
		f.send(u, false, call{Method: "POST", Path: "/v1/answer", Body: map[string]any{"question": "What is the codeword " + d.canary + "?"}})
	case 3:
		f.send(u, true, call{Method: "GET", Path: "/v1/documents?limit=50"})
	default:
		resp := f.send(u, true, call{Method: "GET", Path: "/v1/documents/" + id.String() + "?include_content=true"})
		if d.stable && !u.allSeeing(true) && !sees(u.principals, f.currentACL(d)) && resp.Status != http.StatusNotFound {
			f.violate("GET hidden %s as %s: %s", d.uri, u.name, resp)
		}
	}
}

// opChange changes a changing document: its list (PATCH, as root or as
// bob when bob may), its content without mentioning the list (PUT or
// upload: the list must stay), or deletes and recreates it under its list.
// The document's spans record every list it may have had.
func (f *pfuzz) opChange(r *rand.Rand, bob *pUser) {
	f.mu.Lock()
	var changing []*pDoc
	for _, d := range f.docs {
		if !d.stable {
			changing = append(changing, d)
		}
	}
	f.mu.Unlock()
	f.change(r, bob, changing[r.IntN(len(changing))], r.IntN(4))
}

// change is one of opChange's changes (kind 0–3) to document d: an access
// change (0, 1), a rewrite (2), a delete and rewrite (3).
func (f *pfuzz) change(r *rand.Rand, bob *pUser, d *pDoc, kind int) {
	d.change.Lock()
	defer d.change.Unlock()
	cur := f.currentACL(d)
	switch kind {
	case 0, 1:
		next := aclPool[r.IntN(len(aclPool))]
		u := f.users["root"]
		if sees(bob.principals, cur) && sees(bob.principals, next) && r.IntN(2) == 0 {
			u = bob
		}
		a0 := f.seq.Add(1)
		f.mu.Lock()
		d.spans = append(d.spans, span{acl: next, from: a0, to: openSpan})
		f.mu.Unlock()
		resp := f.send(u, true, call{Method: "PATCH", Path: "/v1/documents/" + d.id.String() + "/access", Body: map[string]any{"access": next}})
		a1 := f.seq.Add(1)
		var doc api.Document
		f.mu.Lock()
		if resp.Status == http.StatusOK && json.Unmarshal(resp.Body, &doc) == nil && slices.Equal(doc.Access, next) {
			d.spans[len(d.spans)-2].to = a1
		} else {
			d.spans = d.spans[:len(d.spans)-1] // refused: the old list holds
			f.mu.Unlock()
			f.violate("PATCH access of %s to %v as %s: %s", d.uri, next, u.name, resp)
			return
		}
		f.mu.Unlock()
		// The change holds at the next request.
		if got, ok := f.accessOf(d); !ok || !slices.Equal(got, next) {
			f.violate("after PATCH, %s has access %v, want %v", d.uri, got, next)
		}
	case 2:
		d.content = docText(r, d.canary, 1+r.IntN(2))
		if _, ok := f.write(f.users["root"], d, nil, r.IntN(2) == 0); !ok {
			return
		}
		if got, ok := f.accessOf(d); !ok || !slices.Equal(got, cur) {
			f.violate("a write without access changed %s's list: %v, want %v", d.uri, got, cur)
		}
		// A metadata change changes nothing else: the list stays.
		resp := f.send(f.users["root"], true, call{Method: "PATCH", Path: "/v1/documents/" + d.id.String() + "/metadata",
			Body: map[string]any{"metadata": map[string]any{"canary": d.canary}}})
		var doc api.Document
		if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &doc) != nil || doc.Metadata["canary"] != d.canary {
			f.violate("PATCH metadata of %s as root: %s", d.uri, resp)
		} else if got, ok := f.accessOf(d); !ok || !slices.Equal(got, cur) {
			f.violate("a metadata change changed %s's list: %v, want %v", d.uri, got, cur)
		}
	default:
		f.recreate(d, cur, r.IntN(2) == 0)
	}
}

// recreate deletes d as the admin (by id, or by source_uri) and writes it
// again with list cur; d's lock is held.
func (f *pfuzz) recreate(d *pDoc, cur []string, byID bool) {
	del := call{Method: "DELETE", Path: "/v1/documents?source_uri=" + url.QueryEscape(d.uri)}
	if byID {
		del.Path = "/v1/documents/" + d.id.String()
	}
	if resp := f.send(f.users["root"], true, del); resp.Status != http.StatusOK {
		f.violate("delete %s: %s", d.uri, resp)
		return
	}
	acl := cur
	w, ok := f.write(f.users["root"], d, &acl, false)
	if !ok {
		return
	}
	f.mu.Lock()
	delete(f.byID, d.id.String())
	d.id = w.ID
	f.byID[d.id.String()] = d
	f.mu.Unlock()
	if resp := f.send(f.users["root"], true, call{Method: "DELETE", Path: "/v1/documents/" + uuid.NewString()}); resp.Status != http.StatusNotFound {
		f.violate("delete of a document that exists nowhere: %s", resp)
	}
}

// checkTrafficAndJobs reaches the traffic and ingestion-job routes: usage
// and events (admin), feedback on a search's event, and a job submitted by
// an editor, worked by a worker of this tenant, listed, read and followed.
// The job's document is tenant-wide (a job states no access list) and joins
// the model.
func (f *pfuzz) checkTrafficAndJobs(r *rand.Rand) {
	root, carol, bob := f.users["root"], f.users["carol"], f.users["bob"]
	f.send(root, true, call{Method: "GET", Path: "/v1/tenant/usage"})
	resp := f.send(carol, false, call{Method: "POST", Path: "/v1/search", Body: map[string]any{"query": "codeword notes", "top_k": 3}})
	var sr api.SearchResponse
	if json.Unmarshal(resp.Body, &sr) == nil && sr.EventID != "" {
		for tries := 0; tries < 50; tries++ { // events are stored within about a second
			fb := f.send(carol, false, call{Method: "POST", Path: "/v1/events/" + sr.EventID + "/feedback", Body: map[string]any{"helpful": true}})
			if fb.Status != http.StatusNotFound {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	f.send(root, true, call{Method: "GET", Path: "/v1/events?limit=20"})
	// The model route (a switch to the model in use: nothing to re-embed);
	// its coverage counts are management counts, every document's.
	f.send(root, true, call{Method: "POST", Path: "/v1/tenant/model", Body: map[string]any{"model": embed.LocalModelName}})

	canary := newCanary(r)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("files", canary+".md")
	fw.Write([]byte("# Job\n\nQueued notes about " + canary + "."))
	mw.WriteField("base_uri", "https://jobs.test/")
	mw.Close()
	created := f.send(bob, true, call{Method: "POST", Path: "/v1/ingest/jobs", Body: buf.Bytes(), ContentType: mw.FormDataContentType()})
	var j struct {
		ID uuid.UUID `json:"id"`
	}
	if created.Status != http.StatusAccepted || json.Unmarshal(created.Body, &j) != nil {
		f.violate("job submission: %s", created)
		return
	}
	w := job.New(f.s.Pool, f.s.Deps.Ingester, job.Options{Tenants: []uuid.UUID{f.tenantID}})
	for {
		ok, err := w.Work(f.t.Context())
		if err != nil {
			f.violate("job worker: %v", err)
			return
		}
		if !ok {
			break
		}
	}
	f.send(bob, true, call{Method: "GET", Path: "/v1/ingest/jobs"})
	f.send(bob, true, call{Method: "GET", Path: "/v1/ingest/jobs/" + j.ID.String()})
	f.send(bob, true, call{Method: "GET", Path: "/v1/ingest/jobs/" + j.ID.String() + "/events"})
	list := f.send(root, true, call{Method: "GET", Path: "/v1/documents?source_uri_prefix=" + url.QueryEscape("https://jobs.test/")})
	var page api.DocumentList
	if json.Unmarshal(list.Body, &page) != nil || len(page.Documents) != 1 {
		f.violate("the job's document: %s", list)
		return
	}
	d := &pDoc{id: page.Documents[0].ID, uri: page.Documents[0].SourceURI, canary: canary, stable: true,
		spans: []span{{acl: []string{}, from: 0, to: openSpan}}}
	f.mu.Lock()
	f.docs = append(f.docs, d)
	f.byID[d.id.String()] = d
	f.byCanary[canary] = d
	f.mu.Unlock()
}
