package search

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/analyze"
	"github.com/ragd-dev/ragd/internal/store"
)

// The retrieval statements are in internal/store (store.Queue*): queued on
// one pgx.Batch and sent in one round trip inside the tenant transaction, so
// nothing in the batch can depend on another statement's result: the vector
// leg's plan is picked from the tenant's chunk count read with the tenant
// (tenant.Tenant.ChunkCount), and the keyword statements derive the query's
// lexemes themselves.

// legHit is one chunk a retrieval leg returned, with what a Result cites.
type legHit struct {
	id    uuid.UUID
	value float64 // cosine distance (vector leg) or BM25 score (keyword leg)
	chunk chunkContent
	// matched are the query lexemes the chunk contains (keyword leg only).
	matched []string
}

// chunkContent is a chunk's text and source.
type chunkContent struct {
	DocumentID                             uuid.UUID
	ChunkIndex, StartOffset, EndOffset     int32
	HeadingPath, Content, SourceURI, Title string
	PageStart, PageEnd                     int32 // 0: not a paged document
	DocChunks                              int32
	Anchor                                 string // "": none known
	// Sections, SectionAnchors and AnchorMarks are the chunk's sections'
	// heading paths and anchors, and where its anchors change
	// (store.LegRow).
	Sections, SectionAnchors, AnchorMarks []string
}

// legQuery describes one search's retrieval for queueRetrieval.
type legQuery struct {
	model       VectorModel // the tenant's model: the vector leg reads only its vectors
	tenantID    uuid.UUID
	chunkCount  int64     // tenant.Tenant.ChunkCount: picks the exact or HNSW plan
	vector      []float32 // nil: no vector leg
	keywordText string    // "": no keyword leg
	// requiredText is keywordText without the alternative forms of the
	// question's words (alternates: the joined forms of hyphenated words,
	// the other number of nouns the stemmer does not conflate) that the
	// search adds: the question's own terms.
	requiredText string
	alternates   []analyze.Alternate
	// ordinary are the question's ordinary words (ordinaryWords), whose
	// absence a small tenant weighs less (absentWeight).
	ordinary []string
	// legText is the keyword leg's text: keywordText without the nouns'
	// other numbers, which the leg adds (words, forms) only where no
	// readable chunk has the word as written.
	legText      string
	words, forms []string
	kana         bool // the question holds kana (analyze.AbsentBigramCounts)
	// wording are the lexemes of the words phrasing the request
	// (requestWording): no evidence when no chunk has them.
	wording map[string]bool
	// phrasing are the words phrasing a question in another language than
	// English (analyze.QuestionLanguage: "wie", "viele", "qui"): no
	// evidence either when no chunk has them, whatever the tenant's text
	// search configuration made of them.
	phrasing []string
	tsConfig string
	n        int
	vectorN  int // the vector leg's depth (more than n when some hits may be dropped: Searcher.representable)
	k1, b    float64
	filtered bool
	prefix   string
	metadata []byte
	// probes are the query's names and identifiers checked against the
	// tenant's vocabulary (missingSQL).
	probes []probe
	// releaseNames are the names of the query's release names (releases),
	// checked for being written with a number anywhere (versionedNames).
	releaseNames []string
	// releaseDotted marks the names that count only when written before
	// a dotted release number (release.lower).
	releaseDotted []bool
	// releases are the query's releases, checked for being written with
	// more parts (writtenReleases).
	releases []release
	// bareNumbers are the numbers of those releases, each with a spelling
	// of it as a version without a name (bareSpellings), pairwise, checked
	// for being written (bareReleases).
	bareNumbers, bareSpellings []string
	// families are the families of the query's long identifiers, checked
	// for a member some chunk writes (store.QueueIdentifierFamilies).
	families []store.IdentifierFamily
}

// legResults receives the batch's rows.
type legResults struct {
	vec, kw []legHit
	// idfSum is Σ idf over the query's lexemes, counting a lexeme no chunk
	// has as df = 0 (maximally rare: a question about something absent from
	// the corpus then scores a low confidence).
	idfSum float64
	// lexemes is the number of query lexemes (0: stop words only).
	lexemes int
	// idf is each query lexeme's idf (absent lexemes maximally rare).
	idf map[string]float64
	// absentIDF is Σ idf over the query's lexemes no chunk the caller can
	// read has (each as rare as a lexeme no chunk has); absent are those
	// lexemes.
	absentIDF float64
	absent    []string
	// unreadable are the query's lexemes no chunk the caller can read has
	// (absent leaves out the question's phrasing and CJK bigrams that may
	// span a word boundary): the words a refusal may name.
	unreadable []string
	// missing are the probes no chunk of the tenant contains.
	missing []string
	// compounds are the lexemes of the question's words that have an
	// alternative form, as written and in that form (analyze.Alternates).
	compounds []store.CompoundLexemes
	// versioned are the release names the documents write with a number.
	versioned []string
	// bare are the release numbers the documents write as a version
	// without a name (bareReleases).
	bare []string
	// written are the releases (as the question writes them) the
	// documents write, with more parts perhaps (writtenReleases).
	written []string
	// familied are the query's identifiers of a family the documents
	// write a member of.
	familied []string
	// coded are the languages the query names whose code the documents
	// write (languageCodes).
	coded []string
	// names are what the question names (namesOf), probed or not.
	names questionNames
	// ranVector and ranKeyword say which legs ran (the keyword leg does not
	// for a query of stop words only).
	ranVector, ranKeyword bool
	// vecRead is how many rows the vector leg read, before the hits the
	// model cannot represent were dropped: 0 means no chunk passed the
	// filters.
	vecRead int
}

// queueRetrieval queues the statements of both legs on b; their rows land in
// out when the batch is closed.
func (s *Searcher) queueRetrieval(b *pgx.Batch, q legQuery, out *legResults) error {
	s.queueKeyword(b, q, out)
	return s.queueVector(b, q, q.genericPlans(), out)
}

// queueKeyword queues the keyword leg's statements (none without
// keywordText): the leg, the question's terms with their document
// frequencies, and the probes for what it names.
func (s *Searcher) queueKeyword(b *pgx.Batch, q legQuery, out *legResults) {
	if q.keywordText != "" {
		if len(q.alternates) > 0 {
			words, forms := make([]string, len(q.alternates)), make([]string, len(q.alternates))
			for i, a := range q.alternates {
				words[i], forms[i] = a.Word, a.Form
			}
			// Queued first: KeywordTerms' callback reads them.
			store.QueueCompoundLexemes(b, q.tsConfig, words, forms, func(c []store.CompoundLexemes) error {
				out.compounds = c
				return nil
			})
		}
		store.QueueKeywordTerms(b, store.KeywordTermsParams{TsConfig: q.tsConfig, Query: q.keywordText, Required: q.requiredText, TenantID: q.tenantID},
			func(terms []store.KeywordTerm) error {
				// everyday are the absent everyday words (everydayWord).
				var everyday []string
				counted := 0 // the lexemes the signals count
				// The lexemes a readable chunk has: a joined form among them,
				// added by the search or written by the question itself
				// ("auto-vacuum, or autovacuum"), is its word in the documents.
				joinedDF := map[string]int64{}
				for _, t := range terms {
					if t.Readable {
						joinedDF[t.Lexeme] = t.DF
					}
				}
				for _, t := range terms {
					lexeme, df, n := t.Lexeme, t.DF, t.ChunkCount
					if t.Optional {
						// A joined form is the question's word written
						// otherwise, not a term of its own.
						continue
					}
					if jdf, ok := writtenJoined(out.compounds, lexeme, joinedDF); ok && (df == 0 || !t.Readable) {
						// The word is in the documents, written joined.
						df, t.Readable = jdf, true
					}
					if !t.Readable {
						// Only chunks the caller cannot read have it: to
						// the caller it is in no document, as the reason
						// and missing_terms say. Counted present, one
						// hidden chunk holding a guessed word flipped a
						// restricted reader's answer from refused to
						// answered (h-break13).
						df = 0
					}
					out.lexemes++
					if df == 0 && analyze.IsOperatorWord(lexeme) {
						// An operator no chunk writes (a prose arrow, "Settings
						// -> Network", where the documents write "→") is no
						// missing subject: neither counted nor named.
						continue
					}
					if df == 0 && (q.wording[lexeme] || phrases(q.phrasing, lexeme)) {
						// "would", "know", "need" in no document: the
						// question's phrasing, not a subject the documents
						// lack; neither counted nor named.
						continue
					}
					if !t.Readable && analyze.AbsentBigramCounts(lexeme, q.kana) {
						out.unreadable = append(out.unreadable, lexeme)
					}
					if df == 0 && !analyze.AbsentBigramCounts(lexeme, q.kana) {
						// A CJK bigram no chunk has that may span a word
						// boundary of the question (CJK text has no spaces)
						// is not a missing concept: it does not count
						// against the coverage.
						continue
					}
					idf := math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
					if df == 0 && ordinary(q.ordinary, lexeme) {
						idf *= absentWeight(n)
						if everydayWord(q.ordinary, lexeme) {
							everyday = append(everyday, lexeme)
						}
					}
					out.idfSum += idf
					counted++
					if df == 0 {
						out.absentIDF += idf
						out.absent = append(out.absent, lexeme)
					}
					if out.idf == nil {
						out.idf = map[string]float64{}
					}
					out.idf[lexeme] = idf
				}
				if len(everyday) == len(out.absent) && 2*len(everyday) < counted {
					// Every word no chunk has is an everyday word, and
					// they are fewer than half the question's terms: the
					// question's phrasing, most likely, not its subject
					// ("How do I send po files by email?" asks about
					// sending by email, which no chunk has: half of it).
					for _, l := range everyday {
						d := out.idf[l] * (1 - everydayWeight)
						out.idf[l] -= d
						out.idfSum -= d
						out.absentIDF -= d
					}
				}
				return nil
			})
		store.QueueKeywordLeg(b, store.KeywordLegParams{TSConfig: q.tsConfig, TenantID: q.tenantID, Query: cmp.Or(q.legText, q.keywordText), Words: q.words, Forms: q.forms,
			K1: q.k1, B: q.b, PerTerm: s.PerTermCap(), N: q.n, Filtered: q.filtered, Prefix: q.prefix, Metadata: q.metadata},
			collectHits(&out.kw))
		if len(q.probes) > 0 {
			words, texts, literal, kana := make([]string, len(q.probes)), make([]string, len(q.probes)), make([]bool, len(q.probes)), make([]string, len(q.probes))
			for i, p := range q.probes {
				words[i], texts[i], literal[i] = p.word, p.text, p.literal
				if len(p.bigrams) > 0 {
					kana[i] = store.KanaPattern(p.word)
				}
			}
			store.QueueMissingTerms(b, store.MissingTermsParams{TSConfig: q.tsConfig, TenantID: q.tenantID, Words: words, Probes: texts, Literal: literal, Kana: kana},
				func(missing []string) error {
					out.missing = found(q.probes, missing)
					out.coded = codedLanguages(q.probes, missing)
					return nil
				})
		}
		if len(q.releaseNames) > 0 {
			store.QueueVersionedNames(b, q.tsConfig, q.tenantID, q.releaseNames, q.releaseDotted, func(found []string) error {
				out.versioned = found
				return nil
			})
		}
		if len(q.releases) > 0 {
			written, names, numbers := make([]string, len(q.releases)), make([]string, len(q.releases)), make([]string, len(q.releases))
			for i, r := range q.releases {
				written[i], names[i], numbers[i] = r.written, r.name, r.number
			}
			store.QueueWrittenReleases(b, q.tsConfig, q.tenantID, written, names, numbers, func(found []string) error {
				out.written = found
				return nil
			})
		}
		if len(q.bareNumbers) > 0 {
			store.QueueBareReleases(b, q.tenantID, q.bareNumbers, q.bareSpellings, func(found []string) error {
				out.bare = found
				return nil
			})
		}
		if len(q.families) > 0 {
			store.QueueIdentifierFamilies(b, q.tsConfig, q.tenantID, q.families, func(found []string) error {
				out.familied = found
				return nil
			})
		}
	}
}

// queueVector queues the vector leg (nothing without a query vector) last
// on b: the HNSW settings last to the end of the transaction. generic says
// b runs on generic plans (store.GenericPlans).
func (s *Searcher) queueVector(b *pgx.Batch, q legQuery, generic bool, out *legResults) error {
	if q.vector != nil && len(q.vector) != q.model.Embedder.Dims() {
		return fmt.Errorf("query vector has %d dimensions, model has %d", len(q.vector), q.model.Embedder.Dims())
	}
	if q.vector != nil {
		p := store.VectorLegParams{Plan: store.VectorExact, ModelID: q.model.ID, TenantID: q.tenantID, Vector: q.vector, N: q.vectorN,
			AfterGenericPlans: generic}
		switch {
		case q.filtered:
			p.Plan, p.Prefix, p.Metadata = store.VectorFiltered, q.prefix, q.metadata
		case q.chunkCount > s.exactThreshold():
			p.Plan, p.EfSearch = store.VectorHNSW, hnswEfSearch(q.vectorN)
		}
		if err := store.QueueVectorLeg(b, p, collectHits(&out.vec)); err != nil {
			return err
		}
	}
	return nil
}

// genericPlans reports whether the retrieval batch runs on generic plans
// (store.GenericPlans): when it holds the keyword leg. The keyword
// statements read the same rows under any plan and plan alike for every
// tenant (keyword_search plans its own statements), so planning them at
// every search, as the pool's force_custom_plan does, only cost time
// (about 1.3 ms of the manual's 13 ms in PostgreSQL); the vector leg
// switches back to custom plans (QueueVectorLeg).
func (q legQuery) genericPlans() bool { return q.keywordText != "" }

// hnswEfSearch is the HNSW walk's hnsw.ef_search for n results: at least 2×
// the 2n candidates the walk reads, at least 100, at most pgvector's 1000.
func hnswEfSearch(n int) int { return min(1000, max(100, 4*n)) }

// collectHits stores a leg's rows in *dst.
func collectHits(dst *[]legHit) func([]store.LegRow) error {
	return func(rows []store.LegRow) error {
		hits := make([]legHit, len(rows))
		for i, r := range rows {
			hits[i] = legHit{id: r.ChunkID, value: r.Value, matched: r.Matched, chunk: chunkContent{
				DocumentID: r.DocumentID, ChunkIndex: r.ChunkIndex, StartOffset: r.StartOffset, EndOffset: r.EndOffset,
				HeadingPath: r.HeadingPath, Content: r.Content, SourceURI: r.SourceURI, Title: r.Title,
				PageStart: r.PageStart, PageEnd: r.PageEnd, DocChunks: r.DocChunks, Anchor: r.Anchor,
				Sections: r.Sections, SectionAnchors: r.SectionAnchors, AnchorMarks: r.AnchorMarks}}
		}
		*dst = hits
		return nil
	}
}

// ordinary reports whether an absent lexeme is one of the question's
// ordinary words (words, ordinaryWords): a lexeme is a prefix of its word
// (stemming cuts endings).
func ordinary(words []string, lexeme string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, lexeme) })
}

// ordinaryWords returns the words of query written in lower-case ASCII
// letters only, three or more (the first word also when only its initial
// is a capital): not a name ("Perl", "Kafka", "Mittagsmenü"), an
// identifier, a number, a hyphenated or joined word, a word of a script
// without spaces, or the word a determiner makes the subject ("the like
// operator", as for requestWording) unless it is the asker's own setting
// ("my project": possessives), whose absence counts whatever the tenant's
// size.
func ordinaryWords(query string) []string {
	var out []string
	prev := ""
	for i, f := range strings.Fields(query) {
		w := strings.Trim(f, ".,;:!?\"'()[]“”‘’")
		before := prev
		prev = strings.ToLower(w)
		if i == 0 && len(w) > 1 && w[0] >= 'A' && w[0] <= 'Z' {
			w = strings.ToLower(w[:1]) + w[1:]
		}
		if len(w) < 3 || !analyze.IsASCIILetters(w) || determiners[before] && !(possessives[before] && ownThings[strings.ToLower(w)]) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// possessives are the determiners that make a word the asker's own thing
// ("my project", "our app", "your code" as the asker quotes advice), and
// ownThings the things of the asker's own that a question names as its
// setting: the asker names them in their words, which the documents need
// not write, as any ordinary word (Flask-Login's "How do I install
// Flask-Login in my project?" was refused over its one page, "no document
// mentions “project”", in a held-out trial). Any other word after "my"
// may be the feature asked for ("how do I load my xliff file", a review):
// it stays the subject.
var (
	possessives = map[string]bool{"my": true, "our": true, "your": true}
	ownThings   = map[string]bool{"project": true, "projects": true, "app": true, "apps": true, "application": true,
		"applications": true, "code": true, "codebase": true, "program": true, "programs": true, "script": true, "scripts": true,
		"site": true, "website": true, "repo": true, "repository": true, "package": true, "module": true, "modules": true,
		"service": true, "services": true, "team": true, "company": true, "organization": true, "environment": true,
		"setup": true, "machine": true, "computer": true, "laptop": true, "server": true, "workflow": true, "pipeline": true,
		"tests": true, "users": true, "customers": true, "colleagues": true, "boss": true, "job": true, "work": true}
)

// everydayWord reports whether an absent lexeme is one of the question's
// ordinary words (ordinary) that is an everyday English word
// (analyze.Everyday).
func everydayWord(words []string, lexeme string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, lexeme) && analyze.Everyday(w) })
}

// everydayWeight scales the idf of an absent everyday word (everydayWord)
// when every word of the question no chunk has is one and they are fewer
// than half its terms, at any tenant size: a question phrases what it asks
// in words such as "so far", "still", "clear" or "whether", which the
// documents that answer it need not write, while the subject it asks
// about is most often a name or a specific word ("wget", "CSV", "xliff"),
// and with one of those absent the everyday words count in full. Word
// frequency alone cannot tell phrasing from a feature named in everyday
// words ("email", "lock", "date" are as frequent as "whether"): when the
// absent words are half the question or more, they are its subject.
// On the 64 development and trial tenants (`eval answers --set default`,
// 1,920 answerable and 744 unanswerable questions) this brought
// answerable questions refused 76 → 66 with unanswerable ones answered
// unchanged at 153 (the same with a third of the terms as the bound, 67
// and 153). Measured and dropped: half weight whatever else is absent, 65
// refused but 156 answered (wget over parfive's pages, doit's missing
// retry option); the vocabulary down to log-probability -10.5, 62 and 155
// (a cookie recipe over cookiecutter's pages, an opinion); the lesser of
// this and the small-tenant weight (absentWeight) in place of their
// product, 68 and 153.
const everydayWeight = 0.5

// absentWeight scales the idf of an ordinary question word (ordinary) no
// chunk of a tenant of n chunks has: fully from smallTenant chunks on,
// below that in proportion, never below absentFloor.
// A few chunks hold few of the words a question may use for what they
// say: over polib's 13 chunks, 12 of 30 answerable questions were refused
// for words such as "wrote", "find" or "quickest", each weighing more
// than any word the chunks have (an absent word's idf grows with the
// corpus, ln(2n+2), while every present word is in a large share of it).
// A name, an identifier or a word of another script no document writes
// counts whatever the tenant's size, and so do the missing-name signals.
func absentWeight(n int64) float64 {
	return math.Max(absentFloor, math.Min(1, float64(n)/smallTenant))
}

// absentFloor is the least an absent ordinary word weighs: over a tenant
// of a chunk or two, weighing n/smallTenant, the absent words of a
// feature the chunks lack weighed nothing, and such questions were
// answered from any chunk sharing one word ("can tinyq use redis instead
// of sqlite" at 0.67, a review). At half weight, the three 13-chunk
// trials refuse 9 of 90 answerable questions (21 at full weight) and 30
// of 36 unanswerable ones (32).
const absentFloor = 0.5

// smallTenant is the chunk count from which a word no chunk has weighs
// its full idf in the answerability signals (absentWeight). Every tenant
// the answerability model was fitted on, and every development and trial
// set but one, is larger.
const smallTenant = 40

// writtenJoined reports whether lexeme is one of the question's words with
// an alternative form as written (or a part of a hyphenated one) whose
// form a readable chunk has, with the form's document frequency
// (joinedDF).
func writtenJoined(compounds []store.CompoundLexemes, lexeme string, joinedDF map[string]int64) (int64, bool) {
	var df int64
	found := false
	for _, c := range compounds {
		if !slices.Contains(c.Written, lexeme) {
			continue
		}
		for _, j := range c.Joined {
			if d, ok := joinedDF[j]; ok {
				df, found = max(df, d), true
			}
		}
	}
	return df, found
}

// creditJoined adds to each keyword hit that contains a hyphenated word of
// the question written joined ("autovacuum" for "auto-vacuum") the word's
// lexemes as written: the chunk has the word, and the answerability
// signals count the question's terms a chunk has.
func creditJoined(hits []legHit, compounds []store.CompoundLexemes) {
	for i := range hits {
		for _, c := range compounds {
			if slices.ContainsFunc(c.Joined, func(j string) bool { return !slices.Contains(c.Written, j) && slices.Contains(hits[i].matched, j) }) {
				for _, w := range c.Written {
					if !slices.Contains(hits[i].matched, w) {
						hits[i].matched = append(hits[i].matched, w)
					}
				}
			}
		}
	}
}

// phrases reports whether lexeme is one of words, as written (the simple
// configuration) or as a stemmer shortened it: a start of the word of
// three letters or more ("viel" of "viele"), never longer than the word
// ("perl" is no form of Italian "per", "port" none of Spanish "por").
func phrases(words []string, lexeme string) bool {
	return slices.ContainsFunc(words, func(w string) bool {
		return w == lexeme || len(lexeme) >= 3 && strings.HasPrefix(w, lexeme)
	})
}
