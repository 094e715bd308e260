package search

import (
	"cmp"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/analyze"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// Answerability: the probability that the tenant's documents answer the
// query, estimated from lexical evidence alone, so that it works on a new
// tenant from its first document and whatever the embedding model (query
// performance prediction; cf. Cronen-Townsend et al. 2002, Shtok et al.
// 2012). Every signal is computed (Signals) and measured on its own; the
// model (AnswerModel) reads the ones that held up on held-out corpora
// (docs/EVAL.md, "Answerability").
//
// The default model, DefaultAnswerModel, is a logistic regression fitted on
// public data only, never on a tenant's questions: SciFact and
// Python-documentation questions against their own corpora (answerable) and
// against the other corpus (unanswerable), with generic unanswerable
// questions written for those corpora
// (internal/eval/testdata/answerability/unanswerable.jsonl). The
// fit is reproducible: `ragd eval signals` records each question's signals
// (internal/eval/testdata/answerability), `ragd eval fit-answerability`
// fits them and prints the model, and eval's TestDefaultAnswerModelIsTheFit
// fails when the constants here are not the fit of the recorded signals.

// Signals is one search's answerability evidence. Shares are idf-weighted
// over the query's distinct lexemes, a lexeme no chunk has counting as
// maximally rare (df 0).
type Signals struct {
	// Terms is the number of distinct query lexemes, the character bigrams
	// of scripts written without spaces counting two for one (questionWords).
	Terms int `json:"terms"`
	// KeywordCoverage is the best BM25 score over the query's maximum
	// attainable score, Σ idf·(k1+1).
	KeywordCoverage float64 `json:"keyword_coverage"`
	// TermCoverage is the share of the query's terms the best of the
	// keyword leg's first coverageDepth chunks contains.
	TermCoverage float64 `json:"term_coverage"`
	// DocumentCoverage is the share of the query's terms that the keyword
	// leg's chunks of one document contain together, the best document's
	// (terms that co-occur on one page).
	DocumentCoverage float64 `json:"document_coverage"`
	// AbsentShare is the share of the query's terms no chunk contains.
	AbsentShare float64 `json:"absent_share"`
	// Names is the number of the query's names and identifiers (NameLike);
	// MissingNames how many of them no chunk contains.
	Names        int `json:"names"`
	MissingNames int `json:"missing_names"`
	// MissingIdentifiers is how many of the missing names are code
	// identifiers (Identifier): a question that names an identifier no
	// document contains is almost never answered by the corpus (on the
	// public data, 2 of 1,009 answerable questions against 48 of 198
	// unanswerable ones), while other missing names often are (a gene or
	// product spelled otherwise than in the documents).
	MissingIdentifiers int `json:"missing_identifiers"`
	// MissingProper is how many of the missing names are written as a
	// proper name is (properName: Kafka, Kubernetes): on a documentation
	// tenant, a product or place the documents never name. In the fit
	// data, 8 of the 1,009 public answerable questions have one (a gene's
	// name in a claim, a library a Stack Overflow question mentions), and
	// none of the 210 documentation ones; 26 of the 198 written
	// unanswerable ones (Terraform, Uvicorn, Snowflake) and 18 of the 84
	// documentation ones.
	MissingProper int `json:"missing_proper"`
	// TopMean is the mean of the first wigDepth BM25 scores over the
	// maximum attainable score (WIG-like; absent ranks count 0).
	TopMean float64 `json:"top_mean"`
	// ScoreSD is the standard deviation of the first nqcDepth BM25 scores
	// over the maximum attainable score (NQC-like).
	ScoreSD float64 `json:"score_sd"`
	// Opinion is true when the question asks for a judgement (best, better,
	// recommend, should I, …).
	Opinion bool `json:"opinion"`
	// Capped is true when the question names a release, or a member of a
	// family of identifiers, that no readable document writes, or a proper
	// name as its rarest word that none of the best passages writes
	// (strayName): whatever the model says, the confidence is at most
	// releaseCap (Confidence).
	// It is no feature of the model, which was fitted without it.
	Capped bool `json:"capped"`
	// Vector is true when the vector leg ran; VectorSimilarity is 1 − the
	// best cosine distance, VectorZ the best similarity's distance from the
	// leg's candidates' mean in their standard deviations.
	Vector           bool    `json:"vector"`
	VectorSimilarity float64 `json:"vector_similarity"`
	VectorZ          float64 `json:"vector_z"`
}

// Depths of the score statistics.
const (
	// coverageDepth is how many of the keyword leg's first chunks the term
	// coverage looks at.
	coverageDepth = 5
	wigDepth      = 5
	nqcDepth      = 20
)

// AnswerFeatures names the model's inputs, in the order of Features.
var AnswerFeatures = []string{"keyword_coverage", "term_coverage", "document_coverage", "absent_share",
	"missing_name", "log_terms", "top_mean", "score_sd", "opinion", "missing_identifier", "missing_proper_name"}

// Features returns the model's inputs, named by AnswerFeatures.
func (s Signals) Features() []float64 {
	return []float64{s.KeywordCoverage, s.TermCoverage, s.DocumentCoverage, s.AbsentShare,
		b2f(s.MissingNames > 0), math.Log1p(float64(s.Terms)), s.TopMean, s.ScoreSD, b2f(s.Opinion),
		b2f(s.MissingIdentifiers > 0), b2f(s.MissingProper > 0)}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// AnswerModel is a logistic regression over Signals.Features: the
// probability that the tenant's documents answer the query is
// 1 / (1 + exp(−(Bias + Σ Weights[i]·Features[i]))).
type AnswerModel struct {
	Bias    float64   `json:"bias"`
	Weights []float64 `json:"weights"`
}

// Valid reports whether m has one finite weight per feature.
func (m AnswerModel) Valid() bool {
	if len(m.Weights) != len(AnswerFeatures) || math.IsNaN(m.Bias) || math.IsInf(m.Bias, 0) {
		return false
	}
	for _, w := range m.Weights {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return false
		}
	}
	return true
}

// Probability is the model's estimate for s.
func (m AnswerModel) Probability(s Signals) float64 {
	z := m.Bias
	for i, x := range s.Features() {
		z += m.Weights[i] * x
	}
	return 1 / (1 + math.Exp(-z))
}

// Confidence is the confidence a search reports for s: the model's
// probability, at most releaseCap when s is Capped. Calibration and its
// held-out reports read this, not Probability, so that they measure what
// a search refuses.
func (m AnswerModel) Confidence(s Signals) float64 {
	p := m.Probability(s)
	if s.Capped {
		p = min(p, releaseCap)
	}
	return p
}

// TenantAnswerModel is the answerability model of a tenant with settings
// set: its calibrated one when it has a valid one, else DefaultAnswerModel.
// A model calibrated before the missing-identifier and missing-proper-name
// features existed (one or two weights fewer) reads them with weight 0,
// which gives exactly the probabilities it was calibrated to give.
func TenantAnswerModel(set tenant.Settings) AnswerModel {
	coef := set.AnswerModel
	if n := len(coef); n > 0 && n < len(AnswerFeatures)+1 && n >= len(AnswerFeatures)-1 {
		coef = append(slices.Clone(coef), make([]float64, len(AnswerFeatures)+1-n)...)
	}
	if len(coef) == len(AnswerFeatures)+1 {
		m := AnswerModel{Bias: coef[0], Weights: coef[1:]}
		if m.Valid() {
			return m
		}
	}
	return DefaultAnswerModel
}

// Coefficients returns m as tenant.Settings.AnswerModel stores it: the
// bias, then the weights.
func (m AnswerModel) Coefficients() []float64 { return append([]float64{m.Bias}, m.Weights...) }

// opinionWords mark a question that asks for a judgement rather than a fact.
var opinionWords = map[string]bool{"best": true, "better": true, "worse": true, "worst": true, "recommend": true,
	"prefer": true, "favorite": true, "favourite": true, "opinion": true, "vs": true, "versus": true, "worth": true}

// comparisonWords set two things side by side, which a question may do to
// ask either which is better or how they differ; differenceWords ask the
// latter.
var (
	comparisonWords = map[string]bool{"vs": true, "versus": true}
	differenceWords = map[string]bool{"difference": true, "differences": true, "differ": true, "differs": true,
		"different": true, "distinguish": true, "distinguishes": true}
)

// wordingLexemes are the lexemes (as the english configuration stems them,
// and as written, for the simple one) of the words that phrase a request
// rather than name its subject: modal verbs PostgreSQL's stop list leaves
// in, politeness, and the verbs of asking ("I would like to know …",
// "Please tell me …", "What must I return?", "Which version does the app
// need?"). No document need write them; on a small tenant one that none
// does took the question's highest idf and refused it, naming the word as
// the reason ("no document mentions “know”, “would”, “like”").
var wordingLexemes = map[string][]string{
	"please": {"pleas", "please"}, "would": {"would"}, "could": {"could"}, "must": {"must"}, "might": {"might"},
	"shall": {"shall"}, "may": {"may"}, "tell": {"tell"}, "know": {"know"}, "like": {"like"},
	"want": {"want"}, "wants": {"want", "wants"}, "wanted": {"want", "wanted"}, "wish": {"wish"},
	"wonder": {"wonder"}, "wondering": {"wonder", "wondering"}, "need": {"need"}, "needs": {"need", "needs"},
	"needed": {"need", "needed"}, "use": {"use"}, "uses": {"use", "uses"}, "using": {"use", "using"},
	"used": {"use", "used"}, "thanks": {"thank", "thanks"}, "thank": {"thank"}, "hi": {"hi"}, "hello": {"hello"},
	// Asking what a thing means or what happens ("What does frobnication
	// mean?", "What is meant by …", "Define …", "What happens if …"):
	// a glossary need not write the verb.
	"mean": {"mean"}, "means": {"mean", "means"}, "meant": {"meant"}, "define": {"defin", "define"},
	"happen": {"happen"}, "happens": {"happen", "happens"}, "happened": {"happen", "happened"},
	// Asking where something is or comes from ("Where do its choices come
	// from?", "Where can I find …"): django-filter's AllValuesFilter
	// question was refused for "come".
	"come": {"come"}, "comes": {"come", "comes"}, "came": {"came"}, "find": {"find"},
	// Asking how things differ ("What is the difference between
	// download() and run_download()?"): documents state each, seldom the
	// word; and the verb around an identifier ("After calling download()
	// …"). Parfive's 11 chunks refused both for those words (a held-out
	// trial).
	"difference": {"differ", "difference"}, "differences": {"differ", "differences"}, "differ": {"differ"},
	"differs": {"differ", "differs"}, "calling": {"call", "calling"}, "called": {"call", "called"},
}

// requestWording returns the lexemes of query's words that phrase the
// request (wordingLexemes): written in lower case, or capitalised as the
// first word of a sentence. A word in capitals or in code ("How does LIKE
// work?", "`use`"), or after a determiner ("the use statement", "a like
// operator", "its use"), is the subject, not the phrasing.
func requestWording(query string) map[string]bool {
	var out map[string]bool
	prev := ""
	for _, loc := range wordingRE.FindAllStringIndex(query, -1) {
		w := query[loc[0]:loc[1]]
		before := prev
		prev = strings.ToLower(w)
		if head, tail, ok := strings.Cut(strings.ReplaceAll(strings.ToLower(w), "’", "'"), "'"); ok && contractionTails[tail] {
			// "I've", "we'd", "isn't": the parser makes the tail ("ve",
			// "d") and a negation's head ("isn") lexemes of their own,
			// which no document need write.
			if out == nil {
				out = map[string]bool{}
			}
			out[tail] = true
			if tail == "t" {
				out[head] = true
			}
			continue
		}
		lexemes, ok := wordingLexemes[strings.ToLower(w)]
		if !ok || determiners[before] && !askingNouns[strings.ToLower(w)] {
			continue
		}
		if w != strings.ToLower(w) {
			prev := strings.TrimRightFunc(query[:loc[0]], unicode.IsSpace)
			if w != strings.ToUpper(w[:1])+w[1:] || prev != "" && !strings.ContainsAny(prev[len(prev)-1:], ".?!:") {
				continue
			}
		}
		if out == nil {
			out = map[string]bool{}
		}
		for _, l := range lexemes {
			out[l] = true
		}
	}
	return out
}

// contractionTails are the endings of English contractions after the
// apostrophe.
var contractionTails = map[string]bool{"ve": true, "ll": true, "re": true, "d": true, "m": true, "s": true, "t": true}

// askingNouns are the nouns of a question's frame, which a determiner
// makes no subject: "the difference between A and B" asks how they differ.
var askingNouns = map[string]bool{"difference": true, "differences": true}

// determiners make the word after them a noun or its modifier.
var determiners = map[string]bool{"the": true, "a": true, "an": true, "this": true, "these": true,
	"those": true, "its": true, "their": true, "his": true, "her": true, "my": true, "your": true, "our": true,
	"no": true, "any": true, "each": true, "every": true, "of": true}

// wordingRE finds words with what is glued to them (a backtick marks code).
var wordingRE = regexp.MustCompile("[\\p{L}`'’_]+")

// asksOpinion reports whether query asks for a judgement: an opinion word,
// or "should I/we" in a question that weighs a choice rather than asks
// for the way or the thing to use. The sentence holding "should I/we"
// decides, not the context before it: a yes/no question ("We are three
// developers. Should we use microservices?", "For a small team, should we
// …?") or one that ends by offering alternatives ("Which should I pick,
// pytest or nose?"). "What should I use for a per-test scratch folder?",
// "Where should I put fixtures that two or more modules share?" and "What
// should I do when pip install fails on Windows or macOS?" are how-to
// questions the documents answer (a pytest trial's was refused as an
// opinion).
func asksOpinion(query string) bool {
	lower := strings.ToLower(query)
	if asksYou.MatchString(lower) {
		return true
	}
	words := queryWords(lower)
	differs := slices.ContainsFunc(words, func(w string) bool { return differenceWords[w] })
	for _, w := range words {
		// "X versus Y" in a question about how they differ asks for the
		// difference, which documentation states ("What is the difference
		// between combining alternatives with the | operator versus the ^
		// operator?" was refused as an opinion in a held-out trial),
		// unless it also asks which to pick ("Which should I pick,
		// pyparsing vs lark? What are the differences?", a review).
		if opinionWords[w] && !(differs && comparisonWords[w] && !shouldI.MatchString(lower)) {
			return true
		}
	}
	// Sentences end at ".", "?", "!" or ";" before a blank or the end: a
	// dot inside a word ("setup.py", "Node.js", "2.0") ends none.
	for _, sentence := range sentenceEnd.Split(lower, -1) {
		loc := shouldI.FindStringIndex(sentence)
		if loc == nil {
			continue
		}
		// A yes/no question: "should" opens the sentence or the clause
		// after an opening phrase ("For a small team, should we …").
		if strings.TrimSpace(sentence[strings.LastIndex(sentence[:loc[0]], ",")+1:loc[0]]) == "" {
			return true
		}
		// Alternatives offered after a comma or colon: "…, X or Y".
		if k := strings.LastIndexAny(sentence, ",:"); k > loc[0] {
			for _, w := range queryWords(sentence[k+1:]) {
				if w == "or" {
					return true
				}
			}
		}
	}
	return false
}

// asksYou finds a question that asks the one answering for their own
// view ("Do you think the such DSL makes tests more readable …?", "In your
// opinion, …"): documents state facts, not the reader's judgement (a
// held-out trial answered it at 0.54 with a quote from the DSL's page).
var asksYou = regexp.MustCompile(`\b(do|would|did) you (think|say|recommend|suggest|consider|feel|believe|prefer|like)\b|\bin your (opinion|view|experience)\b|\byour (opinion|take|thoughts)\b`)

// sentenceEnd splits a question into its sentences (asksOpinion).
var sentenceEnd = regexp.MustCompile(`[.?!;]+(\s+|$)`)

// shouldI finds "should I" or "should we" in a lower-cased sentence.
var shouldI = regexp.MustCompile(`\bshould\s+(i|we)\b`)

// signals computes the answerability evidence of the legs' results;
// params are the words of a pasted message's text (messageParams), which
// count as no missing names.
func signals(p plan, legs legResults, params map[string]bool) Signals {
	// Release names (releases) are probed too, but they are not signals
	// of the model, which was fitted without them: a missing one caps the
	// confidence instead (releaseCap).
	sg := Signals{Terms: questionWords(legs.idf), Opinion: asksOpinion(p.req.Query)}
	for _, pr := range legs.names.probes {
		if !legs.names.forms[pr.word] && pr.of == "" {
			sg.Names++
		}
	}
	for _, w := range legs.missing {
		switch {
		case legs.names.forms[w], params[w]:
		case ownName(legs, p.req.Query, w):
			// The asker's own column or table ("a boolean column
			// is_read_only", "my order_line_items table", "my APPHOME
			// variable", "my Order#recalculate method"): no document
			// need name it.
		case Identifier(w), slices.Contains(legs.names.options, w), slices.Contains(legs.names.members, w), capitalsName(w, p.req.Query):
			sg.MissingNames++
			sg.MissingIdentifiers++
		case properName(w):
			sg.MissingNames++
			sg.MissingProper++
		default:
			sg.MissingNames++
		}
	}
	if len(legs.vec) > 0 {
		sg.Vector = true
		sg.VectorSimilarity = 1 - legs.vec[0].value
		var sum, sq float64
		for _, h := range legs.vec {
			sum += 1 - h.value
		}
		mean := sum / float64(len(legs.vec))
		for _, h := range legs.vec {
			sq += (1 - h.value - mean) * (1 - h.value - mean)
		}
		if sd := math.Sqrt(sq / float64(len(legs.vec))); sd > 0 {
			sg.VectorZ = (sg.VectorSimilarity - mean) / sd
		}
	}
	if legs.idfSum <= 0 {
		return sg
	}
	// The bigrams of a katakana word no document writes match other words
	// only: they cover nothing of the question.
	gone := map[string]bool{}
	absentIDF := legs.absentIDF
	for l := range foundDotted(legs) {
		// The parser keeps a dotted name whole ("cursor.rowcount"), which
		// no chunk holds where the documents write its parts apart.
		if slices.Contains(legs.absent, l) {
			absentIDF -= legs.idf[l]
		}
	}
	for _, pr := range legs.names.probes {
		if len(pr.bigrams) == 0 || !slices.Contains(legs.missing, pr.word) {
			continue
		}
		for _, b := range pr.bigrams {
			if idf, ok := legs.idf[b]; ok && !gone[b] && !slices.Contains(legs.absent, b) {
				gone[b] = true
				absentIDF += idf
			}
		}
	}
	kept := func(matched []string) []string {
		if len(gone) == 0 {
			return matched
		}
		return slices.DeleteFunc(slices.Clone(matched), func(l string) bool { return gone[l] })
	}
	sg.AbsentShare = math.Min(1, absentIDF/legs.idfSum)
	maxScore := legs.idfSum * (p.set.K1 + 1)
	norm := func(i int) float64 {
		if i >= len(legs.kw) {
			return 0
		}
		return math.Min(1, legs.kw[i].value/maxScore)
	}
	sg.KeywordCoverage = norm(0)
	for i := range wigDepth {
		sg.TopMean += norm(i) / wigDepth
	}
	if n := min(nqcDepth, len(legs.kw)); n > 1 {
		var sum, sq float64
		for i := range n {
			sum += norm(i)
		}
		mean := sum / float64(n)
		for i := range n {
			sq += (norm(i) - mean) * (norm(i) - mean)
		}
		sg.ScoreSD = math.Sqrt(sq / float64(n))
	}
	for _, h := range legs.kw[:min(coverageDepth, len(legs.kw))] {
		sg.TermCoverage = math.Max(sg.TermCoverage, termShare(kept(h.matched), legs.idf, legs.idfSum))
	}
	byDoc := map[uuid.UUID][]string{}
	for _, h := range legs.kw {
		byDoc[h.chunk.DocumentID] = append(byDoc[h.chunk.DocumentID], kept(h.matched)...)
	}
	for _, m := range byDoc {
		sg.DocumentCoverage = math.Max(sg.DocumentCoverage, termShare(m, legs.idf, legs.idfSum))
	}
	return sg
}

// questionWords is how many words the query's lexemes stand for: each
// lexeme one word, except the character bigrams of scripts written without
// spaces (analyze.Bigram), two of which make about one word (a Chinese word
// is one to three characters long, a Thai one longer). Counted one for one,
// a Thai question of twelve words had 25 bigrams, and the model, which
// learnt on English that long questions are answered more often (SciFact's
// claims), answered an off-topic Thai question over any page sharing two
// function words with it.
func questionWords(idf map[string]float64) int {
	n, bigrams := 0, 0
	for l := range idf {
		if analyze.Bigram(l) {
			bigrams++
		} else {
			n++
		}
	}
	return n + (bigrams+1)/2
}

// assess sets the answerability fields of resp from the legs' evidence.
// results are the fused ranking.
func (s *Searcher) assess(p plan, legs legResults, results []Result, resp *Response) {
	params := messageParams(p.req.Query, legs)
	sg := signals(p, legs, params)
	// The release probes' forms are reported as the question writes the
	// release, and only when no form is written anywhere.
	missingRels := missingReleases(legs.names.releases, legs.missing, legs.versioned, legs.bare, legs.written)
	stray := strayName(legs, results, params)
	sg.Capped = len(missingRels) > 0 || strayMember(legs.missing, legs.familied) || stray != "" || namedMissing(p.req.Query, legs.missing, params)
	resp.Signals = sg
	resp.VectorSimilarity, resp.KeywordCoverage, resp.TermCoverage = sg.VectorSimilarity, sg.KeywordCoverage, sg.TermCoverage
	var missing []string
	for _, w := range legs.missing {
		// A release's forms are reported as the release (below); the
		// asker's own identifiers are no evidence (signals).
		if !legs.names.forms[w] && !ownName(legs, p.req.Query, w) {
			missing = append(missing, w)
		}
	}
	missing = append(missing, missingRels...)
	resp.MissingTerms = missing
	switch {
	case legs.ranKeyword:
		resp.Confidence = TenantAnswerModel(p.set).Confidence(sg)
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
	// The words named are those no readable chunk has, whatever hidden
	// documents hold.
	dotted := foundDotted(legs)
	absent := absentWords(p.req.Query, slices.DeleteFunc(slices.Clone(legs.unreadable), func(l string) bool { return dotted[l] }))
	switch {
	case len(missing) > 0:
		resp.ConfidenceReason = "no document mentions " + quoteList(missing, 3)
	case stray != "":
		resp.ConfidenceReason = "the best passages do not mention " + quoteList([]string{stray}, 1) + ", which the question names (other pages do, in passing)"
	case sg.Opinion:
		// "no document mentions “opinion”" named a word of the request,
		// not why nothing answers it.
		resp.ConfidenceReason = "the question asks for an opinion or a recommendation, which the documents do not give"
	case legs.ranKeyword && len(legs.kw) == 0 && p.filtered:
		resp.ConfidenceReason = "no document matching the filters contains any of the question's terms"
		if legs.ranVector && legs.vecRead == 0 && !p.partialVectors {
			// The vector leg ranks every chunk the filters let through,
			// whatever its words: none came back, so the filters (with
			// the caller's access) leave no document.
			resp.ConfidenceReason = "no document the caller can read matches the filters"
		}
		switch {
		case p.req.SourceURIPrefix != "" && len(p.req.Metadata) == 0:
			// A prefix written as a path inside the tenant ("docx/") where
			// source_uris are whole URLs matches nothing; say what it is
			// compared with.
			resp.ConfidenceReason += fmt.Sprintf(" (source_uri_prefix %q is compared with the start of each whole source_uri)", p.req.SourceURIPrefix)
		case p.req.SourceURIPrefix != "":
			// Either filter may be the one that leaves nothing: name
			// both rather than blame the prefix.
			resp.ConfidenceReason += fmt.Sprintf(" (a document must match both: source_uri_prefix %q, compared with the start of each whole source_uri, and the metadata filter)", p.req.SourceURIPrefix)
		}
	case legs.ranKeyword && len(legs.kw) == 0:
		resp.ConfidenceReason = "no document contains any of the question's terms"
	case legs.ranKeyword && len(absent) > 0:
		// Common words too, here: the question is refused, and the words no
		// document has are the readable reason (missing_terms lists only
		// names and identifiers, whose absence is evidence on its own).
		resp.ConfidenceReason = "no document mentions " + quoteList(absent, 3)
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

// absentWords returns the question's words whose lexeme no chunk has
// (absent), as the question writes them, in the lexemes' order: the
// reason a person can read when a question about bread is asked of a
// manual ("no document mentions “sourdough”, “bread”"). A lexeme is the
// word's stem (cooki for cookies, bake for baking), so it is matched to the
// question word it shares the longest prefix with, if that prefix is all of
// the stem or all but its last letter and at least three letters long; the
// character bigrams of a script written without spaces are shown as the
// stretches of the question they cover (bigramSpans).
// A lexeme no word matches (a joined identifier: the missing names report
// those) is left out.
func absentWords(query string, absent []string) []string {
	if len(absent) == 0 {
		return nil
	}
	words := queryWords(query)
	var out []string
	seen := map[string]bool{}
	var bigrams []string
	for _, l := range absent {
		if analyze.Bigram(l) {
			bigrams = append(bigrams, l)
			continue
		}
		best, bestLen := "", 0
		for _, w := range words {
			if n := stemPrefix(w, l); n > bestLen {
				best, bestLen = w, n
			}
		}
		if best != "" && !seen[strings.ToLower(best)] {
			seen[strings.ToLower(best)] = true
			out = append(out, best)
		}
	}
	return append(out, bigramSpans(query, bigrams)...)
}

// bigramSpans returns the stretches of query that the character bigrams
// cover, in order, overlapping and adjacent bigrams joined: the absent
// bigrams 肉じ, じゃ, ゃが of "肉じゃがの作り方" are shown as “肉じゃが”,
// not as three fragments.
func bigramSpans(query string, bigrams []string) []string {
	kana := analyze.HasKana(query)
	if len(bigrams) == 0 {
		return nil
	}
	rs := []rune(query)
	covered := make([]bool, len(rs))
	for _, b := range bigrams {
		br := []rune(b)
		for i := 0; i+len(br) <= len(rs); i++ {
			if string(rs[i:i+len(br)]) == b {
				for k := range br {
					covered[i+k] = true
				}
			}
		}
	}
	var out []string
	for i := 0; i < len(rs); {
		if !covered[i] {
			i++
			continue
		}
		j := i
		for j < len(rs) && covered[j] {
			j++
		}
		if kana {
			// Japanese writes a word in one script between kana of another:
			// the absent ピボ of "ピボットテーブルを作る" is named as the
			// katakana word it is part of, 新機 of "の新機能は" as the kanji
			// compound. (Chinese has no such boundary: its spans stay.)
			for cl := runClass(rs[i]); i > 0 && cl != 0 && runClass(rs[i-1]) == cl; {
				i--
			}
			for cl := runClass(rs[j-1]); j < len(rs) && cl != 0 && runClass(rs[j]) == cl; {
				j++
			}
		}
		if w := string(rs[i:j]); !slices.Contains(out, w) {
			out = append(out, w)
		}
		i = j
	}
	return out
}

// runClass is the script class a Japanese word stays within: 1 katakana
// (with the prolonged sound mark and the middle dot), 2 Han (with the
// iteration mark 々), 0 anything else.
func runClass(r rune) int {
	switch {
	case r == 'ー' || r == '・' || unicode.Is(unicode.Katakana, r):
		return 1
	case r == '々' || unicode.Is(unicode.Han, r):
		return 2
	}
	return 0
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
// underscores is looked up joined, as analyze.CompoundTerms indexes it).
// literal is set for identifiers with underscores: their joined form can
// stand for another identifier (pg_stat_io and pg_statio_ both join to
// pgstatio), so a chunk must also contain the word itself.
type probe struct {
	word, text string
	literal    bool
	// of, when set, is the dotted name whose last part or first part
	// this probe is (qualifiedTail), the language whose code it is
	// (languageCodes), or the name the number after it is written joined
	// to (joinedNumber: "rfc5322" of "RFC 5322"): no name of the question's
	// own, neither counted nor reported; found, it makes that name found.
	of string
	// joined marks the probe of a name's joined form (joinedNumber).
	joined bool
	// bigrams are a katakana word's character bigrams (katakanaWords),
	// which count as absent when the word is missing.
	bigrams []string
}

// maxProbes bounds the words one query checks.
const maxProbes = 32

// questionNames are what a question names, found once per search: its
// probes (names, identifiers, options and the forms of its releases, each
// once, in order), and its releases and long options themselves.
type questionNames struct {
	probes   []probe
	releases []release
	options  []string
	// members are the names written after a qualifier (qualifiedMembers).
	members []string
	// forms are the release forms among the probes' words.
	forms map[string]bool
	// families are the families of the probed identifiers of three or
	// more parts (identifierFamilies).
	families []store.IdentifierFamily
}

// probeWords returns the query's probes (namesOf).
func probeWords(query string) []probe { return namesOf(query).probes }

// namesOf finds the names, identifiers, options and releases query writes.
func namesOf(query string) questionNames {
	n := questionNames{releases: releases(query), options: commandOptions(query), members: qualifiedMembers(query), forms: map[string]bool{}}
	var out []probe
	seen := map[string]bool{}
	// The first word opens the sentence (its capital says nothing) only
	// when nothing but punctuation and blanks precedes it: after Chinese or
	// Japanese text (ピボットテーブルをExcelで…) it is a name like any other.
	opening := strings.TrimLeftFunc(query, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	first := true
	starts := sentenceStarts(query)
	// A pasted message's exception ("SSLError: hostname …") is a name
	// however it opens the question: probed, so that a page writing it
	// makes the message's own words no missing names (messageParams).
	head, _ := messageHead(query)
	phrases := statusPhrases(query)
	// German capitalises every noun: in a German question a capital says
	// no more than at a sentence's start ("An welche Adresse melde ich
	// eine Sicherheitslücke …?" named "Adresse" and "Sicherheitslücke" as
	// missing proper names, and the answerable question was refused).
	nouns := germanQuestion(query)
	for _, w := range queryWords(query) {
		isFirst := (nouns || first && strings.HasPrefix(opening, w) || starts[w] || phrases[w]) && w != head
		first = false
		if !NameLike(w, isFirst) || seen[w] || len(out) == maxProbes || hostName(query, w) || quantity(query, w) {
			continue
		}
		seen[w] = true
		pr := probe{word: w, text: w}
		if forms := analyze.SignedForms(w); forms != nil {
			// The number written with either sign, or none, is the one
			// the question names (natsort's "such as 5, 0.4, -4.78,
			// +4.2E-34" was in no document, and the question refused).
			pr.text = strings.Join(forms, " ")
		}
		if strings.Contains(w, "_") {
			pr.text, pr.literal = analyze.CompoundTerms(w), true
			if len(n.families) < 2*maxFamilyWords && !askersOwn(query, w) {
				n.families = append(n.families, identifierFamilies(w)...)
			}
		}
		out = append(out, pr)
		if j := joinedNumber(query, w); j != "" && !seen[j] && len(out) < maxProbes {
			seen[j] = true
			out = append(out, probe{word: j, text: j, literal: true, of: w, joined: true})
		}
		if j := strings.ReplaceAll(w, "-", ""); hyphenated.MatchString(w) && !seen[j] && len(out) < maxProbes {
			// Documents may write a name joined by hyphens without them
			// ("WiFi" for "Wi-Fi"), which the keyword index holds as
			// another word.
			seen[j] = true
			out = append(out, probe{word: j, text: j, of: w, joined: true})
		}
		if code := languageCodes[strings.ToLower(w)]; code != "" && !seen[code] && len(out) < maxProbes {
			seen[code] = true
			out = append(out, probe{word: code, text: code, literal: true, of: w})
		}
		if tail := cmp.Or(qualifiedTail(w), attributeOf(query, w)); tail != "" {
			root := w[:strings.IndexByte(w, '.')]
			for _, part := range []string{tail, root} {
				if !seen[part] && len(out) < maxProbes {
					seen[part] = true
					out = append(out, probe{word: part, text: part, literal: true, of: w})
				}
			}
		}
	}
	for _, o := range append(slices.Clip(n.options), n.members...) {
		if !seen[o] && len(out) < maxProbes {
			seen[o] = true
			out = append(out, probe{word: o, text: o, literal: true})
		}
	}
	for _, r := range n.releases {
		// Each form is looked up by its number's lexeme ("18", "v2.4"),
		// rarer than the name's, then word for word among the chunks that
		// have it (missingTerms' literal probe).
		forms, lexemes := r.forms()
		for i, f := range forms {
			n.forms[f] = true
			if !seen[f] && len(out) < maxProbes {
				seen[f] = true
				out = append(out, probe{word: f, text: lexemes[i], literal: true})
			}
		}
	}
	for _, w := range slashVersions.FindAllString(query, -1) {
		// A protocol's version ("HTTP/2", "TLS/1.3") is one word to the
		// text-search parser (the lexeme http/2): a document that does
		// not write it says nothing of it, whatever it says of HTTP.
		if !seen[w] && len(out) < maxProbes {
			seen[w] = true
			out = append(out, probe{word: w, text: w})
		}
	}
	for _, w := range katakanaWords(query) {
		if !seen[w] && len(out) < maxProbes {
			seen[w] = true
			// Its bigrams as the keyword index holds them.
			bg := strings.Fields(analyze.Keywords(w))
			out = append(out, probe{word: w, text: strings.Join(bg, " "), literal: true, bigrams: bg})
		}
	}
	n.probes = out
	return n
}

// maxKatakanaWord bounds the length of a katakana word probed whole: a
// longer run is most often a compound whose parts the documents
// write apart or with a particle between them (データベースサーバー where a
// page writes データベースのサーバー, ローカルリポジトリ), not one word that
// is missing; single loanwords and names are shorter (アプト, ポッド,
// スマートフォン).
const maxKatakanaWord = 7

// statusPhrases returns the words of the HTTP status phrases in query, as
// servers name them (statusNames: "413 Request Entity Too Large" or "413
// Payload Too Large", "Method Not
// Allowed", "Too Many Requests", "503 Service Unavailable"): their capitals
// are the phrase's style, not a name's. A question quoting "413 Request
// Entity Too Large" was refused because "no document mentions “Entity”" —
// the documents write HTTPRequestEntityTooLarge. Words count when a run
// of capitalised words starts with the phrase of the status code just
// before it ("403 Forbidden"), or holds a status's phrase of two or more
// words; "300 Celery workers" and "Postgres Not starting" name Celery and
// Postgres.
func statusPhrases(query string) map[string]bool {
	out := map[string]bool{}
	var words [][]int
	for _, m := range wordAt.FindAllStringIndex(query, -1) {
		if titleCased(query[m[0]:m[1]]) || upperWord(query[m[0]:m[1]]) {
			words = append(words, m)
		}
	}
	for i := 0; i < len(words); {
		j := i + 1
		for j < len(words) && query[words[j-1][1]:words[j][0]] == " " {
			j++
		}
		run := make([]string, 0, j-i)
		for _, m := range words[i:j] {
			run = append(run, query[m[0]:m[1]])
		}
		// The status code before the run: its phrase, word for word.
		if m := statusCode.FindStringSubmatch(strings.TrimRight(query[:words[i][0]], " ")); m != nil {
			code, _ := strconv.Atoi(m[2])
			for _, text := range statusNames(code) {
				phrase := strings.Fields(text)
				if len(phrase) > 0 && len(phrase) <= len(run) && strings.EqualFold(strings.Join(run[:len(phrase)], " "), strings.Join(phrase, " ")) {
					for _, w := range run[:len(phrase)] {
						out[w] = true
					}
				}
			}
		}
		// A status's phrase of two or more words anywhere in the run.
		for a := 0; a < len(run); a++ {
			for b := a + 2; b <= len(run); b++ {
				if statusTexts[strings.ToLower(strings.Join(run[a:b], " "))] {
					for _, w := range run[a:b] {
						out[w] = true
					}
				}
			}
		}
		i = j
	}
	return out
}

// statusTexts are the status phrases (statusNames) of two or more words,
// lower case.
var statusTexts = func() map[string]bool {
	m := map[string]bool{}
	for code := 100; code < 600; code++ {
		for _, t := range statusNames(code) {
			if strings.Contains(t, " ") {
				m[strings.ToLower(t)] = true
			}
		}
	}
	return m
}()

// statusNames returns the phrases servers write after a status code:
// net/http's, and the other registered names of the codes whose name
// changed (RFC 7231's "Payload Too Large", which Express and every Node
// server answer; RFC 9110's "Content Too Large", "URI Too Long", "Range Not
// Satisfiable" and "Unprocessable Content", Python's http.HTTPStatus).
func statusNames(code int) []string {
	out := []string{}
	if t := http.StatusText(code); t != "" {
		out = append(out, t)
	}
	return append(out, otherStatusNames[code]...)
}

// otherStatusNames are the registered names of status codes other than
// net/http's (statusNames).
var otherStatusNames = map[int][]string{
	302: {"Moved Temporarily"},
	413: {"Payload Too Large", "Content Too Large"},
	414: {"URI Too Long"},
	416: {"Range Not Satisfiable"},
	422: {"Unprocessable Content"},
}

// upperWord reports a word of two or more capitals only ("OK", "URI").
func upperWord(w string) bool {
	return len(w) >= 2 && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsUpper(r) }) < 0
}

// titleCased reports a word of letters, a capital and then lower case only.
func titleCased(w string) bool {
	for i, r := range w {
		if !unicode.IsLetter(r) || (i == 0) != unicode.IsUpper(r) || i > 0 && !unicode.IsLower(r) {
			return false
		}
	}
	return utf8.RuneCountInString(w) >= 2
}

// statusCode is text ending with an HTTP status code (100–599), the
// code the second group.
var statusCode = regexp.MustCompile(`(^|[^\p{L}\p{N}.])([1-5]\d\d)$`)

// katakanaWords returns the katakana words of query, three characters or
// longer without a final prolonged sound mark (サーバー and サーバ are one
// word, spelt both ways), and at most maxKatakanaWord long. Japanese
// writes foreign words and names in katakana, as English capitalises
// names: アプト, ポッド, スマートフォン. Each of their character bigrams alone matches other
// words (アプ of アプリ, プト of スクリプト), so a question about one no
// document writes was answered at 0.6; the word itself is looked up,
// literally, as a name is.
func katakanaWords(query string) []string {
	var out []string
	rs := []rune(query)
	for i := 0; i < len(rs); {
		if runClass(rs[i]) != 1 || rs[i] == 'ー' || rs[i] == '・' {
			i++
			continue
		}
		j := i
		for j < len(rs) && runClass(rs[j]) == 1 && rs[j] != '・' {
			j++
		}
		w := strings.TrimRight(string(rs[i:j]), "ー")
		if n := utf8.RuneCountInString(w); n >= 3 && n <= maxKatakanaWord && !slices.Contains(out, w) {
			out = append(out, w)
		}
		i = j
	}
	return out
}

// bareSpellings pairs the number of each release named in lower case
// (release.lower) with the lexemes a document writes it by as a version
// of its own, without a name: "v64", "64.0", "64.0.0", "v64.0", "v64.0.0"
// for 64; "66.1", "v66.1", "66.1.0", "v66.1.0" for 66.1 (the bare "64" is
// as often a count). Such a release counts as missing only when the
// documents write none of them either (missingReleases): a name in lower
// case is most often the documents' own product ("setuptools 64"), whose
// releases they number without its name.
func (n questionNames) bareSpellings() (numbers, spellings []string) {
	var done []string
	for _, r := range n.releases {
		if !r.lower && !r.bare || slices.Contains(done, r.number) {
			continue
		}
		done = append(done, r.number)
		forms := []string{"v" + r.number}
		switch strings.Count(r.number, ".") {
		case 0:
			forms = append(forms, r.number+".0", r.number+".0.0", "v"+r.number+".0", "v"+r.number+".0.0")
		case 1:
			forms = append(forms, r.number, r.number+".0", "v"+r.number+".0")
		default:
			forms = append(forms, r.number)
		}
		for _, f := range forms {
			numbers, spellings = append(numbers, r.number), append(spellings, f)
		}
	}
	return numbers, spellings
}

// releaseNames are the distinct names of the releases, each with whether
// the documents must write it before a dotted number (release.lower) to
// count as one with releases.
func (n questionNames) releaseNames() (names []string, dotted []bool) {
	for _, r := range n.releases {
		if i := slices.Index(names, r.name); i >= 0 {
			dotted[i] = dotted[i] && r.lower
			continue
		}
		names, dotted = append(names, r.name), append(dotted, r.lower)
	}
	return names, dotted
}

// optionPattern matches a long command-line option as a question writes
// it: two dashes, then a word of letters, digits, underscores and inner
// hyphens ("--cloud-sync", "--no-verify", "--max_connections").
var optionPattern = regexp.MustCompile(`(?:^|[\s(\x60"'“])--([\p{L}][\p{L}\p{N}_]*(?:-[\p{L}\p{N}_]+)*)`)

// qualifiedTail returns the last part of a dotted name when it names a
// class (a capital first, and a capital after a lower-case letter, an
// underscore, a digit or another capital: TopLevelLookupException,
// SSLError), else "". Python prints an exception with its module
// ("mako.exceptions.TopLevelLookupException: Can't locate template …")
// where documents write the class alone, and a pasted error was refused
// as naming something no document mentions. The dotted name counts as
// found when its class and its first part (the library: "mako",
// "requests") both are (found): a method's name ("KafkaConsumer.toString")
// is no class, and another library's class ("sqlalchemy.exc.IntegrityError"
// over documents that never name SQLAlchemy) stays missing.
func qualifiedTail(word string) string {
	i := strings.LastIndexByte(word, '.')
	if i <= 0 || !Identifier(word) || strings.Contains(word, "/") {
		return ""
	}
	tail := word[i+1:]
	first, _ := utf8.DecodeRuneInString(tail)
	if utf8.RuneCountInString(tail) < 4 || !unicode.IsUpper(first) {
		return ""
	}
	upper, lower := 0, false
	for _, r := range tail {
		upper += b2i(unicode.IsUpper(r))
		lower = lower || unicode.IsLower(r)
	}
	if !NameLike(tail, true) && !(upper >= 2 && lower) {
		return ""
	}
	return tail
}

// attributeTail returns the attribute of an object written as code
// reads it, "cursor.rowcount", "connection.notifies": two parts, the
// object a word of three or more lower-case letters, the attribute three
// or more lower-case letters, digits and underscores, not a file's
// extension ("settings.toml"), else "". Reference documentation lists
// the attribute under its class ("rowcount" under "class Cursor"), and
// the dotted name counts as found when both parts are (found): pg8000's
// "Why does cursor.rowcount come back as -1?" was refused in a held-out
// trial, "no document mentions “cursor.rowcount”".
func attributeTail(word string) string {
	root, tail, ok := strings.Cut(word, ".")
	if !ok || strings.Contains(tail, ".") || len(root) < 3 || len(tail) < 3 || fileExtensions[tail] {
		return ""
	}
	if strings.IndexFunc(root, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 ||
		strings.IndexFunc(tail, func(r rune) bool { return (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' }) >= 0 {
		return ""
	}
	return tail
}

// foundDotted returns, as the parser's lexemes, the dotted names the
// query writes whose parts the documents write (found), so that the whole
// name, one lexeme to the parser, counts neither as absent nor as the
// reason for a refusal.
func foundDotted(legs legResults) map[string]bool {
	var out map[string]bool
	for _, pr := range legs.names.probes {
		if pr.of != "" || !strings.Contains(pr.word, ".") || slices.Contains(legs.missing, pr.word) {
			continue
		}
		if cmp.Or(qualifiedTail(pr.word), attributeTail(pr.word)) == "" {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[strings.ToLower(pr.word)] = true
	}
	return out
}

// attributeOf returns attributeTail(w) unless query names w's object as a
// name, capitalised ("Click's @click.group decorator"): the object is then
// a library, and its member another product's, which documents that
// mention the library and the word in passing do not cover (a question on
// Click over cmd2's documentation was answered).
func attributeOf(query, w string) string {
	tail := attributeTail(w)
	if tail == "" {
		return ""
	}
	root := w[:strings.IndexByte(w, '.')]
	for _, q := range queryWords(query) {
		if q != root && strings.EqualFold(strings.TrimSuffix(strings.TrimSuffix(q, "'s"), "’s"), root) {
			return ""
		}
	}
	return tail
}

// fileExtensions are the extensions of the files a question may name
// ("setup.cfg", "config.yaml"): a file name is no object's attribute.
var fileExtensions = map[string]bool{"py": true, "pyc": true, "pyi": true, "cfg": true, "ini": true, "toml": true, "yaml": true,
	"yml": true, "json": true, "xml": true, "txt": true, "rst": true, "html": true, "htm": true, "css": true, "js": true, "mjs": true,
	"ts": true, "tsx": true, "jsx": true, "csv": true, "tsv": true, "log": true, "sql": true, "conf": true, "lock": true, "env": true,
	"exe": true, "dll": true, "so": true, "dylib": true, "zip": true, "tar": true, "tgz": true, "whl": true, "egg": true, "deb": true,
	"rpm": true, "pem": true, "crt": true, "key": true, "pdf": true, "png": true, "jpg": true, "jpeg": true, "gif": true, "svg": true,
	"sqlite": true, "sqlite3": true, "db": true, "bak": true, "tmp": true, "java": true, "class": true, "jar": true, "rb": true,
	"go": true, "rs": true, "cpp": true, "hpp": true, "php": true, "pl": true, "bat": true, "ps1": true, "sh": true, "bash": true,
	"zsh": true, "md": true, "doc": true, "docx": true, "xls": true, "xlsx": true, "service": true, "socket": true, "timer": true,
	"mount": true, "target": true, "desktop": true, "spec": true, "pot": true, "po": true, "mo": true, "gz": true, "bz2": true, "xz": true}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// found drops from missing the parts namesOf probed for a dotted name
// (qualifiedTail) or a language (languageCodes), the languages whose
// code was found (codedLanguages), and the dotted names whose class and
// first part were probed and found, whoever wrote them: the question may
// write the class
// on its own too ("TopLevelLookupException … shown as
// mako.exceptions.TopLevelLookupException").
func found(probes []probe, missing []string) []string {
	coded := codedLanguages(probes, missing)
	probed := map[string]bool{}
	for _, p := range probes {
		probed[p.word] = true
	}
	has := func(w string) bool { return probed[w] && !slices.Contains(missing, w) }
	var out []string
	for _, w := range missing {
		if slices.ContainsFunc(probes, func(p probe) bool { return p.of != "" && p.word == w }) {
			continue
		}
		if tail := cmp.Or(qualifiedTail(w), attributeTail(w)); tail != "" && has(tail) && has(w[:strings.IndexByte(w, '.')]) {
			continue
		}
		if slices.Contains(coded, w) {
			continue
		}
		if slices.ContainsFunc(probes, func(p probe) bool {
			return p.joined && p.of == w && !slices.Contains(missing, p.word)
		}) {
			// The documents write the name with its number ("rfc5322").
			continue
		}
		out = append(out, w)
	}
	return out
}

// hyphenated matches a word joined by hyphens from parts of two or more
// letters each ("Wi-Fi", "MTA-STS").
var hyphenated = regexp.MustCompile(`^\pL{2,}(?:-\pL{2,})+$`)

// joinedNumber returns how documents often write the name w of query
// with the number after it, joined and in lower case ("RFC 5322" as
// rfc5322, "ISO 8601" as iso8601), or "" when no number of two or more
// digits follows w: "Does the email format do full RFC 5322 validation?"
// was refused as "no document mentions “RFC”" over pages writing rfc5322.
func joinedNumber(query, w string) string {
	if w == "" || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
		return ""
	}
	for at := 0; ; {
		i := strings.Index(query[at:], w+" ")
		if i < 0 {
			return ""
		}
		at += i + len(w) + 1
		rest := query[at:]
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		next, _ := utf8.DecodeRuneInString(rest[n:])
		if n >= 2 && !(n < len(rest) && (unicode.IsLetter(next) || unicode.IsDigit(next) || next == '.' && n+1 < len(rest) && rest[n+1] >= '0' && rest[n+1] <= '9')) {
			return strings.ToLower(w) + rest[:n]
		}
	}
}

// languageCodes are the ISO 639-1 codes of languages a question names in
// English. Internationalisation documents write a language as its locale
// code ("Locale('fr')", "parse_decimal('1.099,98', locale='de')"), and
// "How do I create a new French translation catalog?" was refused as "no
// document mentions “French”" over Babel's documentation. The name counts
// as found when the code is written (found). Only codes that are no word,
// tag, unit, file type or keyword of technical English are here: "id" (a
// record's), "th" and "tr" (HTML's), "it", "is", "no", "he", "pt", "hr",
// "vi", "fi" (the shell's) and their like are written by documents that
// never mention Indonesian, Thai or Turkish, which were then taken for
// found; a language whose code is such a word stays a name.
var languageCodes = map[string]string{"english": "en", "german": "de", "french": "fr", "spanish": "es",
	"dutch": "nl", "swedish": "sv", "danish": "da", "norwegian": "nb", "japanese": "ja", "chinese": "zh",
	"russian": "ru", "korean": "ko"}

// codedLanguages returns the language names among probes whose code
// (languageCodes) was probed and found: missing holds the probes no
// document has.
func codedLanguages(probes []probe, missing []string) []string {
	var out []string
	for _, p := range probes {
		if p.of != "" && languageCodes[strings.ToLower(p.of)] == p.word && !slices.Contains(missing, p.word) {
			out = append(out, p.of)
		}
	}
	return out
}

// commandOptions returns the long options the query names, without their
// dashes (documents list options as "--name" or as "name"). An option no
// document mentions is a missing identifier: like a code name, people do
// not paraphrase an option, and a question about one no document has is
// about something the documents do not cover ("What does the --cloud-sync
// option export?" was answered at 0.39 from the options list of another
// command).
func commandOptions(query string) []string {
	var out []string
	for _, m := range optionPattern.FindAllStringSubmatch(query, -1) {
		if len(m[1]) >= 2 && !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// memberPattern matches a member written with its qualifier, as code
// writes a method or a path: Ruby's "String#bytesplice", "Enumerable#each_slice",
// "Comparable#clamp?", and the "::" of C++, Rust, Ruby and Perl
// ("std::thread::scope", "File::Spec"). The member is the last name.
var memberPattern = regexp.MustCompile(`\b[\p{L}_][\p{L}\p{N}_]*(?:(?:#|::)[\p{L}_][\p{L}\p{N}_]*)+`)

// qualifiedMembers returns the members the query names with a qualifier
// (memberPattern). A member is a code name, as an option is: people do
// not paraphrase it, and one no document mentions is a missing identifier
// ("How do I replace a range of bytes with String#bytesplice?" over a
// Ruby release without that method was answered at 0.40 from String's
// other methods). The member is probed alone, since documents list a
// method under its class without the qualifier.
func qualifiedMembers(query string) []string {
	var out []string
	for _, loc := range memberPattern.FindAllStringIndex(query, -1) {
		if loc[0] > 0 && strings.ContainsRune("./:-?=&~", rune(query[loc[0]-1])) {
			// A link's or a file's fragment ("page.html#options",
			// "user-guide#faq", "?page=intro#comments").
			continue
		}
		m := query[loc[0]:loc[1]]
		member := m[max(strings.LastIndex(m, "#")+1, strings.LastIndex(m, "::")+2):]
		if utf8.RuneCountInString(member) >= 2 && !slices.Contains(out, member) {
			out = append(out, member)
		}
	}
	return out
}

// releasePattern matches a name followed by a release number: one or two
// digits, then up to two dotted parts ("PostgreSQL 20", "Python 3.13",
// "Debian 13", "APT 3.0"); longer numbers are ports, years or codes,
// except after a name in capitals, whose number of three or four digits
// names a document of a series ("PEP 735", "RFC 9110": standardNumber).
// A number with a leading zero is a code, not a release ("JIB 04").
var releasePattern = regexp.MustCompile(`([\p{L}](?:[\p{L}\p{N}_+-]|\.[\p{L}])*)[ \t]+[vV]?([1-9]\d{0,3}(?:\.\d{1,3}){0,2}|0(?:\.\d{1,3}){1,2})(?:[^\p{L}\p{N}.]|\.(?:[^\p{N}]|$)|$)`)

// standardNumber reports a number of three or four digits after the name
// of a series of documents (documentSeries: "PEP 735", "RFC 9110", "ISO
// 8601"): a question naming one the documents never write is about
// another document than theirs, as a release no document writes is (a
// change log's "#735" does not write PEP 735). The documents may write it
// with a hyphen or joined ("ISO-8601", "RFC9110": release.forms).
func standardNumber(name, number string) bool {
	return !strings.Contains(number, ".") && len(number) >= 3 && documentSeries[name]
}

// documentSeries are the names of series of numbered documents a question
// cites by number ("PEP 735"). Other capitals before three or four digits
// are a status code ("API 401"), a key size ("RSA 2048") or a model.
var documentSeries = map[string]bool{"PEP": true, "RFC": true, "ISO": true, "IEC": true, "IEEE": true, "ECMA": true,
	"ANSI": true, "JSR": true, "JEP": true, "KEP": true, "KIP": true, "NEP": true, "BIP": true, "EIP": true, "SRFI": true,
	"DIN": true, "FIPS": true, "NIST": true}

// endsPhrase reports whether rest (what follows a number) ends the
// phrase the number is in: nothing, punctuation, or a word that joins
// phrases ("setuptools 77?", "numpy 2 and scipy", "python 3 with").
func endsPhrase(rest string) bool {
	t := strings.TrimLeft(rest, " \t")
	if t == "" {
		return true
	}
	r, size := utf8.DecodeRuneInString(t)
	if r == '-' || r == '‑' {
		// A number joined to a word is a measure ("supports 24-bit
		// colour", "a 3-way merge"), not a release.
		next, _ := utf8.DecodeRuneInString(t[size:])
		return !unicode.IsLetter(next)
	}
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return true
	}
	return phraseJoiners[strings.ToLower(firstWord(t))]
}

// phraseJoiners are words that start a new phrase after a name, and the
// verbs a release is the subject of ("what does setuptools 77 change").
var phraseJoiners = map[string]bool{"and": true, "or": true, "with": true, "in": true, "on": true, "for": true, "to": true,
	"from": true, "of": true, "is": true, "are": true, "was": true, "will": true, "does": true, "do": true, "did": true,
	"has": true, "have": true, "still": true, "yet": true, "anymore": true, "now": true, "but": true, "than": true, "vs": true,
	"out": true, "change": true, "changes": true, "changed": true, "add": true, "adds": true, "added": true, "remove": true,
	"removes": true, "removed": true, "bring": true, "brings": true, "introduce": true, "introduces": true, "introduced": true,
	"deprecate": true, "deprecates": true, "deprecated": true, "drop": true, "drops": true, "dropped": true, "break": true,
	"breaks": true, "broke": true, "support": true, "supports": true, "require": true, "requires": true, "fix": true,
	"fixes": true, "fixed": true, "release": true, "released": true}

// lowerProduct reports a lower-case word that may be a product's name
// before a release number, as people type them ("setuptools 77", "python
// 3.13", "numpy 2"): letters (and inner digits or hyphens), at least three,
// not a part of a document. Such a word is a release's name only where the
// documents write it before a dotted release number (versionedNames'
// dotted check): "wait 5 seconds" is not one, though a page writes "wait
// 10 seconds".
func lowerProduct(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsLower(r) && utf8.RuneCountInString(name) >= 3 && !notProducts[name] &&
		strings.IndexFunc(name, func(r rune) bool { return unicode.IsUpper(r) || r == '_' || r == '.' || r == '+' }) < 0
}

// notProducts are capitalised words a number follows that name a part of a
// document, not a product's release ("Section 5.3", "Table 9.4").
var notProducts = map[string]bool{"section": true, "chapter": true, "table": true, "figure": true, "example": true,
	"step": true, "page": true, "part": true, "appendix": true, "listing": true, "equation": true, "line": true,
	"item": true, "note": true, "rule": true, "level": true, "phase": true, "option": true, "case": true,
	"version": true, "release": true, "revision": true, "exercise": true, "theorem": true, "lemma": true,
	"question": true, "module": true, "unit": true, "lesson": true, "week": true, "day": true, "problem": true,
	"task": true, "stage": true, "type": true, "class": true, "grade": true, "group": true, "room": true,
	"floor": true, "column": true, "row": true, "port": true, "slot": true, "tier": true, "ram": true}

// countUnits are words after a number that make it a quantity, not a
// release ("16 GB", "5 ms").
var countUnits = map[string]bool{"b": true, "kb": true, "mb": true, "gb": true, "tb": true, "kib": true, "mib": true,
	"gib": true, "tib": true, "ms": true, "s": true, "sec": true, "min": true, "h": true, "px": true, "pt": true,
	"x": true, "percent": true, "bit": true, "bits": true, "byte": true, "bytes": true, "times": true,
	"km": true, "m": true, "cm": true, "mm": true, "kg": true, "g": true, "mi": true, "ft": true, "eur": true,
	"usd": true, "gbp": true, "chf": true, "jpy": true, "cny": true, "dollars": true, "euros": true,
	"second": true, "seconds": true, "minute": true, "minutes": true, "hour": true, "hours": true, "days": true,
	"weeks": true, "months": true, "years": true}

// release is a release name as a question writes it ("Frobnicator v2.4"):
// the name and the number without its "v". lower marks a name in lower
// case (lowerProduct), which the documents must write before a dotted
// release number to count as one with releases.
type release struct {
	written, name, number string
	lower                 bool
	// bare: the documents may write the number as a version of their
	// own, without the name (bareSpellings); a lower-case name is one.
	bare bool
}

// forms are the ways a document may write r, each with the lexeme it is
// looked up by: with and without the "v", and with the word "version"
// between ("For Vim version 9.0", the header of every Vim help file: "How
// do I open a terminal in Vim 9.0?" was refused as about a release no
// document names); a number without a dot also as its ".0" release ("Vim
// 9" is Vim 9.0).
func (r release) forms() (forms, lexemes []string) {
	if standardNumber(r.name, r.number) {
		// Each looked up by its first lexeme: the parser reads
		// "ISO-8601" as iso and -8601, "RFC9110" as rfc9110.
		forms = append(forms, r.name+"-"+r.number, r.name+r.number)
		lexemes = append(lexemes, r.name+"-"+r.number, r.name+r.number)
	}
	numbers := []string{r.number}
	if !strings.Contains(r.number, ".") {
		numbers = append(numbers, r.number+".0")
	}
	for _, n := range numbers {
		forms = append(forms, r.name+" "+n, r.name+" v"+n, r.name+" version "+n)
		lexemes = append(lexemes, n, "v"+n, n)
	}
	return forms, lexemes
}

// releases returns the release names the query writes ("PostgreSQL 20"):
// a name (NameLike) right before a release number. A release no document
// mentions is a missing name like any other, and the question is most
// likely about a release the documents do not cover ("What is new in
// PostgreSQL 20?" asked of the manual for 15, whose every other word is
// there). Such a name is checked as written (a literal probe, whose first
// lexeme is the number's or the name's), so a release only
// matches where the documents write the name and the number together.
func releases(query string) []release {
	var out []release
	opening := strings.TrimLeftFunc(query, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, m := range releasePattern.FindAllStringSubmatchIndex(query, -1) {
		name, number := query[m[2]:m[3]], query[m[4]:m[5]]
		first := m[2] == len(query)-len(opening)
		if product, lower, ok := versionOf(query[:m[2]], name); ok {
			// "Hypothesis version 6.90": the release of the name before
			// the word (a trial's question about a release newer than the
			// documents' was answered at 0.57, where "Hypothesis 7.0" was
			// refused). The documents may number their own releases
			// without the name ("Changed in version 6.60"), so the
			// number counts as written in those forms too (bare,
			// bareSpellings). A number of three or four digits is a
			// build ("Windows version 1903"), and one before a unit a
			// quantity.
			whole, _, _ := strings.Cut(number, ".")
			if len(whole) <= 2 && !countUnits[strings.ToLower(firstWord(query[m[5]:]))] {
				written := product + " " + strings.Join(strings.Fields(query[m[2]:m[5]]), " ")
				out = append(out, release{written: written, name: product, number: number, lower: lower, bare: true})
			}
			continue
		}
		if notProducts[strings.ToLower(name)] || strings.Contains(name, "_") {
			continue // a part of a document, or a setting and its value ("max_wal_senders 10")
		}
		if whole, _, _ := strings.Cut(number, "."); len(whole) > 2 && !standardNumber(name, number) {
			continue // a port, a year, a code
		}
		lower := false
		if !NameLike(name, first) && !productWord(query[:m[2]], name) {
			if !lowerProduct(name) || !strings.Contains(number, ".") && !endsPhrase(query[m[5]:]) || strings.HasPrefix(number, "0.") {
				// A lower-case word and a whole number before a word
				// is most often a count ("using 4 worker processes"),
				// and before 0.x a measured value ("cosine 0.85").
				continue
			}
			lower = true
		}
		if countUnits[strings.ToLower(firstWord(query[m[5]:]))] {
			continue // a quantity: "16 GB", "5 EUR"; counts are told apart by the documents (missingReleases)
		}
		written := strings.TrimRight(query[m[2]:m[5]], " \t")
		out = append(out, release{written: strings.Join(strings.Fields(written), " "), name: name, number: number, lower: lower})
	}
	return out
}

// versionOf returns the product whose release a question writes with the
// word "version" or "release" between name and number ("Hypothesis
// version 6.90", "in Django release 5.1", "Node.js version 22",
// "setuptools version 80"): before is the text before word, whose last
// word must be a product's name: capitalised (NameLike, no part of a
// document: "the version 2" and "Section version 3" are none), or a
// lower-case product (lowerProduct: lower, counted as a release name only
// where the documents write it before a dotted number, as for
// "setuptools 80").
func versionOf(before, word string) (product string, lower, ok bool) {
	if w := strings.ToLower(word); w != "version" && w != "release" {
		return "", false, false
	}
	if !strings.HasSuffix(before, " ") {
		return "", false, false
	}
	f := strings.Fields(before)
	if len(f) == 0 {
		return "", false, false
	}
	prev := strings.TrimRight(f[len(f)-1], "'’")
	prev = strings.TrimSuffix(strings.TrimSuffix(prev, "'s"), "’s")
	first, _ := utf8.DecodeRuneInString(prev)
	plain := !strings.ContainsFunc(prev, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '.' })
	if !plain || strings.HasSuffix(prev, ".") || notProducts[strings.ToLower(prev)] {
		return "", false, false
	}
	if unicode.IsUpper(first) && NameLike(prev, len(f) == 1) {
		return prev, false, true
	}
	if lowerProduct(prev) && !strings.Contains(prev, ".") && !versionQualifiers[prev] {
		return prev, true, true
	}
	return "", false, false
}

// versionQualifiers are the lower-case words before "version" that say
// which version, not whose ("the version 2 file", "the latest version 5").
var versionQualifiers = map[string]bool{"the": true, "this": true, "that": true, "which": true, "what": true, "any": true,
	"each": true, "every": true, "new": true, "old": true, "latest": true, "newer": true, "older": true, "current": true,
	"next": true, "last": true, "previous": true, "same": true, "your": true, "our": true, "their": true, "its": true,
	"one": true, "another": true, "other": true, "stable": true, "major": true, "minor": true, "earlier": true, "later": true}

// slashVersions matches a name of capital letters, a slash and a version
// number ("HTTP/2", "HTTP/1.1"; not a quarter, "Q3/24", or a fiscal year,
// "FY23/24"). A document that writes the version with a blank ("TLS 1.3")
// does not count as writing it.
var slashVersions = regexp.MustCompile(`\b[A-Z]{2,}/[0-9]{1,2}(?:\.[0-9]{1,2})?\b`)

// firstWord returns the letters that start s after blanks.
func firstWord(s string) string {
	s = strings.TrimLeft(s, " \t")
	end := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		return s
	}
	return s[:end]
}

// missingReleases returns the releases (rels) that no readable chunk
// writes in any of their forms (missing: the probes no chunk has), whose
// name the documents do have and write with a number elsewhere (versioned:
// "PostgreSQL 15", "Java 21"), so that the name is one with releases: a
// question about "Bob 2" where no document names Bob is told that "Bob" is
// missing instead, and "buy GitHub 5 seats" is a count.
func missingReleases(rels []release, missing, versioned, bare, written []string) []string {
	var out []string
	for _, r := range rels {
		if slices.Contains(missing, r.name) || !slices.Contains(versioned, r.name) || slices.Contains(out, r.written) ||
			slices.Contains(written, r.written) {
			// Also a release the documents write with more parts
			// ("Python 3.8" for "python 3"): writtenReleases.
			continue
		}
		if (r.lower || r.bare) && slices.Contains(bare, r.number) {
			// A name in lower case is most often the documents' own
			// product ("setuptools 64"), whose releases they number
			// without its name ("Changed in version v64.0.0").
			continue
		}
		all := true
		forms, _ := r.forms()
		for _, f := range forms {
			all = all && slices.Contains(missing, f)
		}
		if all {
			out = append(out, r.written)
		}
	}
	return out
}

// productWord reports a lowercase word that ends a product's name of two
// words, the one before it a name ("Apache httpd 2.6", "Debian bookworm
// 12"): before names the text before word.
func productWord(before, word string) bool {
	r, _ := utf8.DecodeRuneInString(word)
	if !unicode.IsLower(r) || utf8.RuneCountInString(word) < 3 || !strings.HasSuffix(before, " ") {
		return false
	}
	f := strings.Fields(before)
	if len(f) == 0 {
		return false
	}
	prev := f[len(f)-1]
	// The name before is a product's word, a capital first and letters,
	// digits and hyphens alone ("Apache", "Debian"), not code the question
	// quotes ("when \"09\".to_i returns 9?" made "returns" a product whose
	// release 9 no document writes).
	first, _ := utf8.DecodeRuneInString(prev)
	plain := !strings.ContainsFunc(prev, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' })
	return len(f) > 1 && unicode.IsUpper(first) && plain && NameLike(prev, false) && !notProducts[strings.ToLower(prev)]
}

// germanQuestion reports a question in German by its function words
// (analyze.Language): more of German's than of any other language's, at
// least two.
func germanQuestion(query string) bool {
	l, _ := analyze.Language(query, 2)
	return l == "de"
}

// releaseCap bounds the confidence of a question naming a release no
// document mentions ("What is new in PostgreSQL 18?" of the manual for 15):
// whatever else of the question the documents hold, they are not about that
// release. It bounds a question naming a stray member of a family of
// identifiers alike (strayMember). On the public data the default model
// is fitted on, such a name marks 11 of the 1,207 unanswerable questions and none of the 1,009
// answerable ones; the logistic model, which sees it only as one of the
// missing identifiers, gave those questions 0.15–0.61. 0.1 is below every
// threshold a calibration stores in practice and leaves the question's
// ranking among refusals to the model.
const releaseCap = 0.1

// identifierFamilies returns the families an identifier of three or more
// parts joined by underscores would belong to: the identifiers sharing all
// its parts but the last (pg_stat_io: pg_stat_activity, pg_stat_bgwriter)
// and those sharing all but the first (sync_replication_slots:
// max_replication_slots). Two parts shared at least: one part is too
// little to make a family (last_login and last_value share "last", and
// documents write the asker's own columns' neighbours often: the manual
// writes 24 identifiers beginning last_, 17 beginning user_). Identifiers
// with a dot (os.path.join), or with parts of other than ASCII letters and
// digits, have none: their members are not found by their parts' lexemes.
func identifierFamilies(word string) []store.IdentifierFamily {
	parts := strings.Split(strings.Trim(word, "_"), "_")
	if len(parts) < 3 {
		return nil
	}
	for _, p := range parts {
		if p == "" || strings.IndexFunc(p, func(r rune) bool {
			return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
		}) >= 0 {
			return nil
		}
	}
	head, tail := parts[:len(parts)-1], parts[1:]
	return []store.IdentifierFamily{
		{Word: word, Pattern: `(^|[^[:alnum:]_])` + strings.Join(head, "_") + `_[[:alnum:]]`, Shared: strings.Join(head, " ")},
		{Word: word, Pattern: `[[:alnum:]]_` + strings.Join(tail, "_") + `($|[^[:alnum:]_])`, Shared: strings.Join(tail, " ")},
	}
}

// maxFamilyWords bounds the identifiers of one question whose families are
// looked for (each family reads up to 2,000 chunks).
const maxFamilyWords = 4

// ownName reports a missing word that would count as a missing identifier
// (an identifier, a name in capitals, a qualified member) which the
// question presents as the asker's own (askersOwn).
func ownName(legs legResults, query, w string) bool {
	return (Identifier(w) || capitalsName(w, query) || slices.Contains(legs.names.members, w)) && askersOwn(query, w)
}

// askersOwn reports whether query presents word as the asker's own object
// ("my is_read_only column", "a boolean column is_read_only", "a table
// named order_line_items"): its name says nothing of what the documents
// cover, even when it shares words with an identifier they describe
// (default_transaction_read_only). "The" name in capitals and
// underscores "variable" ("the RUST_MAX_HEAP variable", "the PGDATA
// variable") is the software's environment variable, not the asker's
// (a trial's question about a variable the book never mentions was
// answered at 0.53, the name not reported missing); "a MAX_RETRIES
// variable", "my MAX_ROWS variable" and a column or table in capitals
// ("the CUSTOMER_ID column") stay the asker's.
func askersOwn(query, word string) bool {
	if placeholder(word) {
		return true
	}
	i := strings.Index(query, word)
	if i < 0 {
		return false
	}
	before := strings.Fields(strings.ToLower(query[:i]))
	after := strings.Fields(strings.ToLower(query[i+len(word):]))
	software := constantName(word) && len(before) > 0 && before[len(before)-1] == "the"
	kind := func(w string) bool { return objectWords[w] && !(software && (w == "variable" || w == "variables")) }
	for k := len(before) - 1; k >= 0 && k >= len(before)-3; k-- {
		w := strings.Trim(before[k], `"'“”‘’(),`)
		// "named" and "called" name what follows them ("a table called
		// orders"); further back they are a verb's ("is not called
		// before await_only").
		if ownWords[w] && (k == len(before)-1 || w != "named" && w != "called") || k == len(before)-1 && kind(w) {
			return true
		}
	}
	return len(after) > 0 && kind(strings.Trim(after[0], `"'“”‘’(),.?!:;`)) && !softwareKindAfter(after)
}

// softwareKindAfter reports whether the words after an identifier name a
// kind of thing the software documents, directly ("the DOWNLOAD_SLOTS
// setting") or after the kind of object it belongs to ("the db_comment
// field option", a model field's option; "the fillfactor table
// parameter"): the asker's column would be "the db_comment field" alone.
func softwareKindAfter(after []string) bool {
	word := func(i int) string { return strings.Trim(after[i], `"'“”‘’(),.?!:;`) }
	return len(after) > 0 && (softwareKinds[word(0)] || objectWords[word(0)] && len(after) > 1 && softwareKinds[word(1)])
}

// constantName reports a name of capitals, digits and underscores with at
// least two capitals (RUST_MAX_HEAP, PGDATA, HTTP_PROXY): how software
// names its environment variables and constants.
func constantName(w string) bool {
	upper := 0
	for _, r := range w {
		switch {
		case r >= 'A' && r <= 'Z':
			upper++
		case r == '_' || r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return upper >= 2
}

// placeholder reports an identifier that names the asker's own thing by
// its first part: "my_package.__version__", "your_app", "MyModel",
// "myProject" — the way people write an example of their own code.
func placeholder(word string) bool {
	first := word
	if i := strings.IndexAny(word, "._"); i > 0 {
		first = word[:i]
	}
	lw := strings.ToLower(word)
	for _, p := range []string{"my", "our", "your"} {
		if strings.HasPrefix(lw, p+"_") && len(word) > len(p)+1 {
			return true
		}
		// A capital after the prefix, then a lower-case letter, starts
		// the asker's own word ("MyModel", "myProject"); "Mysql",
		// "Ourselves" do not, nor an acronym after it, which names a
		// real product ("MySQLdb", "MyISAM").
		if len(first) > len(p)+1 && strings.EqualFold(first[:len(p)], p) && unicode.IsUpper(rune(first[len(p)])) &&
			unicode.IsLower(rune(first[len(p)+1])) {
			return true
		}
	}
	return false
}

// ownWords mark what follows as the asker's; objectWords name the kind of
// object an identifier next to them is (a column, a table).
var (
	ownWords    = map[string]bool{"my": true, "our": true, "named": true, "called": true, "mine": true}
	objectWords = map[string]bool{"column": true, "columns": true, "table": true, "tables": true, "field": true, "fields": true,
		"variable": true, "attribute": true, "property": true}
)

// namedMissing reports whether the question names, as what it asks about,
// an identifier no document mentions, by the kind of thing it is in the
// software ("the DOWNLOAD_SLOTS setting", "the pool_autoscale parameter of
// create_engine()", "the pg_wait_events view"): documents that describe
// the software's settings, parameters and views describe that one if it
// is theirs, and a question about one they never name is about another
// release or another product. The logistic model counts it as one missing
// identifier among the question's words and gave such questions up to 0.35
// over the development sets (Scrapy's DOWNLOAD_SLOTS, answered). The
// asker's own objects ("my updated_at column", askersOwn) and a pasted
// message's words (params) are not counted; nor are a column's, a field's
// or an attribute's, which are as often the asker's.
func namedMissing(query string, missing []string, params map[string]bool) bool {
	for _, w := range missing {
		if !Identifier(w) || params[w] || askersOwn(query, w) {
			continue
		}
		// "the DOWNLOAD_SLOTS setting": the definite article, written in
		// the asker's own sentence (a pasted message's "The X setting must
		// not be empty" opens with a capital), presents the thing as the
		// software's; "a send_invoice function" of the asker's code does
		// not.
		for i := strings.Index(query, w); i >= 0; {
			before := strings.Fields(query[:i])
			after := strings.Fields(strings.ToLower(query[i+len(w):]))
			if len(before) > 0 && before[len(before)-1] == "the" && softwareKindAfter(after) {
				return true
			}
			j := strings.Index(query[i+len(w):], w)
			if j < 0 {
				break
			}
			i += len(w) + j
		}
	}
	return false
}

// softwareKinds are the kinds of thing a program documents by name
// (namedMissing).
var softwareKinds = map[string]bool{"setting": true, "settings": true, "option": true, "options": true, "parameter": true,
	"parameters": true, "argument": true, "arguments": true, "flag": true, "flags": true, "view": true, "views": true,
	"function": true, "method": true, "classmethod": true, "hook": true, "signal": true, "directive": true,
	"extension": true, "config": true, "configuration": true, "command": true, "subcommand": true,
	"decorator": true, "module": true, "class": true, "exception": true, "role": true, "privilege": true}

// strayMember reports whether an identifier no document mentions
// (missing) is of a family some document writes a member of (familied): the documents
// name pg_stat_activity and pg_stat_bgwriter but never pg_stat_io, or
// max_replication_slots but never sync_replication_slots. Documents that
// describe a family describe its members; a question about one they never
// name is about something they do not cover (a newer release's view or
// setting, another product's), however well its other words match. The
// logistic model, which counts it as one missing identifier, gave such
// questions 0.33–0.79 on the manual. Over every set here (the manual's
// three, the five trials', pydocs-dev and the written unanswerable ones),
// the questions with such an identifier are 3 unanswerable ones and no
// answerable one.
func strayMember(missing, familied []string) bool {
	return slices.ContainsFunc(missing, func(w string) bool { return slices.Contains(familied, w) })
}

// strayName returns the proper name the question writes (properName:
// "Hibernate") when it is the question's rarest word, some document
// writes it, and none of the first coverageDepth results does (in its
// title, heading path or text): the best passages are then about the
// question's other words, and the documents that name it do so in passing
// ("How do I configure the Hibernate second-level cache region?" over
// SQLAlchemy's documentation, which names Hibernate in comparisons, was
// answered at 0.45 with dogpile caching). Its lexeme is the rarest of the
// question's present ones; a name the documents do not write at all is a
// missing term instead. "" when there is none. The words of a pasted
// message's text (params: messageParams) are the library's, not names the
// asker chose: "message='Attempt to decode JSON …'" capitalises its first
// word, and the pages that explain the exception need not repeat it.
func strayName(legs legResults, results []Result, params map[string]bool) string {
	if len(results) == 0 {
		return ""
	}
	top := 0.0
	for l, idf := range legs.idf {
		if !slices.Contains(legs.absent, l) && !analyze.Bigram(l) {
			top = max(top, idf)
		}
	}
	for _, pr := range legs.names.probes {
		if pr.literal || legs.names.forms[pr.word] || params[pr.word] || slices.Contains(legs.missing, pr.word) || !productName(pr.word) {
			continue
		}
		if slices.Contains(legs.coded, pr.word) {
			// The documents write the language as its code; the best
			// passages' "locale='de'" is the question's "German".
			continue
		}
		// The name's own lexeme is the longest one it starts with: "post"
		// is the verb's in "post to a webhook from a Postgres trigger",
		// Postgres's is "postgr". Ties for the rarest count alike.
		lex := ""
		for l := range legs.idf {
			if len(l) > len(lex) && !slices.Contains(legs.absent, l) && stemOf(pr.word, l) {
				lex = l
			}
		}
		if lex == "" || legs.idf[lex] < top-1e-9 {
			continue
		}
		if !mentioned(pr.word, lex, legs.kw, results[:min(coverageDepth, len(results))]) {
			return pr.word
		}
	}
	return ""
}

// mentioned reports whether one of results writes word: its lexeme among
// the keyword leg's matches for the chunk, or the word itself, whole, in
// its title, heading path or text ("Java" is not in "JavaScript").
func mentioned(word, lexeme string, kw []legHit, results []Result) bool {
	for _, r := range results {
		for _, h := range kw {
			if h.id == r.ChunkID && slices.Contains(h.matched, lexeme) {
				return true
			}
		}
		if analyze.ContainsWord(strings.ToLower(r.Title+"\n"+r.HeadingPath+"\n"+r.Content), strings.ToLower(word)) {
			return true
		}
	}
	return false
}

// messageParams returns the words of a pasted message's text when the
// question is one ("sqlalchemy.exc.MissingGreenlet: greenlet_spawn has not
// been called; can't call await_only() here") and the documents write the
// exception's class: the names inside a message are the asker's objects
// or the library's internals, which pages explaining the exception need
// not write, so they are no missing names. A message is a question that
// opens with a class name (className), dotted or not, and a colon; a
// generic head ("ERROR:") names no exception the documents could explain.
func messageParams(query string, legs legResults) map[string]bool {
	head, rest := messageHead(query)
	if head == "" {
		return nil
	}
	class := head[strings.LastIndex(head, ".")+1:]
	if slices.Contains(legs.missing, head) || slices.Contains(legs.missing, class) {
		return nil
	}
	probed := false
	for _, pr := range legs.names.probes {
		probed = probed || pr.word == head || pr.word == class
	}
	if !probed {
		return nil
	}
	// The message is its line: what the asker writes on the lines after it
	// ("It only happens behind Cloudflare.") is theirs, and its names are
	// probed as the question's.
	rest, _, _ = strings.Cut(rest, "\n")
	params := map[string]bool{}
	for _, w := range queryWords(rest) {
		params[w] = true
	}
	return params
}

// messageHead returns the exception class a question opens with, as a
// pasted message does ("SSLError: …", "sqlalchemy.exc.MissingGreenlet: …"),
// and the message after it; "" when the question opens otherwise.
func messageHead(query string) (head, rest string) {
	head, rest, ok := strings.Cut(strings.TrimSpace(query), ": ")
	if !ok || head == "" || strings.ContainsAny(head, " \t") || !className(head[strings.LastIndex(head, ".")+1:]) ||
		genericHeads[strings.ToLower(head)] || asksAfterHead(rest) {
		return "", ""
	}
	return head, rest
}

// genericHeads open a line as a label, naming no exception a page could
// explain ("Error: …", "Warning: newbie question …").
var genericHeads = map[string]bool{"error": true, "errors": true, "exception": true, "warning": true, "warnings": true}

// asksAfterHead reports a question, not a message, after a head and its
// colon ("GitHub: how do I deploy …?"): a pasted message states what went
// wrong.
func asksAfterHead(rest string) bool {
	f := strings.Fields(strings.ToLower(rest))
	return len(f) > 0 && questionOpeners[strings.Trim(f[0], ",.?!")]
}

var questionOpeners = map[string]bool{"how": true, "what": true, "why": true, "when": true, "where": true, "which": true, "who": true,
	"can": true, "could": true, "should": true, "is": true, "are": true, "does": true, "do": true, "will": true, "would": true}

// className reports a class name as exceptions have: a capital, letters
// and digits only, and a capital after a lower-case letter or a name
// ending as errors' do (RuntimeError, MissingGreenlet, OSError).
func className(w string) bool {
	rs := []rune(w)
	if len(rs) < 4 || !unicode.IsUpper(rs[0]) {
		return false
	}
	inner := false
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
		inner = inner || i > 0 && unicode.IsUpper(r) && unicode.IsLower(rs[i-1])
	}
	return inner || strings.HasSuffix(w, "Error") || strings.HasSuffix(w, "Exception") || strings.HasSuffix(w, "Warning")
}

// capitalsName reports a word of six or more letters, all capitals: a
// variable, a constant or a keyword as code writes it (GLOBSORT, PGDATA,
// HISTSIZE), which people do not paraphrase. Shorter ones are as often
// acronyms (HTTPS, NGINX, OAUTH), names like any other, and in a question
// typed in capitals (shouting) no word is written so for a reason.
func capitalsName(w, query string) bool {
	n := 0
	for _, r := range w {
		if !unicode.IsUpper(r) {
			return false
		}
		n++
	}
	return n >= 6 && !shouted(query)
}

// shouted reports a question most of whose words of letters are written
// in capitals.
func shouted(query string) bool {
	upper, words := 0, 0
	for _, w := range strings.FieldsFunc(query, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if utf8.RuneCountInString(w) < 2 {
			continue
		}
		words++
		if strings.ToUpper(w) == w && strings.ToLower(w) != w {
			upper++
		}
	}
	return words > 0 && 2*upper > words
}

// properName reports a word written as a proper name is: a capital, then
// three or more lower-case letters (Hibernate, Ubuntu, Tokyo). An
// abbreviation or a symbol (DBP, GATA3, scFv, T-helper) is often written
// out, or otherwise, by the passage that answers ("diastolic blood
// pressure"): on SciFact's claims, 19 of 29 such caps fell on claims whose
// relevant abstract was among the first five results.
func properName(w string) bool {
	rs := []rune(w)
	if len(rs) < 4 || !unicode.IsUpper(rs[0]) {
		return false
	}
	for _, r := range rs[1:] {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// productName reports a proper name (properName) or one with a number
// after it, as products write their major release ("Jinja2", "Python3",
// "Angular2"). For strayName only: the model's missing_proper_name
// feature was fitted on properName.
func productName(w string) bool {
	return properName(strings.TrimRightFunc(w, unicode.IsDigit))
}

// stemOf reports whether lexeme is word's stem as absentWords matches
// them (stemPrefix).
func stemOf(word, lexeme string) bool { return stemPrefix(word, lexeme) > 0 }

// stemPrefix is how many letters the lower-cased word shares with the
// start of lexeme when that is all of it, or all but its last letter, and
// at least three letters (a lexeme is the word's stem: cooki for cookies,
// hibern for Hibernate); 0 otherwise.
func stemPrefix(word, lexeme string) int {
	lw, stem := []rune(strings.ToLower(word)), []rune(lexeme)
	n := 0
	for n < len(lw) && n < len(stem) && lw[n] == stem[n] {
		n++
	}
	if n >= 3 && n >= len(stem)-1 {
		return n
	}
	return 0
}

// queryWords splits text into words: letters and digits, joined by inner
// underscores, hyphens and dots (pg_stat_activity, utf-8, os.path); the
// text of scripts written without spaces is left out (see below).
func queryWords(text string) []string {
	// Characters of scripts written without spaces end a word: they are
	// words of their own, matched as bigrams ("Excelでピボットテーブルを
	// 作成" holds the name Excel, not a name of 18 characters).
	isWord := func(r rune) bool {
		return (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') && !analyze.Unspaced(r)
	}
	var words []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return !isWord(r) && r != '-' && r != '.' }) {
		f = strings.TrimFunc(f, func(r rune) bool { return !isWord(r) })
		// Underscores around a word are emphasis (_word_), except a
		// Python special name's (__version__, pkg.__init__), which are
		// part of it.
		if !dunder(f) {
			f = strings.Trim(f, "_")
			f = strings.TrimFunc(f, func(r rune) bool { return !isWord(r) })
		}
		if f != "" && len(f) <= 100 {
			words = append(words, f)
		}
	}
	return words
}

// dunder reports a word one of whose dotted parts is a Python special
// name: two underscores, a letter, more, and two underscores
// ("__init__", "mypkg.__version__", "__init__.py").
func dunder(w string) bool {
	for _, part := range strings.Split(w, ".") {
		if len(part) > 4 && strings.HasPrefix(part, "__") && strings.HasSuffix(part, "__") && unicode.IsLetter(rune(part[2])) {
			return true
		}
	}
	return false
}

// sentenceStarts returns the words of query that open a sentence after
// the first one (after ".", "!" or "?" and a blank) wherever query writes
// them: their capital says nothing ("My worker stops. Occasionally it
// hangs.", "… automatically? Thanks!"), as the first word's does not.
func sentenceStarts(query string) map[string]bool {
	out := map[string]bool{}
	mid := map[string]bool{}
	for _, m := range sentenceStart.FindAllStringSubmatchIndex(query, -1) {
		if abbreviated(query[:m[0]]) {
			continue // "… a broker, e.g. Kafka": no sentence ends there
		}
		out[query[m[2]:m[3]]] = true
	}
	for _, m := range wordAt.FindAllStringIndex(query, -1) {
		w := query[m[0]:m[1]]
		if !out[w] {
			continue
		}
		before := strings.TrimRight(query[:m[0]], " \t\n\"'“”‘’()")
		if before != "" && (!strings.HasSuffix(before, ".") && !strings.HasSuffix(before, "!") && !strings.HasSuffix(before, "?") ||
			abbreviated(strings.TrimSuffix(before, "."))) {
			mid[w] = true // written capitalised inside a sentence too: a name
		}
	}
	for w := range mid {
		delete(out, w)
	}
	return out
}

// abbreviated reports whether text ends with an abbreviation that a
// period follows without ending the sentence.
func abbreviated(text string) bool {
	f := strings.Fields(strings.ToLower(text))
	if len(f) == 0 {
		return false
	}
	switch strings.Trim(f[len(f)-1], "(\"'") {
	case "e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "fig":
		return true
	}
	return false
}

var (
	sentenceStart = regexp.MustCompile(`[.!?]["'”’)]*\s+["'“‘(]*(\p{Lu}\p{L}*)`)
	wordAt        = regexp.MustCompile(`\p{L}[\p{L}\p{N}_]*`)
)

// unitSymbols are the symbols of units of measure as people write them
// after a number: of size, time, frequency and rate.
var unitSymbols = map[string]bool{
	"B": true, "KB": true, "kB": true, "MB": true, "GB": true, "TB": true, "PB": true,
	"KiB": true, "MiB": true, "GiB": true, "TiB": true, "Kb": true, "Mb": true, "Gb": true,
	"kb": true, "mb": true, "gb": true, "tb": true, "ms": true, "us": true, "µs": true, "ns": true,
	"Hz": true, "kHz": true, "MHz": true, "GHz": true, "bps": true, "kbps": true, "Kbps": true,
	"Mbps": true, "Gbps": true, "KBps": true, "MBps": true, "GBps": true, "px": true, "dpi": true,
}

// joinedUnits are the unit symbols written joined to a number only
// ("16M", "512Mi", "30s"): alone they are letters or words.
var joinedUnits = map[string]bool{"K": true, "M": true, "G": true, "T": true, "k": true, "Ki": true, "Mi": true,
	"Gi": true, "Ti": true, "s": true, "m": true, "h": true, "d": true}

// quantityForm matches a number joined to its unit ("16MB", "500ms").
var quantityForm = regexp.MustCompile(`^[0-9]+(?:\.[0-9]+)?([A-Za-zµ]+)$`)

// quantity reports whether word is a quantity's unit, not a name: a unit
// symbol right after a number ("bigger than 16 MB"), or a number joined to
// one ("16MB"). The documents write "16 megabytes" or "16 * 1000 * 1000"
// as often as "MB": "How can I reject uploads bigger than 16 MB?" was
// refused because "no document mentions “MB”" over the Flask page that
// answers it.
func quantity(query, word string) bool {
	if m := quantityForm.FindStringSubmatch(word); m != nil {
		return unitSymbols[m[1]] || joinedUnits[m[1]]
	}
	if !unitSymbols[word] {
		return false
	}
	// Every time the question writes it: "The MB driver crashes on files
	// over 16 MB" names a driver.
	seen := false
	for i := 0; ; {
		j := strings.Index(query[i:], word)
		if j < 0 {
			return seen
		}
		j += i
		i = j + len(word)
		r, _ := utf8.DecodeLastRuneInString(query[:j])
		after, _ := utf8.DecodeRuneInString(query[j+len(word):])
		if analyze.WordRune(r) || analyze.WordRune(after) {
			continue // inside another word
		}
		before := strings.TrimRight(query[:j], " ")
		if r, _ := utf8.DecodeLastRuneInString(before); !(len(before) < j && r >= '0' && r <= '9') {
			return false
		}
		seen = true
	}
}

// hostName reports whether word, as query writes it, is a mail domain or
// a host name ("user@mylaptop.localdomain", "mail.example.com"): the
// asker's own, which documents do not mention and need not (a fresh-user
// trial's "My laptop sends mail as user@mylaptop.localdomain. How do I
// rewrite that …?" was refused, "no document mentions
// “mylaptop.localdomain”", over the Postfix documentation that answers
// it). It is no name to probe: a host name is dotted and ends with a
// domain suffix or a local one, or follows an "@".
func hostName(query, word string) bool {
	// A mail domain has its local part right before the "@" ("user@…"); a
	// decorator or an annotation (@functools.cached_property,
	// @SpringBootApplication) has none.
	for i := 0; ; {
		j := strings.Index(query[i:], "@"+word)
		if j < 0 {
			break
		}
		j += i
		if r, _ := utf8.DecodeLastRuneInString(query[:j]); j > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._%+-", r)) {
			return true
		}
		i = j + 1
	}
	// A host name is written in lower case and ends with a domain suffix;
	// a suffix that is also a code word (io, net, int, co) needs three
	// labels: java.io and ASP.NET are names of code, mail.example.io a host.
	labels := strings.Split(word, ".")
	last := labels[len(labels)-1]
	if len(labels) < 2 || last != strings.ToLower(last) || !hostSuffixes[last] {
		return false
	}
	return len(labels) >= 3 || !codeSuffixes[last]
}

// codeSuffixes are domain suffixes that end names of code too (java.io,
// System.Net, uint.int).
var codeSuffixes = map[string]bool{"io": true, "net": true, "int": true, "co": true, "test": true, "local": true, "home": true}

// hostSuffixes are the last labels of host names: generic and common
// country top-level domains, and the names of local networks and examples
// (RFC 2606, RFC 6762).
var hostSuffixes = map[string]bool{
	"com": true, "org": true, "net": true, "edu": true, "gov": true, "mil": true, "int": true, "io": true, "info": true,
	"biz": true, "co": true, "uk": true, "de": true, "fr": true, "nl": true, "eu": true, "us": true, "ca": true,
	"au": true, "jp": true, "cn": true, "ru": true, "br": true, "es": true, "se": true, "ch": true, "at": true,
	"be": true, "dk": true, "fi": true, "pl": true, "cz": true, "local": true, "localdomain": true, "localhost": true,
	"lan": true, "home": true, "internal": true, "intranet": true, "corp": true, "example": true, "test": true,
	"invalid": true,
}

// Identifier reports whether word is written as code: an underscore inside
// it (pg_stat_io, io_method) or dotted parts of two or more letters each
// (os.path, pg_hba.conf). People do not paraphrase such a name: when no
// document contains it, no document is about it.
func Identifier(word string) bool {
	if strings.Contains(strings.Trim(word, "_"), "_") {
		return true
	}
	parts := strings.Split(word, ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if utf8.RuneCountInString(p) < 2 || strings.IndexFunc(p, unicode.IsLetter) < 0 {
			return false
		}
	}
	return true
}

// NameLike reports whether word looks like a name or an identifier rather
// than an ordinary word: it has a digit and a letter (42P01, ipv6), an
// underscore (io_method), a capital after a lower-case letter (MongoDB,
// CloudNativePG), two or more letters all capitals (AOF, RDS), a dot
// between parts of two or more letters each (os.path, math.fma; not e.g),
// the last of which may be one capital (Go's testing.T, a type of its
// package), or a leading capital when it is not the first word of the sentence
// (Redis, Kubernetes), other than a month's or a day's (calendarWords). A
// single character is not; scripts without case (CJK) are never name-like
// by case.
func NameLike(word string, first bool) bool {
	if parts := strings.Split(word, "."); len(parts) > 1 {
		dotted := true
		for i, p := range parts {
			// "I" and "A" open the next sentence of a question typed
			// without a space after the full stop ("migration.I get").
			typeName := i == len(parts)-1 && i > 0 && len(p) == 1 && p[0] >= 'B' && p[0] <= 'Z' && p[0] != 'I'
			dotted = dotted && (utf8.RuneCountInString(p) >= 2 || typeName) && strings.IndexFunc(p, unicode.IsLetter) >= 0
		}
		if dotted {
			return true
		}
	}
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
	return !first && unicode.IsUpper(r) && !calendarWords[strings.ToLower(word)]
}

// calendarWords are the English names of months and days, capitalised by
// convention, not as names: "a range between two dates, like 15-17
// January 2016" was refused because the best passages (Babel's
// format_interval) do not mention January.
var calendarWords = map[string]bool{"january": true, "february": true, "march": true, "april": true, "may": true, "june": true,
	"july": true, "august": true, "september": true, "october": true, "november": true, "december": true,
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true, "saturday": true, "sunday": true}
