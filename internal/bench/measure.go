package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// Latency summarises one series of timings, in milliseconds.
type Latency struct {
	N    int     `json:"n"`
	P50  float64 `json:"p50_ms"`
	P95  float64 `json:"p95_ms"`
	P99  float64 `json:"p99_ms"`
	Mean float64 `json:"mean_ms"`
	// QPS is completed requests per second of wall time (concurrent runs).
	QPS float64 `json:"qps"`
}

// percentile is the nearest-rank percentile of sorted xs (p in (0, 1]).
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func summarize(ms []float64, wall time.Duration) Latency {
	s := append([]float64(nil), ms...)
	sort.Float64s(s)
	l := Latency{N: len(s), P50: percentile(s, 0.5), P95: percentile(s, 0.95), P99: percentile(s, 0.99)}
	for _, x := range s {
		l.Mean += x / float64(len(s))
	}
	if wall > 0 {
		l.QPS = float64(len(s)) / wall.Seconds()
	}
	return l
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// timed runs f(i) for i in [0, n) on conc goroutines and returns each call's
// latency (ms) and the wall time.
func timed(n, conc int, f func(i int) error) ([]float64, time.Duration, error) {
	lat := make([]float64, n)
	var next int
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for range min(conc, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := firstErr != nil
				mu.Unlock()
				if i >= n || stop {
					return
				}
				t := time.Now()
				err := f(i)
				lat[i] = msSince(t)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return lat, time.Since(start), firstErr
}

// fixedEmbedder answers each benchmark question with its generated vector, so
// the SQL and API timings exclude the model; the corpus is synthetic, so the
// local model's vectors would not be near it anyway.
type fixedEmbedder struct {
	name string
	dims int
	vecs map[string][]float32
}

func (e *fixedEmbedder) Model() string { return e.name }
func (e *fixedEmbedder) Dims() int     { return e.dims }
func (e *fixedEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, ok := e.vecs[t]
		if !ok {
			return nil, fmt.Errorf("bench: no vector for %q", t)
		}
		out[i] = v
	}
	return out, nil
}

// sizeClass is a set of tenants of about one size.
type sizeClass struct {
	name    string
	tenants []int
	queries []query
	// warm are questions drawn like queries but never measured: they bring
	// the class's index and posting pages into the caches first, so the
	// figures are steady-state latencies, not first touches of cold pages.
	warm []query
	// real are natural-language questions (realQuestion) with vectors
	// drawn like the queries'.
	real []query
}

// classTargets are the sizes measured, as fractions of the rows.
var classTargets = []struct {
	name string
	frac float64
}{{"0.01%", 0.0001}, {"0.1%", 0.001}, {"1%", 0.01}, {"5%", 0.05}, {"20%", 0.2}}

// pickClasses assigns to each target the (up to three) tenants closest to it
// in log size, within a factor of two; targets no tenant is near are left out.
func pickClasses(sizes []int) []sizeClass {
	total := 0
	for _, n := range sizes {
		total += n
	}
	used := map[int]bool{}
	var out []sizeClass
	for _, tg := range classTargets {
		type cand struct {
			t int
			d float64
		}
		var cs []cand
		for t, n := range sizes {
			d := math.Abs(math.Log(float64(n) / float64(total) / tg.frac))
			if d <= math.Ln2 && !used[t] {
				cs = append(cs, cand{t, d})
			}
		}
		sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d || (cs[i].d == cs[j].d && cs[i].t < cs[j].t) })
		if len(cs) == 0 {
			continue
		}
		c := sizeClass{name: tg.name}
		for _, x := range cs[:min(3, len(cs))] {
			c.tenants = append(c.tenants, x.t)
			used[x.t] = true
		}
		out = append(out, c)
	}
	return out
}

// makeQueries generates each class's questions; the vectors are registered
// with emb under their text (texts are unique).
func (r *runner) makeQueries(classes []sizeClass, emb *fixedEmbedder) {
	seen := map[string]bool{}
	for ci := range classes {
		c := &classes[ci]
		rng := rand.New(rand.NewPCG(r.cfg.Seed, uint64(1000+ci)))
		for i := 0; i < 2*r.cfg.Queries; i++ {
			t := c.tenants[i%len(c.tenants)]
			k := r.space.tenant[t][rng.IntN(len(r.space.tenant[t]))]
			q := query{tenant: t, text: r.gen.question(rng, k), common: r.gen.commonQuestion(rng), vector: r.space.point(rng, k)}
			if seen[q.text] {
				i--
				continue
			}
			seen[q.text] = true
			emb.vecs[q.text] = q.vector
			if i%2 == 0 {
				c.queries = append(c.queries, q)
			} else {
				c.warm = append(c.warm, q)
			}
		}
		// The real questions from a stream of their own: the synthetic
		// questions stay what they were.
		rng = rand.New(rand.NewPCG(r.cfg.Seed, uint64(2000+ci)))
		for i := 0; i < r.cfg.Queries; i++ {
			t := c.tenants[i%len(c.tenants)]
			k := r.space.tenant[t][rng.IntN(len(r.space.tenant[t]))]
			q := query{tenant: t, text: r.gen.realQuestion(rng, k), vector: r.space.point(rng, k)}
			if seen[q.text] {
				i--
				continue
			}
			seen[q.text] = true
			emb.vecs[q.text] = q.vector
			c.real = append(c.real, q)
		}
	}
}

// measurer holds what the measurements share.
type measurer struct {
	r        *runner
	fixed    *search.Searcher // precomputed query vectors
	tenants  map[int]tenant.Tenant
	apiFixed *httptest.Server
	apiLocal *httptest.Server // nil without the local model
	tokens   map[int]string
	client   *http.Client
}

const benchSecret = "ragd-bench-only-hs256-secret-0123456789abcdef"

func (r *runner) newMeasurer(ctx context.Context, classes []sizeClass, emb *fixedEmbedder) (*measurer, error) {
	m := &measurer{r: r, tenants: map[int]tenant.Tenant{}, tokens: map[int]string{},
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: time.Minute}}
	m.fixed = &search.Searcher{Pool: r.app, Embedder: emb, ModelID: r.model.id, Logger: r.quiet, ExactThreshold: r.cfg.ExactThreshold}
	for _, c := range classes {
		for _, t := range c.tenants {
			tn, err := tenant.Load(ctx, r.app, r.tenants[t].id)
			if err != nil {
				return nil, fmt.Errorf("bench: load tenant %s: %w", r.tenants[t].slug, err)
			}
			m.tenants[t] = tn
			if m.tokens[t], err = auth.Issue(benchSecret, tn.ID, auth.RoleReader, 6*time.Hour); err != nil {
				return nil, err
			}
		}
	}
	verifier, err := auth.New(ctx, auth.Options{Secret: benchSecret})
	if err != nil {
		return nil, err
	}
	serve := func(e embed.Embedder) (*httptest.Server, error) {
		s := &search.Searcher{Pool: r.app, Embedder: e, ModelID: r.model.id, Logger: r.quiet, ExactThreshold: r.cfg.ExactThreshold}
		p, err := ingest.New(r.app, e, r.model.id, ingest.WithLogger(r.quiet))
		if err != nil {
			return nil, err
		}
		srv, err := api.New(api.Deps{Pool: r.app, Verifier: verifier, Searcher: s, Ingester: p, Embedder: e, Logger: r.quiet})
		if err != nil {
			return nil, err
		}
		return httptest.NewServer(srv), nil
	}
	if m.apiFixed, err = serve(emb); err != nil {
		return nil, err
	}
	if r.local != nil && r.local.Dims() == r.model.dims {
		if m.apiLocal, err = serve(r.local); err != nil {
			m.apiFixed.Close()
			return nil, err
		}
	}
	return m, nil
}

func (m *measurer) close() {
	m.apiFixed.Close()
	if m.apiLocal != nil {
		m.apiLocal.Close()
	}
}

// search runs one hybrid search through the Searcher (SQL time: the tenant
// transaction with both legs and the fetch, plus fusion).
func (m *measurer) search(ctx context.Context, q query, req search.Request) (search.Response, error) {
	return m.fixed.Search(ctx, m.tenants[q.tenant], req)
}

// post runs one hybrid search through the HTTP API (JWT, tenant load, JSON).
func (m *measurer) post(ctx context.Context, srv *httptest.Server, q query) error {
	body, _ := json.Marshal(map[string]any{"query": q.text, "top_k": benchTopK})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/search", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+m.tokens[q.tenant])
	resp, err := m.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("POST /v1/search: %d %s", resp.StatusCode, raw)
	}
	var out struct {
		Results  []json.RawMessage `json:"results"`
		Degraded bool              `json:"degraded"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return err
	}
	if out.Degraded {
		return fmt.Errorf("POST /v1/search: degraded response")
	}
	return nil
}

// series is how many calls a run at concurrency conc makes: every question
// once, and at least four calls per worker.
func series(qs []query, conc int) int { return max(len(qs), 4*conc) }

// measureClass runs every measurement of one class.
func (m *measurer) measureClass(ctx context.Context, c sizeClass) (Class, error) {
	r := m.r
	out := Class{Name: c.name, Tenants: len(c.tenants), Latency: map[string]Latency{}, Stages: map[string]float64{}, CPUShare: cpuShare()}
	for _, t := range c.tenants {
		out.Rows += r.tenants[t].rows
	}
	out.Rows /= len(c.tenants)
	out.RowsFraction = float64(out.Rows) / float64(r.cfg.Chunks)
	qs := c.queries
	hybrid := search.Request{TopK: benchTopK}

	// Warm-up: the class's unmeasured questions, each once (page cache,
	// connections); the measured questions are new to the index walk.
	for _, q := range c.warm {
		req := hybrid
		req.Query = q.text
		if _, err := m.search(ctx, q, req); err != nil {
			return out, err
		}
	}
	// The vector leg's path per tenant, as the Searcher chooses it.
	threshold := m.fixed.ExactThreshold
	if threshold <= 0 {
		threshold = search.DefaultExactThreshold
	}
	paths := map[string]bool{}
	for _, t := range c.tenants {
		if int64(r.tenants[t].rows) > threshold {
			paths["hnsw"] = true
		} else {
			paths["exact"] = true
		}
	}
	switch {
	case len(paths) == 2:
		out.VectorPath = "exact+hnsw"
	case paths["hnsw"]:
		out.VectorPath = "hnsw"
	default:
		out.VectorPath = "exact"
	}

	// 1. Hybrid SQL time, concurrency 1 and N.
	stages := map[string]float64{}
	var smu sync.Mutex
	for _, conc := range r.cfg.Concurrency {
		n := len(qs)
		if conc > 1 {
			n = series(qs, conc)
		}
		lat, wall, err := timed(n, conc, func(i int) error {
			q := qs[i%len(qs)]
			req := hybrid
			req.Query = q.text
			resp, err := m.search(ctx, q, req)
			if err == nil && conc == 1 {
				smu.Lock()
				for k, v := range resp.Timings {
					stages[k] += v / float64(n)
				}
				smu.Unlock()
			}
			if err == nil && len(resp.Results) == 0 {
				err = fmt.Errorf("no results for %q", q.text)
			}
			return err
		})
		if err != nil {
			return out, fmt.Errorf("hybrid search: %w", err)
		}
		out.Latency[fmt.Sprintf("sql_c%d", conc)] = summarize(lat, wall)
		if conc == 1 {
			out.sqlSamples = lat
		}
	}
	out.Stages = stages
	l := out.Latency["sql_c1"]
	out.HybridP50, out.HybridP95, out.HybridP99 = l.P50, l.P95, l.P99

	// 2. API time, without and with embedding the question.
	apis := []struct {
		name string
		srv  *httptest.Server
	}{{"api", m.apiFixed}, {"api_embed", m.apiLocal}}
	for _, a := range apis {
		if a.srv == nil {
			continue
		}
		for _, conc := range r.cfg.Concurrency {
			n := len(qs)
			if conc > 1 {
				n = series(qs, conc)
			}
			lat, wall, err := timed(n, conc, func(i int) error { return m.post(ctx, a.srv, qs[i%len(qs)]) })
			if err != nil {
				return out, fmt.Errorf("%s: %w", a.name, err)
			}
			out.Latency[fmt.Sprintf("%s_c%d", a.name, conc)] = summarize(lat, wall)
		}
	}

	// 3. Keyword leg alone: the questions, and common-term questions.
	var kwAll, kwCommon []float64
	for _, q := range qs {
		for _, text := range []string{q.text, q.common} {
			resp, err := m.search(ctx, q, search.Request{Query: text, TopK: benchTopK, Only: search.LegKeyword})
			if err != nil {
				return out, fmt.Errorf("keyword leg: %w", err)
			}
			kwAll = append(kwAll, resp.Timings["keyword"])
			if text == q.common {
				kwCommon = append(kwCommon, resp.Timings["keyword"])
			}
		}
	}
	out.Latency["keyword"] = summarize(kwAll, 0)
	out.Latency["keyword_common"] = summarize(kwCommon, 0)
	out.KeywordP95 = out.Latency["keyword"].P95
	out.KeywordCommonP95 = out.Latency["keyword_common"].P95

	// 4. Vector leg: recall@20 against exact search, and its time.
	var recall float64
	var vecMS []float64
	for _, q := range qs {
		resp, err := m.search(ctx, q, search.Request{Query: q.text, TopK: recallK, Only: search.LegVector})
		if err != nil {
			return out, fmt.Errorf("vector leg: %w", err)
		}
		vecMS = append(vecMS, resp.Timings["vector"])
		exact, err := m.exact(ctx, q)
		if err != nil {
			return out, err
		}
		want := map[uuid.UUID]bool{}
		for _, id := range exact {
			want[id] = true
		}
		hit := 0
		for _, res := range resp.Results {
			if want[res.ChunkID] {
				hit++
			}
		}
		if len(exact) > 0 {
			recall += float64(hit) / float64(len(exact))
		}
		if len(resp.Results) < min(recallK, r.tenants[q.tenant].rows) {
			out.ShortResults++
		}
	}
	out.VectorRecall = recall / float64(len(qs))
	out.Latency["vector"] = summarize(vecMS, 0)

	// 5. The reference query, on the same questions.
	nref := min(max(r.cfg.RefQueries, 0), len(qs))
	lat, wall, err := timed(nref, 1, func(i int) error {
		q := qs[i]
		return store.InTenant(ctx, r.app, r.tenants[q.tenant].id, func(tx pgx.Tx) error {
			return store.New().BenchReferenceQuery(ctx, tx, store.BenchReferenceQueryParams{Embedding: pgvector.NewVector(q.vector), WebsearchToTsquery: q.text})
		})
	})
	if err != nil {
		return out, fmt.Errorf("reference query: %w", err)
	}
	out.Latency["reference"] = summarize(lat, wall)
	out.ReferenceP50, out.ReferenceP95 = out.Latency["reference"].P50, out.Latency["reference"].P95
	out.refSamples = lat
	if out.HybridP95 > 0 {
		out.Speedup = out.ReferenceP95 / out.HybridP95
	}

	// 6. The real-question workload.
	if out.Real, err = m.measureReal(ctx, c); err != nil {
		return out, fmt.Errorf("real questions: %w", err)
	}
	return out, nil
}

// RealQuestions are a size class's figures on natural-language questions
// (Question: lengths of SciFact's claims and the manual's questions, words
// from the corpus's vocabulary). Each latency is Searcher.Search's time at
// concurrency 1 (one tenant transaction, fusion), with one leg or both; the
// reference is the reference query with the question's words OR-ed.
type RealQuestions struct {
	N         int     `json:"n"`
	MeanWords float64 `json:"mean_words"`
	Keyword   Latency `json:"keyword"`
	Vector    Latency `json:"vector"`
	Hybrid    Latency `json:"hybrid"`
	Reference Latency `json:"reference"`
	// ReferenceRatio is Reference.P95 / Hybrid.P95.
	ReferenceRatio float64 `json:"reference_ratio_p95"`
}

// measureReal runs the class's real questions through the keyword leg
// alone, the vector leg alone and both, and the first RefQueries of them
// through the reference query.
func (m *measurer) measureReal(ctx context.Context, c sizeClass) (RealQuestions, error) {
	qs := c.real
	out := RealQuestions{N: len(qs)}
	if len(qs) == 0 {
		return out, nil
	}
	for _, q := range qs {
		out.MeanWords += float64(len(strings.Fields(q.text))) / float64(len(qs))
	}
	for _, leg := range []struct {
		only search.Leg
		into *Latency
	}{{search.LegKeyword, &out.Keyword}, {search.LegVector, &out.Vector}, {"", &out.Hybrid}} {
		lat, wall, err := timed(len(qs), 1, func(i int) error {
			resp, err := m.search(ctx, qs[i], search.Request{Query: qs[i].text, TopK: benchTopK, Only: leg.only})
			if err == nil && leg.only != search.LegKeyword && len(resp.Results) == 0 {
				err = fmt.Errorf("no results for %q", qs[i].text)
			}
			return err
		})
		if err != nil {
			return out, err
		}
		*leg.into = summarize(lat, wall)
	}
	nref := min(max(m.r.cfg.RefQueries, 0), len(qs))
	lat, wall, err := timed(nref, 1, func(i int) error {
		q := qs[i]
		return store.InTenant(ctx, m.r.app, m.r.tenants[q.tenant].id, func(tx pgx.Tx) error {
			return store.New().BenchReferenceQuery(ctx, tx, store.BenchReferenceQueryParams{Embedding: pgvector.NewVector(q.vector), WebsearchToTsquery: orQuery(q.text)})
		})
	})
	if err != nil {
		return out, fmt.Errorf("reference query: %w", err)
	}
	out.Reference = summarize(lat, wall)
	if out.Hybrid.P95 > 0 {
		out.ReferenceRatio = out.Reference.P95 / out.Hybrid.P95
	}
	return out, nil
}

func (m *measurer) exact(ctx context.Context, q query) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	err := store.InTenant(ctx, m.r.app, m.r.tenants[q.tenant].id, func(tx pgx.Tx) error {
		var err error
		ids, err = store.New().BenchExactNeighbours(ctx, tx, store.BenchExactNeighboursParams{TenantID: m.r.tenants[q.tenant].id,
			ModelID: m.r.model.id, Embedding: pgvector.NewVector(q.vector), MaxRows: recallK})
		return err
	})
	return ids, err
}
