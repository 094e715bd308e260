package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/tenant"
)

// MetricDelta is one metric of one leg in two runs; Delta = B − A.
type MetricDelta struct {
	Leg    string  `json:"leg"`
	Metric string  `json:"metric"`
	A      float64 `json:"a"`
	B      float64 `json:"b"`
	Delta  float64 `json:"delta"`
}

// QuestionChange is a question whose production-path outcome changed between
// two runs. Ranks are the first relevant document's rank (0 = none retrieved).
type QuestionChange struct {
	Question string   `json:"question"`
	Relevant []string `json:"relevant"`
	NDCGA    float64  `json:"ndcg@10_a"`
	NDCGB    float64  `json:"ndcg@10_b"`
	RecallA  float64  `json:"recall_a"`
	RecallB  float64  `json:"recall_b"`
	RankA    int      `json:"first_rank_a"`
	RankB    int      `json:"first_rank_b"`
}

// ConfigChange is a configuration field that differs between two runs.
type ConfigChange struct {
	Field string `json:"field"`
	A     string `json:"a"`
	B     string `json:"b"`
}

// Comparison of run B against baseline run A.
type Comparison struct {
	A RunSummary `json:"a"`
	B RunSummary `json:"b"`
	// Deltas per leg present in both runs and metric, production first
	// (leg "production").
	Deltas []MetricDelta `json:"deltas"`
	// Worse are the answerable questions (matched by text) whose nDCG@10 or
	// recall at the shallower run's depth fell, worst first.
	Worse     []QuestionChange `json:"worse"`
	Better    int              `json:"better"`
	Same      int              `json:"same"`
	Unmatched int              `json:"unmatched"`
	// ConfigChanges lists the snapshot fields that differ.
	ConfigChanges []ConfigChange `json:"config_changes"`
	// Warnings say why the deltas may not mean what they seem: runs of
	// different sets, or of different versions of one set, average their
	// metrics over different questions.
	Warnings []string `json:"warnings"`
}

// Compare loads two of the tenant's runs and compares b against the baseline
// a. Errors: ErrRunNotFound, store errors.
func (s *Service) Compare(ctx context.Context, t tenant.Tenant, a, b uuid.UUID) (Comparison, error) {
	ra, err := s.GetRun(ctx, t, a)
	if err != nil {
		return Comparison{}, err
	}
	rb, err := s.GetRun(ctx, t, b)
	if err != nil {
		return Comparison{}, err
	}
	return CompareReports(ra, rb), nil
}

func summarize(r Report) RunSummary {
	return RunSummary{ID: r.ID, Set: r.Set.Name, SetVersion: r.Set.Version, CreatedAt: r.CreatedAt, Questions: r.Questions,
		Production: r.Production, Metrics: r.Metrics}
}

// CompareReports compares report b against the baseline a (both with
// PerQuestion for the question-level part).
func CompareReports(a, b Report) Comparison {
	c := Comparison{A: summarize(a), B: summarize(b), Worse: []QuestionChange{}}
	add := func(leg string, ma, mb Metrics) {
		for _, m := range metricNames {
			x, y := m.get(ma), m.get(mb)
			c.Deltas = append(c.Deltas, MetricDelta{Leg: leg, Metric: m.name, A: x, B: y, Delta: y - x})
		}
	}
	add("production", a.Metrics, b.Metrics)
	for _, leg := range a.legNames() {
		if mb, ok := b.Legs[leg]; ok {
			add(leg, a.Legs[leg], mb)
		}
	}
	depth := min(a.Depth, b.Depth)
	if depth <= 0 {
		depth = max(a.Depth, b.Depth)
	}
	// Match questions by text; repeated texts pair up in order.
	key := func(text string, seen map[string]int) string {
		n := seen[text]
		seen[text] = n + 1
		return fmt.Sprintf("%d\x00%s", n, text)
	}
	inA := map[string]QuestionResult{}
	seenA := map[string]int{}
	for _, q := range a.PerQuestion {
		inA[key(q.Question, seenA)] = q
	}
	seenB := map[string]int{}
	matched := 0
	for _, qb := range b.PerQuestion {
		qa, ok := inA[key(qb.Question, seenB)]
		if !ok {
			c.Unmatched++
			continue
		}
		matched++
		if len(qb.Relevant) == 0 {
			continue
		}
		la, okA := qa.Legs[a.Production]
		lb, okB := qb.Legs[b.Production]
		if !okA || !okB {
			continue
		}
		ch := QuestionChange{Question: qb.Question, Relevant: qb.Relevant,
			NDCGA: NDCGAt(la.Ranks, len(qa.Relevant), 10), NDCGB: NDCGAt(lb.Ranks, len(qb.Relevant), 10),
			RecallA: RecallAt(la.Ranks, len(qa.Relevant), depth), RecallB: RecallAt(lb.Ranks, len(qb.Relevant), depth),
			RankA: firstRank(la.Ranks), RankB: firstRank(lb.Ranks)}
		const eps = 1e-12
		worse := ch.NDCGB < ch.NDCGA-eps || ch.RecallB < ch.RecallA-eps
		improved := ch.NDCGB > ch.NDCGA+eps || ch.RecallB > ch.RecallA+eps
		switch {
		case worse:
			c.Worse = append(c.Worse, ch)
		case improved:
			c.Better++
		default:
			c.Same++
		}
	}
	c.Unmatched += len(a.PerQuestion) - matched
	sort.SliceStable(c.Worse, func(i, j int) bool {
		di, dj := c.Worse[i].NDCGB-c.Worse[i].NDCGA, c.Worse[j].NDCGB-c.Worse[j].NDCGA
		if di != dj {
			return di < dj
		}
		return c.Worse[i].RecallB-c.Worse[i].RecallA < c.Worse[j].RecallB-c.Worse[j].RecallA
	})
	c.ConfigChanges = diffConfig(a.Config, b.Config)
	c.Warnings = []string{}
	if a.Set.Name != b.Set.Name || a.Set.Version != b.Set.Version {
		c.Warnings = append(c.Warnings, fmt.Sprintf("the runs are of different sets (A: %s v%d, %d questions; B: %s v%d, %d questions): "+
			"their metrics average different questions, so the deltas do not measure a change of ragd; %d questions are in both",
			a.Set.Name, a.Set.Version, a.Questions, b.Set.Name, b.Set.Version, b.Questions, matched))
	}
	return c
}

func firstRank(ranks []int) int {
	if len(ranks) == 0 {
		return 0
	}
	return ranks[0]
}

// diffConfig flattens both snapshots to dotted fields and lists the differences.
func diffConfig(a, b Config) []ConfigChange {
	fa, fb := flatten(a), flatten(b)
	keys := map[string]bool{}
	for k := range fa {
		keys[k] = true
	}
	for k := range fb {
		keys[k] = true
	}
	var out []ConfigChange
	for k := range keys {
		if fa[k] != fb[k] {
			out = append(out, ConfigChange{Field: k, A: fa[k], B: fb[k]})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	return out
}

func flatten(c Config) map[string]string {
	raw, _ := json.Marshal(c)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, y := range x {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, y)
			}
		default:
			b, _ := json.Marshal(x)
			out[prefix] = string(b)
		}
	}
	walk("", m)
	return out
}
