package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// The default tuning grid. Vector weight 0 is the keyword leg alone; the grid
// also holds the vector leg alone (keyword weight 0), so the best point is
// never below the best single leg.
var (
	DefaultVectorWeights = []float64{0, 0.1, 0.2, 0.3, 0.5, 0.7, 1}
	DefaultRRFKs         = []float64{10, 30, 60, 100}
	// BM25K1s × BM25Bs is the optional (k1, b) sweep of TuneOptions.BM25.
	BM25K1s = []float64{0.9, 1.2}
	BM25Bs  = []float64{0.4, 0.75}
)

// ErrNoAnswerable is returned by Tune for a set without answerable questions.
var ErrNoAnswerable = errors.New("eval: the set has no answerable questions to tune on")

// TuneOptions tune Tune.
type TuneOptions struct {
	// Set names the set; Version 0 = the latest.
	Set     string
	Version int
	// TopK is the production depth being tuned (default DefaultTopK).
	TopK int
	// Candidates are the per-leg candidate counts to try (default: the
	// tenant's effective candidates only).
	Candidates []int
	// VectorWeights and RRFKs override the default grid.
	VectorWeights []float64
	RRFKs         []float64
	// BM25 also sweeps k1 ∈ BM25K1s and b ∈ BM25Bs (one keyword retrieval per
	// pair and question).
	BM25 bool
	// Limit tunes on the first Limit questions only (0 = all).
	Limit int
	// DryRun reports without storing the settings.
	DryRun bool
	// Progress, when set, is called per question of each pass.
	Progress func(stage string, done, total int)
}

// GridPoint is one configuration of the grid and its metrics over the set's
// answerable questions.
type GridPoint struct {
	VectorWeight  float64 `json:"vector_weight"`
	KeywordWeight float64 `json:"keyword_weight"`
	// RRFK is the fusion constant; it does not matter for a single leg.
	RRFK       float64 `json:"rrf_k"`
	K1         float64 `json:"bm25_k1"`
	B          float64 `json:"bm25_b"`
	Candidates int     `json:"candidates"`
	Metrics    Metrics `json:"metrics"`
}

// Legs names what the point retrieves with: "vector", "keyword" or "fused".
func (g GridPoint) Legs() string {
	switch {
	case g.VectorWeight > 0 && g.KeywordWeight > 0:
		return LegFused
	case g.VectorWeight > 0:
		return LegVector
	default:
		return LegKeyword
	}
}

// TuneResult is the outcome of Tune.
type TuneResult struct {
	Set        SetInfo `json:"set"`
	Questions  int     `json:"questions"`
	Answerable int     `json:"answerable"`
	TopK       int     `json:"top_k"`
	// Grid is every point, best first (nDCG@10, then recall@5, MRR@10,
	// recall@20; exact ties prefer the tenant's current configuration, which
	// is always a point, then single legs, then grid order).
	Grid []GridPoint `json:"grid"`
	Best GridPoint   `json:"best"`
	// BestSingleLeg is the best point that uses one leg.
	BestSingleLeg GridPoint `json:"best_single_leg"`
	// Production is the production path (Searcher.Search, no rerank) with the
	// chosen settings, run after the grid; Verified says it reproduced the
	// in-memory fusion's metrics exactly.
	Production Metrics `json:"production"`
	Verified   bool    `json:"verified"`
	// Refusal is the threshold calibration on the chosen settings'
	// confidence (nil without unanswerable questions).
	Refusal *Calibration    `json:"refusal,omitempty"`
	Before  tenant.Settings `json:"before"`
	After   tenant.Settings `json:"after"`
	Stored  bool            `json:"stored"`
	Notes   []string        `json:"notes,omitempty"`
	Elapsed time.Duration   `json:"elapsed_ns"`
}

// legList is one leg's ranked chunks for one question at depth N.
type legList struct {
	ids  []uuid.UUID
	conf float64
}

// Tune calibrates the tenant's fusion on its own set and stores the best
// configuration with tenant.SaveSettings (unless DryRun).
//
// Efficiency: each leg is retrieved once per question at depth N = max(top_k,
// candidates) through Searcher.Search (Only = vector / keyword, which returns
// the leg's raw order), and every grid point is fused in memory with
// search.Fuse — the function the production path calls — over each leg's first
// max(candidates, top_k) chunks, which is exactly what the production path
// fuses: both legs order deterministically (distance or score, then chunk id),
// so a shorter retrieval is a prefix of a longer one. (Tenants above
// Searcher.ExactThreshold use the approximate HNSW walk, where that holds only
// approximately.) As in Search, the fused list then goes through
// search.Diversify and is cut to top_k chunks, which map to documents as Run
// maps them. The chosen point is then run
// through the production path once more; TuneResult.Verified says whether the
// metrics agree to the last digit.
//
// Guarantee: the single legs are grid points and the choice maximises nDCG@10
// (then recall@5), so the stored configuration is not below the best single
// leg on the set; if the production re-run of the chosen point ever came out
// below the best single leg, the single leg is stored instead.
//
// Refusal: with unanswerable questions in the set, the threshold on the chosen
// configuration's Response.Confidence is calibrated (Calibrate) on that re-run
// and stored as RefuseBelow.
//
// Fusion is tuned without the reranker (it reorders only the fused top 20).
// Errors: ErrSetNotFound, ErrNoAnswerable, search and store errors.
func (s *Service) Tune(ctx context.Context, t tenant.Tenant, o TuneOptions) (TuneResult, error) {
	start := time.Now()
	info, qs, err := s.SetQuestions(ctx, t, o.Set, o.Version)
	if err != nil {
		return TuneResult{}, err
	}
	if o.Limit > 0 && o.Limit < len(qs) {
		qs = qs[:o.Limit]
	}
	if o.TopK <= 0 {
		o.TopK = DefaultTopK
	}
	cur := t.Settings.Effective()
	if len(o.Candidates) == 0 {
		o.Candidates = []int{cur.Candidates}
	}
	if len(o.VectorWeights) == 0 {
		o.VectorWeights = DefaultVectorWeights
	}
	if len(o.RRFKs) == 0 {
		o.RRFKs = DefaultRRFKs
	}
	k1s, bs := []float64{cur.K1}, []float64{*cur.B}
	if o.BM25 {
		k1s, bs = BM25K1s, BM25Bs
	}
	type bm25 struct{ k1, b float64 }
	var kws []bm25
	for _, k1 := range k1s {
		for _, b := range bs {
			kws = append(kws, bm25{k1, b})
		}
	}
	depth := o.TopK
	for _, c := range o.Candidates {
		depth = max(depth, c)
	}
	res := TuneResult{Set: info, Questions: len(qs), TopK: o.TopK, Before: t.Settings}
	var ans []int // indexes of answerable questions
	for i, q := range qs {
		if q.Answerable() {
			ans = append(ans, i)
		}
	}
	res.Answerable = len(ans)
	if len(ans) == 0 {
		return res, fmt.Errorf("%w: %s", ErrNoAnswerable, info.Name)
	}

	// 1. Retrieve each leg once per answerable question at depth.
	sr := s.runSearcher(depth)
	prodSR := s.runSearcher(o.TopK)
	chunkOf := map[uuid.UUID]search.Result{} // chunk id → its document (id, source_uri)
	vec := make([]legList, len(ans))
	kw := make([][]legList, len(kws)) // [bm25 pair][question]
	for j := range kws {
		kw[j] = make([]legList, len(ans))
	}
	retrieve := func(q string, only search.Leg, k1, b float64) (legList, error) {
		set := t.Settings
		set.VectorWeight, set.KeywordWeight, set.Candidates, set.K1, set.B = ptr(1.0), ptr(1.0), depth, k1, ptr(b)
		resp, err := sr.Search(ctx, t, search.Request{Query: q, TopK: depth, Only: only, NoRerank: true, Settings: &set})
		if err != nil {
			return legList{}, err
		}
		l := legList{ids: make([]uuid.UUID, len(resp.Results)), conf: resp.Confidence}
		for i, r := range resp.Results {
			l.ids[i] = r.ChunkID
			chunkOf[r.ChunkID] = search.Result{ChunkID: r.ChunkID, DocumentID: r.DocumentID, SourceURI: r.SourceURI}
		}
		return l, nil
	}
	for n, i := range ans {
		q := qs[i].Question
		if vec[n], err = retrieve(q, search.LegVector, cur.K1, *cur.B); err != nil {
			return res, fmt.Errorf("question %d (vector leg): %w", i+1, err)
		}
		for j, p := range kws {
			if kw[j][n], err = retrieve(q, search.LegKeyword, p.k1, p.b); err != nil {
				return res, fmt.Errorf("question %d (keyword leg): %w", i+1, err)
			}
		}
		if o.Progress != nil {
			o.Progress("retrieve", n+1, len(ans))
		}
	}

	// 2. Fuse every grid point in memory.
	score := func(vw, kwt, k float64, c, j int) Metrics {
		n := max(c, o.TopK) // what the production path asks each leg for
		ms := make([]Metrics, len(ans))
		for x, i := range ans {
			fused := search.Fuse(k, []search.Ranking{
				{Weight: vw, IDs: head(vec[x].ids, n)},
				{Weight: kwt, IDs: head(kw[j][x].ids, n)},
			})
			// As Search does after fusing: diversify across documents, cut to top_k.
			results := make([]search.Result, len(fused))
			for y, f := range fused {
				results[y] = chunkOf[f.ID]
			}
			results = search.Diversify(results, prodSR.PerDocument)
			results = results[:min(len(results), o.TopK)]
			uris := make([]string, len(results))
			for y, r := range results {
				uris[y] = r.SourceURI
			}
			ms[x] = QuestionMetrics(RelevantRanks(DocRanking(uris), qs[i].Relevant), len(qs[i].Relevant))
		}
		return Mean(ms)
	}
	// Order of generation breaks exact ties: the tenant's current
	// configuration first (no change without evidence), then the single legs
	// (cheaper), then the fused points.
	var grid []GridPoint
	jCur := -1
	for j, p := range kws {
		if p.k1 == cur.K1 && p.b == *cur.B {
			jCur = j
		}
	}
	curPoint := GridPoint{VectorWeight: *cur.VectorWeight, KeywordWeight: *cur.KeywordWeight, RRFK: cur.RRFK, K1: cur.K1, B: *cur.B,
		Candidates: cur.Candidates}
	if jCur >= 0 && (curPoint.VectorWeight > 0 || curPoint.KeywordWeight > 0) {
		curPoint.Metrics = score(curPoint.VectorWeight, curPoint.KeywordWeight, cur.RRFK, cur.Candidates, jCur)
		grid = append(grid, curPoint)
	}
	same := func(g GridPoint) bool {
		if len(grid) == 0 || g.Candidates != curPoint.Candidates || g.K1 != curPoint.K1 || g.B != curPoint.B {
			return false
		}
		// Single legs ignore k; a fused point needs the same weight ratio and k.
		if g.Legs() != LegFused || curPoint.Legs() != LegFused {
			return g.Legs() == curPoint.Legs()
		}
		return g.RRFK == curPoint.RRFK && g.VectorWeight*curPoint.KeywordWeight == curPoint.VectorWeight*g.KeywordWeight
	}
	addPoint := func(g GridPoint, j int) {
		if !same(g) {
			g.Metrics = score(g.VectorWeight, g.KeywordWeight, g.RRFK, g.Candidates, j)
			grid = append(grid, g)
		}
	}
	for _, c := range o.Candidates {
		addPoint(GridPoint{VectorWeight: 1, KeywordWeight: 0, RRFK: cur.RRFK, K1: cur.K1, B: *cur.B, Candidates: c}, max(jCur, 0))
		for j, p := range kws {
			addPoint(GridPoint{VectorWeight: 0, KeywordWeight: 1, RRFK: cur.RRFK, K1: p.k1, B: p.b, Candidates: c}, j)
		}
	}
	for _, c := range o.Candidates {
		for j, p := range kws {
			for _, k := range o.RRFKs {
				for _, vw := range o.VectorWeights {
					if vw > 0 { // vector weight 0 is the keyword leg alone, above
						addPoint(GridPoint{VectorWeight: vw, KeywordWeight: 1, RRFK: k, K1: p.k1, B: p.b, Candidates: c}, j)
					}
				}
			}
		}
	}
	sort.SliceStable(grid, func(a, b int) bool { return better(grid[a].Metrics, grid[b].Metrics) })
	res.Grid = grid
	res.Best = grid[0]
	for _, g := range grid {
		if g.Legs() != LegFused {
			res.BestSingleLeg = g
			break
		}
	}

	// 3. The chosen point through the production path: verification, and the
	// confidences for refusal calibration (every question, answerable or not).
	chosen := func(g GridPoint) tenant.Settings {
		set := t.Settings
		set.VectorWeight, set.KeywordWeight, set.RRFK, set.Candidates = ptr(g.VectorWeight), ptr(g.KeywordWeight), g.RRFK, g.Candidates
		set.K1, set.B = g.K1, ptr(g.B)
		return set
	}
	after := chosen(res.Best)
	production, conf, err := s.productionPass(ctx, prodSR, t, qs, after, o.TopK, true, o.Progress)
	if err != nil {
		return res, err
	}
	res.Production = production
	res.Verified = metricsEqual(production, res.Best.Metrics)
	if !res.Verified {
		res.Notes = append(res.Notes, fmt.Sprintf("the production path gave nDCG@10 %.4f where the in-memory fusion gave %.4f "+
			"(approximate HNSW search above %d chunks?)", production.NDCG10, res.Best.Metrics.NDCG10, prodSR.ExactThreshold))
		if better(res.BestSingleLeg.Metrics, production) {
			res.Notes = append(res.Notes, "the production path of the best fused point fell below the best single leg: storing the single leg")
			res.Best = res.BestSingleLeg
			after = chosen(res.Best)
			if production, conf, err = s.productionPass(ctx, prodSR, t, qs, after, o.TopK, true, o.Progress); err != nil {
				return res, err
			}
			res.Production = production
		}
	}
	if prodSR.Reranker != nil {
		// Production refuses on the reranker's confidence.
		if _, conf, err = s.productionPass(ctx, prodSR, t, qs, after, o.TopK, false, o.Progress); err != nil {
			return res, err
		}
		res.Notes = append(res.Notes, "fusion tuned without the reranker; the refusal threshold is calibrated on the reranked confidence")
	}
	answerable := make([]bool, len(qs))
	for i, q := range qs {
		answerable[i] = q.Answerable()
	}
	if c, ok := Calibrate(conf, answerable, *cur.RefuseBelow); ok {
		res.Refusal = &c
		after.RefuseBelow = ptr(c.Chosen.Threshold)
	} else {
		res.Notes = append(res.Notes, "no unanswerable questions in the set: refusal threshold left as it was")
	}
	res.After = after
	if !o.DryRun {
		if err := tenant.SaveSettings(ctx, s.pool, t.ID, after); err != nil {
			return res, fmt.Errorf("store tuned settings: %w", err)
		}
		res.Stored = true
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// productionPass runs every question through Searcher.Search with settings
// set and returns the metrics over the answerable ones and every question's
// confidence.
func (s *Service) productionPass(ctx context.Context, sr *search.Searcher, t tenant.Tenant, qs []Question, set tenant.Settings,
	topK int, noRerank bool, progress func(string, int, int)) (Metrics, []float64, error) {
	var ms []Metrics
	conf := make([]float64, len(qs))
	for i, q := range qs {
		lr, err := searchLeg(ctx, sr, t, search.Request{Query: q.Question, TopK: topK, NoRerank: noRerank, Settings: &set}, q.Relevant)
		if err != nil {
			return Metrics{}, nil, fmt.Errorf("question %d (production path): %w", i+1, err)
		}
		conf[i] = lr.Confidence
		if q.Answerable() {
			ms = append(ms, QuestionMetrics(lr.Ranks, len(q.Relevant)))
		}
		if progress != nil {
			progress("verify", i+1, len(qs))
		}
	}
	return Mean(ms), conf, nil
}

// better orders metrics for tuning: nDCG@10, then recall@5, MRR@10, recall@20.
func better(a, b Metrics) bool {
	for _, f := range []func(Metrics) float64{
		func(m Metrics) float64 { return m.NDCG10 }, func(m Metrics) float64 { return m.Recall5 },
		func(m Metrics) float64 { return m.MRR10 }, func(m Metrics) float64 { return m.Recall20 },
	} {
		x, y := f(a), f(b)
		if math.Abs(x-y) > 1e-12 {
			return x > y
		}
	}
	return false
}

func metricsEqual(a, b Metrics) bool {
	for _, m := range metricNames {
		if math.Abs(m.get(a)-m.get(b)) > 1e-9 {
			return false
		}
	}
	return true
}

func head[T any](xs []T, n int) []T { return xs[:min(n, len(xs))] }
