package search

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Answerability: the probability that the tenant's documents answer the
// query, estimated from lexical evidence alone, so that it works on a new
// tenant from its first document and whatever the embedding model (query
// performance prediction; cf. Cronen-Townsend et al. 2002, Shtok et al.
// 2012). Three signals, each measured on its own before it was kept
// (docs/EVAL.md, "Answerability"):
//
//   - keyword coverage: the best BM25 score over the query's maximum
//     attainable score, Σ idf·(k1+1) (a query term absent from the tenant
//     counts as maximally rare, so it lowers the coverage);
//   - term coverage: the idf-weighted share of the query's terms that the
//     best of the keyword leg's first coverageDepth chunks contains;
//   - question length: log(1 + the number of distinct query terms). A
//     short question whose terms are half covered asks about the uncovered
//     half ("What is the best pizza topping?"); a long one usually has
//     words no passage repeats;
//   - missing names: a name or identifier of the query (a word with a digit,
//     an underscore, inner capitals, all capitals, or capitalised inside the
//     sentence: MongoDB, io_method, 42P01, Kubernetes) that no document of
//     the tenant contains. On the manual's set, 11 of 15 unanswerable
//     questions and none of the 93 answerable ones have one.
//
// They are combined by a logistic regression fitted on public data only
// (docs/EVAL.md, "Answerability"):
// SciFact and Python-documentation questions against their own corpora
// (answerable) and against the other corpora (unanswerable); never on a
// tenant's questions: 809 SciFact training claims and 200 Python questions
// against their own corpora, the same questions against the other corpora
// and the PostgreSQL manual (class-balanced, L2 1e-2). The default
// threshold, tenant.DefaultRefuseBelow, refuses 5% of those answerable
// questions. Tenants refine the threshold with `ragd eval tune`.
const (
	answerBias        = -3.9204
	answerKeywordCov  = 2.3042
	answerTermCov     = 2.9868
	answerMissingName = -0.6648
	answerLogTerms    = 0.9395
	// coverageDepth is how many of the keyword leg's first chunks the term
	// coverage looks at.
	coverageDepth = 5
)

// answerProbability is the fitted model; terms is the number of distinct
// query terms.
func answerProbability(keywordCoverage, termCoverage float64, missingName bool, terms int) float64 {
	z := answerBias + answerKeywordCov*keywordCoverage + answerTermCov*termCoverage + answerLogTerms*math.Log1p(float64(terms))
	if missingName {
		z += answerMissingName
	}
	return 1 / (1 + math.Exp(-z))
}

// assess sets the answerability fields of resp from the legs' evidence.
func (s *Searcher) assess(p plan, legs legResults, resp *Response) {
	if len(legs.vec) > 0 {
		resp.VectorSimilarity = 1 - legs.vec[0].value
	}
	if len(legs.kw) > 0 && legs.idfSum > 0 {
		resp.KeywordCoverage = math.Min(1, legs.kw[0].value/(legs.idfSum*(p.set.K1+1)))
	}
	for _, h := range legs.kw[:min(coverageDepth, len(legs.kw))] {
		resp.TermCoverage = math.Max(resp.TermCoverage, termShare(h.matched, legs.idf, legs.idfSum))
	}
	resp.MissingTerms = legs.missing
	switch {
	case legs.ranKeyword:
		resp.Confidence = answerProbability(resp.KeywordCoverage, resp.TermCoverage, len(legs.missing) > 0, len(legs.idf))
	case p.useKeyword:
		// The query has no searchable words (stop words only).
		resp.Confidence = 0
		resp.ConfidenceReason = "the question has no searchable words"
		return
	default:
		// The keyword leg was not asked for (a vector-only ablation): the
		// vector similarity is all there is.
		resp.Confidence = resp.VectorSimilarity
	}
	if resp.Confidence >= *p.set.RefuseBelow {
		return
	}
	switch {
	case len(legs.missing) > 0:
		resp.ConfidenceReason = "no document mentions " + quoteList(legs.missing, 3)
	case legs.ranKeyword:
		resp.ConfidenceReason = fmt.Sprintf("the best passages cover %.0f%% of the question's terms", 100*resp.TermCoverage)
	}
}

// termShare is the idf-weighted share of the query's lexemes in matched.
func termShare(matched []string, idf map[string]float64, idfSum float64) float64 {
	if idfSum <= 0 {
		return 0
	}
	var got float64
	seen := map[string]bool{}
	for _, l := range matched {
		if !seen[l] {
			seen[l] = true
			got += idf[l]
		}
	}
	return math.Min(1, got/idfSum)
}

func quoteList(words []string, n int) string {
	q := make([]string, 0, n)
	for _, w := range words[:min(n, len(words))] {
		q = append(q, "“"+w+"”")
	}
	s := strings.Join(q, ", ")
	if len(words) > n {
		s += fmt.Sprintf(" and %d more", len(words)-n)
	}
	return s
}

// probe is a query word checked against the tenant's vocabulary: word as
// the query writes it, text what is looked up (an identifier with
// underscores is looked up joined, as CompoundTerms indexes it).
type probe struct{ word, text string }

// maxProbes bounds the words one query checks.
const maxProbes = 32

// probeWords returns the query's names and identifiers (see NameLike), each
// once, in order.
func probeWords(query string) []probe {
	var out []probe
	seen := map[string]bool{}
	first := true
	for _, w := range queryWords(query) {
		isFirst := first
		first = false
		if !NameLike(w, isFirst) || seen[w] || len(out) == maxProbes {
			continue
		}
		seen[w] = true
		text := w
		if strings.Contains(w, "_") {
			text = strings.ToLower(strings.ReplaceAll(w, "_", ""))
		}
		out = append(out, probe{word: w, text: text})
	}
	return out
}

// queryWords splits text into words: letters and digits, joined by inner
// underscores, hyphens and dots (pg_stat_activity, utf-8, os.path).
func queryWords(text string) []string {
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }
	var words []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return !isWord(r) && r != '-' && r != '.' }) {
		f = strings.TrimFunc(f, func(r rune) bool { return !isWord(r) || r == '_' })
		if f != "" && len(f) <= 100 {
			words = append(words, f)
		}
	}
	return words
}

// NameLike reports whether word looks like a name or an identifier rather
// than an ordinary word: it has a digit and a letter (42P01, ipv6), an
// underscore (io_method), a capital after a lower-case letter (MongoDB,
// CloudNativePG), two or more letters all capitals (AOF, RDS), or a
// leading capital when it is not the first word of the sentence (Redis,
// Kubernetes). A single character is not; scripts without case (CJK) are
// never name-like by case.
func NameLike(word string, first bool) bool {
	var letters, upper, digits int
	innerCap := false
	prevLower := false
	for _, r := range word {
		switch {
		case unicode.IsDigit(r):
			digits++
		case unicode.IsLetter(r):
			letters++
			if unicode.IsUpper(r) {
				upper++
				if prevLower {
					innerCap = true
				}
			}
			prevLower = unicode.IsLower(r)
			continue
		}
		prevLower = false
	}
	switch {
	case letters == 0 || letters+digits < 2:
		return false
	case digits > 0, strings.Contains(word, "_"), innerCap:
		return true
	case upper >= 2 && upper == letters:
		return true
	}
	r, _ := utf8.DecodeRuneInString(word)
	return !first && unicode.IsUpper(r)
}
