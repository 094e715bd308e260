package search

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/uuid"
)

// Fusion methods (tenant.Settings.Fusion).
const (
	// FusionConvex is the default: a convex combination of each leg's
	// normalised scores (Bruch, Gai & Ingber 2023, "An Analysis of Fusion
	// Functions for Hybrid Retrieval", ACM TOIS). The weights say how much
	// each leg's evidence counts, so a weak leg at a small weight can only
	// reorder near ties of the strong one.
	FusionConvex = "convex"
	// FusionRRF is weighted Reciprocal Rank Fusion (Cormack, Clarke &
	// Büttcher 2009), which uses ranks only.
	FusionRRF = "rrf"
)

// Scored is one leg's candidate: a chunk, its document, and the leg's raw
// value for it (cosine distance for the vector leg, BM25 score for the
// keyword leg).
type Scored struct {
	ID    uuid.UUID
	Doc   uuid.UUID
	Value float64
	// DocShare is Doc's share of the tenant's chunks (0: unknown).
	DocShare float64
}

// Ranking is one leg's ranked ids (best first) and its fusion weight.
type Ranking struct {
	Weight float64
	IDs    []uuid.UUID
}

// Fused is one fused item.
type Fused struct {
	ID    uuid.UUID
	Score float64
}

// Fuse merges rankings with weighted Reciprocal Rank Fusion: score(d) =
// Σ_legs w / (k + rank(d)), rank 1-based (Cormack, Clarke & Büttcher 2009,
// "Reciprocal Rank Fusion outperforms Condorcet and individual rank learning
// methods"). Legs with weight ≤ 0 are ignored. Ties are broken by the best
// single rank, then by id, so the order is deterministic.
func Fuse(k float64, legs []Ranking) []Fused {
	score := map[uuid.UUID]float64{}
	best := map[uuid.UUID]int{}
	for _, leg := range legs {
		if leg.Weight <= 0 {
			continue
		}
		for i, id := range leg.IDs {
			score[id] += leg.Weight / (k + float64(i+1))
			if b, ok := best[id]; !ok || i < b {
				best[id] = i
			}
		}
	}
	return sortFused(score, best)
}

// FuseConvex merges the vector leg's candidates (cosine distances, best
// first) and the keyword leg's (BM25 scores, best first) by a convex
// combination of normalised scores, the keyword evidence counting the
// chunk's whole document:
//
//	score(c) = (wv·V(c) + wk·D(c)) / (wv + wk)
//	D(c) = (K(c) + wd·min(S, √S)) / (1 + wd),  S = Σ_{c' ≠ c in c's document} K(c')
//
// K(c) = bm25(c) / the best BM25 score of the query (0 outside the leg's
// candidates): BM25 has no finite maximum, its theoretical minimum is 0.
// D is the chunk's own evidence plus wd times that of the other candidate
// chunks of its document (a SumP-style aggregation, cf. Dai & Callan 2019,
// "Deeper Text Understanding for IR with Contextual Neural Language
// Modeling", MaxP/SumP): an answer spread over a page's chunks is found by
// the page, and the best chunk of the best page comes first. Above 1 the
// others' sum counts by its square root, so that it saturates: summed as it
// is, a very long page (a manual in one file, a reference of every setting)
// whose many chunks each match a little outranked the short page that
// answers, and on a corpus with such pages the fused ranking fell below the
// keyword leg alone (docs/EVAL.md, "Document evidence saturates"). Below 1
// it counts as it is (the square root of a small sum is larger than the
// sum: forty near-zero matches would have counted as 0.63). D can exceed 1
// for a page with several matching chunks; the order is what counts.
// V(c) = (sim(c) − sim_min) / (sim_max − sim_min) over the vector leg's
// candidates (1 when they are all equal, 0 outside): cosine similarities of
// one model crowd into a narrow band whose position varies by query, so
// only their spread within the query's candidates says anything. V and K
// are in [0, 1], so scores are too when wd = 0; with document evidence a
// chunk of a page with many matching candidates can score above 1. A leg
// with weight ≤ 0 is ignored. Ties are broken by the best
// single rank, then by id.
//
// Measured with the local model (docs/EVAL.md, "Fusion"): at wv 0.25, wk 1,
// wd 0.2 and 50 candidates per leg, nDCG@10 is above the keyword leg alone
// on SciFact, the Python documentation and the PostgreSQL manual.
func FuseConvex(wv, wk, wd float64, vector, keyword []Scored) []Fused {
	wv, wk = max(wv, 0), max(wk, 0)
	total := wv + wk
	if total == 0 {
		return nil
	}
	score := map[uuid.UUID]float64{}
	best := map[uuid.UUID]int{}
	note := func(id uuid.UUID, i int) {
		if b, ok := best[id]; !ok || i < b {
			best[id] = i
		}
	}
	if wv > 0 && len(vector) > 0 {
		hi, lo := 1-vector[0].Value, 1-vector[len(vector)-1].Value
		for i, h := range vector {
			v := 1.0
			if hi > lo {
				v = (1 - h.Value - lo) / (hi - lo)
			}
			score[h.ID] += wv / total * v
			note(h.ID, i)
		}
	}
	if wk > 0 && len(keyword) > 0 {
		top := keyword[0].Value
		norm := func(v float64) float64 {
			if top > 0 {
				return v / top
			}
			return 1
		}
		wd = max(wd, 0)
		docSum := map[uuid.UUID]float64{}
		if wd > 0 {
			for _, h := range keyword {
				docSum[h.Doc] += norm(h.Value)
			}
		}
		for i, h := range keyword {
			k := norm(h.Value)
			if wd > 0 {
				k = (k + wd*saturate((docSum[h.Doc]-k)/chanceChunks(h.DocShare, len(keyword)))) / (1 + wd)
			}
			score[h.ID] += wk / total * k
			note(h.ID, i)
		}
	}
	return sortFused(score, best)
}

// chanceChunks is how many of a keyword leg's n candidates a document
// holding share of the tenant's chunks would hold by chance, at least 1:
// its other chunks' evidence is divided by it. A page that is a large part
// of a small tenant (a Sphinx site's api.html, 157 of 498 chunks: a third
// of the candidates for any question) matches every question in many
// chunks, and summed, that evidence put it first for 12 of 30 questions a
// fresh-user trial asked of the Flask documentation, fused nDCG@10 0.813
// against the keyword leg's 0.849. Pages of ordinary size (less than 1/n
// of the tenant) are unaffected.
func chanceChunks(share float64, n int) float64 {
	return max(1, share*float64(n))
}

// saturate is min(s, √s) for s ≥ 0: the evidence of a page's other
// chunks, never more than their sum and growing as its square root above 1.
func saturate(s float64) float64 {
	if s <= 1 {
		return max(s, 0)
	}
	return math.Sqrt(s)
}

func sortFused(score map[uuid.UUID]float64, best map[uuid.UUID]int) []Fused {
	out := make([]Fused, 0, len(score))
	for id, s := range score {
		out = append(out, Fused{ID: id, Score: s})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		if best[out[i].ID] != best[out[j].ID] {
			return best[out[i].ID] < best[out[j].ID]
		}
		return strings.Compare(out[i].ID.String(), out[j].ID.String()) < 0
	})
	return out
}

// Diversify reorders ranked results so that one document's chunks beyond
// the first perDoc yield to other documents' chunks that score about as
// well: the n-th chunk of a document (n > perDoc) is placed by its score
// times diversifyDecay^(n − perDoc), and the order is otherwise kept.
// Nothing is dropped, and the first occurrence of every document keeps its
// relative order, so document-level rankings (evaluation) are unchanged;
// what changes is that a top-k handed to the answerer is not filled by one
// long page while other pages match about as well. A decay, not a bar:
// held back until every other document's chunk above a tenth of its score
// had passed, a page's third chunk that scored third of 50 (the section on
// SSL, for "How do I serve my app over HTTPS?") was placed 39th, behind
// chunks at a ninth of its score, and no answer saw it. Chunks over the
// cap that score ≤ 0 (no scale to compare) go to the end. perDoc < 1
// returns results unchanged.
func Diversify(results []Result, perDoc int) []Result {
	if perDoc < 1 || len(results) <= perDoc {
		return results
	}
	seen := make(map[uuid.UUID]int, len(results))
	type placed struct {
		r    Result
		key  float64
		tail bool
	}
	all := make([]placed, len(results))
	for i, r := range results {
		seen[r.DocumentID]++
		over := seen[r.DocumentID] - perDoc
		p := placed{r: r, key: r.Score}
		if over > 0 {
			p.key = r.Score * math.Pow(diversifyDecay, float64(over))
			p.tail = r.Score <= 0
		}
		all[i] = p
	}
	// Stable, and ties keep the input order: a chunk never passes one
	// ranked above it that it does not outscore.
	slices.SortStableFunc(all, func(a, b placed) int {
		if a.tail != b.tail {
			if a.tail {
				return 1
			}
			return -1
		}
		if a.tail {
			return 0
		}
		return cmp.Compare(b.key, a.key)
	})
	out := make([]Result, len(all))
	for i, p := range all {
		out[i] = p.r
	}
	return out
}

// diversifyDecay is the factor on a document's chunk's score for each of
// its document's chunks over the cap ranked before it (Diversify): the
// third chunk of a page counts half, the fourth a quarter.
const diversifyDecay = 0.75

// eachOf calls fn(i) for i in [0, n), on up to GOMAXPROCS goroutines when n
// is large enough to repay them: fusion reads every candidate chunk's text
// (its language, its shingles), about 2 ms for a hundred candidates on one
// core, and a search at low load leaves the other cores idle. fn must only
// write what belongs to i.
func eachOf(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n/eachOfMin)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	// A panic in fn is raised again in the caller's goroutine, where the
	// server's recovery turns a request's panic into its 500; in a
	// goroutine of its own it would end the process.
	var once sync.Once
	var panicked any
	for range workers {
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil {
					once.Do(func() { panicked = v })
				}
			}()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				fn(i)
			}
		})
	}
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
}

// eachOfMin is the fewest items per goroutine eachOf starts.
const eachOfMin = 16
