package app

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/model"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// fakeModel is an in-process embeddings server speaking the OpenAI API: a
// hashed bag of words, seeded by the model's name, so two models' vectors
// of one text are unrelated (and of different lengths).
type fakeModel struct {
	name   string
	dims   int
	srv    *httptest.Server
	inputs atomic.Int64
}

func newFakeModel(t *testing.T, prefix string, dims int) *fakeModel {
	t.Helper()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	f := &fakeModel{name: prefix + "-" + hex.EncodeToString(b), dims: dims}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != f.name {
			http.Error(w, "wrong model or body", http.StatusBadRequest)
			return
		}
		f.inputs.Add(int64(len(req.Input)))
		type item struct {
			Index     int       `json:"index"`
			Embedding []float64 `json:"embedding"`
		}
		data := make([]item, len(req.Input))
		for i, in := range req.Input {
			data[i] = item{i, f.vector(in)}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": f.name, "data": data})
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeModel) vector(text string) []float64 {
	v := make([]float64, f.dims)
	v[0] = 0.1
	for _, w := range strings.Fields(strings.ToLower(text)) {
		h := fnv.New32a()
		h.Write([]byte(f.name + "/" + strings.Trim(w, ".,?#")))
		v[h.Sum32()%uint32(f.dims)]++
	}
	return v
}

// distance is the cosine distance of two texts under f.
func (f *fakeModel) distance(a, b string) float64 {
	x, y := f.vector(a), f.vector(b)
	var dot, nx, ny float64
	for i := range x {
		dot, nx, ny = dot+x[i]*y[i], nx+x[i]*x[i], ny+y[i]*y[i]
	}
	return 1 - dot/math.Sqrt(nx*ny)
}

func (f *fakeModel) register(t *testing.T) model.Model {
	t.Helper()
	m, err := model.Register(context.Background(), testdb.Owner(t), model.Registration{Name: f.name, Provider: model.ProviderOpenAI,
		Dims: f.dims, Endpoint: f.srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func (f *fakeModel) client(t *testing.T) embed.Embedder {
	t.Helper()
	c, err := embed.NewOpenAI(f.srv.URL+"/v1", f.name, f.dims)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func docText(i int, prefix string) string {
	return fmt.Sprintf("# %s %d\n\nThe zephyr%d component of %s rotates keys every %d days and logs to journal%d.\n", prefix, i, i, prefix, i+1, i)
}

// switchHarness is the production wiring (New) serving the API over HTTP,
// with a tenant on model a holding n documents.
type switchHarness struct {
	app    *App
	url    string
	tn     tenant.Tenant
	tokens map[auth.Role]string
}

func newSwitchHarness(t *testing.T, cfg config.Config, a *fakeModel, n int) *switchHarness {
	t.Helper()
	ctx := context.Background()
	app, err := New(ctx, cfg, testdb.App(t), WithEmbedder(a.client(t)), WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(app.Switcher.Stop)
	tt := testdb.NewTenant(t, "switch", "")
	tn, err := tenant.Load(ctx, app.Pool, tt.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := app.Pipeline.Upsert(ctx, tn, ingest.Document{SourceURI: fmt.Sprintf("docs/%d.md", i), ContentType: "markdown",
			Content: []byte(docText(i, "Service"))}); err != nil {
			t.Fatal(err)
		}
	}
	secret := strings.Repeat("k", 32)
	v, err := auth.New(ctx, auth.Options{Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(app.APIDeps(v))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	h := &switchHarness{app: app, url: hs.URL, tn: tn, tokens: map[auth.Role]string{}}
	for _, r := range []auth.Role{auth.RoleReader, auth.RoleEditor, auth.RoleAdmin} {
		if h.tokens[r], err = auth.Issue(secret, tn.ID, r, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// call sends one request and decodes the JSON answer into out; it returns
// the status.
func (h *switchHarness) call(role auth.Role, method, path string, body, out any) (int, error) {
	var rd *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, _ := http.NewRequest(method, h.url+path, rd)
	req.Header.Set("Authorization", "Bearer "+h.tokens[role])
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if out != nil && resp.StatusCode < 300 {
		// Into a zero value: a field the answer leaves out must not keep
		// an earlier answer's value.
		rv := reflect.ValueOf(out).Elem()
		rv.Set(reflect.Zero(rv.Type()))
		return resp.StatusCode, json.NewDecoder(resp.Body).Decode(out)
	}
	return resp.StatusCode, nil
}

type tenantModel struct {
	Model model.Status `json:"model"`
}

type searchAnswer struct {
	Degraded        bool `json:"degraded"`
	DegradedReasons []struct {
		Reason string `json:"reason"`
	} `json:"degraded_reasons"`
	VectorModel string `json:"vector_model"`
	Results     []struct {
		HeadingPath    string   `json:"heading_path"`
		Content        string   `json:"content"`
		VectorDistance *float64 `json:"vector_distance"`
	} `json:"results"`
}

// TestModelSwitchLive switches a live tenant between two embedding servers
// of different dimensions through the admin route while searches and
// writes run: no request fails, no search is degraded (writes during the
// switch are embedded with both models, so the active model always covers
// every chunk), every search reads one model's vectors (each vector
// distance is the one recomputed under the model the response names) and,
// per client, the old model until the flip and the new one after; the flip
// happens with the new model covering every chunk, live writes included;
// dropping the old model's vectors leaves none.
func TestModelSwitchLive(t *testing.T) {
	ctx := context.Background()
	a, b := newFakeModel(t, "fake-a", 24), newFakeModel(t, "fake-b", 40)
	ma, mb := a.register(t), b.register(t)
	cfg := defaults(t)
	cfg.ReembedBatch, cfg.ReembedRate, cfg.ModelGrace = 8, 120, time.Hour
	h := newSwitchHarness(t, cfg, a, 80)
	models := map[string]*fakeModel{a.name: a, b.name: b}

	var tm tenantModel
	if st, err := h.call(auth.RoleReader, http.MethodGet, "/v1/tenant", nil, &tm); err != nil || st != 200 ||
		tm.Model.Active != a.name || tm.Model.ActiveCoverage != 1 || tm.Model.Chunks != 80 {
		t.Fatalf("before: %d %v %+v", st, err, tm.Model)
	}

	var failed atomic.Int64
	var problems []string
	var mu sync.Mutex
	report := func(format string, args ...any) {
		failed.Add(1)
		mu.Lock()
		defer mu.Unlock()
		if len(problems) < 20 {
			problems = append(problems, fmt.Sprintf(format, args...))
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	seen := make([][]string, 2)
	// Each searcher answers once before the switch starts and, after the
	// flip, until it has seen the new model: both sides are observed
	// whatever the machine's speed.
	var first sync.WaitGroup
	first.Add(2)
	var sawNew [2]atomic.Bool
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			once := sync.OnceFunc(first.Done)
			defer once()
			for k := 0; ; k++ {
				select {
				case <-stop:
					return
				default:
				}
				q := fmt.Sprintf("which component rotates keys, zephyr%d?", (k*7+g)%80)
				var sa searchAnswer
				st, err := h.call(auth.RoleReader, http.MethodPost, "/v1/search", map[string]any{"query": q, "top_k": 5}, &sa)
				once() // a failure too: the test fails on it, and must not wait
				if err != nil || st != 200 {
					report("search %q: %d %v", q, st, err)
					continue
				}
				if sa.Degraded {
					report("search %q degraded: %+v", q, sa.DegradedReasons)
				}
				f := models[sa.VectorModel]
				if f == nil {
					report("search %q: vector model %q", q, sa.VectorModel)
					continue
				}
				if n := len(seen[g]); n == 0 || seen[g][n-1] != sa.VectorModel {
					seen[g] = append(seen[g], sa.VectorModel)
				}
				if sa.VectorModel == b.name {
					sawNew[g].Store(true)
				}
				for _, r := range sa.Results {
					if r.VectorDistance == nil {
						continue
					}
					want := f.distance(q, ingest.EmbedText(r.HeadingPath, r.Content))
					if math.Abs(want-*r.VectorDistance) > 1e-4 {
						report("search %q: distance %.5f, %.5f under %s", q, *r.VectorDistance, want, f.name)
					}
				}
			}
		}()
	}
	var written atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for j := 0; ; j++ {
			select {
			case <-stop:
				return
			default:
			}
			body := map[string]any{"source_uri": fmt.Sprintf("live/%d.md", j), "content_type": "markdown", "content": docText(1000+j, "Live")}
			if st, err := h.call(auth.RoleEditor, http.MethodPut, "/v1/documents", body, nil); err != nil || st != 200 && st != 201 {
				report("write %d: %d %v", j, st, err)
				continue
			}
			written.Add(1)
			time.Sleep(10 * time.Millisecond)
		}
	}()

	first.Wait()
	var sw model.Status
	if st, err := h.call(auth.RoleAdmin, http.MethodPost, "/v1/tenant/model", map[string]any{"model": b.name}, &sw); err != nil ||
		st != http.StatusAccepted || sw.Active != a.name || sw.Target != b.name {
		t.Fatalf("switch: %d %v %+v", st, err, sw)
	}
	deadline := time.Now().Add(60 * time.Second)
	sawPartial := false
	for {
		if st, err := h.call(auth.RoleReader, http.MethodGet, "/v1/tenant", nil, &tm); err != nil || st != 200 {
			t.Fatalf("tenant: %d %v", st, err)
		}
		if tm.Model.Target != "" && tm.Model.TargetCoverage > 0 && tm.Model.TargetCoverage < 1 {
			sawPartial = true
		}
		if tm.Model.Active == b.name || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	for !(sawNew[0].Load() && sawNew[1].Load()) && time.Now().Before(deadline) && failed.Load() == 0 {
		time.Sleep(20 * time.Millisecond) // searches after the flip
	}
	close(stop)
	wg.Wait()

	if failed.Load() != 0 {
		t.Fatalf("%d failed requests or checks: %v", failed.Load(), problems)
	}
	if tm.Model.Active != b.name || tm.Model.Target != "" || tm.Model.Previous != a.name || tm.Model.ActiveCoverage != 1 {
		t.Fatalf("after the switch: %+v (error %q)", tm.Model, tm.Model.Error)
	}
	if !sawPartial {
		t.Errorf("the progress never showed a partial coverage of the target")
	}
	for g, s := range seen {
		if strings.Join(s, ",") != a.name+","+b.name {
			t.Errorf("searcher %d saw the models in the order %v, want %s then %s", g, s, a.name, b.name)
		}
	}
	if written.Load() == 0 {
		t.Fatalf("no live write")
	}
	pool := h.app.Pool
	chunks, embB, err := model.Coverage(ctx, pool, h.tn.ID, mb.ID)
	if err != nil || chunks != 80+written.Load() || embB != chunks {
		t.Errorf("after the flip: %d chunks (80 + %d written), %d of model B; %v", chunks, written.Load(), embB, err)
	}

	n, err := h.app.Models.DropVectors(ctx, testdb.Owner(t), h.tn.ID, ma.ID)
	if err != nil || n == 0 {
		t.Fatalf("drop: %d %v", n, err)
	}
	if _, embA, err := model.Coverage(ctx, pool, h.tn.ID, ma.ID); err != nil || embA != 0 {
		t.Errorf("model A vectors after the drop: %d %v", embA, err)
	}
	if st, err := h.call(auth.RoleReader, http.MethodGet, "/v1/tenant", nil, &tm); err != nil || st != 200 || tm.Model.Previous != "" {
		t.Errorf("after the drop: %d %v %+v", st, err, tm.Model)
	}
	if _, err := h.app.Models.DropVectors(ctx, testdb.Owner(t), h.tn.ID, mb.ID); err == nil {
		t.Errorf("dropping the active model's vectors was allowed")
	}
	var sa searchAnswer
	if st, err := h.call(auth.RoleReader, http.MethodPost, "/v1/search", map[string]any{"query": "zephyr3 component"}, &sa); err != nil ||
		st != 200 || sa.Degraded || sa.VectorModel != b.name || len(sa.Results) == 0 {
		t.Errorf("search after the drop: %d %v %+v", st, err, sa)
	}
}

// TestModelSwitchResumes: a re-embed stopped after its first batch (a
// restart) is continued by the next run from the chunks that still lack
// the target's vectors, so the provider embeds each chunk once; the flip
// follows at 100 %. A rollback is the same operation: with the old
// model's vectors still there, it embeds nothing.
func TestModelSwitchResumes(t *testing.T) {
	ctx := context.Background()
	a, b := newFakeModel(t, "fake-a", 16), newFakeModel(t, "fake-b", 32)
	a.register(t)
	mb := b.register(t)
	cfg := defaults(t)
	cfg.ReembedBatch, cfg.ReembedRate = 8, 0
	h := newSwitchHarness(t, cfg, a, 40)
	if _, switching, err := h.app.Models.SetTarget(ctx, h.app.Pool, h.tn.ID, b.name); err != nil || !switching {
		t.Fatalf("set target: %v %v", switching, err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	first := model.NewSwitcher(h.app.Models, h.app.Pool, model.OptionsFromConfig(cfg))
	_, err := first.Run(runCtx, h.tn.ID, func(model.Progress) { cancel() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: %v", err)
	}
	if _, emb, err := model.Coverage(ctx, h.app.Pool, h.tn.ID, mb.ID); err != nil || emb != 8 {
		t.Fatalf("after one batch: %d vectors of B, %v", emb, err)
	}
	if tn, err := tenant.Load(ctx, h.app.Pool, h.tn.ID); err != nil || tn.TargetModelID != mb.ID || tn.ModelID != 0 {
		t.Fatalf("a stopped run changed the models: %+v %v", tn, err)
	}
	again := model.NewSwitcher(h.app.Models, h.app.Pool, model.OptionsFromConfig(cfg))
	got, err := again.Run(ctx, h.tn.ID, nil)
	if err != nil || got.Name != b.name {
		t.Fatalf("resumed run: %+v %v", got, err)
	}
	if n := b.inputs.Load(); n != 40 {
		t.Errorf("model B embedded %d texts for 40 chunks", n)
	}
	before := a.inputs.Load()
	if _, _, err := h.app.Models.SetTarget(ctx, h.app.Pool, h.tn.ID, a.name); err != nil {
		t.Fatal(err)
	}
	if got, err := again.Run(ctx, h.tn.ID, nil); err != nil || got.Name != a.name || a.inputs.Load() != before {
		t.Errorf("rollback: %+v %v, %d texts embedded", got, err, a.inputs.Load()-before)
	}
	if _, err := again.Run(ctx, h.tn.ID, nil); !errors.Is(err, model.ErrNoSwitch) {
		t.Errorf("a run without a switch: %v", err)
	}

	// Past the grace period, the server's background work (Kick, on any
	// request of the tenant) drops the replaced model's vectors.
	opts := model.OptionsFromConfig(cfg)
	opts.Grace = time.Nanosecond
	late := model.NewSwitcher(h.app.Models, h.app.Pool, opts)
	now, err := tenant.Load(ctx, h.app.Pool, h.tn.ID)
	if err != nil || now.PreviousModelID != mb.ID {
		t.Fatalf("before the grace drop: %+v %v", now, err)
	}
	late.Kick(now)
	late.Wait()
	if _, emb, err := model.Coverage(ctx, h.app.Pool, h.tn.ID, mb.ID); err != nil || emb != 0 {
		t.Errorf("model B vectors after the grace period: %d %v", emb, err)
	}
	if now, err = tenant.Load(ctx, h.app.Pool, h.tn.ID); err != nil || now.PreviousModelID != 0 {
		t.Errorf("after the grace drop: previous model %d %v", now.PreviousModelID, err)
	}
}

// TestModelSwitchStaleWrite: a switch that starts while a write is between
// embedding and storing (the write embedded for the active model alone)
// is found by the write's transaction, under the lock a flip waits for:
// the write starts over and stores vectors of both models, so no chunk
// reaches the flip without the target's vector through a write.
func TestModelSwitchStaleWrite(t *testing.T) {
	ctx := context.Background()
	a, b := newFakeModel(t, "fake-a", 16), newFakeModel(t, "fake-b", 32)
	a.register(t)
	mb := b.register(t)
	h := newSwitchHarness(t, defaults(t), a, 3)
	switched := false
	wctx := ingest.WithStageObserver(ctx, func(s ingest.Stage) error {
		if s == ingest.StageEmbedded && !switched {
			switched = true
			_, _, err := h.app.Models.SetTarget(ctx, h.app.Pool, h.tn.ID, b.name)
			return err
		}
		return nil
	})
	if _, err := h.app.Pipeline.Upsert(wctx, h.tn, ingest.Document{SourceURI: "docs/late.md", ContentType: "markdown",
		Content: []byte(docText(99, "Late"))}); err != nil || !switched {
		t.Fatalf("write: %v (switched %v)", err, switched)
	}
	if _, emb, err := model.Coverage(ctx, h.app.Pool, h.tn.ID, mb.ID); err != nil || emb != 1 || b.inputs.Load() != 1 {
		t.Errorf("the write left %d vectors of the target (%d texts embedded), want 1: %v", emb, b.inputs.Load(), err)
	}
}

// TestModelCoverageDegrades: a tenant whose model covers only part of its
// chunks (here: the server's default changed to a model it has no vectors
// of) is searched with that model and every response says so, in search
// and in answers; a switch to a retired model is refused.
func TestModelCoverageDegrades(t *testing.T) {
	ctx := context.Background()
	a, b := newFakeModel(t, "fake-a", 16), newFakeModel(t, "fake-b", 32)
	a.register(t)
	b.register(t)
	cfg := defaults(t)
	h := newSwitchHarness(t, cfg, a, 10)
	other, err := New(ctx, cfg, testdb.App(t), WithEmbedder(b.client(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Switcher.Stop)
	res, err := other.Searcher.Search(ctx, h.tn, search.Request{Query: "zephyr3 component"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Degraded || len(res.DegradedReasons) != 1 || !strings.Contains(res.DegradedReasons[0].Reason, "covers 0.0% of the tenant's chunks") {
		t.Errorf("search with a model covering nothing: degraded %v %+v", res.Degraded, res.DegradedReasons)
	}
	ans, err := other.Asker.Ask(ctx, h.tn, search.Request{Query: "zephyr3 component"}, nil)
	if err != nil || !ans.Degraded {
		t.Errorf("answer with a model covering nothing: degraded %v, %v", ans.Degraded, err)
	}
	if r, err := h.app.Searcher.Search(ctx, h.tn, search.Request{Query: "zephyr3 component"}); err != nil || r.Degraded || r.VectorModel != a.name {
		t.Errorf("search with the covering model: %+v %v", r.DegradedReasons, err)
	}
	if _, err := model.SetStatus(ctx, testdb.Owner(t), b.name, model.StatusRetired); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.app.Models.SetTarget(ctx, h.app.Pool, h.tn.ID, b.name); !errors.Is(err, model.ErrRetired) {
		t.Errorf("switch to a retired model: %v", err)
	}
}
