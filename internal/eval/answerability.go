package eval

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// SignalRow is one question's answerability evidence on one tenant: the
// unit the answerability model is fitted and evaluated on.
type SignalRow struct {
	// Tenant is the slug of the tenant searched; Source names where the
	// question came from (tenant:set, or a file).
	Tenant, Source string
	// Answerable is the label: the question has relevant documents and was
	// asked of its own corpus.
	Answerable bool
	Signals    search.Signals
}

// SignalOptions tune Signals.
type SignalOptions struct {
	// Foreign marks every question unanswerable: questions written for
	// another corpus.
	Foreign bool
	// Source is recorded in each row.
	Source string
	// Progress, when set, is called after each question.
	Progress func(done, total int)
}

// Signals searches each question on tenant t with the default settings (a
// new tenant's: the evidence the default model is fitted on does not depend
// on a tenant's calibration) and returns its answerability signals.
// Errors: search errors, wrapped with the question number.
func (s *Service) Signals(ctx context.Context, t tenant.Tenant, qs []Question, o SignalOptions) ([]SignalRow, error) {
	rows := make([]SignalRow, 0, len(qs))
	for i, q := range qs {
		resp, err := s.searcher.Search(ctx, t, search.Request{Query: q.Question, TopK: search.DefaultTopK, NoRerank: true, Settings: &tenant.Settings{}})
		if err != nil {
			return rows, fmt.Errorf("question %d: %w", i+1, err)
		}
		rows = append(rows, SignalRow{Tenant: t.Slug, Source: o.Source, Answerable: !o.Foreign && q.Answerable(), Signals: resp.Signals})
		if o.Progress != nil {
			o.Progress(i+1, len(qs))
		}
	}
	return rows, nil
}

// signalColumns are the columns of the signals file, in order.
var signalColumns = []string{"tenant", "source", "answerable", "terms", "keyword_coverage", "term_coverage",
	"document_coverage", "absent_share", "names", "missing_names", "top_mean", "score_sd", "opinion",
	"vector", "vector_similarity", "vector_z"}

// WriteSignals writes rows as tab-separated values with a header line
// (floats with 6 decimals: the fit is reproducible from the file alone).
func WriteSignals(w io.Writer, rows []SignalRow, header bool) error {
	bw := bufio.NewWriter(w)
	if header {
		fmt.Fprintln(bw, strings.Join(signalColumns, "\t"))
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 6, 64) }
	b := func(x bool) string {
		if x {
			return "1"
		}
		return "0"
	}
	for _, r := range rows {
		s := r.Signals
		fmt.Fprintln(bw, strings.Join([]string{r.Tenant, r.Source, b(r.Answerable), strconv.Itoa(s.Terms), f(s.KeywordCoverage),
			f(s.TermCoverage), f(s.DocumentCoverage), f(s.AbsentShare), strconv.Itoa(s.Names), strconv.Itoa(s.MissingNames),
			f(s.TopMean), f(s.ScoreSD), b(s.Opinion), b(s.Vector), f(s.VectorSimilarity), f(s.VectorZ)}, "\t"))
	}
	return bw.Flush()
}

// ErrSignalsFormat is returned by ReadSignals for a malformed file.
var ErrSignalsFormat = errors.New("eval: malformed signals file")

// ReadSignals reads what WriteSignals wrote (header lines are skipped).
func ReadSignals(r io.Reader) ([]SignalRow, error) {
	var rows []SignalRow
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if text == "" || strings.HasPrefix(text, "tenant\t") {
			continue
		}
		c := strings.Split(text, "\t")
		if len(c) != len(signalColumns) {
			return nil, fmt.Errorf("%w: line %d has %d columns, want %d", ErrSignalsFormat, line, len(c), len(signalColumns))
		}
		var err error
		num := func(i int) float64 {
			v, e := strconv.ParseFloat(c[i], 64)
			if e != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				err = fmt.Errorf("%w: line %d column %s: %q", ErrSignalsFormat, line, signalColumns[i], c[i])
			}
			return v
		}
		row := SignalRow{Tenant: c[0], Source: c[1], Answerable: num(2) == 1, Signals: search.Signals{
			Terms: int(num(3)), KeywordCoverage: num(4), TermCoverage: num(5), DocumentCoverage: num(6), AbsentShare: num(7),
			Names: int(num(8)), MissingNames: int(num(9)), TopMean: num(10), ScoreSD: num(11), Opinion: num(12) == 1,
			Vector: num(13) == 1, VectorSimilarity: num(14), VectorZ: num(15)}}
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, sc.Err()
}

// AnswerFitL2 is the fit's L2 penalty on the weights (not the bias), per
// unit of total class weight.
const AnswerFitL2 = 1e-2

// FitAnswerModel fits the answerability model to rows: logistic
// regression on search.Signals.Features, classes weighted to equal total
// weight, L2 penalty l2 on the weights, by Newton's method from zero (a
// convex problem: the result is the unique optimum, the same on every
// machine up to rounding). Errors: ErrNoAnswerable or too few rows of a
// class.
func FitAnswerModel(rows []SignalRow, l2 float64) (search.AnswerModel, error) {
	var pos, neg int
	for _, r := range rows {
		if r.Answerable {
			pos++
		} else {
			neg++
		}
	}
	if pos == 0 || neg == 0 {
		return search.AnswerModel{}, fmt.Errorf("%w: the fit needs answerable and unanswerable rows (%d, %d)", ErrNoAnswerable, pos, neg)
	}
	d := len(search.AnswerFeatures) + 1
	x := make([][]float64, len(rows))
	wt := make([]float64, len(rows))
	for i, r := range rows {
		x[i] = append([]float64{1}, r.Signals.Features()...)
		if r.Answerable {
			wt[i] = 0.5 / float64(pos)
		} else {
			wt[i] = 0.5 / float64(neg)
		}
	}
	beta := make([]float64, d)
	for iter := 0; iter < 100; iter++ {
		grad := make([]float64, d)
		hess := make([][]float64, d)
		for j := range hess {
			hess[j] = make([]float64, d)
		}
		for i, xi := range x {
			z := 0.0
			for j, v := range xi {
				z += beta[j] * v
			}
			p := 1 / (1 + math.Exp(-z))
			y := 0.0
			if rows[i].Answerable {
				y = 1
			}
			for j, v := range xi {
				grad[j] += wt[i] * (p - y) * v
				for k := j; k < d; k++ {
					hess[j][k] += wt[i] * p * (1 - p) * v * xi[k]
				}
			}
		}
		for j := 1; j < d; j++ {
			grad[j] += l2 * beta[j]
			hess[j][j] += l2
		}
		hess[0][0] += 1e-12
		for j := range d {
			for k := 0; k < j; k++ {
				hess[j][k] = hess[k][j]
			}
		}
		step, ok := solve(hess, grad)
		if !ok {
			return search.AnswerModel{}, errors.New("eval: answerability fit: singular system")
		}
		var norm float64
		for j := range beta {
			beta[j] -= step[j]
			norm = math.Max(norm, math.Abs(step[j]))
		}
		if norm < 1e-12 {
			break
		}
	}
	return search.AnswerModel{Bias: beta[0], Weights: beta[1:]}, nil
}

// solve solves a·x = b by Gaussian elimination with partial pivoting.
func solve(a [][]float64, b []float64) ([]float64, bool) {
	n := len(b)
	m := make([][]float64, n)
	for i := range a {
		m[i] = append(append([]float64(nil), a[i]...), b[i])
	}
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		if math.Abs(m[p][c]) < 1e-300 {
			return nil, false
		}
		m[c], m[p] = m[p], m[c]
		for r := c + 1; r < n; r++ {
			f := m[r][c] / m[c][c]
			for k := c; k <= n; k++ {
				m[r][k] -= f * m[c][k]
			}
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := m[r][n]
		for k := r + 1; k < n; k++ {
			s -= m[r][k] * x[k]
		}
		x[r] = s / m[r][r]
	}
	return x, true
}

// AUC is the area under the ROC curve of scores for telling answerable
// (positive) from unanswerable questions: the probability that a random
// answerable question scores above a random unanswerable one, ties
// counting half (Mann–Whitney). NaN without both classes.
func AUC(scores []float64, answerable []bool) float64 {
	type pt struct {
		s   float64
		pos bool
	}
	pts := make([]pt, len(scores))
	var np, nn float64
	for i, s := range scores {
		pts[i] = pt{s, answerable[i]}
		if answerable[i] {
			np++
		} else {
			nn++
		}
	}
	if np == 0 || nn == 0 {
		return math.NaN()
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].s < pts[j].s })
	var rankSum float64
	for i := 0; i < len(pts); {
		j := i
		for j < len(pts) && pts[j].s == pts[i].s {
			j++
		}
		mid := float64(i+j+1) / 2 // average 1-based rank of the tie group
		for k := i; k < j; k++ {
			if pts[k].pos {
				rankSum += mid
			}
		}
		i = j
	}
	return (rankSum - np*(np+1)/2) / (np * nn)
}

// ThresholdForFalseRefusal returns the largest threshold, to two decimals,
// below which at most share of the answerable questions' confidences lie:
// the default refusal threshold of a model fitted on public data.
func ThresholdForFalseRefusal(conf []float64, answerable []bool, share float64) float64 {
	best := 0.0
	for t := 0.01; t < 1; t += 0.01 {
		t = math.Round(t*100) / 100
		if RefusalAt(conf, answerable, t).FalseRefusal <= share {
			best = t
		} else {
			break
		}
	}
	return best
}

// BootstrapRefusal resamples questions (answerable and unanswerable
// separately, 2,000 times, fixed seed) and returns 95% intervals of the
// refusal recall and false-refusal rate at threshold t, and of the AUC.
func BootstrapRefusal(conf []float64, answerable []bool, t float64) (recall, falseRefusal, auc Interval) {
	var pos, neg []int
	for i, a := range answerable {
		if a {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	if len(pos) == 0 || len(neg) == 0 {
		return
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 2000
	rs, fs, as := make([]float64, n), make([]float64, n), make([]float64, n)
	c := make([]float64, 0, len(conf))
	a := make([]bool, 0, len(conf))
	for b := range n {
		c, a = c[:0], a[:0]
		for range pos {
			c, a = append(c, conf[pos[rng.IntN(len(pos))]]), append(a, true)
		}
		for range neg {
			c, a = append(c, conf[neg[rng.IntN(len(neg))]]), append(a, false)
		}
		p := RefusalAt(c, a, t)
		rs[b], fs[b], as[b] = p.Recall, p.FalseRefusal, AUC(c, a)
	}
	iv := func(v []float64) Interval {
		sort.Float64s(v)
		return Interval{Lower: v[int(0.025*n)], Upper: v[int(0.975*n)-1]}
	}
	return iv(rs), iv(fs), iv(as)
}
