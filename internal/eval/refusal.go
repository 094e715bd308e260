package eval

import (
	"fmt"
	"math"
	"sort"
)

// Refusal calibration targets: refuse at least TargetRefusalRecall of the
// unanswerable questions while refusing at most MaxFalseRefusal of the
// answerable ones.
const (
	TargetRefusalRecall = 0.90
	MaxFalseRefusal     = 0.05
)

// RefusalPoint is how a refusal threshold does on a set: a question is refused
// when its retrieval confidence (search.Response.Confidence) is below
// Threshold.
type RefusalPoint struct {
	Threshold float64 `json:"threshold"`
	Refused   int     `json:"refused"`
	// Precision is refused unanswerable / refused (1 when nothing is refused).
	Precision float64 `json:"precision"`
	// Recall is refused unanswerable / unanswerable.
	Recall float64 `json:"recall"`
	// FalseRefusal is refused answerable / answerable.
	FalseRefusal float64 `json:"false_refusal_rate"`
}

// Calibration is the outcome of a threshold sweep.
type Calibration struct {
	Unanswerable int `json:"unanswerable"`
	Answerable   int `json:"answerable"`
	// Current is the tenant's threshold at the time of the run.
	Current RefusalPoint `json:"current"`
	// Chosen is the recommended (or, by `eval tune`, stored) threshold.
	Chosen RefusalPoint `json:"chosen"`
	// MeetsTarget: Chosen refuses ≥ TargetRefusalRecall of the unanswerable
	// questions and ≤ MaxFalseRefusal of the answerable ones.
	MeetsTarget bool `json:"meets_target"`
	// Rule says how Chosen was picked, in words.
	Rule string `json:"rule"`
	// Curve is every distinct threshold of the sweep, ascending.
	Curve []RefusalPoint `json:"curve,omitempty"`
	// Found is set by a run's report (Report), not by Calibrate.
	Found *FoundRefusals `json:"found,omitempty"`
}

// FoundRefusals tells the refusals that lose an answer from the others:
// Answerable is how many answerable questions had a relevant document among
// the first Depth documents of their ranking (the pages an answer's
// sources come from; an answer quotes the best five chunks, often from
// fewer pages); of those, Current and Chosen are refused at the current and
// at the chosen threshold. A refused answerable question whose answer the
// search had not found cost the asker nothing an answer would have given:
// its sources were the wrong pages.
type FoundRefusals struct {
	Depth      int `json:"depth"`
	Answerable int `json:"answerable"`
	Current    int `json:"current_refused"`
	Chosen     int `json:"chosen_refused"`
}

// FoundDepth is how deep in the document ranking a relevant document counts
// as found by the search, for the refusal report: as deep as an answer's
// five sources can reach.
const FoundDepth = 5

// countFound sets c.Found: found[i] says whether question i (answerable)
// had a relevant document among the first FoundDepth documents.
func (c *Calibration) countFound(conf []float64, found []bool) {
	f := &FoundRefusals{Depth: FoundDepth}
	for i, ok := range found {
		if !ok {
			continue
		}
		f.Answerable++
		if conf[i] < c.Current.Threshold {
			f.Current++
		}
		if conf[i] < c.Chosen.Threshold {
			f.Chosen++
		}
	}
	c.Found = f
}

// RefusalAt evaluates threshold t over confidences conf, where answerable[i]
// says whether question i has relevant documents.
func RefusalAt(conf []float64, answerable []bool, t float64) RefusalPoint {
	var refused, refusedUn, un, ans, refusedAns int
	for i, c := range conf {
		r := c < t
		if answerable[i] {
			ans++
			if r {
				refusedAns++
			}
		} else {
			un++
			if r {
				refusedUn++
			}
		}
		if r {
			refused++
		}
	}
	p := RefusalPoint{Threshold: t, Refused: refused, Precision: 1}
	if refused > 0 {
		p.Precision = float64(refusedUn) / float64(refused)
	}
	if un > 0 {
		p.Recall = float64(refusedUn) / float64(un)
	}
	if ans > 0 {
		p.FalseRefusal = float64(refusedAns) / float64(ans)
	}
	return p
}

// Calibrate sweeps the refusal threshold over conf: 0 (never refuse), every
// midpoint between two consecutive distinct confidences, and just above the
// largest (refuse everything). It picks, among thresholds meeting the target
// (recall ≥ TargetRefusalRecall, false refusals ≤ MaxFalseRefusal), the one with
// the largest recall − false-refusal rate (ties: fewer false refusals, then the
// lower threshold); when none meets it, the best trade-off is the highest
// recall with false refusals ≤ MaxFalseRefusal (answerable users come first).
// ok is false when the set lacks unanswerable or answerable questions.
func Calibrate(conf []float64, answerable []bool, current float64) (c Calibration, ok bool) {
	for _, a := range answerable {
		if a {
			c.Answerable++
		} else {
			c.Unanswerable++
		}
	}
	c.Current = RefusalAt(conf, answerable, current)
	if c.Answerable == 0 || c.Unanswerable == 0 {
		c.Rule = "not calibrated: the set needs both answerable and unanswerable questions"
		return c, false
	}
	vals := append([]float64(nil), conf...)
	sort.Float64s(vals)
	ts := []float64{0}
	for i := 1; i < len(vals); i++ {
		if vals[i] > vals[i-1] {
			ts = append(ts, (vals[i]+vals[i-1])/2)
		}
	}
	ts = append(ts, math.Nextafter(vals[len(vals)-1], math.Inf(1)))
	if ts[1] <= 0 { // every confidence is 0: "never refuse" is already 0
		ts = ts[1:]
	}
	better := func(a, b RefusalPoint) bool { // is a better than b on recall − false refusals?
		da, db := a.Recall-a.FalseRefusal, b.Recall-b.FalseRefusal
		if da != db {
			return da > db
		}
		if a.FalseRefusal != b.FalseRefusal {
			return a.FalseRefusal < b.FalseRefusal
		}
		return a.Threshold < b.Threshold
	}
	var best, fallback *RefusalPoint
	for _, t := range ts {
		p := RefusalAt(conf, answerable, t)
		c.Curve = append(c.Curve, p)
		if p.Recall >= TargetRefusalRecall && p.FalseRefusal <= MaxFalseRefusal && (best == nil || better(p, *best)) {
			best = &p
		}
		if p.FalseRefusal <= MaxFalseRefusal && (fallback == nil || p.Recall > fallback.Recall ||
			(p.Recall == fallback.Recall && p.FalseRefusal < fallback.FalseRefusal)) {
			fallback = &p
		}
	}
	if best != nil {
		c.Chosen, c.MeetsTarget = *best, true
		c.Rule = fmt.Sprintf("meets the target (refuses ≥ %.0f%% of unanswerable, ≤ %.0f%% of answerable); largest recall − false-refusal rate",
			100*TargetRefusalRecall, 100*MaxFalseRefusal)
		return c, true
	}
	c.Chosen = *fallback // t = 0 always qualifies
	c.Rule = fmt.Sprintf("target not reachable on this set (no threshold refuses ≥ %.0f%% of unanswerable with ≤ %.0f%% of answerable refused); "+
		"best trade-off: the highest refusal recall with at most %.0f%% of answerable questions refused",
		100*TargetRefusalRecall, 100*MaxFalseRefusal, 100*MaxFalseRefusal)
	return c, true
}
