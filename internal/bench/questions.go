package bench

import (
	"math/rand/v2"
	"sort"
	"strings"
)

// Real questions are 10–40 words long, not the few words of the synthetic
// workload. The real-question workload keeps their lengths and their share
// of stop words, and draws the content words from the corpus's own
// vocabulary, so the keyword leg meets as many terms, and posting lists as
// long, as a person's question would give it.

// lengthHistogram is how many questions of a source have each length in
// words (whitespace-separated).
type lengthHistogram struct {
	name   string
	words  []int
	counts []int
}

// questionSources are the word counts of real questions, counted once with
// strings.Fields (TestQuestionLengthsMatchSources recounts the manual's
// sets, which are in the repository):
//   - SciFact's 809 training claims (BEIR scifact queries-train.jsonl,
//     "text"): median 12 words, p95 20, max 39;
//   - the PostgreSQL manual's 183 evaluation questions
//     (tenants/pgdocs/eval.jsonl and unseen.jsonl, "question"): median 12,
//     p95 18, max 21.
var questionSources = []lengthHistogram{
	{"scifact-train",
		[]int{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 28, 29, 39},
		[]int{3, 6, 15, 36, 52, 67, 61, 84, 70, 72, 57, 55, 41, 30, 41, 33, 29, 21, 9, 6, 5, 7, 3, 4, 1, 1}},
	{"pgdocs",
		[]int{6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21},
		[]int{7, 6, 5, 11, 23, 25, 16, 23, 19, 24, 8, 5, 7, 2, 1, 1}},
}

// questionContentShare is the share of a real question's words that are
// content words (not stop words): to_tsvector('english') keeps 8,893 lexeme
// positions of the 12,088 words of the questions above (74 %; a hyphenated
// word counts as several), so about 7 words in 10.
const questionContentShare = 0.7

// QuestionLength draws a question length in words: a source with equal
// probability (the manual's 183 questions are not outweighed by SciFact's
// 809 claims), then a length at that source's frequency.
func QuestionLength(r *rand.Rand) int {
	h := questionSources[r.IntN(len(questionSources))]
	total := 0
	for _, c := range h.counts {
		total += c
	}
	n := r.IntN(total)
	for i, c := range h.counts {
		if n < c {
			return h.words[i]
		}
		n -= c
	}
	return h.words[len(h.words)-1]
}

// questionStarts open a question; their words count towards its length.
var questionStarts = [][]string{
	{"how", "do", "i"}, {"what", "is", "the"}, {"why", "does", "the"}, {"when", "should", "i"},
	{"which"}, {"can", "i"}, {"is", "it", "true", "that"}, {"does"},
}

// Question returns a natural-language question of length words (at least
// two): a question opening, then words that are content words with
// probability questionContentShare, drawn by content, and stop words
// otherwise, ending in "?".
func Question(r *rand.Rand, length int, content func(*rand.Rand) string) string {
	length = max(length, 2)
	start := questionStarts[r.IntN(len(questionStarts))]
	if len(start) >= length {
		start = start[:1]
	}
	words := append(make([]string, 0, length), start...)
	for len(words) < length {
		if r.Float64() < questionContentShare {
			words = append(words, content(r))
		} else {
			words = append(words, stopWords[r.IntN(len(stopWords))])
		}
	}
	return strings.Join(words, " ") + "?"
}

// realQuestion returns a question for cluster k of the corpus: a length
// from QuestionLength; each content word from the cluster's topic with
// probability topicShare·2 (the question is about the tenant's subject),
// otherwise a content word of the vocabulary at its corpus frequency.
func (g *gen) realQuestion(r *rand.Rand, k int) string {
	return Question(r, QuestionLength(r), func(r *rand.Rand) string {
		if r.Float64() < 2*topicShare {
			return g.v.topic(k, r.IntN(topicWords))
		}
		return g.v.drawContent(r)
	})
}

// drawContent returns a word at its Zipf frequency among the words after
// the stop words (the content words).
func (v *vocabulary) drawContent(r *rand.Rand) string {
	lo := v.cdf[len(stopWords)-1]
	x := lo + r.Float64()*(1-lo)
	i := sort.SearchFloat64s(v.cdf, x)
	return v.words[min(max(i, len(stopWords)), len(v.words)-1)]
}

// orQuery joins text's words with " or ": websearch_to_tsquery then ORs
// the question's terms, as ragd's keyword leg does; without it the
// reference query would AND every word of a 12-word question and match
// almost nothing.
func orQuery(text string) string {
	var words []string
	for _, w := range strings.Fields(strings.TrimSuffix(text, "?")) {
		if !strings.EqualFold(w, "or") { // the operator itself
			words = append(words, w)
		}
	}
	return strings.Join(words, " or ")
}
