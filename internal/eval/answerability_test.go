package eval

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// publicSignals is the recorded evidence the default answerability model
// is fitted on (docs/EVAL.md, "Answerability": how to record it again).
const publicSignals = "testdata/answerability/public.tsv"

// TestDefaultAnswerModelIsTheFit: the default model and threshold in the
// code are the fit of the recorded public signals, so refitting is
// reproducible and nobody edits a coefficient by hand; and the manual's
// questions are not among them (they are held-out evaluation only).
func TestDefaultAnswerModelIsTheFit(t *testing.T) {
	t.Parallel()
	f, err := os.Open(publicSignals)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := ReadSignals(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if strings.Contains(r.Source, "pgdocs") || strings.Contains(r.Tenant, "pgdocs") || strings.Contains(r.Source, "offtopic") {
			t.Fatalf("row from %s on %s: the manual's sets and tenant are held out, never fitted on", r.Source, r.Tenant)
		}
	}
	m, err := FitAnswerModel(rows, AnswerFitL2)
	if err != nil {
		t.Fatal(err)
	}
	want := search.DefaultAnswerModel
	round := func(x float64) float64 { return math.Round(x*1e4) / 1e4 }
	if round(m.Bias) != want.Bias {
		t.Errorf("bias: fit %.4f, code %.4f", m.Bias, want.Bias)
	}
	for i, w := range m.Weights {
		if round(w) != want.Weights[i] {
			t.Errorf("%s: fit %.4f, code %.4f", search.AnswerFeatures[i], w, want.Weights[i])
		}
	}
	// The threshold refuses 5% of the public answerable questions as
	// searches refuse them: with the caps (the capped column), as
	// `eval fit-answerability` counts.
	conf, ans := make([]float64, len(rows)), make([]bool, len(rows))
	for i, r := range rows {
		conf[i], ans[i] = want.Confidence(r.Signals), r.Answerable
	}
	if th := ThresholdForFalseRefusal(conf, ans, MaxFalseRefusal); th != tenant.DefaultRefuseBelow {
		t.Errorf("threshold refusing %.0f%% of the public answerable questions: %.2f, tenant.DefaultRefuseBelow %.2f",
			100*MaxFalseRefusal, th, tenant.DefaultRefuseBelow)
	}
	if t.Failed() {
		t.Log("refit: go run ./cmd/ragd eval fit-answerability " + publicSignals + " and copy its output into internal/search/answermodel.go and internal/tenant")
	}
}

func TestFitAnswerModelSeparates(t *testing.T) {
	t.Parallel()
	var rows []SignalRow
	for i := range 50 {
		c := 0.2 + 0.01*float64(i%10)
		rows = append(rows, SignalRow{Answerable: i%2 == 0, Signals: search.Signals{Terms: 5, TermCoverage: c + 0.5*float64((i+1)%2)}})
	}
	m, err := FitAnswerModel(rows, AnswerFitL2)
	if err != nil || !m.Valid() {
		t.Fatalf("fit %+v: %v", m, err)
	}
	conf, ans := make([]float64, len(rows)), make([]bool, len(rows))
	for i, r := range rows {
		conf[i], ans[i] = m.Probability(r.Signals), r.Answerable
	}
	if auc := AUC(conf, ans); auc != 1 || m.Weights[1] <= 0 {
		t.Fatalf("AUC %.3f, term coverage weight %.3f: the fit does not separate the classes", auc, m.Weights[1])
	}
	if _, err := FitAnswerModel(rows[:1], AnswerFitL2); err == nil {
		t.Error("a fit on one class succeeded")
	}
}

func TestAUC(t *testing.T) {
	t.Parallel()
	// 2 positives (0.9, 0.5), 2 negatives (0.5, 0.1): pairs 0.9>0.5, 0.9>0.1,
	// 0.5=0.5 (half), 0.5>0.1: 3.5 of 4.
	if got := AUC([]float64{0.9, 0.5, 0.5, 0.1}, []bool{true, true, false, false}); got != 0.875 {
		t.Errorf("AUC = %v, want 0.875", got)
	}
	if got := AUC([]float64{1, 2}, []bool{true, true}); !math.IsNaN(got) {
		t.Errorf("one class: %v, want NaN", got)
	}
}

func TestSignalsRoundTrip(t *testing.T) {
	t.Parallel()
	rows := []SignalRow{{Tenant: "a", Source: "a:set", Answerable: true, Signals: search.Signals{Terms: 3, KeywordCoverage: 0.5,
		TermCoverage: 0.25, DocumentCoverage: 0.75, AbsentShare: 0.125, Names: 2, MissingNames: 1, TopMean: 0.3, ScoreSD: 0.05,
		Opinion: true, Vector: true, VectorSimilarity: 0.4, VectorZ: 2.5, Capped: true}}}
	var b bytes.Buffer
	if err := WriteSignals(&b, rows, true); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSignals(&b)
	if err != nil || len(got) != 1 || got[0] != rows[0] {
		t.Fatalf("round trip %+v (%v), want %+v", got, err, rows)
	}
	// A file written before the capped column (the committed public data)
	// reads as not capped.
	old := "a\ta:set\t1\t3\t0.5\t0.25\t0.75\t0.125\t2\t1\t0.3\t0.05\t1\t1\t0.4\t2.5\t0\n"
	got, err = ReadSignals(strings.NewReader(old))
	want := rows[0]
	want.Signals.Capped = false
	if err != nil || len(got) != 1 || got[0] != want {
		t.Fatalf("a row without the capped column: %+v (%v), want %+v", got, err, want)
	}
	if _, err := ReadSignals(strings.NewReader("a\tb\t1\n")); err == nil {
		t.Error("a short line was read")
	}
}
