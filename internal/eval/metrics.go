package eval

import (
	"math"
	"slices"
	"sort"
)

// RecallKs are the cut-offs of the recall@k metrics every report carries.
var RecallKs = []int{1, 5, 10, 20, 100}

// Metrics are retrieval metrics averaged over a set's answerable questions
// (questions with at least one relevant document), with binary relevance, as
// BEIR computes them through pytrec_eval (Thakur et al. 2021; Van Gysel & de
// Rijke 2018):
//
//   - recall@k = |relevant ∩ top-k| / |relevant|;
//   - mrr@10 = 1 / rank of the first relevant document if it is in the top 10,
//     else 0;
//   - ndcg@10 = DCG@10 / IDCG@10 with DCG = Σ rel_i / log2(i + 1) over ranks
//     i = 1…10 and IDCG the DCG of an ideal ranking, i.e. over
//     min(10, |relevant|) relevant documents;
//   - hit_rate = the fraction with at least one relevant document among all
//     the documents retrieved (the run's depth).
//
// A recall@k with k above the run's depth counts only what was retrieved (it
// equals recall@depth).
type Metrics struct {
	Recall1   float64 `json:"recall@1"`
	Recall5   float64 `json:"recall@5"`
	Recall10  float64 `json:"recall@10"`
	Recall20  float64 `json:"recall@20"`
	Recall100 float64 `json:"recall@100"`
	MRR10     float64 `json:"mrr@10"`
	NDCG10    float64 `json:"ndcg@10"`
	HitRate   float64 `json:"hit_rate"`
}

// metricNames lists the Metrics fields in display order with accessors.
var metricNames = []struct {
	name string
	get  func(Metrics) float64
}{
	{"recall@1", func(m Metrics) float64 { return m.Recall1 }},
	{"recall@5", func(m Metrics) float64 { return m.Recall5 }},
	{"recall@10", func(m Metrics) float64 { return m.Recall10 }},
	{"recall@20", func(m Metrics) float64 { return m.Recall20 }},
	{"recall@100", func(m Metrics) float64 { return m.Recall100 }},
	{"mrr@10", func(m Metrics) float64 { return m.MRR10 }},
	{"ndcg@10", func(m Metrics) float64 { return m.NDCG10 }},
	{"hit_rate", func(m Metrics) float64 { return m.HitRate }},
}

// DocRanking turns a ranked list of chunks, given by their documents'
// source_uris, into a ranked list of documents: each document takes the place
// of its first (best) chunk and its later chunks are dropped, so document ranks
// are 1, 2, 3… without gaps.
func DocRanking(chunkSourceURIs []string) []string {
	seen := make(map[string]bool, len(chunkSourceURIs))
	docs := make([]string, 0, len(chunkSourceURIs))
	for _, u := range chunkSourceURIs {
		if !seen[u] {
			seen[u] = true
			docs = append(docs, u)
		}
	}
	return docs
}

// RelevantRanks returns the 1-based ranks in docs (a document ranking) of the
// documents in relevant, ascending. Documents not retrieved have no rank.
func RelevantRanks(docs, relevant []string) []int {
	rel := make(map[string]bool, len(relevant))
	for _, r := range relevant {
		rel[r] = true
	}
	ranks := []int{}
	for i, d := range docs {
		if rel[d] {
			ranks = append(ranks, i+1)
		}
	}
	return ranks
}

// RecallAt is |relevant ∩ top-k| / |relevant| for a question whose relevant
// documents sit at ranks (ascending, 1-based) among nrel relevant ones; 0 when
// nrel is 0.
func RecallAt(ranks []int, nrel, k int) float64 {
	if nrel <= 0 {
		return 0
	}
	return float64(countAtMost(ranks, k)) / float64(nrel)
}

// ReciprocalRankAt is 1 / the rank of the first relevant document if it is
// within the top k, else 0.
func ReciprocalRankAt(ranks []int, k int) float64 {
	if len(ranks) == 0 || ranks[0] > k {
		return 0
	}
	return 1 / float64(ranks[0])
}

// NDCGAt is the binary-relevance nDCG@k: Σ_{rank r ≤ k} 1/log2(r+1) divided by
// the ideal Σ_{i=1…min(k, nrel)} 1/log2(i+1); 0 when nrel is 0.
func NDCGAt(ranks []int, nrel, k int) float64 {
	if nrel <= 0 {
		return 0
	}
	var dcg, idcg float64
	for _, r := range ranks {
		if r <= k {
			dcg += 1 / math.Log2(float64(r)+1)
		}
	}
	for i := 1; i <= min(k, nrel); i++ {
		idcg += 1 / math.Log2(float64(i)+1)
	}
	return dcg / idcg
}

func countAtMost(ranks []int, k int) int {
	n := 0
	for _, r := range ranks {
		if r <= k {
			n++
		}
	}
	return n
}

// QuestionMetrics are one question's metrics from its relevant ranks.
func QuestionMetrics(ranks []int, nrel int) Metrics {
	m := Metrics{
		Recall1:   RecallAt(ranks, nrel, 1),
		Recall5:   RecallAt(ranks, nrel, 5),
		Recall10:  RecallAt(ranks, nrel, 10),
		Recall20:  RecallAt(ranks, nrel, 20),
		Recall100: RecallAt(ranks, nrel, 100),
		MRR10:     ReciprocalRankAt(ranks, 10),
		NDCG10:    NDCGAt(ranks, nrel, 10),
	}
	if len(ranks) > 0 && nrel > 0 {
		m.HitRate = 1
	}
	return m
}

// Mean averages per-question metrics; the zero Metrics for none.
func Mean(ms []Metrics) Metrics {
	var s Metrics
	if len(ms) == 0 {
		return s
	}
	for _, m := range ms {
		s.Recall1 += m.Recall1
		s.Recall5 += m.Recall5
		s.Recall10 += m.Recall10
		s.Recall20 += m.Recall20
		s.Recall100 += m.Recall100
		s.MRR10 += m.MRR10
		s.NDCG10 += m.NDCG10
		s.HitRate += m.HitRate
	}
	n := float64(len(ms))
	return Metrics{Recall1: s.Recall1 / n, Recall5: s.Recall5 / n, Recall10: s.Recall10 / n, Recall20: s.Recall20 / n,
		Recall100: s.Recall100 / n, MRR10: s.MRR10 / n, NDCG10: s.NDCG10 / n, HitRate: s.HitRate / n}
}

// RecallCurve is mean recall@k for k = 1…depth over questions given as
// (relevant ranks, number relevant) pairs; index 0 holds recall@1.
func RecallCurve(ranks [][]int, nrel []int, depth int) []float64 {
	curve := make([]float64, depth)
	n := 0
	for i := range ranks {
		if nrel[i] <= 0 {
			continue
		}
		n++
		for k := 1; k <= depth; k++ {
			curve[k-1] += RecallAt(ranks[i], nrel[i], k)
		}
	}
	if n > 0 {
		for k := range curve {
			curve[k] /= float64(n)
		}
	}
	return curve
}

// Percentile is the nearest-rank p-th percentile (0 < p ≤ 100) of xs; 0 for
// none. xs is not modified.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}
