package eval

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sort"
)

// Cross-validation of tuning. A grid point chosen because it scored best on a
// set is measured on the questions it was chosen on, so with a hundred
// questions and dozens of points the winner's margin is mostly the set's
// noise (pgdocs: vector weight 0.7 won by 0.02 nDCG@10 on its 108 questions
// and lost to its own keyword leg on 60 unseen ones). Tune therefore chooses
// on k−1 folds and scores on the held-out fold, and adopts a configuration
// only when its held-out gain over the default is larger than the set's noise.
const (
	// DefaultFolds is k of k-fold cross-validation.
	DefaultFolds = 5
	// BootstrapResamples is the number of paired bootstrap resamples behind
	// every confidence interval.
	BootstrapResamples = 2000
	// BootstrapSeed fixes the resamples, so reruns report the same intervals.
	BootstrapSeed = 20090719
	// MinTuneQuestions is the smallest number of answerable questions on
	// which Tune adopts a configuration other than the default: with fewer,
	// a held-out fold has a handful of questions and no gain is trusted.
	MinTuneQuestions = 30
)

// Normal quantiles of the power estimate: a two-sided test at α = 0.05 with
// power 0.8.
const (
	zAlpha = 1.959963984540054
	zPower = 0.8416212335729143
)

// FoldOf is the fold (0…k−1) of a question in k-fold cross-validation: FNV-1a
// of its text as duplicates are compared (questionKey: lower-cased, runs of
// spaces as one, NFC) modulo k. A question keeps its
// fold whatever else is in the set or in which order, so reruns and grown
// sets agree. k < 2 gives 0.
func FoldOf(question string, k int) int {
	if k < 2 {
		return 0
	}
	h := fnv.New64a()
	h.Write([]byte(questionKey(question)))
	return int(h.Sum64() % uint64(k))
}

// Interval is a two-sided 95% confidence interval.
type Interval struct {
	Lower float64 `json:"lower"`
	Upper float64 `json:"upper"`
}

// Excludes reports whether x lies outside the interval.
func (i Interval) Excludes(x float64) bool { return x < i.Lower || x > i.Upper }

// PairedBootstrap is the percentile bootstrap 95% interval of the mean of
// paired per-question differences d (Efron & Tibshirani 1993, ch. 13):
// resamples questions with replacement — each resample keeps a question's
// two scores together, which is what makes it paired — and returns the
// 2.5th and 97.5th percentiles of the resampled means. The resamples come
// from a PCG generator seeded with seed, so the interval is reproducible.
// No differences give the zero interval.
func PairedBootstrap(d []float64, resamples int, seed uint64) Interval {
	n := len(d)
	if n == 0 || resamples < 1 {
		return Interval{}
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	means := make([]float64, resamples)
	for r := range means {
		var s float64
		for range n {
			s += d[rng.IntN(n)]
		}
		means[r] = s / float64(n)
	}
	sort.Float64s(means)
	lo := int(math.Floor(0.025 * float64(resamples)))
	hi := int(math.Ceil(0.975*float64(resamples))) - 1
	return Interval{Lower: means[lo], Upper: means[max(lo, min(hi, resamples-1))]}
}

// Difference compares two configurations on the same questions through the
// per-question differences d = a − b of one metric.
type Difference struct {
	Metric string `json:"metric"`
	// A and B are the two means; Mean = A − B.
	A    float64 `json:"a"`
	B    float64 `json:"b"`
	Mean float64 `json:"mean"`
	// CI is the paired bootstrap 95% interval of Mean.
	CI Interval `json:"ci95"`
	// SD is the sample standard deviation of the per-question differences.
	SD float64 `json:"sd"`
	// Questions is the number of paired questions.
	Questions int `json:"questions"`
	// MinDetectable is the smallest difference this many questions detect
	// with a two-sided test at α = 0.05 and power 0.8: (z_0.975 + z_0.8) ×
	// SD / √n, the normal approximation of a paired t-test.
	MinDetectable float64 `json:"min_detectable"`
	// QuestionsNeeded is how many questions a true difference of the
	// observed size needs to be detected at α = 0.05 with power 0.8:
	// ⌈((z_0.975 + z_0.8) × SD / Mean)²⌉; 0 when no difference was observed.
	QuestionsNeeded int `json:"questions_needed"`
}

// Significant reports whether the interval excludes zero.
func (d Difference) Significant() bool { return d.CI.Excludes(0) }

// String says the difference in one line.
func (d Difference) String() string {
	s := fmt.Sprintf("%s %+.4f (95%% CI %+.4f … %+.4f, %d questions; detectable at this size: ±%.4f", d.Metric, d.Mean,
		d.CI.Lower, d.CI.Upper, d.Questions, d.MinDetectable)
	if d.QuestionsNeeded > 0 {
		s += fmt.Sprintf("; a difference of %.4f needs ~%d questions", math.Abs(d.Mean), d.QuestionsNeeded)
	}
	return s + ")"
}

// PairedDifference is the Difference of metric between the paired scores a and b
// (equal lengths: the same questions in the same order).
func PairedDifference(metric string, a, b []float64) Difference {
	n := len(a)
	d := make([]float64, n)
	var sa, sb, sd float64
	for i := range a {
		d[i] = a[i] - b[i]
		sa += a[i]
		sb += b[i]
		sd += d[i]
	}
	out := Difference{Metric: metric, Questions: n}
	if n == 0 {
		return out
	}
	out.A, out.B, out.Mean = sa/float64(n), sb/float64(n), sd/float64(n)
	if n > 1 {
		var ss float64
		for _, x := range d {
			ss += (x - out.Mean) * (x - out.Mean)
		}
		out.SD = math.Sqrt(ss / float64(n-1))
	}
	out.CI = PairedBootstrap(d, BootstrapResamples, BootstrapSeed)
	z := zAlpha + zPower
	out.MinDetectable = z * out.SD / math.Sqrt(float64(n))
	if m := math.Abs(out.Mean); m > 1e-12 {
		out.QuestionsNeeded = max(2, int(math.Ceil(math.Pow(z*out.SD/m, 2))))
	}
	return out
}

// cvMetrics are the metrics cross-validation reports differences for, the
// selection metric (nDCG@10) first.
var cvMetrics = []struct {
	name string
	get  func(Metrics) float64
}{
	{"ndcg@10", func(m Metrics) float64 { return m.NDCG10 }},
	{"recall@5", func(m Metrics) float64 { return m.Recall5 }},
	{"mrr@10", func(m Metrics) float64 { return m.MRR10 }},
}

// CVResult is the cross-validated outcome of choosing among grid points.
type CVResult struct {
	Folds int `json:"folds"`
	// FoldSizes are the answerable questions per fold.
	FoldSizes []int `json:"fold_sizes"`
	// Chosen is, per fold, the grid index chosen on the other folds.
	Chosen []int `json:"chosen"`
	// HeldOut is the procedure's metrics: each question scored by the point
	// chosen without it. Default is the default point on the same questions.
	HeldOut Metrics `json:"held_out"`
	Default Metrics `json:"default"`
	// Differences are HeldOut − Default for nDCG@10, recall@5 and MRR@10.
	Differences []Difference `json:"differences"`
}

// Difference returns the difference for metric (zero if absent).
func (r CVResult) Difference(metric string) Difference {
	for _, d := range r.Differences {
		if d.Metric == metric {
			return d
		}
	}
	return Difference{Metric: metric}
}

// choose is the index of the best point over the questions in use (by
// better: nDCG@10, recall@5, MRR@10, recall@20); exact ties go to the lower
// index, so the default, which comes first, wins every tie.
func choose(perQ [][]Metrics, use []bool) int {
	best, bestM := -1, Metrics{}
	for g, ms := range perQ {
		var sel []Metrics
		for q, m := range ms {
			if use[q] {
				sel = append(sel, m)
			}
		}
		m := Mean(sel)
		if best < 0 || better(m, bestM) {
			best, bestM = g, m
		}
	}
	return best
}

// CrossValidate runs k-fold cross-validation of "pick the best grid point":
// perQ[g][q] is point g's metrics on answerable question q and fold[q] its
// fold; def is the default point's index. For each fold, the point is
// chosen on the other folds and scores the fold's questions. Nothing here
// knows what a point is: any configuration the grid can hold is
// cross-validated alike.
func CrossValidate(perQ [][]Metrics, fold []int, k, def int) CVResult {
	n := len(fold)
	r := CVResult{Folds: k, FoldSizes: make([]int, k), Chosen: make([]int, k)}
	held := make([]Metrics, n)
	for f := range k {
		use := make([]bool, n)
		for q := range n {
			use[q] = fold[q] != f
			if !use[q] {
				r.FoldSizes[f]++
			}
		}
		g := choose(perQ, use)
		r.Chosen[f] = g
		for q := range n {
			if !use[q] {
				held[q] = perQ[g][q]
			}
		}
	}
	r.HeldOut, r.Default = Mean(held), Mean(perQ[def])
	for _, m := range cvMetrics {
		a, b := make([]float64, n), make([]float64, n)
		for q := range n {
			a[q], b[q] = m.get(held[q]), m.get(perQ[def][q])
		}
		r.Differences = append(r.Differences, PairedDifference(m.name, a, b))
	}
	return r
}

// Adoption is Tune's decision between the grid's best point and the default.
type Adoption struct {
	// Adopt is true when the best point replaces the default.
	Adopt bool `json:"adopt"`
	// Reason says why, in words.
	Reason string `json:"reason"`
}

// Decide applies the shrinkage rule: the full set's best point (best) is
// adopted over the default (def) only when the set has at least minQuestions
// answerable questions, the best point is not the default, the
// cross-validated nDCG@10 gain's 95% interval lies above zero, and no other
// reported metric is significantly worse. Otherwise the default stays: a gain
// that exists only on the questions it was chosen on is noise.
func Decide(cv CVResult, best, def, answerable, minQuestions int) Adoption {
	g := cv.Difference("ndcg@10")
	switch {
	case best == def:
		return Adoption{Reason: "the default configuration is the best on the whole set"}
	case answerable < minQuestions:
		return Adoption{Reason: fmt.Sprintf("%d answerable questions, fewer than the %d needed before a tuned configuration is trusted "+
			"(held-out %s)", answerable, minQuestions, g)}
	case g.CI.Lower <= 0:
		return Adoption{Reason: fmt.Sprintf("the held-out gain over the default is within noise: %s", g)}
	}
	for _, d := range cv.Differences {
		if d.Metric != g.Metric && d.CI.Upper < 0 {
			return Adoption{Reason: fmt.Sprintf("held-out nDCG@10 improves but %s is significantly worse: %s", d.Metric, d)}
		}
	}
	return Adoption{Adopt: true, Reason: fmt.Sprintf("beats the default on held-out folds: %s", g)}
}
