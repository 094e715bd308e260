package ask

import (
	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/search"
)

// The relevance floor. A source is weak, and is dropped rather than padding
// the answer's sources to top_k, when every leg's evidence for it is clearly
// below the best result's: it covers less than FloorCoverage of the best
// question-term coverage among the results, its BM25 score is under
// FloorKeyword of the best score (or the keyword leg did not find it), and
// the vector leg did not rank it within FloorVectorRank. The evidence is
// what each result carries from the legs and its own text, never the fused
// score, so the floor holds whatever fusion function ranks the results.
// The thresholds were measured on tenants/pgdocs/answers.jsonl (docs/EVAL.md).
var (
	// FloorCoverage is the share of the best term coverage a source needs
	// (see answer.TermCoverage, over its title, heading path and content).
	FloorCoverage = 0.75
	// FloorKeyword is the share of the best BM25 score a source needs.
	FloorKeyword = 0.8
	// FloorVectorRank is the vector-leg rank (1-based) within which a source
	// is kept on that evidence alone.
	FloorVectorRank = 3
)

// DropWeak returns the results that clear the relevance floor (see
// FloorCoverage), in their order. The first result is always kept: it is
// retrieval's best guess, and refusing is decided on confidence, not here.
func DropWeak(question string, rs []search.Result) []search.Result {
	if len(rs) <= 1 {
		return rs
	}
	cov := make([]float64, len(rs))
	bestCov, bestKW := 0.0, 0.0
	for i, r := range rs {
		cov[i] = answer.TermCoverage(question, r.Title+"\n"+r.HeadingPath+"\n"+r.Content)
		bestCov = max(bestCov, cov[i])
		if r.KeywordScore != nil {
			bestKW = max(bestKW, *r.KeywordScore)
		}
	}
	out := rs[:1:1]
	for i, r := range rs[1:] {
		strong := cov[i+1] >= FloorCoverage*bestCov ||
			r.KeywordScore != nil && *r.KeywordScore >= FloorKeyword*bestKW ||
			r.VectorRank != nil && *r.VectorRank <= FloorVectorRank
		if strong {
			out = append(out, r)
		}
	}
	return out
}
