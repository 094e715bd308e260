package eval

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

const tol = 1e-12

func near(a, b float64) bool { return math.Abs(a-b) < tol }

// Hand-computed values; log2(3) = 1.584962500721156, so 1/log2(3) = 0.6309297535714575.
func TestMetricsByHand(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		ranks []int
		nrel  int
		want  Metrics
	}{
		{
			// DCG = 1/log2(2) + 1/log2(4) = 1.5; IDCG = 1 + 1/log2(3) + 1/log2(4) = 2.1309297535714575.
			name: "ranks 1 and 3 of 3 relevant", ranks: []int{1, 3}, nrel: 3,
			want: Metrics{Recall1: 1.0 / 3, Recall5: 2.0 / 3, Recall10: 2.0 / 3, Recall20: 2.0 / 3, Recall100: 2.0 / 3,
				MRR10: 1, NDCG10: 1.5 / 2.1309297535714575, HitRate: 1},
		},
		{
			name: "rank 2 of 1 relevant", ranks: []int{2}, nrel: 1,
			want: Metrics{Recall1: 0, Recall5: 1, Recall10: 1, Recall20: 1, Recall100: 1, MRR10: 0.5, NDCG10: 0.6309297535714575, HitRate: 1},
		},
		{
			name: "rank 11: outside every @10 cut-off", ranks: []int{11}, nrel: 1,
			want: Metrics{Recall20: 1, Recall100: 1, HitRate: 1},
		},
		{
			// Ideal DCG is over min(10, 12) = 10 documents, so a perfect top 10 scores 1.
			name: "top 10 all relevant of 12", ranks: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, nrel: 12,
			want: Metrics{Recall1: 1.0 / 12, Recall5: 5.0 / 12, Recall10: 10.0 / 12, Recall20: 10.0 / 12, Recall100: 10.0 / 12,
				MRR10: 1, NDCG10: 1, HitRate: 1},
		},
		{
			// DCG = 1/log2(5) + 1/log2(11) = 0.43067655807339306 + 0.2890648263178879;
			// IDCG = 1 + 0.6309297535714575.
			name: "ranks 4 and 10 of 2 relevant", ranks: []int{4, 10}, nrel: 2,
			want: Metrics{Recall5: 0.5, Recall10: 1, Recall20: 1, Recall100: 1, MRR10: 0.25,
				NDCG10: (0.43067655807339306 + 0.2890648263178879) / 1.6309297535714575, HitRate: 1},
		},
		{name: "nothing retrieved", ranks: []int{}, nrel: 2, want: Metrics{}},
		{name: "unanswerable", ranks: nil, nrel: 0, want: Metrics{}},
	}
	for _, c := range cases {
		got := QuestionMetrics(c.ranks, c.nrel)
		for _, m := range metricNames {
			if !near(m.get(got), m.get(c.want)) {
				t.Errorf("%s: %s = %.15f, want %.15f", c.name, m.name, m.get(got), m.get(c.want))
			}
		}
	}
}

func TestDocRankingAndRelevantRanks(t *testing.T) {
	t.Parallel()
	// Chunks of a, b, a, c, b: each document takes its first chunk's place.
	docs := DocRanking([]string{"a", "b", "a", "c", "b"})
	if strings.Join(docs, ",") != "a,b,c" {
		t.Fatalf("DocRanking = %v, want [a b c]", docs)
	}
	if got := RelevantRanks(docs, []string{"c", "x", "a"}); len(got) != 2 || got[0] != 1 || got[1] != 3 {
		t.Errorf("RelevantRanks = %v, want [1 3]", got)
	}
	// Recall counts the unretrieved relevant document x in the denominator.
	if r := RecallAt([]int{1, 3}, 3, 5); !near(r, 2.0/3) {
		t.Errorf("recall@5 = %v, want 2/3", r)
	}
}

func TestMeanPercentileCurve(t *testing.T) {
	t.Parallel()
	m := Mean([]Metrics{{NDCG10: 1, Recall5: 0.5}, {NDCG10: 0, Recall5: 1}})
	if !near(m.NDCG10, 0.5) || !near(m.Recall5, 0.75) {
		t.Errorf("Mean = %+v", m)
	}
	xs := []float64{40, 10, 30, 20}
	if p := Percentile(xs, 50); p != 20 {
		t.Errorf("p50 = %v, want 20 (nearest rank)", p)
	}
	if p := Percentile(xs, 95); p != 40 {
		t.Errorf("p95 = %v, want 40", p)
	}
	if xs[0] != 40 {
		t.Error("Percentile sorted its input")
	}
	// Two answerable questions (ranks [2] of 1; [1,3] of 2) and an unanswerable one, which is skipped.
	c := RecallCurve([][]int{{2}, {1, 3}, nil}, []int{1, 2, 0}, 3)
	want := []float64{(0 + 0.5) / 2, (1 + 0.5) / 2, (1 + 1) / 2.0}
	for i := range want {
		if !near(c[i], want[i]) {
			t.Errorf("recall@%d = %v, want %v", i+1, c[i], want[i])
		}
	}
}

func TestCalibrate(t *testing.T) {
	t.Parallel()
	// Separable: unanswerable at 0.1-0.3, answerable at 0.6-0.9 → the midpoint 0.45.
	conf := []float64{0.9, 0.8, 0.7, 0.6, 0.1, 0.2, 0.3}
	ans := []bool{true, true, true, true, false, false, false}
	c, ok := Calibrate(conf, ans, 0)
	if !ok || !c.MeetsTarget || !near(c.Chosen.Threshold, 0.45) || c.Chosen.Recall != 1 || c.Chosen.FalseRefusal != 0 || c.Chosen.Precision != 1 {
		t.Errorf("separable: %+v ok=%v", c.Chosen, ok)
	}
	if c.Current.Refused != 0 || c.Current.Recall != 0 || c.Current.Precision != 1 {
		t.Errorf("current threshold 0 should refuse nothing: %+v", c.Current)
	}
	// Overlapping: one unanswerable question scores above every answerable one,
	// so 90% recall would need refusing everything: the fallback keeps false
	// refusals ≤ 5% and refuses what it can (2 of 3 at threshold 0.45).
	conf = []float64{0.9, 0.8, 0.7, 0.6, 0.1, 0.2, 0.95}
	c, ok = Calibrate(conf, ans, 0.5)
	if !ok || c.MeetsTarget || !near(c.Chosen.Threshold, 0.4) || !near(c.Chosen.Recall, 2.0/3) || c.Chosen.FalseRefusal != 0 {
		t.Errorf("overlapping: %+v meets=%v", c.Chosen, c.MeetsTarget)
	}
	if !near(c.Current.Recall, 2.0/3) || c.Current.FalseRefusal != 0 {
		t.Errorf("current 0.5: %+v", c.Current)
	}
	if _, ok := Calibrate([]float64{0.5}, []bool{true}, 0); ok {
		t.Error("a set without unanswerable questions cannot be calibrated")
	}
}

func TestParseJSONL(t *testing.T) {
	t.Parallel()
	good := `{"question": "How do I vacuum?", "relevant": ["doc://vacuum"]}

{"question": "What is the capital of Mars?", "relevant": []}
{"question": "  Ask twice ", "relevant": ["a", "b"]}
`
	qs, err := ParseJSONL(strings.NewReader(good))
	if err != nil || len(qs) != 3 || qs[1].Answerable() || !qs[2].Answerable() {
		t.Fatalf("ParseJSONL(good) = %v, %v", qs, err)
	}
	bad := `{"question": "", "relevant": []}
{"question": "dup", "relevant": ["a", "a"]}
{"question": "DUP ", "relevant": [""]}
{"questoin": "typo"}
not json
`
	_, err = ParseJSONL(strings.NewReader(bad))
	var ve *ValidationError
	if !errors.As(err, &ve) || !errors.Is(err, ErrInvalidSet) {
		t.Fatalf("ParseJSONL(bad) err = %v, want a ValidationError", err)
	}
	want := map[string]int{"empty_question": 1, "duplicate_source_uri": 2, "duplicate_question": 3, "empty_source_uri": 3, "malformed": 4}
	got := map[string]int{}
	for _, p := range ve.Problems {
		if _, seen := got[p.Code]; !seen {
			got[p.Code] = p.Line
		}
	}
	for code, line := range want {
		if got[code] != line {
			t.Errorf("problem %s at line %d, want line %d (all: %+v)", code, got[code], line, ve.Problems)
		}
	}
	if _, err := ParseJSONL(strings.NewReader("\n\n")); !errors.Is(err, ErrInvalidSet) {
		t.Errorf("empty file: err = %v, want ErrInvalidSet", err)
	}
	// An answer-check line is refused with the command that runs it.
	_, err = ParseJSONL(strings.NewReader(`{"question": "How do I dump?", "answer_terms": ["pg_dump"], "relevant": []}`))
	if !errors.As(err, &ve) || len(ve.Problems) != 1 || !strings.Contains(ve.Problems[0].Message, "ragd eval answers --tenant <slug> --checks FILE") {
		t.Errorf("answer-check line: %v, want a problem naming eval answers --checks", err)
	}
}

func TestCompareReports(t *testing.T) {
	t.Parallel()
	mk := func(ranksQ1, ranksQ2 []int, rrfK float64) Report {
		r := Report{Depth: 20, Production: LegFused, PerQuestion: []QuestionResult{
			{Idx: 0, Question: "q1", Relevant: []string{"a"}, Legs: map[string]LegResult{LegFused: {Ranks: ranksQ1}}},
			{Idx: 1, Question: "q2", Relevant: []string{"b"}, Legs: map[string]LegResult{LegFused: {Ranks: ranksQ2}}},
			{Idx: 2, Question: "q3", Relevant: nil, Legs: map[string]LegResult{LegFused: {}}},
		}}
		r.Config.Settings.RRFK = rrfK
		r.aggregate(0)
		return r
	}
	a := mk([]int{1}, []int{5}, 60)
	b := mk([]int{3}, []int{1}, 30)
	c := CompareReports(a, b)
	if len(c.Worse) != 1 || c.Worse[0].Question != "q1" || c.Worse[0].RankA != 1 || c.Worse[0].RankB != 3 || c.Better != 1 {
		t.Errorf("worse = %+v, better = %d", c.Worse, c.Better)
	}
	if c.Deltas[0].Leg != "production" {
		t.Fatalf("first delta leg %q", c.Deltas[0].Leg)
	}
	for _, d := range c.Deltas {
		if d.Leg == "production" && d.Metric == "mrr@10" && !near(d.Delta, (1.0/3+1)/2-(1+0.2)/2) {
			t.Errorf("mrr@10 delta = %v", d.Delta)
		}
	}
	if len(c.ConfigChanges) != 1 || c.ConfigChanges[0].Field != "settings.rrf_k" {
		t.Errorf("config changes = %+v", c.ConfigChanges)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("runs of one set: warnings %q", c.Warnings)
	}
	// Runs of different sets (or versions of one) average different
	// questions: the comparison says so, and how many questions both have.
	for _, other := range []SetInfo{{Name: "traffic", Version: 1}, {Name: "default", Version: 2}} {
		a.Set, b.Set = SetInfo{Name: "default", Version: 1}, other
		c = CompareReports(a, b)
		if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "different sets") || !strings.Contains(c.Warnings[0], "3 questions are in both") {
			t.Errorf("set %s v%d against default v1: warnings %q", other.Name, other.Version, c.Warnings)
		}
	}
}

// The refusal report tells the refusals that lose an answer (the search had
// a relevant document among the sources an answer quotes) from those of
// questions whose answer was not found.
func TestRefusalReportCountsFoundAnswers(t *testing.T) {
	t.Parallel()
	q := func(idx int, relevant []string, ranks []int, conf float64) QuestionResult {
		return QuestionResult{Idx: idx, Question: fmt.Sprintf("q%d", idx), Relevant: relevant,
			Legs: map[string]LegResult{LegFused: {Ranks: ranks, Confidence: conf}}}
	}
	r := Report{Depth: 20, Production: LegFused, PerQuestion: []QuestionResult{
		q(0, []string{"a"}, []int{1}, 0.9),         // found, answered
		q(1, []string{"a"}, []int{5}, 0.2),         // found at the last source, refused
		q(2, []string{"a"}, []int{6}, 0.2),         // below the sources, refused
		q(3, []string{"a"}, nil, 0.1),              // not retrieved, refused
		q(4, []string{"a", "b"}, []int{2, 9}, 0.5), // found, answered
		q(5, nil, nil, 0.1),                        // unanswerable, refused
		q(6, nil, nil, 0.25),                       // unanswerable, refused at 0.3
	}}
	r.aggregate(0.3)
	c := r.Refusal
	if c == nil {
		t.Fatal("no refusal report")
	}
	f := c.Found
	if f == nil || f.Depth != FoundDepth || f.Answerable != 3 || f.Current != 1 {
		t.Fatalf("found %+v; want depth %d, 3 found, 1 of them refused", f, FoundDepth)
	}
	// The chosen threshold's count follows the chosen threshold.
	want := 0
	for _, i := range []int{0, 1, 4} {
		if r.PerQuestion[i].Legs[LegFused].Confidence < c.Chosen.Threshold {
			want++
		}
	}
	if f.Chosen != want {
		t.Errorf("refused at the chosen threshold %.3f: %d of the found, want %d", c.Chosen.Threshold, f.Chosen, want)
	}
}
