package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ragd-dev/ragd/internal/analyze"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// The default tuning grid. Vector weight 0 is the keyword leg alone; the grid
// also holds the vector leg alone (keyword weight 0), so the best point is
// never below the best single leg.
var (
	DefaultVectorWeights = []float64{0, 0.1, 0.2, 0.3, 0.5, 0.7, 1}
	DefaultRRFKs         = []float64{10, 30, 60, 100}
	// ConvexVectorWeights and DefaultDocumentWeights are the convex fusion's
	// grid (against the keyword leg's weight 1; 0 is the keyword leg alone).
	ConvexVectorWeights    = []float64{0, 0.1, 0.25, 0.5, 1, 2}
	DefaultDocumentWeights = []float64{0, 0.2, 0.5}
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
	// Grid, when set, is the list of candidate configurations instead of
	// DefaultGrid's (each point's retrieval fields; RefuseBelow is ignored).
	// The default configuration is always added as the first point.
	Grid []tenant.Settings
	// Candidates are the per-leg candidate counts DefaultGrid tries
	// (default: tenant.DefaultCandidates only).
	Candidates []int
	// VectorWeights and RRFKs override DefaultGrid's weights and k.
	VectorWeights []float64
	RRFKs         []float64
	// BM25 also sweeps k1 ∈ BM25K1s and b ∈ BM25Bs in DefaultGrid (one
	// keyword retrieval per pair and question).
	BM25 bool
	// Folds is k of the cross-validation (default DefaultFolds, at least 2).
	Folds int
	// MinQuestions is the fewest answerable questions on which a tuned
	// configuration may replace the default (default MinTuneQuestions).
	MinQuestions int
	// Limit tunes on the first Limit questions only (0 = all).
	Limit int
	// DryRun reports without storing the settings.
	DryRun bool
	// Progress, when set, is called per question of each pass.
	Progress func(stage string, done, total int)
}

// DefaultGrid is the list of configurations Tune cross-validates unless
// TuneOptions.Grid is set: the tenant's current retrieval configuration, the
// vector leg alone, the keyword leg alone for each BM25 pair, and weighted
// RRF with keyword weight 1 and each vector weight and k, for each candidate
// count. Each point is a tenant.Settings whose unset fields take the
// defaults; Tune puts the default configuration (the zero Settings) first.
func DefaultGrid(current tenant.Settings, o TuneOptions) []tenant.Settings {
	cands := o.Candidates
	if len(cands) == 0 {
		cands = []int{tenant.DefaultCandidates}
	}
	vws, ks := o.VectorWeights, o.RRFKs
	if len(vws) == 0 {
		vws = DefaultVectorWeights
	}
	if len(ks) == 0 {
		ks = DefaultRRFKs
	}
	k1s, bs := []float64{tenant.DefaultK1}, []float64{tenant.DefaultB}
	if o.BM25 {
		k1s, bs = BM25K1s, BM25Bs
	}
	cur := current
	cur.RefuseBelow, cur.AnswerModel = nil, nil
	grid := []tenant.Settings{cur}
	for _, c := range cands {
		grid = append(grid, tenant.Settings{VectorWeight: ptr(1.0), KeywordWeight: ptr(0.0), Candidates: c})
		for _, k1 := range k1s {
			for _, b := range bs {
				grid = append(grid, tenant.Settings{VectorWeight: ptr(0.0), KeywordWeight: ptr(1.0), K1: k1, B: ptr(b), Candidates: c})
			}
		}
	}
	for _, c := range cands {
		for _, k1 := range k1s {
			for _, b := range bs {
				for _, k := range ks {
					for _, vw := range vws {
						if vw > 0 { // vector weight 0 is the keyword leg alone, above
							grid = append(grid, tenant.Settings{Fusion: search.FusionRRF, VectorWeight: ptr(vw), KeywordWeight: ptr(1.0), RRFK: k, K1: k1, B: ptr(b), Candidates: c})
						}
					}
				}
			}
		}
	}
	for _, c := range cands {
		for _, k1 := range k1s {
			for _, b := range bs {
				for _, dw := range DefaultDocumentWeights {
					for _, vw := range ConvexVectorWeights {
						grid = append(grid, tenant.Settings{Fusion: search.FusionConvex, VectorWeight: ptr(vw), KeywordWeight: ptr(1.0),
							DocumentWeight: ptr(dw), K1: k1, B: ptr(b), Candidates: c})
					}
				}
			}
		}
	}
	return grid
}

// GridPoint is one configuration of the grid and its metrics over all of
// the set's answerable questions (in-sample).
type GridPoint struct {
	// Settings are the point's effective retrieval settings.
	Settings tenant.Settings `json:"settings"`
	Metrics  Metrics         `json:"metrics"`
	// Default marks the default configuration.
	Default bool `json:"default,omitempty"`
	// FoldsChosen is how many cross-validation folds chose this point on
	// their training folds.
	FoldsChosen int `json:"folds_chosen,omitempty"`
}

// Legs names what the point retrieves with: "vector", "keyword" or "fused".
func (g GridPoint) Legs() string { return legsOf(g.Settings) }

func legsOf(s tenant.Settings) string {
	e := s.Effective()
	switch {
	case *e.VectorWeight > 0 && *e.KeywordWeight > 0:
		return LegFused
	case *e.VectorWeight > 0:
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
	// Grid is every point in grid order, the default first.
	Grid []GridPoint `json:"grid"`
	// Best is the point chosen on the whole set (what the cross-validated
	// procedure would deploy); BestSingleLeg the best point using one leg
	// (zero when the grid has none); Default the default configuration.
	Best          GridPoint `json:"best"`
	BestSingleLeg GridPoint `json:"best_single_leg"`
	Default       GridPoint `json:"default"`
	// CV is the cross-validation of choosing Best against keeping Default.
	CV CVResult `json:"cv"`
	// Adoption says whether Best replaced Default, and why.
	Adoption Adoption `json:"adoption"`
	// Chosen is the configuration Tune keeps: Best when adopted, else
	// Default.
	Chosen GridPoint `json:"chosen"`
	// Production is the production path (Searcher.Search, no rerank) with
	// the chosen settings; Verified says it reproduced the in-memory
	// fusion's metrics exactly.
	Production Metrics `json:"production"`
	Verified   bool    `json:"verified"`
	// Refusal is how the stored refusal calibration does on the whole set,
	// with its threshold sweep (nil without unanswerable questions).
	Refusal *Calibration `json:"refusal,omitempty"`
	// Answerability is the cross-validated refusal calibration (nil
	// without unanswerable questions): which procedure is kept and how
	// each does held out.
	Answerability *AnswerCalibration `json:"answerability,omitempty"`
	Before        tenant.Settings    `json:"before"`
	After         tenant.Settings    `json:"after"`
	// Stored says the tenant's settings were written (After); false on a
	// dry run.
	Stored  bool          `json:"stored"`
	Notes   []string      `json:"notes,omitempty"`
	Elapsed time.Duration `json:"elapsed_ns"`
}

// legKey names one cached leg retrieval: the leg and, for the keyword leg,
// its BM25 parameters.
type legKey struct {
	leg   search.Leg
	k1, b float64
}

// legCache holds each leg's response per question at one depth, retrieved
// through the production path on first use.
type legCache struct {
	t        tenant.Tenant
	sr       *search.Searcher
	qs       []Question
	depth    int
	progress func(string, int, int)
	legs     map[legKey][]search.Response
}

// leg returns every question's response of one leg (Searcher.Search with
// Only set, which keeps the leg's raw order) at the cache's depth: the
// ranked chunks with their leg scores, and the response's leg statistics
// (similarity, keyword coverage), which is everything fusion can use.
func (c *legCache) leg(ctx context.Context, k legKey) ([]search.Response, error) {
	if l, ok := c.legs[k]; ok {
		return l, nil
	}
	set := c.t.Settings
	set.VectorWeight, set.KeywordWeight, set.Candidates = ptr(1.0), ptr(1.0), c.depth
	if k.leg == search.LegKeyword {
		set.K1, set.B = k.k1, ptr(k.b)
	}
	out := make([]search.Response, len(c.qs))
	for i, q := range c.qs {
		resp, err := c.sr.Search(ctx, c.t, search.Request{Query: q.Question, TopK: c.depth, Only: k.leg, NoRerank: true, Settings: &set})
		if err != nil {
			return nil, fmt.Errorf("question %q (%s leg): %w", snippetOf(q.Question), k.leg, err)
		}
		rs := make([]search.Result, len(resp.Results))
		for j, r := range resp.Results {
			// What fusion reads: ids, the leg scores, the document's share
			// of the tenant (document evidence), and what search.Arrange
			// reads to find a change log's chunk — the title and heading
			// path, and the content only of a change log's chunk, which
			// decides the same without the content of any other.
			rs[j] = search.Result{ChunkID: r.ChunkID, DocumentID: r.DocumentID, SourceURI: r.SourceURI, Title: r.Title,
				HeadingPath: r.HeadingPath, DocumentShare: r.DocumentShare, VectorRank: r.VectorRank,
				VectorDistance: r.VectorDistance, KeywordRank: r.KeywordRank, KeywordScore: r.KeywordScore}
			if search.ChangelogChunk(r) {
				rs[j].Content = r.Content
			}
		}
		resp.Results, resp.Timings = rs, nil
		out[i] = resp
		if c.progress != nil {
			c.progress("retrieve "+string(k.leg), i+1, len(c.qs))
		}
	}
	c.legs[k] = out
	return out, nil
}

// score is the grid's one evaluation function: point p's per-question
// metrics over the cached legs, fused in memory as Searcher.Search fuses
// (fuseLegs), diversified across documents and cut to topK as Search does,
// and mapped to documents as Run maps them. Any point the production path
// can run is scored here; what it needs from the legs (BM25 parameters,
// depth) is read from p.
func (c *legCache) score(ctx context.Context, p tenant.Settings, topK, perDoc int) ([]Metrics, error) {
	ranked, err := c.ranked(ctx, p, topK, perDoc)
	if err != nil {
		return nil, err
	}
	ms := make([]Metrics, len(c.qs))
	for i, q := range c.qs {
		uris := make([]string, len(ranked[i]))
		for j, r := range ranked[i] {
			uris[j] = r.SourceURI
		}
		ms[i] = QuestionMetrics(RelevantRanks(DocRanking(uris), q.Relevant), len(q.Relevant))
	}
	return ms, nil
}

// ranked is each question's results under point p as score sees them: the
// cached legs fused in memory (fuseLegs), arranged as search arranges them
// (search.Arrange) and cut to topK.
func (c *legCache) ranked(ctx context.Context, p tenant.Settings, topK, perDoc int) ([][]search.Result, error) {
	eff := c.sr.Settings(c.t, &p)
	n := max(eff.Candidates, topK) // what the production path asks each leg for
	vec, err := c.leg(ctx, legKey{leg: search.LegVector})
	if err != nil {
		return nil, err
	}
	kw, err := c.leg(ctx, legKey{leg: search.LegKeyword, k1: eff.K1, b: *eff.B})
	if err != nil {
		return nil, err
	}
	out := make([][]search.Result, len(c.qs))
	for i := range c.qs {
		// The question as Searcher.Search arranges by it: normalised.
		results := search.Arrange(analyze.Question(c.qs[i].Question), fuseLegs(eff, prefix(vec[i], n), prefix(kw[i], n)), perDoc)
		out[i] = results[:min(len(results), topK)]
	}
	return out, nil
}

// fuseLegs is the fusion step of Searcher.Search on already retrieved legs
// (each leg's top max(candidates, top_k), best first) under effective
// settings set: search.Combine, the function Search calls, over each leg's
// chunks with their distance or BM25 score; TuneResult.Verified proves the
// two agree. A leg the point does not use (weight 0) is not fused, as
// Search does not retrieve it, except the keyword leg for a question the
// vector leg was left out of (its cached response degraded for the leg: a
// script the model does not represent), for which Search runs the keyword
// leg alone whatever its weight.
func fuseLegs(set tenant.Settings, vec, kw search.Response) []search.Result {
	byID := make(map[uuid.UUID]search.Result, len(vec.Results)+len(kw.Results))
	useVector, useKeyword := search.Legs(set)
	for _, d := range vec.DegradedReasons {
		if d.Leg == search.LegVector && useVector {
			useVector, useKeyword = false, true
		}
	}
	scored := func(rs []search.Result, use bool, value func(search.Result) *float64) []search.Scored {
		if !use {
			return nil
		}
		out := make([]search.Scored, 0, len(rs))
		for _, x := range rs {
			v := value(x)
			if v == nil {
				continue
			}
			out = append(out, search.Scored{ID: x.ChunkID, Doc: x.DocumentID, Value: *v, DocShare: x.DocumentShare})
			byID[x.ChunkID] = x
		}
		return out
	}
	fused := search.Combine(set, scored(vec.Results, useVector, func(r search.Result) *float64 { return r.VectorDistance }),
		scored(kw.Results, useKeyword, func(r search.Result) *float64 { return r.KeywordScore }))
	out := make([]search.Result, len(fused))
	for i, f := range fused {
		// The fused score, as search serves it: Diversify places the
		// chunks over a document's cap by it.
		out[i] = byID[f.ID]
		out[i].Score = f.Score
	}
	return out
}

// Tune cross-validates the choice of a retrieval configuration on the
// tenant's set and stores the result with tenant.UpdateSettings (unless
// DryRun).
//
// Procedure: every point of the grid (TuneOptions.Grid or DefaultGrid, the
// default configuration first) is scored per answerable question by one
// function (legCache.score). The questions are split into k folds by a hash of
// their text (FoldOf); for each fold the best point on the other folds
// scores the fold (CrossValidate), so the procedure is measured on questions
// it did not choose on, and the paired bootstrap intervals and the power
// estimate of its difference from the default say whether the set can tell
// them apart. The best point on the whole set replaces the default only when
// Decide says so (at least MinQuestions answerable questions and a held-out
// nDCG@10 gain whose 95% interval lies above zero); otherwise the default is
// kept, or restored when the tenant had another configuration.
//
// Efficiency: each leg is retrieved once per question (and per BM25 pair) at
// the grid's greatest depth through Searcher.Search, and every point is
// fused in memory as the production path fuses: both legs order
// deterministically (distance or score, then chunk id), so a shorter
// retrieval is a prefix of a longer one. (Tenants above
// Searcher.ExactThreshold use the approximate HNSW walk, where that holds
// only approximately.) The kept configuration is then run through the
// production path once more; TuneResult.Verified says whether the metrics
// agree to the last digit.
//
// Refusal: with unanswerable questions in the set, the refusal calibration
// procedures (a threshold on the default model, or a model refitted toward
// the default, then its threshold) are cross-validated on the same folds
// over every question's answerability signals under the kept
// configuration (CalibrateAnswerability); RefuseBelow and AnswerModel are
// stored only when a procedure beats the default held out, and reset to
// the defaults otherwise.
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
	if o.Folds < 2 {
		o.Folds = DefaultFolds
	}
	if o.MinQuestions <= 0 {
		o.MinQuestions = MinTuneQuestions
	}
	// A question whose relevant documents the tenant does not have (loaded
	// with AllowUnknown, or deleted since) scores 0 at every point: it
	// measures nothing, narrows the intervals with zeros, and would count
	// toward the floor of MinQuestions; it is no unanswerable question
	// either.
	qs, unmeasurable, err := s.measurable(ctx, t, qs)
	if err != nil {
		return TuneResult{}, err
	}
	res := TuneResult{Set: info, Questions: len(qs), TopK: o.TopK, Before: t.Settings}
	if unmeasurable > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%d questions left out: none of their relevant documents is in the tenant", unmeasurable))
	}
	var ans []Question
	var fold []int
	for _, q := range qs {
		if q.Answerable() {
			ans = append(ans, q)
			fold = append(fold, FoldOf(q.Question, o.Folds))
		}
	}
	res.Answerable = len(ans)
	if len(ans) == 0 {
		return res, fmt.Errorf("%w: %s", ErrNoAnswerable, info.Name)
	}

	grid := o.Grid
	if len(grid) == 0 {
		grid = DefaultGrid(t.Settings, o)
	}
	grid = dedupe(append([]tenant.Settings{{}}, grid...), s.prior())
	depth := o.TopK
	for _, p := range grid {
		depth = max(depth, s.searcher.Settings(t, &p).Candidates)
	}
	prodSR := s.runSearcher(o.TopK)
	cache := &legCache{t: t, sr: s.runSearcher(depth), qs: ans, depth: depth, progress: o.Progress, legs: map[legKey][]search.Response{}}
	perQ := make([][]Metrics, len(grid))
	all := make([]bool, len(ans))
	for i := range all {
		all[i] = true
	}
	for g, p := range grid {
		if perQ[g], err = cache.score(ctx, p, o.TopK, prodSR.DocumentCap()); err != nil {
			return res, err
		}
		eff := s.searcher.Settings(t, &p)
		eff.RefuseBelow, eff.AnswerModel = nil, nil
		res.Grid = append(res.Grid, GridPoint{Settings: eff, Metrics: Mean(perQ[g]), Default: g == 0})
	}

	// Cross-validate "choose the best point" against the default, then decide.
	res.CV = CrossValidate(perQ, fold, o.Folds, 0)
	for f, g := range res.CV.Chosen {
		if res.CV.FoldSizes[f] > 0 {
			res.Grid[g].FoldsChosen++
		}
	}
	best := choose(perQ, all)
	res.Best, res.Default = res.Grid[best], res.Grid[0]
	single := false
	for _, p := range res.Grid {
		if p.Legs() != LegFused && (!single || better(p.Metrics, res.BestSingleLeg.Metrics)) {
			res.BestSingleLeg, single = p, true
		}
	}
	res.Adoption = Decide(res.CV, best, 0, len(ans), o.MinQuestions)
	chosenIdx := 0
	if res.Adoption.Adopt {
		chosenIdx = best
	}

	// The kept configuration through the production path: verification, and
	// the confidences for refusal calibration (every question).
	production, sigs, err := s.productionPass(ctx, prodSR, t, qs, grid[chosenIdx], o.TopK, true, o.Progress)
	if err != nil {
		return res, err
	}
	res.Verified = metricsEqual(production, res.Grid[chosenIdx].Metrics)
	if !res.Verified {
		// Below the exact threshold both sides are exact and must agree
		// (TestInMemoryFusionMatchesProductionAtEveryPoint): a difference
		// there is ragd's defect, not the tenant's, and the note says so.
		cause := "the tenant is searched exactly, so they should agree: a defect in ragd, worth reporting"
		if t.ChunkCount > prodSR.ExactLimit() {
			cause = fmt.Sprintf("the tenant's %d chunks are searched by the approximate HNSW walk above %d, whose results vary slightly between calls",
				t.ChunkCount, prodSR.ExactLimit())
		}
		res.Notes = append(res.Notes, fmt.Sprintf("the production path gave nDCG@10 %.4f where the in-memory fusion gave %.4f (%s)",
			production.NDCG10, res.Grid[chosenIdx].Metrics.NDCG10, cause))
		if chosenIdx != 0 && better(res.Default.Metrics, production) {
			res.Notes = append(res.Notes, "the production path of the adopted configuration fell below the default: keeping the default")
			res.Adoption = Adoption{Reason: "the adopted configuration did not hold up on the production path"}
			chosenIdx = 0
			if production, sigs, err = s.productionPass(ctx, prodSR, t, qs, grid[0], o.TopK, true, o.Progress); err != nil {
				return res, err
			}
			res.Verified = metricsEqual(production, res.Grid[0].Metrics)
		}
	}
	res.Production, res.Chosen = production, res.Grid[chosenIdx]
	after := grid[chosenIdx]
	if !res.Adoption.Adopt && !sameRetrieval(t.Settings, tenant.Settings{}, s.prior()) {
		res.Notes = append(res.Notes, "the tenant's previous configuration is replaced by the default")
	}
	if prodSR.Reranker != nil {
		res.Notes = append(res.Notes, "fusion tuned without the reranker (the answerability signals do not depend on it)")
	}
	answerable := make([]bool, len(qs))
	allFolds := make([]int, len(qs))
	for i, q := range qs {
		answerable[i], allFolds[i] = q.Answerable(), FoldOf(q.Question, o.Folds)
	}
	after.RefuseBelow, after.AnswerModel = t.Settings.RefuseBelow, t.Settings.AnswerModel
	if ac, ok := CalibrateAnswerability(sigs, answerable, allFolds, o.Folds); ok {
		res.Answerability = &ac
		after.RefuseBelow, after.AnswerModel = ac.Threshold, ac.Model
		if (t.Settings.RefuseBelow != nil || t.Settings.AnswerModel != nil) && ac.Chosen == ProcedureDefault {
			res.Notes = append(res.Notes, "the tenant's previous refusal calibration is replaced by the default")
		}
		if held := ac.Procedures; ac.Chosen != ProcedureDefault {
			for _, p := range held {
				if p.Name == ac.Chosen && p.FalseRefusal > MaxFalseRefusal {
					res.Notes = append(res.Notes, fmt.Sprintf("held out, the refusal calibration refuses %.1f%% of answerable questions, above the %.0f%% target",
						100*p.FalseRefusal, 100*MaxFalseRefusal))
				}
			}
		}
		m := search.TenantAnswerModel(after)
		conf := make([]float64, len(sigs))
		for i := range sigs {
			conf[i] = m.Confidence(sigs[i])
		}
		if c, ok := Calibrate(conf, answerable, *after.Effective().RefuseBelow); ok {
			c.Chosen, c.Rule = c.Current, ac.Reason
			c.MeetsTarget = c.Chosen.Recall >= TargetRefusalRecall && c.Chosen.FalseRefusal <= MaxFalseRefusal
			res.Refusal = &c
		}
	} else {
		res.Notes = append(res.Notes, "no unanswerable questions in the set: refusal calibration left as it was")
	}
	calibrated := res.Answerability != nil
	res.After = t.Settings
	setTuned(&res.After, after, calibrated)
	if !o.DryRun {
		stored, err := tenant.UpdateSettings(ctx, s.pool, t.ID, func(set *tenant.Settings) error {
			setTuned(set, after, calibrated)
			return nil
		})
		if err != nil {
			return res, fmt.Errorf("store tuned settings: %w", err)
		}
		res.After, res.Stored = stored, true
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// measurable returns qs without the answerable questions none of whose
// relevant source_uris names a document of the tenant, and how many it left
// out.
func (s *Service) measurable(ctx context.Context, t tenant.Tenant, qs []Question) ([]Question, int, error) {
	var uris []string
	for _, q := range qs {
		uris = append(uris, q.Relevant...)
	}
	if len(uris) == 0 {
		return qs, 0, nil
	}
	slices.Sort(uris)
	uris = slices.Compact(uris)
	have := map[string]bool{}
	err := store.InTenant(ctx, s.pool, t.ID, func(tx pgx.Tx) error {
		known, err := store.New().KnownSourceURIs(ctx, tx, store.KnownSourceURIsParams{TenantID: t.ID, Uris: uris})
		for _, u := range known {
			have[u] = true
		}
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	out := make([]Question, 0, len(qs))
	for _, q := range qs {
		if q.Answerable() && !slices.ContainsFunc(q.Relevant, func(u string) bool { return have[u] }) {
			continue
		}
		out = append(out, q)
	}
	return out, len(qs) - len(out), nil
}

// setTuned copies into dst what tuning decides, from src: the retrieval
// settings and, when refusal was calibrated, the refusal calibration. Every other field is the tenant's
// own and left as dst has it (event privacy and retention, the tenant's
// quotas and rates): tuning stored the whole grid point before, and a
// tenant that kept only a hash of each question had its questions stored in
// clear again, its quotas dropped.
func setTuned(dst *tenant.Settings, src tenant.Settings, refusal bool) {
	dst.Fusion, dst.RRFK = src.Fusion, src.RRFK
	dst.VectorWeight, dst.KeywordWeight, dst.DocumentWeight = src.VectorWeight, src.KeywordWeight, src.DocumentWeight
	dst.K1, dst.B, dst.Candidates = src.K1, src.B, src.Candidates
	if refusal {
		// Only when this tuning calibrated refusal: left as it was, it is
		// what the row holds now, not what was read when tuning began.
		dst.RefuseBelow, dst.AnswerModel = src.RefuseBelow, src.AnswerModel
	}
}

// dedupe drops points whose effective retrieval settings repeat an earlier
// point's, keeping the first (so the default, first, stays first).
func dedupe(grid []tenant.Settings, prior float64) []tenant.Settings {
	seen := map[string]bool{}
	var out []tenant.Settings
	for _, p := range grid {
		p.RefuseBelow, p.AnswerModel = nil, nil
		k := retrievalKey(p, prior)
		if !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// retrievalKey identifies a point by its effective settings, the refusal
// threshold aside.
func retrievalKey(s tenant.Settings, prior float64) string {
	e := s.EffectiveFor(prior)
	e.RefuseBelow, e.AnswerModel = nil, nil
	raw, _ := json.Marshal(e)
	return string(raw)
}

// sameRetrieval reports whether a and b retrieve alike.
func sameRetrieval(a, b tenant.Settings, prior float64) bool {
	return retrievalKey(a, prior) == retrievalKey(b, prior)
}

// prior is the vector leg's default weight for the searcher's model.
func (s *Service) prior() float64 { return *s.searcher.Settings(tenant.Tenant{}, nil).VectorWeight }

// productionPass runs every question through Searcher.Search with settings
// set and returns the metrics over the answerable ones and every question's
// answerability signals.
func (s *Service) productionPass(ctx context.Context, sr *search.Searcher, t tenant.Tenant, qs []Question, set tenant.Settings,
	topK int, noRerank bool, progress func(string, int, int)) (Metrics, []search.Signals, error) {
	var ms []Metrics
	sg := make([]search.Signals, len(qs))
	for i, q := range qs {
		lr, err := searchLeg(ctx, sr, t, search.Request{Query: q.Question, TopK: topK, NoRerank: noRerank, Settings: &set}, q.Relevant)
		if err != nil {
			return Metrics{}, nil, fmt.Errorf("question %d (production path): %w", i+1, err)
		}
		sg[i] = lr.Signals
		if q.Answerable() {
			ms = append(ms, QuestionMetrics(lr.Ranks, len(q.Relevant)))
		}
		if progress != nil {
			progress("verify", i+1, len(qs))
		}
	}
	return Mean(ms), sg, nil
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

// SortedGrid returns the grid's points best first by in-sample metrics
// (ties keep grid order, the default first).
func SortedGrid(grid []GridPoint) []GridPoint {
	out := append([]GridPoint(nil), grid...)
	sort.SliceStable(out, func(a, b int) bool { return better(out[a].Metrics, out[b].Metrics) })
	return out
}

func snippetOf(s string) string {
	r := []rune(s)
	if len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// prefix is r with its first n results only.
func prefix(r search.Response, n int) search.Response {
	r.Results = r.Results[:min(n, len(r.Results))]
	return r
}
