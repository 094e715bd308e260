package eval

import (
	"github.com/ragd-dev/ragd/internal/search"

	"slices"
	"sort"
	"time"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/tenant"
)

// Leg names in reports. The first three are search's legs; LegReranked is the
// fused leg through the reranker, present when one is configured.
const (
	LegVector   = "vector"
	LegKeyword  = "keyword"
	LegFused    = "fused"
	LegReranked = "reranked"
)

// legOrder is the display order of legs.
var legOrder = []string{LegVector, LegKeyword, LegFused, LegReranked}

// SetInfo describes a stored set version.
type SetInfo struct {
	ID        uuid.UUID `json:"id"`
	Name      string    `json:"name"`
	Version   int       `json:"version"`
	Questions int       `json:"questions"`
	CreatedAt time.Time `json:"created_at"`
	// Unchanged: LoadSet found these exact questions already stored as this
	// version and made no new one.
	Unchanged bool `json:"unchanged,omitempty"`
	// Unknown lists relevant source_uris the tenant has no document for
	// (stored only with LoadOptions.AllowUnknown).
	Unknown []string `json:"unknown_source_uris,omitempty"`
}

// LegResult is one question's outcome in one leg.
type LegResult struct {
	// Ranks are the 1-based document ranks of the relevant documents retrieved,
	// ascending; every metric of the question follows from Ranks and the
	// number of relevant documents.
	Ranks []int `json:"ranks"`
	// Top are the first documents retrieved (up to 3), for MISS lines.
	Top []string `json:"top,omitempty"`
	// Docs is how many distinct documents the top_k chunks came from.
	Docs       int     `json:"docs"`
	LatencyMS  float64 `json:"latency_ms"`
	Confidence float64 `json:"confidence"`
	Degraded   bool    `json:"degraded,omitempty"`
	// Signals are the answerability evidence Confidence came from (not
	// stored with the run).
	Signals search.Signals `json:"-"`
}

// QuestionResult is one question's outcome in every leg of a run.
type QuestionResult struct {
	Idx      int                  `json:"idx"`
	Question string               `json:"question"`
	Relevant []string             `json:"relevant"`
	Category string               `json:"category,omitempty"`
	Legs     map[string]LegResult `json:"legs"`
}

// Latency percentiles of a leg, milliseconds of wall time per search call.
type Latency struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
}

// Miss is an answerable question with no relevant document among the
// documents the production path retrieved.
type Miss struct {
	Idx      int      `json:"idx"`
	Question string   `json:"question"`
	Relevant []string `json:"relevant"`
	// Top are the documents retrieved first instead.
	Top []string `json:"top"`
}

// Config is the snapshot of what shaped a run's retrieval.
type Config struct {
	// Settings are the tenant's effective settings as the production path used
	// them (with the run's candidate override, if any).
	Settings tenant.Settings `json:"settings"`
	// TopK is the number of chunks each search returned (the run's depth).
	TopK int `json:"top_k"`
	// Candidates is N, the chunks each leg contributed before fusion
	// (max(settings.candidates, top_k)).
	Candidates     int    `json:"candidates"`
	EmbeddingModel string `json:"embedding_model"`
	EmbeddingDims  int    `json:"embedding_dims"`
	// Reranker is the reranking model, empty when off.
	Reranker     string `json:"reranker,omitempty"`
	PerTermLimit int    `json:"per_term_limit"`
	// PerDocument is the searcher's diversification cap (search.Diversify).
	PerDocument    int    `json:"per_document"`
	ExactThreshold int64  `json:"exact_threshold"`
	TSConfig       string `json:"ts_config"`
	// Pipelines counts the tenant's documents by ingest fingerprint (chunking
	// parameters, embedding model and the embedded-text recipe).
	Pipelines map[string]int64 `json:"pipelines"`
	Documents int64            `json:"documents"`
	Chunks    int64            `json:"chunks"`
}

// Report is a run: the production path's metrics at the top level, every leg's
// metrics, misses, refusal calibration and, when loaded whole, per-question
// outcomes. Its JSON is the `ragd eval run --json` output.
type Report struct {
	ID         uuid.UUID `json:"id"`
	CreatedAt  time.Time `json:"created_at"`
	Set        SetInfo   `json:"set"`
	Questions  int       `json:"questions"`
	Answerable int       `json:"answerable"`
	// Depth is top_k, the chunks retrieved per search.
	Depth int `json:"depth"`
	// Production names the leg that is the production path (fused, or
	// reranked when a reranker is configured); Metrics are its metrics.
	Production string             `json:"production"`
	Metrics    Metrics            `json:"metrics"`
	Legs       map[string]Metrics `json:"legs"`
	// Categories are the production path's metrics per question category
	// (answerable questions with a category only).
	Categories map[string]Metrics `json:"categories,omitempty"`
	Latency    map[string]Latency `json:"latency_ms"`
	Misses     []Miss             `json:"misses"`
	// Refusal is the refusal report on the production confidence (nil when the
	// set has no unanswerable questions).
	Refusal *Calibration `json:"refusal,omitempty"`
	// Degraded counts searches where a leg or the reranker failed.
	Degraded int    `json:"degraded,omitempty"`
	Config   Config `json:"config"`
	// Missing are the source_uris the run's questions name as relevant
	// that no document of the tenant has now (deleted, or renamed, since
	// the set was loaded): their questions count as misses.
	Missing     []string         `json:"missing_source_uris,omitempty"`
	PerQuestion []QuestionResult `json:"per_question,omitempty"`
}

// summary is what eval_runs.metrics holds.
type summary struct {
	Questions  int                `json:"questions"`
	Answerable int                `json:"answerable"`
	Depth      int                `json:"depth"`
	Production string             `json:"production"`
	Metrics    Metrics            `json:"metrics"`
	Categories map[string]Metrics `json:"categories,omitempty"`
	Latency    map[string]Latency `json:"latency_ms"`
	Misses     []Miss             `json:"misses"`
	Refusal    *Calibration       `json:"refusal,omitempty"`
	Degraded   int                `json:"degraded,omitempty"`
}

// aggregate fills r's metrics, latency, misses and refusal from
// r.PerQuestion; refuseBelow is the tenant's current threshold.
func (r *Report) aggregate(refuseBelow float64) {
	r.Questions = len(r.PerQuestion)
	r.Answerable = 0
	r.Legs = map[string]Metrics{}
	r.Latency = map[string]Latency{}
	r.Misses = []Miss{}
	r.Degraded = 0
	per := map[string][]Metrics{}
	perCat := map[string][]Metrics{}
	lat := map[string][]float64{}
	var conf []float64
	var answerable, found []bool
	for _, q := range r.PerQuestion {
		a := len(q.Relevant) > 0
		if a {
			r.Answerable++
		}
		for leg, lr := range q.Legs {
			lat[leg] = append(lat[leg], lr.LatencyMS)
			if lr.Degraded {
				r.Degraded++
			}
			if a {
				per[leg] = append(per[leg], QuestionMetrics(lr.Ranks, len(q.Relevant)))
			}
		}
		prod, ok := q.Legs[r.Production]
		if !ok {
			continue
		}
		conf = append(conf, prod.Confidence)
		answerable = append(answerable, a)
		found = append(found, a && len(prod.Ranks) > 0 && slices.Min(prod.Ranks) <= FoundDepth)
		if a && q.Category != "" {
			perCat[q.Category] = append(perCat[q.Category], QuestionMetrics(prod.Ranks, len(q.Relevant)))
		}
		if a && len(prod.Ranks) == 0 {
			r.Misses = append(r.Misses, Miss{Idx: q.Idx, Question: q.Question, Relevant: q.Relevant, Top: prod.Top})
		}
	}
	for leg, ms := range per {
		r.Legs[leg] = Mean(ms)
	}
	r.Categories = nil
	if len(perCat) > 0 {
		r.Categories = map[string]Metrics{}
		for c, ms := range perCat {
			r.Categories[c] = Mean(ms)
		}
	}
	for leg, xs := range lat {
		r.Latency[leg] = Latency{P50: Percentile(xs, 50), P95: Percentile(xs, 95)}
	}
	r.Metrics = r.Legs[r.Production]
	r.Refusal = nil
	c, ok := Calibrate(conf, answerable, refuseBelow)
	if !ok {
		// A set of one kind only (an off-topic set, say) cannot calibrate
		// a threshold, but how many of its questions the current one
		// refuses is what such a set is run for.
		c.Chosen = c.Current
	}
	if c.Unanswerable > 0 || ok {
		c.Curve = nil
		c.countFound(conf, found)
		r.Refusal = &c
	}
}

// legNames returns the legs present in the report in display order.
func (r *Report) legNames() []string {
	var out []string
	for _, l := range legOrder {
		if _, ok := r.Legs[l]; ok {
			out = append(out, l)
		}
	}
	var extra []string
	for l := range r.Legs {
		found := false
		for _, o := range legOrder {
			found = found || o == l
		}
		if !found {
			extra = append(extra, l)
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

// LegNames returns the legs present in the report in display order (vector,
// keyword, fused, reranked).
func (r *Report) LegNames() []string { return r.legNames() }

// Curves returns, per leg, mean recall@k over the answerable questions for
// k = 1…Depth (index 0 is recall@1). Needs PerQuestion.
func (r *Report) Curves() map[string][]float64 {
	out := map[string][]float64{}
	for _, leg := range r.legNames() {
		var ranks [][]int
		var nrel []int
		for _, q := range r.PerQuestion {
			if lr, ok := q.Legs[leg]; ok {
				ranks = append(ranks, lr.Ranks)
				nrel = append(nrel, len(q.Relevant))
			}
		}
		out[leg] = RecallCurve(ranks, nrel, max(r.Depth, 1))
	}
	return out
}
