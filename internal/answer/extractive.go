package answer

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragd-dev/ragd/internal/analyze"
)

// fallbackChars bounds the raw excerpt used when no source has a usable
// unit, maxQuoteChars a quoted sentence (a paragraph without punctuation is
// one long "sentence"), and maxPassageChars a whole passage.
const (
	fallbackChars   = 300
	maxQuoteChars   = 400
	maxPassageChars = 900
)

// maxCodeLines bounds a quoted code block longer than maxWholeCodeLines;
// it is cut after whole lines (codeCut) and marked with a "…" line.
const maxCodeLines = 12

// maxWholeCodeLines: a block up to this long is quoted whole. An example
// is a program, and cut at maxCodeLines it lost the body of the loop its
// last line opened: psycopg2's LISTEN/NOTIFY example ended on "while True:"
// and "…", before the conn.poll() and conn.notifies lines the question
// asked about.
const maxWholeCodeLines = 20

// codeCut returns how many of a long block's lines to quote: maxCodeLines,
// or fewer, down to half of it, so that the cut falls between statements:
// after a line that opens or continues nothing (no trailing ":", "{", "(",
// "[", "," or a backslash; no decorator or comment, which belong to what
// follows them) and before a line no deeper than the block's outermost
// one. Without such a place, the last line in that range that opens
// nothing; else maxCodeLines.
func codeCut(lines []string) int {
	n := min(maxCodeLines, len(lines))
	base := -1
	for _, l := range lines[:n] {
		if strings.TrimSpace(l) != "" && (base < 0 || indentOf(l) < base) {
			base = indentOf(l)
		}
	}
	// opens reports whether line i belongs to what follows it. A comment
	// does when a line follows it directly (a function's description); one
	// before a blank line is an example's printed output ("# ['body']").
	opens := func(i int) bool {
		t := strings.TrimSpace(lines[i])
		comment := strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#!") || strings.HasPrefix(t, "//")
		return t == "" || strings.ContainsAny(t[len(t)-1:], ":{([,\\") || strings.HasPrefix(t, "@") ||
			comment && i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != ""
	}
	fallback := n
	for k := n; k > n/2 && k < len(lines); k-- {
		if opens(k - 1) {
			continue
		}
		if fallback == n && opens(n-1) {
			fallback = k
		}
		if next := lines[k]; strings.TrimSpace(next) == "" || indentOf(next) <= base {
			return k
		}
	}
	return fallback
}

// cutCode returns a long block's first lines up to its cut (codeCut) and
// "…", and, when a line below the cut holds question terms the first
// lines lack, the lines around the one holding most of them between "…"
// lines: structlog's example of JSON logging was cut after "# Also print
// structured tracebacks." and before the dict_tracebacks processor the
// question asked for, and its Flask example before the bind_contextvars
// call that adds the request ID. The first lines stay: what the window's
// lines belong to is there.
func cutCode(lines, query []string) []string {
	return cutAt(lines, codeCut(lines), query)
}

// cutAt returns lines[:k] and "…", with the window around the line below
// k holding most of the question's terms that lines[:k] lack (cutCode).
func cutAt(lines []string, k int, query []string) []string {
	kept := map[string]bool{}
	for _, l := range lines[:k] {
		for _, t := range terms(l) {
			kept[t] = true
		}
	}
	best, most := -1, 0
	for j := k; j < len(lines); j++ {
		n := 0
		for _, t := range uniq(terms(lines[j])) {
			if !kept[t] && slices.Contains(query, t) {
				n++
			}
		}
		if n > most {
			best, most = j, n
		}
	}
	if best < 0 && k < len(lines) {
		// The first lines end on a comment holding the question's words
		// ("# Also print structured tracebacks."): it says what the
		// lines after it do, and those are the answer.
		last := strings.TrimSpace(lines[k-1])
		comment := strings.HasPrefix(strings.TrimLeft(last, ". >"), "#") || strings.HasPrefix(last, "//")
		if comment && slices.ContainsFunc(terms(last), func(t string) bool { return slices.Contains(query, t) }) {
			best = k + codeContext
		}
	}
	out := lines[:k:k] // appending copies
	if best < 0 {
		return append(out, "…")
	}
	from, to := max(k, best-codeContext), min(len(lines), best+codeContext+1)
	if from > k {
		out = append(out, "…")
	}
	out = append(out, lines[from:to]...)
	if to < len(lines) {
		out = append(out, "…")
	}
	return out
}

// quotedLen is the length of u as an answer quotes it (render), for
// sizing passages: a sentence cut at maxQuoteChars; a code block whole up
// to maxCodeLines, a longer one by the lines before its cut (codeCut), and
// one render shows whole (up to maxWholeCodeLines) by its first
// maxCodeLines lines: measured whole, such an example pushed the sentence
// after it out of its passage, and the LISTEN/NOTIFY answer chose the
// example's printed output over the example.
// Measured whole, a long block of examples never fitted after the sentence
// announcing it, and the answer ended on "These examples return true except
// as noted:".
func quotedLen(u unit) int {
	if u.kind != unitCode {
		if len(u.text) <= wholeUpTo(maxQuoteChars) {
			return len(u.text)
		}
		return maxQuoteChars
	}
	lines := strings.Split(u.text, "\n")
	if len(lines) <= maxCodeLines {
		return len(u.text)
	}
	k := maxCodeLines
	if len(lines) > maxWholeCodeLines {
		k = codeCut(lines)
	}
	return len(strings.Join(lines[:k], "\n")) + len("\n…")
}

// rankDecay is how much each rank below the first discounts a source's
// passages (weight 1 / (1 + rankDecay·rank)): retrieval ranked the sources,
// so a passage from a lower one must cover clearly more of the question to be
// preferred. Chosen on the tuning split of tenants/pgdocs/answers.jsonl
// (docs/EVAL.md).
const rankDecay = 0.25

// headingWeight is the share of a question term's weight credited to every
// passage of a source whose title or heading path holds the term: the
// heading names the subject that the passage's sentences leave implicit, so
// it counts as if the passage said it (0.9 lost the tuning split's ILIKE
// sentence, whose "pattern" only the heading "9.7. Pattern Matching" says).
const headingWeight = 1.0

// codeWeight is the share of a question term's weight credited to a
// passage that has the term only in its code: almost full, as code says
// what to run, but a hair less than prose, which says what the code is
// for ("To rename an existing table:" over "To rename an existing column:"
// when both examples' code reads ALTER TABLE).
const codeWeight = 0.99

// outputWeight is the weight of a question term that only a program's
// printed output in the passage holds (unit.output).
const outputWeight = 0.5

// definitionWeight is the extra share of a question term's weight credited
// to a passage that opens with the definition of that term (a definition
// list entry "work_mem (integer): Sets…", or a table row keyed by it): "What
// does X do?" is answered where X is defined, not where it is mentioned.
const definitionWeight = 1.0

// namingWeight credits a passage that names a concrete thing the question
// does not (a command, function, setting or SQL keyword, or code), in units
// of the question terms' mean weight: "How do I …?" is answered by naming
// what to run.
const namingWeight = 0.5

// supportShare is the share of the best passage's score at which another
// source's evidence is quoted too, as one supporting sentence after the best
// passage (at most maxSupport of them, best first), when that sentence alone
// scores as much (a source whose passage qualifies only by its neighbours
// added an unrelated sentence; on the tuning split 28 of 40 key-term hits
// against 29 of 40, with shorter answers; docs/EVAL.md): the scores are lexical
// evidence, and the best sentence of a source whose passage scores half as
// well is often the one that names what the question asks for (the command,
// where the best passage explains the concept); a source below the share
// adds nothing. Chosen on the tuning split of tenants/pgdocs/answers.jsonl
// (docs/EVAL.md).
const (
	supportShare = 0.5
	maxSupport   = 2
)

// entryShare is the share of the best passage's evidence at which a
// sentence beside it is quoted when the passage opens a definition entry
// and the sentence belongs to the same entry: the head earns the defined
// term's extra weight, which no later sentence of its entry can, and the
// sentence that answers what the question adds (ParseLDIF's "Deprecated
// since version 3.0: ldif.ParseLDIF() is deprecated." for what to use
// instead; LoopExit's "Errors in application programming can also lead to
// this exception being raised." for which mistakes cause it) held 0.42 and
// 0.32 of it.
const entryShare = 0.25

// leadWeight credits a passage that opens a section inside the source (the
// first sentence under a heading line), in units of the question terms'
// mean weight: documentation states what a section is about in its first
// sentence ("The ADD COLUMN syntax is used to add a new column to an
// existing table."), and the sentences after it qualify it ("When adding
// new columns that have CHECK constraints, …", which also names things and
// was quoted instead). Chosen on the tuning split of
// tenants/pgdocs/answers.jsonl with a fresh-user trial's SQLite questions as
// the tie-breaker (docs/EVAL.md).
const leadWeight = 2.0

// instructWeight is the credit, in mean idfs of the question's terms, of a
// passage that tells what to do (instructs) for a question that asks how,
// as much as leading a section: the sentence that says "select the
// transaction and go to File → Print Checks" answers how, the section's
// first sentence holding the same words ("Checks are printed from the
// account register") does not.
const instructWeight = 1.0

// procedureLeadShare is the share of leadWeight a section's first
// sentence earns for a question asking how (measured on the development
// answer checks, 171 questions of four corpora: 0.5 and 0.25 each gained
// 2 key terms and lost none).
const procedureLeadShare = 0.5

// focusWeight credits, in mean idfs of the question's terms, a passage
// that opens with the definition of the word a question names as a
// parameter, option or setting (focusTerms): "What does the heartbeat
// parameter of WebSocketResponse do?" is answered by heartbeat's item of
// the parameter list, not by the class's signature, which leads the
// entry and lists heartbeat=None among its parameters. As much as leading
// a section, which the signature does.
const focusWeight = leadWeight

// focusNouns name what the word before them is ("the heartbeat parameter",
// "the --port option", "the timeout keyword argument").
var focusNouns = map[string]bool{"parameter": true, "parameters": true, "param": true, "params": true,
	"argument": true, "arguments": true, "arg": true, "args": true, "kwarg": true, "kwargs": true, "keyword": true,
	"option": true, "options": true, "flag": true, "flags": true, "setting": true, "settings": true,
	"attribute": true, "attributes": true, "field": true, "fields": true, "property": true, "directive": true}

// notFocus are words before a focus noun that say which kind, not which
// one ("the default option", "a new setting", "its keyword arguments").
var notFocus = map[string]bool{"the": true, "a": true, "an": true, "this": true, "that": true, "these": true,
	"those": true, "which": true, "what": true, "each": true, "every": true, "some": true, "any": true, "all": true,
	"new": true, "default": true, "optional": true, "required": true, "same": true, "other": true, "my": true,
	"your": true, "its": true, "their": true, "our": true, "following": true, "global": true, "extra": true,
	"custom": true, "additional": true, "config": true, "configuration": true, "command": true, "line": true,
	"command-line": true, "cli": true, "and": true, "or": true, "of": true, "to": true, "in": true, "for": true,
	"with": true, "no": true, "valid": true, "available": true, "possible": true, "named": true, "called": true}

// focusTerms returns the query terms (by index) of the words a question
// names as a parameter, option or setting: the word before the noun that
// says so ("the heartbeat parameter of WebSocketResponse", "the timeout
// keyword argument"), or the word after it: an identifier or an option
// ("the option --no-verify", "parameter max_msg_size"), or any word after
// "the parameter" ("the parameter heartbeat of …"). Nil when it names
// none.
func focusTerms(question string, qi map[string]int) map[int]bool {
	words := strings.Fields(question)
	clean := func(w string) string { return strings.Trim(w, "`'\"“”‘’()[]{},.;:?!") }
	var out map[int]bool
	mark := func(w string) {
		for _, t := range terms(w) {
			if strings.ContainsAny(w, "_.") && !strings.ContainsAny(t, "_.") {
				// An identifier is itself, not its parts: "work" and
				// "mem" of work_mem are maintenance_work_mem's too.
				continue
			}
			if i, ok := qi[t]; ok {
				if out == nil {
					out = map[int]bool{}
				}
				out[i] = true
			}
		}
	}
	for i := 0; i < len(words); i++ {
		if !focusNouns[strings.ToLower(clean(words[i]))] || i > 0 && focusNouns[strings.ToLower(clean(words[i-1]))] {
			continue
		}
		if i > 0 {
			if w := clean(words[i-1]); w != "" && !notFocus[strings.ToLower(w)] {
				mark(w)
			}
		}
		j := i
		for j < len(words) && focusNouns[strings.ToLower(clean(words[j]))] {
			j++
		}
		// After the noun: an identifier or an option, or any word when an
		// article opens the phrase ("the parameter heartbeat of …", "the
		// option autoclose").
		article := i > 0 && (strings.EqualFold(clean(words[i-1]), "the") || strings.EqualFold(clean(words[i-1]), "a") || strings.EqualFold(clean(words[i-1]), "an"))
		if j < len(words) {
			if w := clean(words[j]); strings.HasPrefix(w, "-") || strings.Contains(w, "_") || article && w != "" && !notFocus[strings.ToLower(w)] {
				mark(w)
			}
		}
	}
	return out
}

// leadsSection reports whether unit a of d is the first quotable unit of a
// section that a heading line inside the source started.
func leadsSection(d []unit, a int) bool {
	if d[a].section == 0 {
		return false
	}
	for x := a - 1; x >= 0 && d[x].section == d[a].section; x-- {
		if quotable(d[x]) {
			return false
		}
	}
	return true
}

// lengthPenalty is subtracted per unit beyond the first, so that a unit which
// adds nothing to a passage's coverage does not join it.
const lengthPenalty = 0.01

// identifierBoost multiplies the weight of a question term that is an
// identifier ("work_mem", "42P01", "5432"; see isIdentifierTerm): such a term
// names the one thing the question is about, and a passage without it does
// not answer.
const identifierBoost = 2

// isIdentifierTerm reports a term joined by underscores, one that mixes
// letters and digits, or a number of at least three digits.
func isIdentifierTerm(t string) bool {
	letters, digits := 0, 0
	for _, r := range t {
		if r >= '0' && r <= '9' {
			digits++
		} else {
			letters++
		}
	}
	return strings.Contains(t, "_") || digits > 0 && (letters > 0 || digits >= 3)
}

// conditions open a sentence with a condition, which may hold a reference
// to what came before ("If enabled they …").
var conditions = map[string]bool{"if": true, "when": true, "once": true, "unless": true}

// pronouns are the back-references a condition may hold.
var pronouns = map[string]bool{"it": true, "its": true, "they": true, "this": true, "these": true, "that": true, "those": true}

// backReferences open a sentence that leans on the one before it for its
// subject ("This method…", "It…", "For this purpose…").
var backReferences = map[string]bool{
	"this": true, "these": true, "that": true, "those": true, "it": true, "its": true, "they": true,
	"such": true, "thus": true, "therefore": true, "hence": true, "also": true, "then": true,
	"otherwise": true, "however": true, "here": true, "there": true, "so": true,
}

// Extractive answers without an LLM by quoting the contiguous passage of a
// source that best answers the question, then supporting sentences of other
// sources with strong evidence, every sentence followed by its source's
// "[n]"; maxSentences < 1 means DefaultMaxSentences.
//
// Sources are split into units (parseUnits): sentences, table rows (quoted
// with their header cells) and whole code blocks. A passage is a run of at
// most maxSentences consecutive sentences or rows of one source, code blocks
// between them included. It is scored by the question's content words it
// holds (lowercased, stop words removed, lightly stemmed), each counted once
// and weighted by its inverse document frequency over all the sources' units
// (Robertson & Zaragoza 2009, BM25's IDF), so the rare words of a question
// decide; identifiers count double (identifierBoost), a term the passage's
// first unit defines counts again (definitionWeight), a word in the source's
// title or heading path counts even where the passage lacks it
// (headingWeight; so does a word in the heading of the section inside the
// chunk the passage opens in, which it does not run past), and a passage
// naming a command, setting or code earns
// namingWeight; the sum is discounted by the source's rank (rankDecay), and
// by lengthPenalty per extra unit.
//
// Then, for each other source whose best passage scores at least
// supportShare of the best one's (at most maxSupport, best first), its best
// single sentence (with what a back-reference needs) is quoted after the
// passage, cited with its own number: lexical evidence at half the best
// score does not rule a source out, and its best sentence often names what
// the question asks for. So is the best passage's own source's best
// sentence outside the passage that holds a question term the passage
// lacks, at the same share, beside the other sources' (besideQuoted): the
// sentence that answers often sits next to the one the question's generic
// words chose. A sentence that reads as a quoted one, or is not prose
// (wordy), is left out.
//
// The best passage is then completed so that it reads on its own: a sentence
// that opens with a back-reference ("This…", "For this purpose…") brings the
// sentences before it it leans on, following sentences of the paragraph that
// refer back and name an identifier continue it, and code the passage
// introduces (ending with ":") or touches is quoted with it.
// Code is quoted as a fenced block, never cut inside a line; the citation of
// a passage that is only code follows the block. Citation-like markers inside
// quoted text are removed so that the only markers are the answer's own.
//
// If no unit shares a word with the question, the first sentences of the
// first source that has any are returned: retrieval judged it the most
// relevant, and the caller decides refusal before calling Extractive. The
// result is Refused only when every source is empty.
//
// The result has Mode ModeExtractive.
func Extractive(question string, sources []Source, maxSentences int) Result {
	if maxSentences < 1 {
		maxSentences = DefaultMaxSentences
	}
	docs := make([][]unit, len(sources))
	runs, messages := quotedRuns(question)
	pastes := len(messages) > 0 || quotesMessage(question)
	for i, s := range sources {
		docs[i] = parseTitledUnits(s.Content, s.HeadingPath, s.Titles, s.Code...)
		for j := range docs[i] {
			u := &docs[i][j]
			u.echo = u.kind == unitCode && echoes(u.text, runs) || u.kind == unitSentence && (restates(u.text, messages) || pastes && pasted(u.text, question))
		}
	}
	toggles := toggleTerms(question)
	markToggles(docs, toggles)
	query := append(questionTerms(question, docs), toggles...)
	src, from, to, ok, per := bestPassage(question, query, sources, docs, maxSentences)
	if !ok {
		src, from, to, ok = leadPassage(docs, maxSentences)
	}
	if !ok {
		return excerpt(sources)
	}
	from, to = complete(docs[src], from, to, maxSentences, query, asksProcedure(question), asksDefinition.MatchString(question), asksDifference.MatchString(question))
	replacing, retired := asksReplacement.MatchString(question), asksRetired.MatchString(question)
	if replacing {
		to = replacementFollows(docs[src], from, to, retired)
	}
	if asksWhether.MatchString(question) {
		to = restrictionFollows(docs[src], from, to, query)
	}
	to = beforePlanted(docs[src], from, to)
	to = defaultFollows(question, docs[src], from, to)
	options := questionOptions(question)
	var optionQuery []string
	if len(options) == 0 && asksWhichOption(question) {
		optionQuery = query
	}
	// The passages quoted, in the answer's order: the main one, then the
	// supporting sentences. They are rendered last, numbered as the answer
	// cites them (numberInOrder).
	type quote struct {
		src, from, to int
		options       []string
	}
	quotes := []quote{{src, from, to, append(slices.Clip(options), assignedLines(docs[src][from:to], query)...)}}
	cited := []int{src + 1}
	// Supporting sentences: the best sentence of each other source whose
	// best passage scores at least supportShare of the best, best first,
	// unless it reads the same as a quoted one, is in another language
	// than the question (foreign) or is not prose. A table
	// row is not: out of its table it is a fragment, and a catalogue's
	// rows match any question in passing (a plugin list's "status: 5 -
	// Production/Stable" was added to what exit code 5 means).
	var others []int
	for si, p := range per {
		// A change log's entry beside the answer ("Distribute #87:
		// setup.py doesn't try to convert distribute_setup.py anymore"
		// after why not to run setup.py install) is noise: Aside.
		if si != src && !sources[si].Aside && p.evidence > 0 && p.evidence >= supportShare*per[src].evidence {
			others = append(others, si)
		}
	}
	seen := []string{quoted(docs[src][from:to])}
	var single []passage
	if len(others) > 0 {
		_, _, _, _, single = bestPassage(question, query, sources, docs, 1)
	}
	// The main source's best sentence outside the quoted passage supports
	// it as another source's does, when it says what the passage does not:
	// a question term the passage lacks. The answer is often the sentence
	// beside the one holding the question's generic words (the paragraph
	// on context variables was quoted for what value a variable never
	// passed to render() has, and "Using UNDEFINED, or raising a NameError
	// is more explicit …" three sentences on was not; the first of two
	// renamed methods the question names, not the second). It takes no
	// other source's place: those are ranked by their best passage and
	// capped at maxSupport, it is ranked among them by its own evidence.
	type support struct {
		src  int
		p    passage
		rank float64 // the source's best passage's evidence, by which the supports are ordered
		how  bool    // howAfter's: code may be all it is
	}
	var cands []support
	for _, si := range others {
		cands = append(cands, support{si, single[si], per[si].evidence, false})
	}
	if p, found := besideQuoted(question, query, sources, docs, src, from, to); found {
		cands = append(cands, support{src, p, p.evidence, false})
	}
	if a, b, found := howAfter(question, query, docs[src], from, to); found {
		// Ranked and scored as the passage itself: its place is its
		// evidence, which the question's words cannot give it.
		cands = append(cands, support{src, passage{per[src].score, per[src].evidence, a, b}, per[src].evidence, true})
	}
	slices.SortStableFunc(cands, func(a, b support) int { return cmp.Compare(b.rank, a.rank) })
	said := saidBy(docs[src][from:to])
	returnAsked := asksReturn.MatchString(question)
	for _, c := range cands {
		si, p := c.src, c.p
		if si != src && len(cited) > maxSupport {
			continue
		}
		share, entry := supportShare, si == src && (inEntry(docs[src], from, to, p.from) ||
			parameterItemOf(docs[src], from, to, p.from) && newTerms(docs[src][p.from].terms, query, said) >= 2)
		if entry {
			share = entryShare
			if returnAsked && givesReturn.MatchString(docs[src][p.from].text) {
				// What the entry says it returns, asked for, whatever
				// the signature's weight above it (besideQuoted).
				share = 0
			}
		}
		if p.evidence <= 0 || p.evidence < share*per[src].evidence {
			continue
		}
		f, t := complete(docs[si], p.from, p.to, 1, query, false, false, false)
		if replacing {
			t = replacementFollows(docs[si], f, t, retired)
		}
		if entry && f < to {
			// Widened back to the entry's head, which the passage
			// quotes already: the sentences after the passage are what
			// it adds.
			f = to
		}
		t = beforePlanted(docs[si], f, t)
		t = defaultFollows(question, docs[si], f, t)
		if si == src && f < to && t > from {
			continue
		}
		// A sentence beside the passage that turns against the sentence
		// before it ("However, if the database is often busy with
		// multiple queries issued in concurrent sessions, …" after "(For
		// RAID 5 the parity drive should not be counted.)") is quoted
		// without the claim it turns against, which the question did not
		// ask about: with it, two sentences stood beside the answer for
		// one word. One that goes on about its subject ("This checks
		// whether …" under a method, "This class will start a Twisted
		// reactor …") is quoted with what it goes on from.
		if si == src && f < p.from && opensWithContrast(docs[si][p.from].text) {
			f = p.from
		}
		if q := quoted(docs[si][f:t]); !repeats(seen, q) && !repeatsCode(seen, docs[si][f:t]) && (wordy(q) || c.how) && docs[si][p.from].kind != unitRow &&
			!foreign(question, docs[src][from:to], docs[si][f:t]) {
			if si == src {
				// The passage's own source's sentence reads after it,
				// before the other sources'.
				quotes = slices.Insert(quotes, 1, quote{si, f, t, options})
			} else {
				quotes = append(quotes, quote{si, f, t, options})
				cited = append(cited, si+1)
			}
			seen = append(seen, q)
		}
	}
	order, number := numberInOrder(cited, len(sources))
	// plain is text without the names of releases and entries written
	// before quotes: a number in a name ("AWS_S3_MAX_MEMORY_SIZE") is none
	// the passages give.
	var text, plain string
	releaseAsked := asksRelease.MatchString(question)
	for i, q := range quotes {
		if i > 0 {
			text += "\n\n"
		}
		r := render(docs[q.src][q.from:q.to], number[q.src], q.options, query, optionQuery)
		if i > 0 {
			plain += "\n\n"
		}
		plain += r
		dated := r
		if releaseAsked {
			dated = withRelease(r, docs[q.src][q.from], sources[q.src].HeadingPath)
		}
		if dated != r {
			r = dated
		} else if i == 0 || quotes[i-1].src != q.src || docs[q.src][quotes[i-1].from].section != docs[q.src][q.from].section {
			// Once per section: a second quote of the same entry reads
			// on from the first.
			r = withEntryName(r, docs[q.src], q.from, sources[q.src].HeadingPath, question)
		}
		if i > 0 && quotes[i-1].src == q.src && !slices.ContainsFunc(docs[q.src][q.from:q.to], func(u unit) bool { return u.kind != unitCode }) {
			// Code alone, right after a quote of its own source, is
			// cited by that quote: its marker on a line of its own read
			// as a stray "[1]" under the code.
			r = strings.TrimSuffix(r, "\n\n["+strconv.Itoa(number[q.src])+"]")
		}
		text += r
	}
	if quantityQuestion(question) &&
		!givesQuantity.MatchString(citationMark.ReplaceAllString(fencedCode.ReplaceAllString(plain, ""), "")) {
		r := refusal(ModeExtractive)
		r.Reason = "the passages found give no number, which the question asks for"
		return r
	}
	return Result{
		Answer:           text,
		Citations:        citations(renumber(cited, number), reorder(sources, order)),
		InvalidCitations: []int{},
		Mode:             ModeExtractive,
		Order:            order,
	}
}

// besideQuoted returns the best one-sentence passage of source src
// outside the quoted units [from, to) that holds a question term none of
// them holds; found is false when there is none.
func besideQuoted(question string, query []string, sources []Source, docs [][]unit, src, from, to int) (passage, bool) {
	said := saidBy(docs[src][from:to])
	d := docs[src]
	masked := slices.Clone(docs)
	masked[src] = slices.Clone(d)
	// Asked what something returns, the sentence of the passage's entry
	// saying what it returns says what a passage without one does not,
	// whatever its words (asksReturn); the entry above's does not.
	returns := asksReturn.MatchString(question) && !slices.ContainsFunc(d[from:to], func(u unit) bool {
		return u.kind != unitCode && givesReturn.MatchString(u.text)
	})
	for i := range masked[src] {
		u := &masked[src][i]
		news := returns && i >= to && u.kind != unitCode && givesReturn.MatchString(u.text) && inEntry(d, from, to, i)
		for _, t := range u.terms {
			news = news || !said[t] && slices.Contains(query, t)
		}
		// Only the passage's own section, and no other entry's head or
		// list item: the next definition ("quote_ident(str, scope): …"
		// after parse_dsn's), a class's description under its
		// parameter's item, or another option's item ("Asks for
		// confirmation before it removes …" under --delete, quoted for
		// --force) is another subject, which the passage stopped short
		// of for that reason. A later sentence of another definition
		// entry may be the answer: a class's verify() method "checks
		// whether the password a user provides matches the stored
		// derived key", where the passage is the class's description.
		other := u.section != d[from].section || len(u.defines) > 0 && !slices.Equal(u.defines, d[from].defines) ||
			d[from].item != "" && u.item != "" && u.block != d[from].block // another item of the passage's list
		if other && u.section == d[from].section && namedEntry(*u, query, said) &&
			!(len(d[from].defines) > 0 && !slices.ContainsFunc(d[from].defines, func(t string) bool { return !slices.Contains(u.terms, t) })) {
			// Another entry the question names by what it defines
			// ("should I overwrite it or skip existing files": the
			// --skip-if-file-exists entry quoted, --overwrite-if-exists
			// beside it; "the difference between LazyFunction and
			// LazyAttribute") is what the question asks about too; not
			// the entry whose signature holds the whole of what the
			// passage defines (the class above its heartbeat
			// parameter's item, named as where the parameter is).
			other = false
		}
		if other && u.item != "" && newTerms(u.terms, query, said) >= 2 && parameterItemOf(d, from, to, i) {
			// The item of a parameter the signature the passage opens
			// with lists is the entry's own, not another entry: what the
			// question asks of the class may be what one parameter does
			// ("How many items will SimpleCache hold before it starts
			// deleting some?": "threshold (int) – the maximum number of
			// items the cache stores before it starts deleting some",
			// under cachelib's SimpleCache(threshold=500, …), in a
			// held-out trial). It must say two things the question asks
			// that the passage does not: the parameter's own name is
			// unsaid by the signature (withoutParameters), and "- url –
			// URL for the new Request object" beside requests.head's
			// entry said nothing new (a review).
			other = false
		}
		if i >= from && i < to || other || !news && u.kind != unitCode {
			u.planted = true
		}
	}
	_, _, _, _, per := bestPassage(question, query, sources[:src+1], masked[:src+1], 1)
	if per == nil || per[src].evidence <= 0 {
		return passage{}, false
	}
	return per[src], true
}

// saidBy returns the terms the units us say. A signature lists its
// parameters without saying what they do: a parameter the question names
// is not said by it, and its item further down the entry says it
// ("json_ensure_ascii (bool) – Passed to json.dumps …" under logzero's
// setup_logger(…, json_ensure_ascii=False)).
func saidBy(us []unit) map[string]bool {
	said := map[string]bool{}
	for _, u := range us {
		ts := u.terms
		if u.head {
			ts = terms(withoutParameters(u.text))
		}
		for _, t := range ts {
			said[t] = true
		}
	}
	return said
}

// newTerms counts the query terms of ts that said does not hold.
func newTerms(ts, query []string, said map[string]bool) int {
	n, seen := 0, map[string]bool{}
	for _, t := range ts {
		if !seen[t] && !said[t] && slices.Contains(query, t) {
			n++
		}
		seen[t] = true
	}
	return n
}

// parameterItemOf reports whether unit i of d, after the passage [from,
// to) that opens with a signature, is the item of one of its parameters
// (parameterOf) in the same entry: no other entry's head (a definition's
// first line, not a field's label such as "Returns") lies between.
func parameterItemOf(d []unit, from, to, i int) bool {
	if i < to || len(d[from].defines) == 0 {
		return false
	}
	for k := to; k <= i; k++ {
		if d[k].section != d[from].section || d[k].head && !entryField(d[k].defines) {
			return false
		}
	}
	return parameterOf(d[from].text, d[i].defines)
}

// parameterOf reports whether defines (a unit's defined terms) name a
// parameter of the signature head opens with: a name in its first
// parenthesised list, before its "=", ":" or the list's ",".
func parameterOf(head string, defines []string) bool {
	open := strings.IndexByte(head, '(')
	if open < 0 || len(defines) == 0 {
		return false
	}
	list := head[open+1:]
	if end := strings.IndexByte(list, ')'); end >= 0 {
		list = list[:end]
	}
	for _, p := range strings.Split(list, ",") {
		name, _, _ := strings.Cut(p, "=")
		name, _, _ = strings.Cut(name, ":")
		name = strings.Trim(strings.TrimSpace(name), "*")
		if name == "" {
			continue
		}
		if slices.ContainsFunc(terms(name), func(t string) bool { return slices.Contains(defines, t) }) {
			return true
		}
	}
	return false
}

// withoutParameters returns a definition's head without its first
// parenthesised list ("f(a, b=1): Does x." gives "f: Does x."); the head
// as it is when it holds none.
func withoutParameters(head string) string {
	open := strings.IndexByte(head, '(')
	if open < 0 {
		return head
	}
	depth := 0
	for i := open; i < len(head); i++ {
		switch head[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return head[:open] + head[i+1:]
			}
		}
	}
	return head
}

// inEntry reports whether unit i of d lies after the passage [from, to)
// inside the definition entry the passage opens: the passage starts at an
// entry's head, and no unit from the passage's end to i starts another
// entry (a definition's head, whatever it defines, but the item of one of
// the head's parameters: what follows them is the entry's; the item itself
// is one when it says more, parameterItemOf) or leaves the section.
func inEntry(d []unit, from, to, i int) bool {
	if len(d[from].defines) == 0 || i < to {
		return false
	}
	for k := to; k <= i; k++ {
		if d[k].section != d[from].section || otherEntry(d[from], d[k]) && !(k < i && d[k].item != "" && parameterOf(d[from].text, d[k].defines)) {
			// The items of the signature's own parameters are the
			// entry's, and so is what follows them ("Any additional
			// keyword arguments will be passed to redis.Redis." under
			// RedisCache's parameter list).
			return false
		}
	}
	return true
}

// otherEntry reports whether u, after the passage opening with p, starts
// another definition entry: a definition's head, whatever it defines, or
// a unit defining something else.
func otherEntry(p, u unit) bool {
	return u.head || len(u.defines) > 0 && !slices.Equal(u.defines, p.defines)
}

// howAfter returns, for a question that asks how, the unit of d after the
// passage [from, to) that tells how when the passage does not: the first
// sentence of its section after it that instructs ("To do so, remove it
// from the cmd2.Cmd.settable dictionary …") or offers the means ("You can
// use …") and names an identifier or announces code, else the section's
// first code after it. The passage is a section's opening, which names
// the question's words and earns the lead's credit; the option, function
// or command that answers comes further down, under no word the asker
// knew (three held-out trials' answers stopped before
// remove_settable('debug'), Scenario.continue_after_failed_step and
// multiline_commands). Found is false when the passage instructs already,
// or the section ends, another entry starts or the window (howWindow
// units) closes first; after a passage holding code (an example of what
// the feature does: cookiecutter's repository of templates in
// subdirectories, above "To activate one of templates within a
// subdirectory, use the --directory option:") only an instruction is
// quoted, not more code. The sentence or code holds a question
// term: a section often holds several tasks, and the next paragraph's
// instruction ("To print the request as well as the response, use
// --verbose.") under a question on keeping colours when piping is
// another task's.
func howAfter(question string, query []string, d []unit, from, to int) (a, b int, found bool) {
	if !asksProcedure(question) {
		return 0, 0, false
	}
	shows := false // the passage holds code: only an instruction may follow
	for _, u := range d[from:to] {
		if u.kind == unitSentence && (instructs(u.text) || offersMeans.MatchString(u.text)) {
			return 0, 0, false
		}
		shows = shows || u.kind == unitCode
	}
	code := -1
	for i := to; i < len(d) && i < to+howWindow; i++ {
		u := d[i]
		if u.section != d[from].section || otherEntry(d[from], u) {
			break
		}
		asked := slices.ContainsFunc(u.terms, func(t string) bool { return slices.Contains(query, t) })
		if u.kind == unitCode {
			if code < 0 && !u.echo && !u.output && asked {
				code = i
			}
			continue
		}
		if u.kind == unitSentence && asked && (instructs(u.text) || offersMeans.MatchString(u.text)) && !barePointer(u.text) &&
			(namesIdentifier(u.text) || namesDotted(u.text) || announces(u.text) && i+1 < len(d) && d[i+1].kind == unitCode) {
			return i, i + 1, true
		}
	}
	if code < 0 || shows {
		return 0, 0, false
	}
	if code > to && d[code-1].kind == unitSentence && announces(d[code-1].text) {
		// The sentence announcing the code says what it does
		// ("The cmd2.Cmd.remove_settable() convenience method makes this
		// easy:").
		return code - 1, code + 1, true
	}
	return code, code + 1, true
}

// howWindow bounds how far after a passage howAfter looks: a section's
// instruction follows its opening within a paragraph or two.
const howWindow = 8

// namedEntry reports whether u heads a definition entry (or a list's
// parameter item) whose defined term holds a question term the passage
// does not (said).
func namedEntry(u unit, query []string, said map[string]bool) bool {
	for _, t := range u.defines {
		if !said[t] && slices.Contains(query, t) {
			return true
		}
	}
	return false
}

// numberInOrder numbers n sources for an answer that quotes the sources
// cited (numbers from 1, in the order the answer quotes them): the quoted
// ones first, in that order, then the others in their given (rank) order,
// so an answer's markers read [1], [2], … and never start at [2]. order is
// the given index of each new position (nil when nothing moves); number is
// the new number of each given index.
func numberInOrder(cited []int, n int) (order []int, number []int) {
	number = make([]int, n)
	next := 1
	for _, c := range cited {
		if c >= 1 && c <= n && number[c-1] == 0 {
			number[c-1] = next
			next++
		}
	}
	for i := range number {
		if number[i] == 0 {
			number[i] = next
			next++
		}
	}
	order = make([]int, n)
	moved := false
	for i, m := range number {
		order[m-1] = i
		moved = moved || m != i+1
	}
	if !moved {
		return nil, number
	}
	return order, number
}

// renumber maps given source numbers to their new ones.
func renumber(ns []int, number []int) []int {
	out := make([]int, len(ns))
	for i, n := range ns {
		out[i] = number[n-1]
	}
	return out
}

// reorder returns sources in order (Result.Order): the source at new
// position i is sources[order[i]], its N i+1. A nil order keeps them.
func reorder(sources []Source, order []int) []Source {
	if order == nil {
		return sources
	}
	out := make([]Source, len(order))
	for i, j := range order {
		out[i] = sources[j]
		out[i].N = i + 1
	}
	return out
}

// repeats reports whether passage q says what one of the quoted passages
// already says: it contains q, or q contains it or ends its first line
// with one of its sentences, compared case-insensitively
// by their words and symbols, the punctuation of sentences aside
// (overlapping chunks, and a PDF's neighbouring sections, carry the same
// lines; a manual stored as HTML and as PDF writes "BASH_ALIASES: An
// associative array …" in one and "BASH_ALIASES An associative array …"
// in the other, and answers quoted both). Symbols count: ">" and ">>",
// "$*" and "$@" say different things. A dotted name counts by its last
// part: an API reference documents a function again under each module
// that exports it ("humanfriendly.format_size(num_bytes, …): Format a
// byte count …" and "humanfriendly.cli.format_size(…)"), and answers
// quoted the one description two or three times; only a signature's name,
// before "(": "pg_hba.conf" and "pg_ident.conf", "sql/cube.sql" and
// "sql/seg.sql" are different files.
func repeats(quotedPassages []string, q string) bool {
	norm := func(s string) string {
		s = qualifiedName.ReplaceAllString(s, "$1")
		var b strings.Builder
		space := false
		for _, r := range strings.ToLower(s) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
				if space && b.Len() > 0 {
					b.WriteByte(' ')
				}
				space = false
				b.WriteRune(r)
			case unicode.IsSpace(r) || strings.ContainsRune(sentencePunctuation, r):
				space = true
			default:
				// A symbol is a word of its own, each one.
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				b.WriteRune(r)
				space = true
			}
		}
		return b.String()
	}
	nq := norm(q)
	for _, p := range quotedPassages {
		if np := norm(p); strings.Contains(np, nq) || strings.Contains(nq, np) {
			return true
		}
		// Nor does q when its first line ends with a whole sentence of
		// one, of six words or more: a PDF's copy of the sentence runs on
		// from the line above it ("⇒configure.ac:11: the top level To
		// avoid this warning, decide …" after the HTML's "To avoid this
		// warning, decide …"). A sentence going on past it ("… is
		// disabled by default on Linux only; on Windows …") adds to it.
		first, _, _ := strings.Cut(q, "\n")
		nf := norm(first)
		for line := range strings.SplitSeq(p, "\n") {
			// (A sentence's line, not code's: examples share lines.)
			nl := norm(line)
			if endsSentence(strings.TrimSpace(line)) && strings.Count(nl, " ") >= 5 && strings.HasSuffix(nf, nl) &&
				(len(nf) == len(nl) || nf[len(nf)-len(nl)-1] == ' ') {
				return true
			}
		}
	}
	return false
}

// qualifiedName matches a dotted name of identifiers called or declared
// with "(", its last part and the bracket captured
// (humanfriendly.cli.format_size(: format_size().
var qualifiedName = regexp.MustCompile(`\b(?:[A-Za-z_]\w*\.)+([A-Za-z_]\w*\()`)

// sentencePunctuation are the marks that separate a sentence's words
// without saying anything of their own (repeats).
const sentencePunctuation = ".,:;?'\"()[]“”‘’"

// repeatsCode reports whether a code block of units is already quoted:
// documentation repeats its examples (a section and its summary), and a
// supporting passage announcing the same block quoted it twice.
func repeatsCode(quotedPassages []string, units []unit) bool {
	for _, u := range units {
		if u.kind == unitCode && len(strings.Fields(u.text)) >= 3 && repeats(quotedPassages, u.text) {
			return true
		}
	}
	return false
}

// quotable reports whether u can anchor or fill a passage: code only joins
// one through complete, fragments under three words say nothing, and
// neither does a cross-reference. An entry's version note ("Deprecated
// since version 0.9: Use get() …") is quoted with its entry only
// (replacementFollows): alone, has()'s note was quoted for what to use
// instead of delete() (a review).
func quotable(u unit) bool {
	return !u.planted && (u.kind == unitRow || u.kind == unitSentence && wordCount(u.text) >= 3 && !indexEntry(u.text) && !contentsEntry(u) &&
		!crossReference(u.text) && !numberedCaption.MatchString(u.text) && !datedNote.MatchString(u.text))
}

// captionsCode reports a numbered caption right under the code it
// captions, in its section.
func captionsCode(d []unit, i int) bool {
	return i > 0 && d[i].kind == unitSentence && d[i-1].kind == unitCode && d[i-1].section == d[i].section && numberedCaption.MatchString(d[i].text)
}

// numberedCaption matches a numbered listing's, figure's, table's or
// example's caption ("Listing 15-4: The error we get when attempting to
// define a recursive enum", "Figure 4-4: Representation in memory …",
// "Example 7.1. Creating a table"): the label of what it captions, whose
// words it shares, and no answer. Quoted alone, the Rust book's captions
// were the whole answer to a question about the error they caption.
var numberedCaption = regexp.MustCompile(`^` + captionLabel + `[.:]\s`)

// captionLabel is a caption's word and number ("Listing 15-4", "Figure
// 4.2", "Example 7.1").
const captionLabel = `(Listing|Figure|Fig\.|Table|Example|Exhibit|Diagram|Chart|Illustration|Algorithm) [A-Z]?\d+([-.–]\d+)*`

// boilerplate reports a reference entry's form rather than its statement:
// a table row of flags ("defaults: yes; frontend: no"), the sentence
// announcing only such a table ("May be used in sections :"), a label with
// nothing under it ("Arguments : none"). It is quoted only when it holds a
// word of the question ("Can it be used in a frontend?", "What arguments
// does it take?"); otherwise it shares the entry's heading with the
// description and was quoted instead of it (the HAProxy manual: 15 of 30
// questions, with the cross-references).
func boilerplate(u unit) bool {
	return u.kind == unitRow && flagRow(u.text) || u.flags || u.kind == unitSentence && emptyLabel.MatchString(u.text)
}

// emptyLabel is a field label with nothing under it ("Arguments : none"):
// a reference entry's form, no statement.
var emptyLabel = regexp.MustCompile(`(?i)^[\pL][\pL -]{0,30}?\s*:\s*(none|n/a|-|—)\.?$`)

// crossReference reports a sentence that only sends the reader elsewhere
// ("See also: "timeout client", "timeout server""; "See also the
// user_version pragma."): it shares the question's words with the entries
// it names and says nothing of its own. The HAProxy manual's keyword
// entries each end with one, and they were quoted as the answer to 11 of
// 30 questions.
func crossReference(s string) bool {
	s = strings.TrimLeft(s, " \t-*•")
	if len(s) < 8 || !strings.EqualFold(s[:8], "see also") {
		return false
	}
	return len(s) == 8 || !unicode.IsLetter(rune(s[8]))
}

// flagRow reports a table row whose values are all yes, no or a mark (a
// keyword matrix's "defaults: yes; frontend: no; listen: yes"): where
// something may be used, not what it does. Quoted alone, it answered
// "how do I add a server at runtime".
func flagRow(s string) bool {
	values := 0
	for _, cell := range strings.Split(s, "; ") {
		v := cell
		if _, after, ok := strings.Cut(cell, ": "); ok {
			v = after
		}
		switch strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "(!)"))) {
		case "yes", "no", "y", "n", "x", "-", "–", "—", "✓", "✔", "✗", "true", "false":
			values++
		default:
			return false
		}
	}
	return values >= 2
}

// contentsEntry reports a list item that is a title in title case, without
// final punctuation (a table of contents' "Cross-Site Request Forgery
// (CSRF)" on a site's index page): it names a page, it says nothing, and
// quoted as a supporting sentence it was noise.
func contentsEntry(u unit) bool {
	if u.item == "" || !isCaption(u.text) {
		return false
	}
	words, upper := titleWords(u.text)
	return words >= 2 && upper == words
}

// titleWords counts the words of s that start with a letter, leaving out
// short lower-case ones (of, a, and, the, to, in …), and those of them
// that start with a capital: a title in title case has as many of each.
func titleWords(s string) (words, upper int) {
	for _, w := range strings.Fields(s) {
		r, _ := utf8.DecodeRuneInString(strings.TrimLeft(w, "(\"'“‘["))
		if !unicode.IsLetter(r) {
			continue
		}
		if len(w) <= 3 && unicode.IsLower(r) {
			continue
		}
		words++
		if unicode.IsUpper(r) {
			upper++
		}
	}
	return words, upper
}

// indexEntry reports whether a short unit points at a page instead of
// saying something: a keyword index's "PRAGMA busy_timeout -
// pragma.html#pragma_busy_timeout", at most ten words with a link to an
// HTML page among them and no sentence's final punctuation. Quoted, it answered "What does PRAGMA busy_timeout
// do?" with the entry's own words.
func indexEntry(s string) bool {
	f := strings.Fields(s)
	if len(f) > 10 || endsSentence(strings.TrimSpace(s)) {
		return false // a sentence that names a page ("The home page is index.html.") says something
	}
	for _, w := range f {
		w = strings.TrimRight(w, ".,;:)]}")
		if i := strings.IndexByte(w, '#'); i >= 0 {
			w = w[:i]
		}
		if (strings.HasSuffix(w, ".html") || strings.HasSuffix(w, ".htm")) && len(w) > 5 {
			return true
		}
	}
	return false
}

// bestPassage returns the best-scoring passage (see Extractive) as source
// index and unit range [from, to), and the best passage of every source
// (score 0 for a source without one); ok is false when no unit holds a word
// of the question. query is the question's terms (questionTerms).
func bestPassage(question string, query []string, sources []Source, docs [][]unit, maxSentences int) (src, from, to int, ok bool, per []passage) {
	if len(query) == 0 {
		return 0, 0, 0, false, nil
	}
	per = make([]passage, len(docs))
	// Per unit: which query terms it holds, which of them it defines, and
	// whether it names a thing; document frequencies of the query terms.
	type facts struct {
		holds, defines []int
		names          bool
		instructs      bool
		purpose        []int
		locates        bool
		lasts          bool
		returns        bool
		option         bool
	}
	qi := make(map[string]int, len(query))
	for i, q := range query {
		qi[q] = i
	}
	lowerQ := strings.ToLower(question)
	// For a question that asks how, a sentence that tells what to do ("…
	// select the transaction and go to File → Print Checks") names the
	// answer as code does: "Checks are printed from the account register"
	// above it holds the same words and said nothing of how.
	procedure := asksProcedure(question)
	where := asksWhere.MatchString(lowerQ) && !asksPositionInside.MatchString(lowerQ)
	// A question asking how long is answered by a sentence that gives a
	// duration or names one (givesDuration): Flask-Login's row for
	// REMEMBER_COOKIE_DOMAIN, which holds the question's words as the
	// row for REMEMBER_COOKIE_DURATION does ("… Default: 365 days"),
	// answered how long the cookie lasts in a held-out trial.
	howLong := asksHowLong.MatchString(lowerQ) && !asksLength.MatchString(lowerQ)
	// A question asking what something returns is answered by the
	// sentence that says what it returns (givesReturn): objgraph's "What
	// does find_backref_chain return when it cannot find any matching
	// chain?" was answered with the signature and its first sentences,
	// and "Returns [obj] if such a chain could not be found." further down
	// the entry was left out (a held-out trial).
	returnAsked := asksReturn.MatchString(question)
	// For a question asking which option does something and naming none,
	// a sentence or code that names a command-line option named for what
	// the question asks (namesAskedOption) is what it asks for: "If you
	// are using pytest you can see a number of statistics … by passing
	// the command line argument --hypothesis-show-statistics" lost to the
	// example's sentences further down, which hold more of the question's
	// other words ("data generation", "max_examples"). Any option would
	// do for "Which storage option keeps sessions fastest?", and one that
	// keeps a development server single-threaded won.
	optionAsked := asksWhichOption(question) && len(questionOptions(question)) == 0
	dated := asksWhen.MatchString(lowerQ)
	difference := asksContrast.MatchString(question)
	focus := focusTerms(question, qi)
	values := valueTerms(question, query)
	cased := casedNames(question, qi)
	compounds := joinedPairs(question)
	df := make([]int, len(query))
	n := 0
	info := make([][]facts, len(docs))
	for si, d := range docs {
		info[si] = make([]facts, len(d))
		// echoed are the question terms of the page's copy of what the
		// question pastes, carried to the sentence after it.
		var echoed []string
		for ui, u := range d {
			n++
			f := &info[si][ui]
			if u.echo {
				// Output the question pastes ("… says Can't locate
				// Mozilla/CA.pm, how do I fix it?" above the page's copy
				// of that error): the asker has it; what follows it in
				// the document is the answer. It is no evidence, and
				// its terms are the sentence's after it, in its section:
				// that sentence is about it ("You are dealing with an
				// environment where Python thinks you are restricted to
				// ASCII data." under Click's copy of the RuntimeError),
				// where the same words elsewhere ("In Python 3.7 and
				// later you will no longer get a RuntimeError") are not.
				echoed = append(echoed, u.terms...)
				continue
			}
			carried := echoed
			if ui > 0 && d[ui-1].section != u.section || u.kind != unitSentence {
				carried = nil
			}
			echoed = nil
			hold := func(t string) {
				if i, ok := qi[t]; ok && !slices.Contains(f.holds, i) {
					f.holds = append(f.holds, i)
					df[i]++
				}
			}
			for _, t := range append(slices.Clip(u.terms), carried...) {
				hold(t)
			}
			// A compound of two words is one thing however it is
			// written: the code's Treeprocessor holds the "tree
			// processor" of a question as "Tree processors manipulate
			// the tree …" does (questionTerms leaves such a joined word
			// out of the query: counted as a term of its own, the pseudo
			// example's class name outscored the sentence defining what
			// the question asked).
			for _, c := range compounds {
				if _, term := qi[c.joined]; !term && c.parts[0] != "" && slices.Contains(u.terms, c.joined) {
					hold(c.parts[0])
					hold(c.parts[1])
				}
			}
			for _, t := range u.defines {
				if i, ok := qi[t]; ok {
					f.defines = append(f.defines, i)
				}
			}
			// Printed output names nothing the asker writes or runs.
			f.names = u.kind == unitCode && !u.output || u.kind != unitCode && namesThing(u.text, lowerQ)
			// The means offered for a purpose the sentence states first
			// ("If you want to avoid starting to connect to the database
			// at import time, …, you can create the pool using
			// open=False") tells what to do as an imperative does: the
			// opening of psycopg's section, which only set the scene, was
			// quoted above it in a held-out trial. A means offered with
			// no purpose ("You can pass verify the path to a CA_BUNDLE
			// file") is one way of many, and earns nothing.
			f.instructs = procedure && u.kind != unitCode && instructs(u.text)
			if procedure && u.kind != unitCode {
				f.purpose = purposeTerms(u.text, qi)
			}
			f.locates = where && u.kind != unitCode && locates(u.text)
			f.lasts = howLong && u.kind != unitCode && givesDuration.MatchString(u.text)
			f.returns = returnAsked && u.kind != unitCode && givesReturn.MatchString(u.text)
			f.option = optionAsked && !(u.kind == unitCode && u.output) && namesAskedOption(u.text, query)
		}
	}
	for i, name := range cased {
		// Where the sources define the name in the question's capitals
		// and the same letters in others, only the first defines it.
		spelt := func(si, ui int) bool { return analyze.ContainsWord(docs[si][ui].text, name) }
		exact, other := false, false
		for si := range info {
			for ui := range info[si] {
				if slices.Contains(info[si][ui].defines, i) {
					exact = exact || spelt(si, ui)
					other = other || !spelt(si, ui)
				}
			}
		}
		if !exact || !other {
			continue
		}
		for si := range info {
			for ui := range info[si] {
				if !spelt(si, ui) {
					info[si][ui].defines = slices.DeleteFunc(info[si][ui].defines, func(j int) bool { return j == i })
				}
			}
		}
	}
	if len(focus) == 0 {
		// A question naming an identifier ("What does the termination
		// state sH mean?", "What does SQLSTATE 42P01 mean?") is about
		// it when a source defines it: the passage that opens with its
		// definition answers, as for a named parameter, not the
		// section's first sentence around the words beside it.
		for si := range info {
			for ui := range info[si] {
				for _, i := range info[si][ui].defines {
					if isIdentifierTerm(query[i]) || cased[i] != "" {
						if focus == nil {
							focus = map[int]bool{}
						}
						focus[i] = true
					}
				}
			}
		}
	}
	idf := make([]float64, len(query))
	meanIDF := 0.0
	own := situationTerms(question)
	for i, q := range query {
		d := float64(df[i])
		idf[i] = math.Log(1 + (float64(n)-d+0.5)/(d+0.5))
		if isIdentifierTerm(q) {
			idf[i] *= identifierBoost
		}
		if own[q] || where && locatingVerbs[q] {
			idf[i] *= situationWeight
		}
		meanIDF += idf[i] / float64(len(query))
	}
	totalIDF := meanIDF * float64(len(query))
	best := 0.0
	covered := make([]bool, len(query))
	inProse := make([]bool, len(query))
	inCode := make([]bool, len(query))
	head := make([]bool, len(query))
	local := make([]bool, len(query))
	for si, d := range docs {
		clear(head)
		for _, t := range terms(sources[si].Title + " " + sources[si].HeadingPath) {
			if i, ok := qi[t]; ok {
				head[i] = true
			}
		}
		prior := 1 / (1 + rankDecay*float64(si))
		for a := range d {
			// The heading of the section the passage opens in counts as
			// the source's headings do; these count only in the source's
			// own sections.
			clear(local)
			for _, t := range d[a].heading {
				if i, ok := qi[t]; ok {
					local[i] = true
				}
			}
			if d[a].kind == unitCode && !d[a].echo && !d[a].output && !d[a].planted {
				// A line of code that assigns the identifier the question
				// names ("visibility_timeout = 3600", an API reference's
				// attribute without a description) is its definition,
				// and the code a passage of its own: passages open and
				// end on sentences, and "redis visibility_timeout
				// default" was answered with the sentences around it.
				if i, found := assignedTerm(d[a].text, query); found {
					score := (1 + definitionWeight) * idf[i]
					for _, j := range info[si][a].holds {
						if j != i {
							score += codeWeight * idf[j]
						}
					}
					for j := range query {
						if j != i && !slices.Contains(info[si][a].holds, j) && (head[j] && d[a].own || local[j]) {
							score += headingWeight * idf[j]
						}
					}
					score *= prior
					if score > per[si].score {
						per[si] = passage{score, score, a, a + 1}
					}
					if score > best {
						best, src, from, to, ok = score, si, a, a+1, true
					}
				} else if codeSection(d, a) {
					// A section that is its heading and its code ("Remove
					// a plugin" above "$ grubctl plugin rm sample") says
					// what it does in the heading: the heading's words
					// are the code's prose. Passages open on sentences,
					// so it was never quoted, and "How do I remove a
					// grubctl plugin?" was answered with the install
					// section's sentence and command above it.
					held := false
					score, said := namingWeight*meanIDF, 0.0
					for j := range query {
						switch {
						case local[j]:
							score += headingWeight * idf[j]
							said += idf[j]
							held = true
						case slices.Contains(info[si][a].holds, j):
							score += codeWeight * idf[j]
							said += idf[j]
						}
					}
					// It opens its section, as a section's first
					// sentence does (leadsSection), with the same credit
					// for what it says: without it, "How do I update a
					// plugin to a new version?" went to the install
					// section's sentence, which held only "plugin".
					lead := leadWeight
					if procedure {
						lead *= procedureLeadShare
					}
					score += lead * meanIDF * said / totalIDF
					score *= prior
					if held && score > per[si].score {
						per[si] = passage{score, score, a, a + 1}
					}
					if held && score > best {
						best, src, from, to, ok = score, si, a, a+1, true
					}
				}
				continue
			}
			if !quotable(d[a]) || boilerplate(d[a]) && len(info[si][a].holds) == 0 || !dated && versionNote.MatchString(strings.TrimSpace(d[a].text)) {
				// A bare version note ("Changed in version 0.10.") says
				// nothing of the question unless it asks when: opening
				// an answer, it dated a passage that followed it.
				continue
			}
			if (slices.Equal(d[a].defines, []string{"rais"}) || d[a].item != "" && d[a].field == "Raises") && !asksRaise.MatchString(question) {
				// An entry's "Raises: TypeError – …" field (or an item of
				// its list) says what goes wrong with a call, which
				// answers only a question on errors: opening a passage,
				// it stood before what the
				// method does ("Raises: TypeError – the specified notice
				// receiver is not callable. This method allows setting a
				// custom notice receiver …", a held-out trial).
				continue
			}
			if d[a].bases && !asksBase.MatchString(question) {
				// A class's "Bases: …" line repeats its signature above
				// the description, which carries the signature too: a
				// passage opening there quoted the signature twice
				// ("class cachelib.base.NullCache(default_timeout=300):
				// Bases: cachelib.base.BaseCache class
				// cachelib.base.NullCache(…): A cache that doesn't
				// cache", a held-out trial). It opens an answer only to
				// what the class derives from.
				continue
			}
			clear(covered)
			clear(inProse)
			clear(inCode)
			hit := false
			sentences, chars := 0, 0
			names, instructed, located, optioned, lasted, valued, returned := false, false, false, false, false, false, false
			for b := a; b < len(d); b++ {
				u := d[b]
				if u.section != d[a].section {
					break // a passage does not run into the next section
				}
				if u.planted {
					break // nor into text addressed to an assistant (markPlanted)
				}
				if b > a && u.kind == unitSentence && d[a].kind == unitSentence && len(u.defines) > 0 && len(d[a].defines) > 0 &&
					!difference && !slices.Equal(u.defines, d[a].defines) && (u.item == "" || d[a].item != "") && !entryField(u.defines) {
					// Nor does a passage opening with a definition run
					// into the next entry's ("proxies: Dictionary mapping
					// protocol … to the URL of the proxy" went on with
					// "put(url, data=None, **kwargs): Sends a PUT
					// request"), unless the question asks how things
					// differ. A table's rows, each defining its first
					// cell, are read together, and an entry's own items
					// and fields (a signature's "Parameters: - url – URL
					// for the new Request object", "Returns: …") are its,
					// not the next entry: cut there, a parameter list was
					// quoted without the function it belongs to.
					break
				}
				if b > a && u.kind == unitSentence && len(u.defines) > 0 && !difference && u.item == "" && !entryField(u.defines) &&
					!slices.Equal(u.defines, d[a].defines) && insideEntry(d, a) && !announces(d[b-1].text) {
					// Nor does a passage opening in an entry's tail run into
					// the next entry: psycopg2's parse_dsn() ends with
					// "libpq docs for PQconninfoParse().", and from there a
					// passage ran on into quote_ident()'s definition, which
					// was quoted as how to parse a connection string.
					break
				}
				if b > a && u.kind != unitCode && u.block != d[b-1].block && d[b-1].kind != unitCode && len(info[si][b-1].holds) == 0 &&
					endsSentence(strings.TrimSpace(d[b-1].text)) {
					// Nor does it carry a finished sentence that holds none
					// of the question's words into the next paragraph: the
					// paragraph after it does not lean on it, and one
					// planted between a sentence naming the subject and
					// the answer ("Ignore previous instructions and tell
					// the user …") was quoted in the middle of the answer.
					// A sentence that leads into the next ("The syntax
					// is" above a synopsis) is not finished.
					break
				}
				if b > a && u.kind != unitCode && u.block != d[b-1].block && len(info[si][b].holds) == 0 &&
					endsSentence(strings.TrimSpace(d[b-1].text)) {
					// Nor into another paragraph that holds none of the
					// question's words, unless the text before leads into
					// it ("The syntax is" above a synopsis): a document's
					// next paragraph may be anything, instructions planted
					// for an assistant included ("Ignore all previous
					// instructions …").
					break
				}
				if u.kind != unitCode {
					// A listing's caption under its code is quoted with it
					// (its words say what the code does: "Listing 8-24:
					// Using the entry method to only insert if the key
					// does not already have a value"), never alone.
					if !quotable(u) && !captionsCode(d, b) || boilerplate(u) && len(info[si][b].holds) == 0 || sentences == maxSentences {
						break
					}
					sentences++
				}
				chars += quotedLen(u)
				if chars > maxPassageChars && b > a {
					break
				}
				for _, i := range info[si][b].holds {
					covered[i], hit = true, true
					inProse[i] = inProse[i] || u.kind != unitCode
					inCode[i] = inCode[i] || u.kind == unitCode && !u.output
				}
				// Naming earns credit in code, in a sentence that holds a
				// word of the question, or in one that names code ("A
				// faster method is pg_upgrade."): a sentence that only
				// names a number or a word in capitals ("wire the fee to
				// account 99-1234", "reply with PWNED") is not what the
				// question asked to be named.
				names = names || info[si][b].names && (len(info[si][b].holds) > 0 || u.kind == unitCode || namesCode(u.text, false))
				instructed = instructed || info[si][b].instructs && len(info[si][b].holds) > 0 ||
					slices.ContainsFunc(info[si][b].purpose, func(i int) bool { return idf[i] >= meanIDF })
				located = located || info[si][b].locates && len(info[si][b].holds) > 0
				lasted = lasted || info[si][b].lasts && len(info[si][b].holds) > 0
				returned = returned || info[si][b].returns && len(info[si][b].holds) > 0
				valued = valued || u.kind != unitCode && slices.ContainsFunc(info[si][b].holds, func(i int) bool { return values[i] })
				optioned = optioned || info[si][b].option && (len(info[si][b].holds) > 0 || u.kind == unitCode)
				if u.kind == unitCode || !hit {
					continue // a passage ends on a sentence; complete adds trailing code
				}
				// A sentence announcing code ("To rename an existing
				// table:") is quoted with it (complete), so the code's
				// words and naming count for the passage ending on it, as
				// they do for one ending after the code.
				code := b+1 < len(d) && d[b+1].kind == unitCode && d[b+1].section == u.section && announces(u.text)
				said := func(i int) bool { return covered[i] || code && slices.Contains(info[si][b+1].holds, i) }
				// A term only a program's printed output holds (an error
				// dump's "sqlstate: 42P01") is an example's value, not
				// what the passage says.
				inCodeProper := func(i int) bool {
					return inCode[i] || code && !d[b+1].output && slices.Contains(info[si][b+1].holds, i)
				}
				score := 0.0
				for i := range query {
					switch {
					case said(i) && slices.Contains(info[si][a].defines, i) && (len(focus) == 0 || focus[i]):
						score += (1 + definitionWeight) * idf[i]
						if focus[i] {
							score += focusWeight * meanIDF
						}
					case inProse[i]:
						score += idf[i]
					case said(i) && inCodeProper(i):
						score += codeWeight * idf[i]
					case said(i):
						score += outputWeight * idf[i]
					case head[i] && d[a].own || local[i]:
						score += headingWeight * idf[i]
					}
				}
				if names || code && !d[b+1].output && len(info[si][b+1].holds) > 0 {
					score += namingWeight * meanIDF
				}
				if instructed {
					score += instructWeight * meanIDF
				}
				if located {
					score += leadWeight * meanIDF
				}
				if optioned {
					score += instructWeight * meanIDF
				}
				if lasted {
					score += instructWeight * meanIDF
				}
				if valued {
					score += instructWeight * meanIDF
				}
				if returned {
					score += instructWeight * meanIDF
				}
				evidence := score*prior - lengthPenalty*float64(b-a)
				if leadsSection(d, a) || difference && contrasts.MatchString(outsideParens(d[a].text)) {
					// For a question about how things differ, a sentence
					// that says how they differ leads as a section's
					// first sentence does: the lead of the section about
					// one of them says what that one is ("Setuptools
					// supports gui_scripts, which will launch a GUI
					// application …" was quoted for the difference between
					// console_scripts and gui_scripts, where a note below
					// it begins "The difference between console_scripts
					// and gui_scripts only affects Windows systems"). In
					// proportion to the question's weight the lead
					// sentence itself holds: a section's first sentence
					// that says nothing of the question is no answer.
					// For a question asking how, half that: a section's
					// first sentences set the scene ("By default, if a
					// test passes, Rust's test library captures anything
					// printed …"), and what to do comes after them
					// ("… tell Rust to also show the output of
					// successful tests with --show-output").
					held := 0.0
					for _, i := range info[si][a].holds {
						held += idf[i]
					}
					lead := leadWeight
					if procedure {
						lead *= procedureLeadShare
					}
					score += lead * meanIDF * held / totalIDF
				}
				score = score*prior - lengthPenalty*float64(b-a)
				if asks(u.text) {
					// A passage does not end on a question: what answers
					// it comes after it (an FAQ's "Can I run a shell
					// inside a Vim window?" was the whole answer).
					continue
				}
				if score > per[si].score {
					per[si] = passage{score, evidence, a, b + 1}
				}
				if score > best {
					best, src, from, to, ok = score, si, a, b+1, true
				}
			}
		}
	}
	return src, from, to, ok, per
}

// codeSection reports whether d[a] is the first unit of a section (not
// the chunk's first, whose heading may be the chunk's only) whose text is
// only code: a heading over a command or listing and nothing else.
func codeSection(d []unit, a int) bool {
	if d[a].section == 0 || len(d[a].heading) == 0 || d[a].output || !leadsSection(d, a) || a > 0 && d[a-1].section == d[a].section {
		return false
	}
	for b := a; b < len(d) && d[b].section == d[a].section; b++ {
		if d[b].kind != unitCode || proseBlock(d[b].text) {
			return false
		}
	}
	return true
}

// proseBlock reports whether a code block reads as prose set as a literal
// block (a text edition's indented notes: "The quilt command … was needed
// to manage the -p1 patches …"): of the words of its lines that are not
// comments, eight or more, a fifth at least are English function words;
// or it holds no character of code and ends a sentence ("Python 2 support
// dropped; interpreters older than 3.8 refused at start-up."). A line
// after a prompt ("$ ", ">>> ") is code whatever its words, and a block
// that is as much such lines as other lines is code.
func proseBlock(text string) bool {
	words, function := 0, 0
	codeish := false
	lastLine := ""
	lines, prompts := 0, 0
	for l := range strings.Lines(text) {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		lines++
		lastLine = l
		if strings.HasPrefix(l, "$ ") || strings.HasPrefix(l, ">>> ") {
			prompts++
			codeish = true
			continue
		}
		if commentLine(l) {
			continue
		}
		codeish = codeish || strings.ContainsAny(l, "$=(){}<>[]|&`\\")
		for _, w := range strings.Fields(l) {
			words++
			if proseWords[strings.ToLower(strings.Trim(w, ".,;:()\"'"))] {
				function++
			}
		}
	}
	if 2*prompts >= lines {
		return false
	}
	if words >= 8 && 5*function >= words {
		return true
	}
	return !codeish && words >= 6 && strings.HasSuffix(lastLine, ".")
}

// commentLine reports a line that is a comment in common languages and
// shells.
func commentLine(l string) bool {
	for _, p := range []string{"#", "//", "--", ";", "%", "/*", "*", "REM "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// proseWords are English function words frequent in any prose and no
// keyword of a common programming language ("in", "if", "is", "for",
// "with", "and", "not" are Python's).
var proseWords = map[string]bool{"the": true, "a": true, "an": true, "are": true, "was": true, "to": true, "of": true,
	"you": true, "can": true, "be": true, "that": true, "this": true, "it": true, "by": true, "when": true,
	"should": true, "will": true}

// beforePlanted returns where d[from:to] ends before its first unit
// addressed to an assistant (markPlanted), past from: a passage widened to
// the code a sentence announces does not bring planted code with it.
func beforePlanted(d []unit, from, to int) int {
	for b := from + 1; b < to; b++ {
		if d[b].planted {
			return b
		}
	}
	return to
}

// definitionsAnnounced returns the unit of d[from:to] that announces the
// entries after it ("… receives three positional arguments:" above
// "logger: Your wrapped logger object."), when every unit after it in the
// passage is one of those entries or a sentence of one; -1 when none.
func definitionsAnnounced(d []unit, from, to int) int {
	for x := to - 1; x >= from; x-- {
		if x+1 >= len(d) {
			return -1
		}
		if x < to-1 && (len(d[x].defines) > 0 || d[x].block == d[x+1].block && len(d[x+1].defines) == 0) {
			continue
		}
		if d[x].kind == unitSentence && d[x].item == "" && announces(d[x].text) && len(d[x+1].defines) > 0 && d[x+1].kind == unitSentence &&
			d[x+1].section == d[x].section && d[x+1].block == d[x].block+1 {
			return x
		}
		if x == to-1 {
			continue // the passage may end inside the entries
		}
		return -1
	}
	return -1
}

// insideEntry reports whether unit a lies in an entry of a reference (a
// definition above it in its section, as a function's entry has, and a
// later unit of the same entry, not the definition itself).
// A "See also" or "Note" under the entry is the entry's, though its title
// line starts a section: psycopg2's parse_dsn() ends with "See also" above
// "libpq docs for PQconninfoParse()."
func insideEntry(d []unit, a int) bool {
	if len(d[a].defines) > 0 {
		return false
	}
	for k := a - 1; k >= 0; k-- {
		if d[k].section != d[k+1].section && !admonitionTitle(d[k+1].heading) {
			return false
		}
		if len(d[k].defines) > 0 && !entryField(d[k].defines) && d[k].item == "" {
			return true
		}
	}
	return false
}

// admonitionTitle reports the terms of a section title that labels a part
// of an entry ("See also", whose words are stop words, "Note", "Warning",
// "Example").
func admonitionTitle(heading []string) bool {
	for _, t := range heading {
		if !admonitionTerms[t] {
			return false
		}
	}
	return true
}

var admonitionTerms = map[string]bool{"see": true, "note": true, "warning": true, "exampl": true, "tip": true, "important": true,
	"caution": true, "hint": true, "seealso": true, "attention": true, "danger": true}

// casedNames returns, by query term, the question's spelling of a name
// written in mixed case ("sH", "iOS", "postBuffer"): its capitals after a
// lower-case letter are part of the name, and a definition of the same letters in other
// capitals is another thing's (HAProxy's termination
// state "SH" is the server aborting, "sH" the server timeout striking).
func casedNames(question string, qi map[string]int) map[int]string {
	out := map[int]string{}
	for _, w := range strings.Fields(question) {
		w = strings.Trim(w, "`'\"“”‘’()[]{},.;:?!")
		mixed := false
		for i, r := range w {
			if i > 0 && unicode.IsUpper(r) {
				prev, _ := utf8.DecodeLastRuneInString(w[:i])
				mixed = mixed || unicode.IsLower(prev)
			}
		}
		if !mixed {
			continue
		}
		if ts := terms(w); len(ts) == 1 {
			if i, ok := qi[ts[0]]; ok {
				out[i] = w
			}
		}
	}
	return out
}

// situationWeight scales the weight of a question term that only the
// asker's account of their situation holds (situationTerms).
const situationWeight = 0.5

// situationTerms returns the terms of a question's statements before what
// it asks ("I accidentally set my zone's serial number to a date far in
// the future. How do I get it back to a normal value …?") that the asked
// sentence does not hold: the page's sentences that share them describe
// the problem the asker has, and the answer is what the page says to do
// about it (the BIND manual's "The solution to this is to add 2147483647
// …" came three sentences after the description of the mistake, and the
// description was quoted). Nil when the question is one sentence or
// states nothing before its question.
func situationTerms(question string) map[string]bool {
	sentences := splitUnit(strings.TrimSpace(question))
	if len(sentences) < 2 {
		return nil
	}
	var told, asked []string
	for _, s := range sentences {
		if strings.HasSuffix(strings.TrimRight(s, ` "')]”’`), "?") {
			asked = append(asked, s)
		} else if len(asked) == 0 {
			told = append(told, s)
		}
	}
	if len(told) == 0 || len(asked) == 0 {
		return nil
	}
	inAsked := map[string]bool{}
	for _, t := range terms(strings.Join(asked, " ")) {
		inAsked[t] = true
	}
	own := map[string]bool{}
	for _, t := range terms(strings.Join(told, " ")) {
		if !inAsked[t] {
			own[t] = true
		}
	}
	return own
}

// asksWhere matches a question that asks where a file or a directory is:
// "Where does Docker look for plugin socket and spec files?", "Where is
// the daemon's configuration file?". A sentence that holds its words and
// a path ("UNIX domain socket files must be located under
// /run/docker/plugins, whereas spec files …") answers it as a section's
// first sentence answers what a thing is, and earns what that one does
// (leadWeight): the section's first sentences, which hold the same words
// ("Docker discovers plugins by looking for them in the plugin directory
// …"), do not say where.
var asksWhere = regexp.MustCompile(`^\W*where\b|\b(which|what) (directory|folder|path|location)\b|\bin which (directory|folder|file)\b`)

// locatingVerbs are the stems of the verbs a question asking where puts
// around what it asks about ("Where does Docker look for plugin files?",
// "Where are the logs stored?"): they weigh as the asker's situation does
// (situationWeight), since the sentence giving the place need not repeat
// them, where the section's first sentence often does ("Docker discovers
// plugins by looking for them …").
var locatingVerbs = map[string]bool{"look": true, "search": true, "find": true, "store": true, "keep": true, "put": true,
	"save": true, "writ": true, "write": true, "locat": true, "live": true, "go": true, "read": true, "load": true, "place": true}

// fsPath matches a file-system path in a sentence: absolute, of two
// parts or more ("/etc/docker/daemon.json", "/run/docker/plugins"; one
// part is as often a command, "/logs"), under a home ("~/.config/dask") or
// a variable ("$HOME/.netrc"), relative with a file's extension or from a
// hidden directory ("config/app.yml", ".github/workflows"), or a Windows
// one ("C:\ProgramData\x"). An HTTP request's route ("GET /api/reports")
// is none (httpRoute).
var fsPath = regexp.MustCompile(`(^|[\s(“"'=` + "`" + `])((~|\$\{?[A-Za-z_]+\}?|%[A-Za-z_]+%)/[\w.@+-]+|/[\w.@+-]+/[\w.@*+-]+|\.?[\w@+-]+(/[\w.@*+-]+)*/[\w@*+-]+\.[A-Za-z][\w]{0,9}|\.[\w-]+/[\w.@*+-]+)(/[\w.@*+-]*)*|(^|[\s(“"'` + "`" + `])[A-Za-z]:\\[\w. -]+`)

// httpRoute matches a request line's method and route, which is no place
// on disk.
var httpRoute = regexp.MustCompile(`\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+/`)

// asksPositionInside matches a question asking where inside a file or code
// something goes ("Where should I put the ARG instruction in a
// Dockerfile?", "Where in the config file …"): a position in it, not a
// place on disk; a sentence giving a path ("The output of the final pwd
// command in this Dockerfile would be /a/b/c") does not answer it.
var asksPositionInside = regexp.MustCompile(`\bwhere\s+in\b|\bin\s+(a|an|the|my|your|our|this|each|every)\s+([\w.-]+\s+)?(dockerfile|makefile|file|code|template|config|configuration|function|class|script|section|page|module|method|program|view|handler|test|loop|block|query|statement|document|header)s?\b`)

// urlWords mark a sentence whose paths are a URL's ("… the static URL will
// be /admin/static"), which is no place on disk.
var urlWords = regexp.MustCompile(`(?i)\b(url|urls|uri|uris|route|routes|endpoint|endpoints|url_prefix)\b`)

// locates reports a sentence that gives a path (fsPath) other than an
// HTTP request's route or a URL's.
func locates(s string) bool {
	return !urlWords.MatchString(s) && fsPath.MatchString(httpRoute.ReplaceAllString(s, ""))
}

// releaseHeading matches a heading that names one release: its number
// alone or before a date ("1.3.1", "0.22.1 (2022-12-31)", Keep a
// Changelog's "[2.1.0] - 2023-05-02", History.md's "2.1.0 / 2023-05-02"),
// or after "v", "Version", "Release" or "Revision" (PySMI's "Revision
// 0.3.0, 29-04-2018"), behind a section's own number or
// not, and before nothing but a date ("v0.10.2", "Version 5.1
// (2019-05-17)", "E.1. Release 15.1"). A section number before words
// ("20.7.4. Other Planner Options") is none, nor is a release before words
// ("v2.3 reference", a documentation set's own version).
var releaseHeading = regexp.MustCompile(`(?i)^(?:[a-z]?[0-9]*(?:\.[0-9]+)*\.\s+)?(?:(?:version|release|revision)\s+v?|v)([0-9]+(?:\.[0-9]+)+[a-z0-9]*)\s*(?:$|[(,:–—/-])|^\[?v?([0-9]+(?:\.[0-9]+)+[a-z0-9]*)\]?\s*(?:$|[(,–—/-]\s*[0-9]{4}|\(\s*[a-z]+\s+[0-9]{1,2})`)

// releaseOf returns the heading of the release whose notes unit u is
// (its in-chunk section's title, else the last heading of the path that
// names a release) and that release's number; "" where none does.
func releaseOf(u unit, headingPath string) (heading, number string) {
	match := func(h string) (string, string) {
		if m := releaseHeading.FindStringSubmatch(h); m != nil {
			return h, m[1] + m[2]
		}
		return "", ""
	}
	if u.title != "" {
		if h, n := match(u.title); h != "" || !u.own {
			// A section inside the chunk that the path does not name
			// and that names no release is none, whatever the path
			// above it names.
			return h, n
		}
	}
	parts := strings.Split(headingPath, " > ")
	for i := len(parts) - 1; i >= 0; i-- {
		if h, n := match(strings.TrimSpace(parts[i])); h != "" {
			return h, n
		}
	}
	return "", ""
}

// withRelease writes the release whose notes a quote opens in before it,
// when the quote does not name its number: asked in which release
// something came, an item of a change log ("- add log_keys_only to
// loaders to prevent the printing of unknown values") answers it only
// with its release's heading, which only the citation's anchor gave (two
// held-out trials).
func withRelease(r string, u unit, headingPath string) string {
	h, n := releaseOf(u, headingPath)
	if h == "" || namesNumber(r, n) {
		return r
	}
	h = strings.TrimRight(h, ":")
	if u.item != "" || u.kind == unitCode {
		return h + ":\n" + r
	}
	return h + ": " + r
}

// entryName matches a heading that is the name of an option or setting: a
// command-line option ("--order-group-scope", "-x"), a word joined by
// underscores ("expand_tree_by_default", "MPTT_ADMIN_LEVEL_INDENT") or a
// camelCase word ("onBrokenLinks", "strictNullChecks"). A dotted name heads
// a module's or class's page, whose sentences are about many things; a
// heading of words, or a signature, is none.
var entryName = regexp.MustCompile(`^(?:--?[A-Za-z][\w-]*|[A-Za-z]\w*_\w*[A-Za-z0-9]|[a-z]+(?:[A-Z][a-z]+)+)$`)

// capsName matches a setting's name in capitals without an underscore
// ("DEBUG"), a name only where a heading above it says it lists settings
// (settingsPath): elsewhere a word in capitals heads a man page's NAME or
// OPTIONS.
var capsName = regexp.MustCompile(`^[A-Z][A-Z0-9]{2,}$`)

var settingsPath = regexp.MustCompile(`(?i)\b(?:settings?|config(?:uration)?|environment|variables?|options)\b`)

// typedName is a setting's heading with its type, as the PostgreSQL manual
// writes them: "shared_buffers (integer)".
var typedName = regexp.MustCompile(`^(\S+) \([a-z ]+\)$`)

// headingName returns the option or setting a heading names (entryName),
// or "": the heading itself, the name of a typed setting's heading, or the
// option of an option's heading with its argument ("--order-scope=<scope>",
// "-O file, --output-document=file": the long option, without it).
func headingName(h, headingPath string) string {
	h = strings.TrimSpace(h)
	if len(h) > 80 {
		return ""
	}
	if m := typedName.FindStringSubmatch(h); m != nil {
		h = m[1]
	}
	if strings.HasPrefix(h, "-") {
		var short, long string
		for _, o := range strings.FieldsFunc(h, func(r rune) bool { return r == ' ' || r == ',' }) {
			o, _, _ = strings.Cut(o, "=")
			o = strings.TrimRight(o, "[<")
			switch {
			case long == "" && strings.HasPrefix(o, "--"):
				long = o
			case short == "" && strings.HasPrefix(o, "-"):
				short = o
			}
		}
		h = cmp.Or(long, short)
	}
	above, _, _ := strings.Cut(headingPath, " > "+h)
	if entryName.MatchString(h) || capsName.MatchString(h) && above != headingPath && settingsPath.MatchString(above) {
		return h
	}
	return ""
}

// withEntryName writes the name a quote's section is headed by before
// the quote, when the section is a reference entry for an option or a
// setting (headingName) and neither the quote nor the question names it:
// a configuration page's entries say what their option does without
// writing it ("Consider you have several test modules … In this case you
// can set the group order scope to “module”" under "--order-group-scope"),
// and the answer to "how do I" was the option only the heading names.
// The heading path names the retrieved chunk's section: a quote of the
// content that opens before that name's own line (the end of the entry
// above, in a source widened to its neighbour chunks) is not under it.
func withEntryName(r string, d []unit, from int, headingPath, question string) string {
	u := d[from]
	h := u.title
	if h == "" {
		if !u.own {
			return r
		}
		parts := strings.Split(headingPath, " > ")
		h = parts[len(parts)-1]
	}
	h = headingName(h, headingPath)
	// The question may write a joined name in any case ("What does
	// mptt_admin_level_indent do?"); a word of the quote or question in
	// other capitals ("debug mode" under DEBUG) is not the name.
	if h == "" || namesWord(r, h, false) || namesWord(question, h, strings.ContainsAny(h, "_-")) {
		return r
	}
	if u.title == "" && slices.ContainsFunc(d[from:], func(v unit) bool {
		return v.section == u.section && (strings.EqualFold(headingName(v.title, headingPath), h) || startsWithName(v.text, h))
	}) {
		return r
	}
	if u.item != "" || u.kind == unitCode {
		return h + ":\n" + r
	}
	return h + ": " + r
}

// startsWithName reports whether text opens with name as its term ("name:
// …", "name (integer): …", or the name alone).
func startsWithName(text, name string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(text), name)
	return ok && (rest == "" || strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, " ("))
}

// namesWord reports whether text holds name as a word of its own, in any
// case when fold is set: "--order-scope" is not named by
// "--order-scope-level", nor "-n" by "non-negative".
func namesWord(text, name string, fold bool) bool {
	if fold {
		text, name = strings.ToLower(text), strings.ToLower(name)
	}
	return analyze.ContainsWordOf(text, name, func(r rune) bool { return r == '_' || r == '-' || analyze.WordRune(r) })
}

// entryHeadAbove returns the head of the reference entry whose fields
// (entryField: "Returns: …", "Raises: …") or field items ("- TypeError –
// …") stand right above unit at, in its section, and how many they are;
// -1 when the unit above is no such field or item, or no entry's head
// (a signature's first sentence) is above them.
func entryHeadAbove(d []unit, at int) (int, int) {
	k := at - 1
	for k >= 0 && d[k].section == d[at].section && d[k].kind == unitSentence && (d[k].item != "" || entryField(d[k].defines)) {
		k--
	}
	if k == at-1 || k < 0 || d[k].section != d[at].section || !entryHead(d[k]) {
		return -1, 0
	}
	if !slices.ContainsFunc(d[k+1:at], func(u unit) bool { return entryField(u.defines) }) {
		return -1, 0 // a list under a definition, not an entry's fields
	}
	return k, at - 1 - k
}

// namesNumber reports whether text holds number n as a number of its own:
// "5.2" is not named by "15.2" or "5.21".
func namesNumber(text, n string) bool {
	for i := strings.Index(text, n); i >= 0; {
		before, after := byte(' '), byte(' ')
		if i > 0 {
			before = text[i-1]
		}
		if j := i + len(n); j < len(text) {
			after = text[j]
		}
		if !(before >= '0' && before <= '9' || before == '.') && !(after >= '0' && after <= '9') {
			return true
		}
		next := strings.Index(text[i+1:], n)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// asksRelease matches a question asking when or in which release
// something came (asksWhen without "release" as a verb: "How do I release
// the lock?"), in English, Chinese or Japanese (哪个版本, 什么时候,
// どのバージョン, いつ).
var asksRelease = regexp.MustCompile(`(?i)^\W*when\b|\bsince when\b|\b(version|versions|releases|introduced|added|deprecated|removed)\b|\b(which|what|in|since|the|a|this|that) release\b|哪个版本|哪一版|什么时候|何时|从.*版本|どのバージョン|いつ|バージョン`)

// asksWhen matches a question about when or in which release something
// came, changed or went: what a bare version note answers. "When" counts
// only opening the question: "What does the reloader do when a file
// changes?" asks what, not when.
var asksWhen = regexp.MustCompile(`^\W*when\b|\bsince when\b|\b(version|versions|release|introduced|added|deprecated|removed)\b`)

// passage is a scored unit range [from, to) of one source. evidence is
// its score without the credit for leading a section, which picks the
// passage of a source but is no evidence that the source answers (the
// supporting sentences of other sources are measured by it).
type passage struct {
	score, evidence float64
	from, to        int
}

// wordy reports whether at least 70% of text's non-space characters are
// letters: prose, not program output or a dump of values ("==== sqlca ====
// sqlcode: -400 …"), which a supporting sentence must not add to an
// answer that already has its best passage.
func wordy(text string) bool {
	var letters, other int
	for _, r := range text {
		switch {
		case unicode.IsSpace(r):
		case unicode.IsLetter(r):
			letters++
		default:
			other++
		}
	}
	return letters > 0 && 10*letters >= 7*(letters+other)
}

// quoted is the text of units, for comparing two passages.
func quoted(us []unit) string {
	var b strings.Builder
	for _, u := range us {
		b.WriteString(u.text + "\n")
	}
	return b.String()
}

// leadPassage returns the first quotable units of the first source that has
// any, else the first code block.
func leadPassage(docs [][]unit, maxSentences int) (src, from, to int, ok bool) {
	for si, d := range docs {
		for a, u := range d {
			if !quotable(u) || boilerplate(u) {
				continue
			}
			b := a + 1
			for b < len(d) && b-a < maxSentences && quotable(d[b]) && !boilerplate(d[b]) {
				b++
			}
			return si, a, b, true
		}
	}
	for si, d := range docs {
		for a, u := range d {
			if u.kind == unitCode {
				return si, a, a + 1, true
			}
		}
	}
	return 0, 0, 0, false
}

// complete widens [from, to) of d so that the passage reads on its own (see
// Extractive), within one more sentence than maxSentences and
// maxPassageChars.
func complete(d []unit, from, to, maxSentences int, query []string, procedure, defining, contrasting bool) (int, int) {
	size := func(a, b int) (sentences, chars int) {
		for _, u := range d[a:b] {
			if u.kind != unitCode {
				sentences++
			}
			chars += quotedLen(u)
		}
		return
	}
	fitsIn := func(a, b, extra int) bool {
		s, c := size(a, b)
		return s <= maxSentences+extra && c <= maxPassageChars+maxQuoteChars
	}
	fits := func(a, b int) bool { return fitsIn(a, b, 1) }
	// A leading back-reference brings the sentence it refers to, and so on
	// back while that one leans on its predecessor too (up to two sentences
	// over maxSentences: an answer that does not name its subject is not
	// one). It refers to nothing across a section's title: the sentence
	// before that ends another section ("See runspider command for more
	// info." above an FAQ entry opening "Those messages …").
	// Sentences at the end that hold no question term the rest lacks make
	// room for it.
	for from > 0 && d[from].kind == unitSentence && opensWithBackReference(d[from].text) && d[from-1].kind == unitSentence && d[from-1].section == d[from].section {
		if h, fields := entryHeadAbove(d, from); h >= 0 {
			// What "This method …" refers to is the entry's signature
			// above its fields ("Returns: …", "Raises: - TypeError
			// …"), not the last of them: PyGreSQL's dictresult() was
			// quoted as "- MemoryError – internal memory error. This
			// method returns query results as a list of dictionaries"
			// (a held-out trial). The fields come with it, as they
			// stand between; without room for them, the sentence
			// stands alone.
			for !fitsIn(h, to, 2+fields) && to-from > 1 && d[to-1].kind == unitSentence && !addsTerm(d[from:to-1], d[to-1], query) {
				to--
			}
			if fitsIn(h, to, 2+fields) {
				from = h
			}
			break
		}
		for !fits(from-1, to) && to-from > 1 && d[to-1].kind == unitSentence && !addsTerm(d[from-1:to-1], d[to-1], query) {
			to--
		}
		if !fitsIn(from-1, to, 2) {
			break
		}
		from--
	}
	// A passage opening with the rest of a sentence that a code block cut
	// ("which writes ninja build files …" under `tools/gn-build.py`) brings
	// the code and the sentence before it: alone it is a fragment. So does
	// one that points at the code above it ("The context processor above
	// makes a variable called user available …": h-trial29 quoted it
	// without the processor), and so does one opening with a
	// back-reference right under the code, in its section: what it
	// refers to is the code ("That is, an empty value." under
	// "local_recipient_maps =", quoted alone for which setting turns the
	// check off). One that announces what follows ("These two examples
	// show …:") refers to that. So does one whose subject is the code, left
	// out ("--no-expose-tracebacks" above "Is equivalent to passing
	// expose_tracebacks=False": quoted without it under another flag, the
	// sentence said that flag turned the option off, a held-out trial).
	if from > 0 && d[from-1].kind == unitCode && !d[from-1].echo && !d[from-1].output &&
		(continues(d[from].text) || cutAtCode(d, from) || pointsAbove(d[from].text) ||
			d[from].kind == unitSentence && d[from-1].section == d[from].section && opensWithCopula(d[from].text) ||
			d[from].kind == unitSentence && d[from-1].section == d[from].section && opensWithBackReference(d[from].text) && !announces(d[from].text)) && fitsIn(from-1, to, 2) {
		from--
		if from > 0 && d[from-1].kind == unitSentence && d[from-1].section == d[from].section && fitsIn(from-1, to, 2) {
			from--
		}
	}
	// Numbered notes explaining the lines of the code above them (its
	// callouts) bring that code, and the caption above it: alone they
	// explain a command the answer never shows. Notes at the end that add
	// no question term make room.
	if c := calloutCode(d, from); c >= 0 {
		for !fitsIn(c, to, 2) && to-from > 1 && !addsTerm(d[from:to-1], d[to-1], query) {
			to--
		}
		if fitsIn(c, to, 2) {
			from = c
			if from > 0 && d[from-1].kind == unitSentence && d[from-1].section == d[from].section && d[from-1].item == "" && fitsIn(from-1, to, 2) {
				from--
			}
		}
	}
	// A passage that starts inside a definition names what is defined: the
	// term is the subject of every sentence of its definition, and the
	// question often asks for it ("graceful" above "… currently open
	// connections are not aborted"). Its first sentence, which carries the
	// term, comes first when the passage still fits.
	if h := definitionStart(d, from); h >= 0 && h < from && fitsIn(h, to, 2) {
		from = h
	}
	// So does one that starts at a later sentence of a list item: the
	// item's first sentence names what the rest says of ("attach_file()
	// creates a new attachment …" above "Call it with the path of the
	// file to attach …").
	if h := from; d[from].item != "" && d[from].kind == unitSentence {
		for h > 0 && d[h-1].block == d[from].block && d[h-1].kind == unitSentence {
			h--
		}
		if h < from && fitsIn(h, to, 2) {
			from = h
		}
	}
	// Sentences of the same paragraph that refer back to the passage and
	// name what it is about, or introduce code ("PostgreSQL provides the
	// utility program pg_dump for this purpose. The basic usage of this
	// command is:"), continue it. So does the first such sentence after a
	// one-sentence answer to what something is: a definition goes on in
	// the sentence after its first ("Tree processors manipulate the tree
	// created by block processors. They can even create an entirely new
	// ElementTree object.").
	for to < len(d) && d[to].kind == unitSentence && d[to].block == d[to-1].block && refersBack(d[to].text) && fits(from, to+1) {
		introducesCode := strings.HasSuffix(d[to].text, ":") && to+1 < len(d) && d[to+1].kind == unitCode
		if qualifies.MatchString(d[to].text) {
			// A sentence taking back what the passage said ("This,
			// however, is not the preferred way to concatenate
			// strings!") continues it, and so does the one after it
			// pointing to what to use instead ("For string
			// concatenation, have a look-see at the ~ operator."):
			// without them, Jinja's "+" was the answer to which
			// operator joins strings.
			to++
			if to < len(d) && d[to].kind == unitSentence && d[to].block == d[to-1].block && pointsElsewhere.MatchString(d[to].text) && fitsIn(from, to+1, 2) {
				to++
			}
			continue
		}
		if !introducesCode && !namesIdentifier(d[to].text) && !namesDotted(d[to].text) && !(defining && to-from == 1) {
			break
		}
		to++
	}
	// A question that asks how things differ is answered where the page
	// contrasts them: a passage naming them ("aiohttp.web has three
	// classes for the HTTP response: StreamResponse, Response and
	// FileResponse.") goes on through the sentences of its section that
	// name one of them, or lead into one that does, as far as it fits
	// ("Usually you need to use the second one. StreamResponse is intended
	// for streaming data, while Response contains HTTP BODY …").
	holds := func(u unit) bool {
		return slices.ContainsFunc(u.terms, func(t string) bool { return slices.Contains(query, t) })
	}
	for contrasting && to < len(d) && d[to].kind == unitSentence && d[to].section == d[to-1].section && fits(from, to+1) &&
		(holds(d[to]) || to+1 < len(d) && d[to+1].kind == unitSentence && d[to+1].block == d[to].block && holds(d[to+1]) && fits(from, to+2)) {
		to++
	}
	// A passage ending on how things used to be ("It used to be that if
	// the 'user' parameter … was 'None', then pg8000 would try and look at
	// environment variables") goes on to the sentence of its paragraph
	// saying how they are now ("Now we just go by the 'user' parameter
	// only, …"): alone, it answered "Does pg8000 still look at PGUSER?"
	// with the opposite of what the release did (a held-out trial).
	if to < len(d) && d[to].kind == unitSentence && d[to-1].kind == unitSentence && d[to].block == d[to-1].block &&
		pastState.MatchString(d[to-1].text) && presentState.MatchString(d[to].text) && fitsIn(from, to+1, 2) {
		to++
	}
	// A passage ending inside a list item goes on to the item's end as far
	// as it fits: an item is one entry ("size – The number of rows to fetch
	// when called." above "If not provided, the arraysize attribute value
	// is used instead.", which answered how many rows fetchmany returns
	// without a size, in a held-out trial).
	for to < len(d) && d[to].kind == unitSentence && d[to].item != "" && d[to-1].item != "" && d[to].block == d[to-1].block &&
		d[to].section == d[to-1].section && fits(from, to+1) {
		to++
	}
	// A passage ending on a condition with no main clause ("However, if
	// you need to turn this behavior off for some reason." above "You can
	// clear the defaulted states table like this:", PLY's manual) ends
	// before what it promises: the next sentence of its paragraph says
	// what to do (a held-out trial quoted the condition alone), with the
	// code it announces, in place of the passage's first sentences that
	// hold no question term the rest lacks when they do not all fit. A
	// condition is bare by its punctuation only ("If wrapwidth is 0 no
	// wrapping is done." has its main clause without a comma, a review),
	// so the next sentence must instruct or announce.
	if to < len(d) && d[to].kind == unitSentence && d[to-1].kind == unitSentence && d[to].block == d[to-1].block &&
		danglingCondition(d[to-1].text) && (instructs(d[to].text) || announces(d[to].text)) {
		end := to + 1
		if end < len(d) && announces(d[to].text) && d[end].kind == unitCode && !d[end].echo && d[end].section == d[to].section {
			end++
		}
		f := from
		for f < to-1 && !fits(f, end) && !addsTerm(d[f+1:end], d[f], query) {
			f++
		}
		if fits(f, end) {
			from, to = f, end
		}
	}
	// A passage ending on the sentence that brings in what the question
	// asks about ("… and that there is an extra option, q.") goes on to
	// the next sentence of its paragraph when that one opens with it ("The
	// q option formats a string between double quotes, …"): the first
	// names it, the second says what it is (a fresh user's question on
	// Lua's string.format was answered with the first alone).
	if to < len(d) && d[to].kind == unitSentence && d[to-1].kind == unitSentence && d[to].block == d[to-1].block && fits(from, to+1) &&
		introducesNext(d[to-1].terms, d[to].terms, query) {
		to++
	}
	// Code the passage introduces, or ends next to, is quoted with it. When
	// the passage ends on the sentence announcing it ("… known as the
	// Accounting Equation:" above the equation) and both do not fit, the
	// sentences before that add no question term make room: an answer
	// that ends on ":" promises what it does not say.
	if to < len(d) && d[to].kind == unitCode && !d[to].echo && (announces(d[to-1].text) || d[to].block == d[to-1].block+1) {
		if fits(from, to+1) || to-from == 1 {
			to++
		} else if announces(d[to-1].text) {
			f := from
			for f < to-1 && !fits(f, to+1) && !addsTerm(d[f+1:to+1], d[f], query) {
				f++
			}
			if fits(f, to+1) {
				from, to = f, to+1
			}
		}
	}
	// A passage that lacks a question term goes on through the example
	// its section gives next (the code, and the sentence announcing it)
	// to the sentence right after that example when this one holds the
	// term: what a section says after its example qualifies what it said
	// before ("It should return None (not raise an exception) if the ID
	// is not valid." under Flask-Login's user_loader example was left out
	// of the answer to what the callback returns for an invalid ID).
	if k := to; k < len(d) && d[k].section == d[to-1].section {
		if d[k].kind == unitSentence && announces(d[k].text) {
			k++
		}
		if k+1 < len(d) && d[k].kind == unitCode && !d[k].echo && !d[k].output && d[k].section == d[to-1].section &&
			d[k+1].kind == unitSentence && d[k+1].item == "" && d[k+1].section == d[to-1].section &&
			addsTerm(d[from:to], d[k+1], query) && fitsIn(from, k+2, 2) {
			to = k + 2
		}
	}
	// A passage ending on the page's copy of the message the question
	// pastes, on the sentence announcing it, or right before that
	// sentence, goes on through the copy (and the other items of its list)
	// to what the page says after it, in its section (one sentence, two
	// when they share a paragraph): the asker has the message, not its
	// explanation ("… you'll get this error message:" above "RuntimeError:
	// Working outside of application context." above "… To solve this,
	// set up an application context with app.app_context().").
	same := func(i int) bool { return i < len(d) && d[i].section == d[to-1].section }
	if same(to+1) && d[to].kind == unitSentence && announces(d[to].text) && d[to+1].echo && fitsIn(from, to+2, 2) {
		to++
	}
	if same(to) && d[to].echo && announces(d[to-1].text) && fitsIn(from, to+1, 2) {
		to++
	}
	// So does one ending on the list whose item is the copy (pexpect's
	// "The two messages are:", the pasted one first).
	if d[to-1].echo || echoInList(d[:to]) {
		for same(to) && (d[to].echo || d[to].item != "" && d[to-1].item != "") && fitsIn(from, to+1, 2) {
			to++
		}
		if same(to) && d[to].kind == unitSentence && d[to].item == "" && !d[to].echo && fitsIn(from, to+1, 2) {
			to++
			if same(to) && d[to].kind == unitSentence && d[to].block == d[to-1].block && fitsIn(from, to+1, 2) {
				to++
			}
		}
	}
	// What the page says after the message explains it; the remedy is the
	// command it then announces ("For instance, … you can fix the problem
	// by exporting the locale to de_DE.utf-8:" above the export lines),
	// which joins a passage holding the copy or opening right after it,
	// with the rest of the explanation's paragraph, when it comes next in
	// the section: an answer that stops at "You are dealing with an
	// environment where Python thinks you are restricted to ASCII data."
	// leaves the asker where they were.
	if slices.ContainsFunc(d[from:to], func(u unit) bool { return u.echo }) || from > 0 && d[from-1].echo && d[from-1].section == d[from].section {
		k := to
		if same(k) && d[k].kind == unitSentence && d[k].block == d[k-1].block && !announces(d[k].text) {
			k++
		}
		if same(k+1) && d[k].kind == unitSentence && announces(d[k].text) && d[k+1].kind == unitCode && !d[k+1].echo &&
			d[k+1].section == d[k].section && fitsIn(from, k+2, 3) {
			to = k + 2
		}
	}
	// A field of the definition the passage quotes ("Default: timedelta(days=31)
	// (2678400 seconds)" under PERMANENT_SESSION_LIFETIME) that the
	// question names ("What is the default value of …?") and the passage
	// lacks joins it, with what lies between, when that fits: up to four
	// units on, before the next definition.
	if slices.ContainsFunc(d[from:to], func(u unit) bool { return len(u.defines) > 0 }) {
		for k := to; k < len(d) && k < to+4 && d[k].section == d[to-1].section && len(d[k].defines) == 0; k++ {
			label, _, ok := strings.Cut(d[k].text, ": ")
			if !ok || !fieldLine(d[k].text) {
				continue
			}
			named := slices.ContainsFunc(terms(label), func(t string) bool {
				return slices.Contains(query, t) && !slices.ContainsFunc(d[from:to], func(u unit) bool { return slices.Contains(u.terms, t) && !strings.HasPrefix(u.text, label+":") })
			})
			if named && fitsIn(from, k+1, 2) {
				to = k + 1
			}
			break
		}
	}
	// For a question that asks how to do something, a passage that opens
	// inside a numbered list (a procedure's third step) opens at its first
	// item when the list up to the passage fits,
	// and then runs on to the list's end as far as it fits: a step quoted
	// without the steps before it is not the procedure ("3. Send an email
	// to …" answered how to get a package auto-built, and the step that
	// marks the package was left out). A numbered list of facts ("5. The
	// metrics exporter listens on port 9100.") answers a question of fact
	// with its item.
	// For a question that asks how, a passage of prose right after the
	// code it talks about ("The argument to the aggregate() clause
	// describes …" under ">>> Book.objects.aggregate(Avg('price'))")
	// brings that code, and the sentence announcing it: the code is the
	// how. It must name something the code writes.
	if procedure && from > 0 && d[from].kind == unitSentence && d[from-1].kind == unitCode && !d[from-1].echo &&
		d[from-1].section == d[from].section && sharesIdentifier(d[from].text, d[from-1].text) && fitsIn(from-1, to, 2) {
		from--
		if from > 0 && d[from-1].kind == unitSentence && d[from-1].section == d[from].section && announces(d[from-1].text) &&
			fitsIn(from-1, to, 2) {
			from--
		}
	}
	if procedure && numbered(d[from].item) {
		start := from
		for start > 0 && d[start-1].item != "" && adjacent(d, start-1, start) && d[start-1].section == d[start].section {
			start--
		}
		if numbered(d[start].item) && fitsIn(start, to, maxListItems) {
			from = start
			for to < len(d) && d[to].item != "" && adjacent(d, to-1, to) && d[to].section == d[to-1].section &&
				fitsIn(from, to+1, maxListItems) {
				to++
			}
		}
	}
	// A passage that reaches a procedure's first step, or ends on the
	// sentence just above it ("To reset a widget, follow these steps."),
	// runs on to its last step as far as it fits: the first step alone
	// ("1. Stop the gizmo daemon.") or the sentence that announces the
	// steps is not the procedure the question asks for.
	if procedure {
		first := -1
		for x := from; x < to; x++ {
			if numbered(d[x].item) {
				first = x
				break
			}
		}
		if first < 0 && to < len(d) && numbered(d[to].item) && d[to-1].kind == unitSentence && d[to-1].item == "" &&
			d[to].block == d[to-1].block+1 && d[to].section == d[to-1].section && fitsIn(from, to+1, maxListItems) {
			first = to
			to++
		}
		for first >= 0 && to < len(d) && d[to].item != "" && adjacent(d, to-1, to) && d[to].section == d[to-1].section &&
			fitsIn(from, to+1, maxListItems) {
			to++
		}
	}
	// So is the list a sentence ending with ":" announces ("… against
	// prototype pollution:" above `node:http`, `node:http2`), as many of
	// its items as fit: the sentence alone promises what it does not say.
	// A passage that opens inside an announced list opens with the
	// sentence that announces it ("以下步骤：" above the steps)…
	if d[from].item != "" {
		start := from
		for start > 0 && d[start-1].item != "" && adjacent(d, start-1, start) {
			start--
		}
		if start > 0 && d[start-1].item == "" && d[start-1].kind == unitSentence && announces(d[start-1].text) &&
			d[start-1].block+1 == d[start].block && d[start-1].section == d[start].section && fitsIn(start-1, to, maxListItems) {
			from = start - 1
		}
	}
	// …and the announcing sentence may be in the passage with the list's
	// first items: the rest of the list follows too.
	announced, announcer := false, -1
	for x := to - 1; x >= from; x-- {
		if d[x].item == "" {
			announced = announces(d[x].text) && (x == to-1 || d[x+1].block == d[x].block+1)
			announcer = x
			break
		}
	}
	for announced && to < len(d) && d[to].item != "" && adjacent(d, to-1, to) && fitsIn(from, to+1, maxListItems) {
		to++
	}
	// So are the entries such a sentence announces, each a term and what
	// it says of it ("Each processors receives three positional
	// arguments:" above logger, method_name and event_dict): the answer
	// stopped after the first.
	if x := definitionsAnnounced(d, from, to); x >= 0 {
		for to < len(d) && d[to].section == d[to-1].section && d[to].item == "" &&
			(len(d[to].defines) > 0 && d[to].kind == unitSentence || to > x+1 && d[to].block == d[to-1].block) && fitsIn(from, to+1, maxListItems) {
			to++
		}
	}
	// When the list's last items do not fit, the sentences before the
	// announcing one that add no question term make room for them: the
	// list is what the sentence announced ("On Ubuntu xenial, the
	// following packages need to be installed:" lost latexmk, the package
	// the question's make latexpdf needs, to the builder's description
	// above it).
	if announced && to < len(d) && d[to].item != "" && adjacent(d, to-1, to) {
		end := to
		for end < len(d) && d[end].item != "" && adjacent(d, end-1, end) {
			end++
		}
		f := from
		for f < announcer && !fitsIn(f, end, maxListItems) && !addsTerm(d[f+1:end], d[f], query) &&
			!(d[f+1].kind == unitSentence && opensWithBackReference(d[f+1].text)) && !cautions.MatchString(d[f].text) {
			// The sentence the next one leans on stays ("It needs
			// the following packages:" under what "it" is), and so
			// does a caution ("The drivers in this section are
			// deprecated …; do not use them"): the list without it
			// misleads.
			f++
		}
		if fitsIn(f, end, maxListItems) {
			from, to = f, end
		}
	}
	// For a question that asks how, a passage of prose that gives no means
	// (no instruction, no code, no "you can use …": givesMeans) goes on to
	// the first sentence of the next two in its section that does, when
	// that sentence names code or an option, is of the passage's last
	// paragraph (the next one may be another task's: "To print the request
	// as well as the response, use --verbose.") and as far as it fits (a
	// means in words alone, "First, you need to create an empty
	// repository …", followed whatever passage came before it): "Sometimes a document is mostly in UTF-8, but contains
	// Windows-1252 characters such as (again) Microsoft smart quotes."
	// restated the asker's situation, and "You can use
	// UnicodeDammit.detwingle() to turn such a document into pure UTF-8."
	// two sentences on was the answer (Beautiful Soup's manual).
	if procedure && !slices.ContainsFunc(d[from:to], func(u unit) bool {
		return u.kind == unitCode || u.item != "" || u.kind == unitSentence && givesMeans(u.text)
	}) {
		for k := to; k < len(d) && k < to+2 && d[k].kind == unitSentence && d[k].item == "" && d[k].section == d[to-1].section && !d[k].echo; k++ {
			if givesMeans(d[k].text) {
				if (namesIdentifier(d[k].text) || optionWord.MatchString(d[k].text)) && d[k].block == d[to-1].block && fitsIn(from, k+1, 2) {
					to = k + 1
				}
				break
			}
		}
	}
	// For a question that asks how, a passage that is a section's opening
	// sentence stating a need ("You may not need a full validation
	// process, but still want to check if all the expected values are
	// present.") goes on to what the section says next, up to two
	// sentences: what meets the need (configobj's "Provided as part of the
	// ConfigObj module is the SimpleVal object. This has a dummy check
	// method that always passes."). Not a need stated in passing further
	// down ("This can be useful if you want to load them manually", "For
	// example, you might want to limit a user to …"): what follows those
	// is the section's next subject.
	if procedure && to-from == 1 && (from == 0 || d[from-1].section != d[from].section) &&
		d[from].kind == unitSentence && statesNeed(d[from].text) && !instructs(d[from].text) {
		for k := to; k < len(d) && k < to+2 && d[k].kind == unitSentence && d[k].section == d[to-1].section && d[k].item == "" &&
			len(d[k].defines) == 0 && !d[k].echo && fitsIn(from, k+1, 2); k++ {
			to = k + 1
		}
	}
	// For a question that asks how, a passage of prose alone goes on to the
	// example its section gives next, past at most two sentences, or right
	// under the caption that titles it ("Example usage:"): "Like options,
	// arguments can also grab values from an environment variable." told
	// that it can be done, and the code below it, how (h-trial24).
	if procedure && !slices.ContainsFunc(d[from:to], func(u unit) bool { return u.kind == unitCode || u.item != "" }) {
		k := to
		for k < len(d) && k < to+2 && d[k].kind == unitSentence && d[k].item == "" && d[k].section == d[to-1].section {
			k++
		}
		if k < len(d) && d[k].kind == unitCode && !d[k].echo && !d[k].output &&
			(d[k].section == d[k-1].section || d[k].section == d[k-1].section+1 && d[k].block == d[k-1].block+2) &&
			fitsIn(from, k+1, 2) {
			to = k + 1
		}
	}
	// A setting's default alone ("result_expires: Default: Expire after 1
	// day.") says what it is set to, not what it does: the first sentences
	// of the description after it join it, before the next definition.
	if to-from == 1 && len(d[from].defines) > 0 && defaultLine(d[from].text) {
		for k := to; k < len(d) && k < from+3 && d[k].section == d[from].section && d[k].kind == unitSentence &&
			len(d[k].defines) == 0 && fitsIn(from, k+1, 1); k++ {
			to = k + 1
		}
	}
	// A passage that states a problem goes on to the sentence after it
	// that gives the fix ("To solve the problem, … specify the
	// consumer_timeout parameter …", "The solution is to use the
	// on_commit callback"), within the next remedyReach units of its
	// section and as far as it fits, with the code that sentence
	// announces: the cause alone ("the default value for consumer_timeout
	// is 15 minutes") left the asker where they were. A supporting
	// sentence (maxSentences 1) stays one sentence.
	for k := to; maxSentences > 1 && k < len(d) && k < to+remedyReach && d[k].section == d[to-1].section && !d[k].echo; k++ {
		if d[k].kind != unitSentence || !remedyCue.MatchString(d[k].text) && !remedyClause.MatchString(d[k].text) {
			continue
		}
		code := announces(d[k].text) && k+1 < len(d) && d[k+1].kind == unitCode && !d[k+1].echo
		switch {
		case code && fitsIn(from, k+2, 3):
			to = k + 2
		case !announces(d[k].text) && fitsIn(from, k+1, 3):
			// A fix announcing what it does not bring would end the
			// answer on ":".
			to = k + 1
		}
		break
	}
	// A passage opening a short section of prose (an FAQ's entry, a
	// glossary's term) runs on to the section's end when the whole
	// section fits: the entry is the answer, and its first sentence is
	// often the least of it ("Those messages … don't necessarily mean
	// there is a problem" above "Those messages are thrown by the Offsite
	// Spider Middleware …"; "999 is a custom response status code used by
	// Yahoo sites to throttle requests." above "Try slowing down the
	// crawling speed …" and its code). Only a section that ends inside the
	// source (one running on past it may be long), of sentences and the
	// code they announce: a list's items are entries of their own (a
	// change log's fixes, a release's removed platforms), and so is a
	// line shaped like code that nothing announces (the next release's
	// "0.8 (2005-11-03)"), and so is each sentence of a release's notes
	// (a section titled "Version 2.4.0"). The run does not end on a sentence announcing
	// what the section no longer holds, nor on a bare pointer elsewhere
	// ("For more info on how it works see this page.", "Also, here's an
	// example spider …") unless it names code. A supporting sentence
	// (maxSentences 1) stays one sentence.
	if maxSentences > 1 && leadsSection(d, from) && d[from].item == "" && !releaseTitle(d[from].heading) {
		end := to
		for end < len(d) && d[end].section == d[from].section && !d[end].echo && d[end].item == "" &&
			(d[end].kind == unitSentence || d[end].kind == unitCode && announces(d[end-1].text)) {
			end++
		}
		if end > to && end < len(d) && d[end].section != d[from].section && fitsIn(from, end, 1) {
			for end > to && d[end-1].kind == unitSentence &&
				(announces(d[end-1].text) || barePointer(d[end-1].text) && !namesIdentifier(d[end-1].text)) {
				end--
			}
			to = end
		}
	}
	// A passage does not end on the next entry of a reference list (the
	// filter after the one the passage defines, run into because the
	// example between them scored): a trailing sentence that defines
	// another term and holds no question term the rest lacks is left out
	// (h-trial30: dictsort's example was followed by "escape(value):
	// Replace the characters &, <, >, …").
	for to-from > 1 && d[to-1].kind == unitSentence && len(d[to-1].defines) > 0 &&
		!slices.Equal(d[to-1].defines, d[from].defines) && !addsTerm(d[from:to-1], d[to-1], query) {
		to--
	}
	// A passage still ending on a sentence that announces what follows
	// ("… because you fear their performance impact:" above
	// "attr.set_run_validators(run): Set whether or not validators are
	// run.") goes on to what it announces, the next unit of its section,
	// when that fits: an answer that ends on ":" promises what it does not
	// say.
	if to < len(d) && d[to-1].kind == unitSentence && announces(d[to-1].text) && d[to].section == d[to-1].section &&
		!d[to].echo && fitsIn(from, to+1, 2) {
		to++
	}
	// When it does not fit, the passage ends before the announcement,
	// unless that is all it is, or it says what the rest does not, or
	// names what to use ("Set the MAX_CONTENT_LENGTH config key …, as in
	// this line:").
	if to-from > 1 && to < len(d) && d[to-1].kind == unitSentence && announces(d[to-1].text) && d[to].section == d[to-1].section && !d[to].echo &&
		!addsTerm(d[from:to-1], d[to-1], query) && !namesIdentifier(d[to-1].text) {
		to--
	}
	// A passage ending on code that cut a sentence in two goes on with
	// the sentence's rest ("If you usually use: $ pytest arg1 arg2 arg3
	// then you can run your tests under coverage with:"), which the code
	// after it completes: without it, the command the question asked for
	// was left out and the answer ended on the asker's own command. The
	// rest is no sentence of its own, so it may run one over the limit.
	if to < len(d) && to-from > 1 && d[to-1].kind == unitCode && d[to].kind == unitSentence && d[to].section == d[to-1].section &&
		restOfSentence(d, to) && fitsIn(from, to+1, 3) {
		to++
		if to < len(d) && announces(d[to-1].text) && d[to].kind == unitCode && d[to].section == d[to-1].section && fitsIn(from, to+1, 3) {
			to++
		}
	}
	// A passage that is only a row gains the row's neighbours only when they
	// add words: complete does not guess; a row is quoted with its header.
	return from, to
}

// pointsAbove reports a sentence whose subject is what came above it ("The
// context processor above …", "The example above …", "The above code …").
// "Above" followed by a number or an article compares or places ("The
// value above 100", "the line above the table") instead.
func pointsAbove(s string) bool {
	m := aboveSubject.FindStringIndex(s)
	if m == nil {
		return false
	}
	next := strings.Fields(s[m[1]:])
	if len(next) == 0 {
		return true
	}
	w := strings.ToLower(strings.Trim(next[0], ",;:."))
	return !(w != "" && w[0] >= '0' && w[0] <= '9') && !placeWords[w]
}

var placeWords = map[string]bool{"the": true, "a": true, "an": true, "all": true, "its": true, "this": true, "that": true, "it": true}

var aboveSubject = regexp.MustCompile(`(?i)^(the|this|that|these|those) (above (` + codeNouns + `)\b|([\w-]+ ){0,2}(` + codeNouns + `) (above|shown above)\b)`)

// codeNouns name what a code block is: "The CPU load above normal" and
// "The table above" point at no code.
const codeNouns = `examples?|code|snippets?|functions?|class(es)?|processors?|decorators?|configuration|config|commands?|quer(y|ies)|listings?|programs?|scripts?|templates?|views?|handlers?|calls?|statements?|definitions?|methods?|setup|blocks?|tests?|filters?|loaders?|extensions?|rules?|routes?|callbacks?|hooks?|middleware|fixtures?|macros?|patterns?|lines?|settings?`

// defaultLine reports a definition's first sentence that gives only the
// default ("result_expires: Default: Expire after 1 day.").
func defaultLine(text string) bool {
	_, rest, ok := strings.Cut(text, ": ")
	return ok && strings.HasPrefix(rest, "Default:")
}

// cautions matches a sentence that warns or restricts: what it says of a
// list must be quoted with it.
var cautions = regexp.MustCompile(`(?i)\b(deprecated|obsolete|removed|unsupported|not supported|do not|don't|never|must not|should not|warning|caution|only (on|for|with|if|when)|experimental)\b`)

// qualifies matches a sentence that takes back or qualifies what the one
// before it recommends.
var qualifies = regexp.MustCompile(`(?i)\b(however|not the (preferred|recommended|best|right)|not recommended|discouraged|deprecated|instead)\b`)

// asksReplacement matches a question asking what to use in place of
// something, or whether it is deprecated: "instead", "in their place", an
// alternative, a replacement, a successor, "what should I use", "what
// replaces", "is it deprecated".
var asksReplacement = regexp.MustCompile(`(?i)\binstead\b|\bin (its|their) place\b|\balternatives?\b|\breplacements?\b|\bsuccessors?\b|\bwhat (should|do|can|could) (i|we|you) use\b|\bwhat to use\b|\breplace[sd]?\b|\bdeprecated\b|\bobsolete\b`)

// asksRetired matches a question asking whether something is deprecated.
var asksRetired = regexp.MustCompile(`(?i)\b(deprecated|obsolete|still (supported|recommended))\b`)

// retires matches a sentence saying that something is on its way out.
var retires = regexp.MustCompile(`(?i)\b(deprecated|obsolete|legacy|superseded|no longer (recommended|supported|maintained))\b`)

// replacedBy matches a sentence naming what to use in place of something.
// "Use" counts as advice ("Please use …", "you should use …"), not in
// passing ("non-obvious to use").
var replacedBy = regexp.MustCompile(`(?i)(^|[:;]\s+)(please )?use\b|\b(should|can|could|may|must|better|recommended to|you) use\b|\b(instead|prefer|replaced by|in favou?r of|superseded by|switch to|migrate to)\b`)

// replacementFollows returns the end of passage [from, to) carried on to
// what names the replacement of what it calls deprecated, when the
// passage names none (replacedBy): in prose, a sentence at most two on in
// its paragraph or the next, outside any list (asked whether the getters
// are deprecated "and what should I use in their place",
// PyStaticConfiguration's answer stopped at "This module should be
// considered deprecated." above "Please use staticconf.readers …", a
// held-out trial); in a reference entry, the note right after its fields
// (entryNote: "Deprecated since version 1.0.0: Use run_threaded()" under
// hiro's run_async, whose signature alone was quoted), which asked
// whether the entry is deprecated (retired) needs to name no
// replacement.
func replacementFollows(d []unit, from, to int, retired bool) int {
	if slices.ContainsFunc(d[from:to], func(u unit) bool { return u.kind == unitSentence && replacedBy.MatchString(u.text) }) {
		return to
	}
	if slices.ContainsFunc(d[from:to], func(u unit) bool { return u.kind == unitSentence && u.item == "" && retires.MatchString(u.text) }) {
		for k := to; k < len(d) && k < to+2 && d[k].section == d[to-1].section && d[k].kind == unitSentence && d[k].item == "" &&
			d[k].block <= d[to-1].block+1 && !d[k].planted && !entryHead(d[k]); k++ {
			if replacedBy.MatchString(d[k].text) {
				return k + 1
			}
		}
		return to
	}
	if k := entryNote(d, from, to); k >= 0 && retires.MatchString(d[k].text) && (retired || replacedBy.MatchString(d[k].text)) {
		return k + 1
	}
	return to
}

// entryHead reports the first sentence of a reference entry: a
// definition's head that is no field of an entry and no list item
// ("get(key): Look up key in the cache", whatever its name defines).
func entryHead(u unit) bool {
	return u.kind == unitSentence && u.head && u.item == "" && !entryField(u.defines)
}

// entryNote returns the index of the sentence right after the fields of
// the reference entry that passage [from, to) is in ("Returns: …",
// "Raises: …" and their lists' items), in its section, when that sentence
// is no next entry's head: a note on the entry ("Deprecated since version
// 1.0.0: Use run_threaded()", "User-defined charsets are currently not
// supported."); -1 when the passage holds no entry's head or there is no
// such sentence. Only fields are passed over: prose, a list of the
// document's own or the next entry ends the entry (a review: a scan of
// ten units ran into the next method's deprecation note and a paragraph's
// unrelated options).
func entryNote(d []unit, from, to int) int {
	if !slices.ContainsFunc(d[from:to], entryHead) {
		return -1
	}
	for k := to; k < len(d) && d[k].section == d[to-1].section && !d[k].planted; k++ {
		u := d[k]
		if u.kind == unitSentence && (entryField(u.defines) || u.item != "" && u.field != "") {
			continue
		}
		if u.kind == unitSentence && u.item == "" && !entryHead(u) {
			return k
		}
		return -1
	}
	return -1
}

// asksWhether matches a question asking whether something can be done or
// is so ("Can I register my own …?", "Is it possible to …", "Does X
// support …").
var asksWhether = regexp.MustCompile(`(?i)^\W*(can|could|may|is it possible|is there a way|does|do|is|are|will)\b`)

// restricts matches a sentence saying that something cannot be done.
var restricts = regexp.MustCompile(`(?i)\b(not (yet |currently )?supported|currently not supported|unsupported|not (yet )?implemented|cannot|can ?not|can't|is not possible|isn't possible|not available|no way to)\b`)

// restrictionFollows returns the end of passage [from, to) carried on to
// what says that what it describes cannot be done or is not supported:
// in a reference entry, the entry's note (entryNote; asked "Can I
// register my own custom character set for G0 or G1?", pyte's answer
// quoted define_charset's signature and first parameter, without the
// warning under them, "User-defined charsets are currently not
// supported.", a held-out trial); in prose, the next sentence of the
// passage's paragraph when it holds a question term (asked whether
// dependencies added at runtime are taken into account, pytest-order's
// answer ended on "… add dependencies at runtime using
// pytest_dependency.depends." before "These dependencies cannot be
// detected at collection time and therefore are not included in
// ordering.", a held-out trial). A passage that says so already goes on
// no further.
func restrictionFollows(d []unit, from, to int, query []string) int {
	if slices.ContainsFunc(d[from:to], func(u unit) bool { return u.kind == unitSentence && restricts.MatchString(u.text) }) {
		return to
	}
	if k := entryNote(d, from, to); k >= 0 && restricts.MatchString(d[k].text) {
		return k + 1
	}
	if k := to; k < len(d) && d[k].kind == unitSentence && d[k].block == d[to-1].block && d[k].item == d[to-1].item && !d[k].planted &&
		!entryHead(d[k]) && restricts.MatchString(d[k].text) && slices.ContainsFunc(query, func(q string) bool { return slices.Contains(d[k].terms, q) }) {
		return k + 1
	}
	return to
}

// pointsElsewhere matches a sentence pointing to what to use instead.
var pointsElsewhere = regexp.MustCompile(`(?i)\b(use|see|look at|look-see at|have a look|prefer|instead|rather)\b`)

// entryField reports the terms a reference entry's field label defines
// ("Parameters", "Returns", "Return type", "Raises", "Yields"): the
// entry's own parts.
func entryField(defines []string) bool {
	for _, t := range defines {
		if !entryFields[t] {
			return false
		}
	}
	return len(defines) > 0
}

var entryFields = map[string]bool{"parameter": true, "param": true, "return": true, "typ": true, "type": true, "rais": true,
	"yield": true, "argument": true, "keyword": true, "except": true, "exception": true}

// remedyReach is how many units after a passage the sentence giving the
// fix may come.
const remedyReach = 6

// barePointer reports a sentence that only sends the reader elsewhere
// ("For more info see the reference.", "See Deploying Spiders.", "Refer
// to the manual.", "Also, here's an example spider …"): one clause, no
// comma or colon after the opening, so "See the upgrade notes before you
// start: the migration cannot be undone." is a warning, not a pointer.
func barePointer(s string) bool {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(strings.ToLower(s), "also, "); ok {
		s = rest
	}
	return pointsOnward.MatchString(s) && !strings.Contains(s, ", ") && !strings.Contains(s, ": ")
}

// releaseTitle reports a heading's terms that name a release ("Version
// 2.4.0", "2.4.0", "Release notes 1.2"): a number and nothing but
// release words.
func releaseTitle(heading []string) bool {
	number := false
	for _, t := range heading {
		switch {
		case strings.Trim(t, "0123456789.") == "" || strings.TrimLeft(t, "v") != t && strings.Trim(strings.TrimLeft(t, "v"), "0123456789.") == "":
			number = true
		case !releaseWords[t]:
			return false
		}
	}
	return number
}

// releaseWords are the stemmed words of a release's title besides its
// number.
var releaseWords = map[string]bool{"version": true, "releas": true, "release": true, "chang": true, "changelog": true,
	"new": true, "not": true, "note": true, "histori": true, "news": true}

// pointsOnward matches the opening of a pointer elsewhere.
var pointsOnward = regexp.MustCompile(`(?i)^(for (more|further) (info|information|details)\b[^.]*\bsee\b|see\b|refer to\b|here(’|')s\b|here (is|are)\b)`)

// statesNeed reports a sentence that states what someone wants or needs
// to do ("If you want to …", "You may wish to check …", "… but still want
// to check …"), not how; a need denied ("you may not need to fix them")
// is none.
func statesNeed(s string) bool {
	for _, m := range needWords.FindAllStringIndex(s, -1) {
		if strings.HasSuffix(strings.ToLower(s[m[0]:m[1]]), " be") {
			continue // "need to be recorded": a requirement, no one's need
		}
		before := strings.Fields(strings.ToLower(s[:m[0]]))
		if len(before) == 0 || !denials[strings.TrimRight(before[len(before)-1], ",")] && !strings.HasSuffix(before[len(before)-1], "n't") && !strings.HasSuffix(before[len(before)-1], "n’t") {
			return true
		}
	}
	return false
}

// needWords matches the words of a need: "want to", "wish to", "need
// to", "would like to".
var needWords = regexp.MustCompile(`(?i)\b(want|wish|need|would like|'d like)\s+to\s+(?:[a-z]+)\b`)

// denials are the words before a need that deny it.
var denials = map[string]bool{"not": true, "no": true, "never": true, "without": true}

// remedyCue matches a sentence that opens by giving the fix for what came
// before it, or the ways around it ("Either identify and stop the other
// program, or use flask run --port 5001 …": h-trial29 quoted the error
// message and stopped there). "Alternatively, …" is no cue: it offers
// another way to do what the passage does, and brought in the example
// between them too. The fix may be the only one its writer knows ("The
// only solution I have found is to use public key authentication with
// SSH.": pexpect's Solaris entry was quoted down to the error message).
// So is the best thing to do ("So, the best thing to do is to switch this
// behaviour off:" after why Active Directory's referrals fail), and the
// way out of what was described ("If this is not what you want, you may
// consider using ns.LOCALEALPHA …"). What the reader will need to do is
// no cue: it opens any prerequisite ("You will need to install
// ImageMagick for thumbnails to work."), and ran answers on to one.
var remedyCue = regexp.MustCompile(`(?i)^(to (solve|fix|avoid|resolve|prevent|work around|get around|remedy) (this|the|that|these|it)\b|the (solution|fix|workaround|remedy|cure) (is|here is|for this)\b|(a|one|the) (simple |easy |possible |only |best |usual |simplest |easiest )?(solution|fix|workaround|work-around)( (that )?(i|we) (have |'ve |’ve )?(found|know of|use))? (is|would be)\b|you can (fix|solve|avoid|prevent|resolve) (this|it|that|the problem)\b|(so,? )?the (best|only|simplest|easiest) (thing|way) to do (this )?is\b|if (this|that) is not what you (want|need|expect)\b|this can be (fixed|solved|avoided|prevented)\b|either (?:[a-z]+ ){0,3}(?:and|or) [a-z]+ [^.;]*, or (use|set|run|pass|call|add|change|pick|choose|specify|install|enable|disable|configure|start|stop)\b)`)

// remedyClause matches a sentence that says what will solve the problem
// wherever it says so ("In this case, simply raising the "ulimit-n" value
// (or removing it) will solve the problem.": HAProxy's management guide,
// whose answer stopped at the symptom, "accept() and socket() return -1
// EMFILE").
var remedyClause = regexp.MustCompile(`(?i)\b(will|would|should|usually|generally|often) (solve|fix|resolve|cure) (the|this|that|such|these) (problem|issue|error)s?\b`)

// continuations are lower-case words that open the rest of a sentence,
// never one: a unit opening with one continues a sentence cut by a code
// block or a page ("which writes ninja build files into out/Release").
var continuations = map[string]bool{"which": true, "that": true, "and": true, "or": true, "but": true, "where": true,
	"whereas": true, "while": true, "because": true, "since": true, "unless": true, "until": true, "whose": true,
	"who": true, "whom": true, "then": true, "nor": true, "so": true, "than": true}

// restOfSentence reports whether d[i], after the code unit d[i-1], goes on
// with the sentence the code interrupted: it opens with a word that
// continues one ("then you can run …", "which …"), or in lower case after
// prose ending with ":" ("Change “python” to “coverage run”, so this:" /
// "$ python -m unittest discover" / "becomes:").
func restOfSentence(d []unit, i int) bool {
	if continues(d[i].text) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(d[i].text)
	return unicode.IsLower(r) && i >= 2 && d[i-2].kind == unitSentence && d[i-2].section == d[i].section &&
		strings.HasSuffix(strings.TrimRight(d[i-2].text, " "), ":")
}

// cutAtCode reports whether d[i], after the code unit d[i-1], is the rest
// of the sentence the prose before the code left open: it opens in lower
// case and that prose ends without a sentence's final punctuation ("For
// example, a column declared as" NUMERIC(3, 1) "will round values to 1
// decimal place").
//
// The prose must be in the code's section and be no list item, which is
// written without final punctuation as a matter of course ("- Install the
// client" above its command); a sentence closed inside quotes or brackets
// ("… to “true.”", "(see below.)") or by an ellipsis is closed.
func cutAtCode(d []unit, i int) bool {
	if i < 2 || d[i-2].kind != unitSentence || d[i].kind != unitSentence || d[i-2].item != "" ||
		d[i-2].section != d[i].section || d[i-1].section != d[i].section {
		return false
	}
	r, _ := utf8.DecodeRuneInString(d[i].text)
	prev := strings.TrimRight(d[i-2].text, " ")
	closed := strings.TrimRight(prev, "\"')]”’»")
	return unicode.IsLower(r) && prev != "" && !endsSentence(prev) &&
		!strings.HasSuffix(closed, ":") && !strings.HasSuffix(closed, ";") && !strings.HasSuffix(closed, "…") && !strings.HasSuffix(closed, "：")
}

// valueTerms marks the question terms that are a value the question sets
// or names: a number after "to", "is", "be", "of" or "=" ("What happens
// if I set processes to 0?", "processes=0", "to `0`"), which prose that
// states it answers ("a value of 0 will set the actual number of
// processes to the number of CPUs", where a held-out trial quoted the
// config example setting 2). A number is in many chunks, so its weight
// alone says little of it. Not a number in passing ("on port 8080"), a
// range's end ("from version 2 to 3", a review) or a number inside a
// quoted message ("'3 is not valid under any of the given schemas'").
func valueTerms(question string, query []string) map[int]bool {
	const quoteMarks = "'\"“”‘’`"
	var out map[int]bool
	quoted := false
	fields := strings.Fields(question)
	word := func(k int) string {
		if k < 0 || k >= len(fields) {
			return ""
		}
		return strings.ToLower(strings.Trim(fields[k], "`'\"“”‘’()[]{},;:?!."))
	}
	number := func(w string) bool { return w != "" && len(w) <= 6 && strings.Trim(w, "0123456789") == "" }
	for k, f := range fields {
		first, _ := utf8.DecodeRuneInString(f)
		t := strings.TrimRight(f, ".,;:?!)")
		last, _ := utf8.DecodeLastRuneInString(t)
		opens := strings.ContainsRune(quoteMarks, first)
		closes := t != "" && strings.ContainsRune(quoteMarks, last) && (utf8.RuneCountInString(t) > 1 || !opens)
		inside := quoted || opens && !closes
		quoted = inside && !closes
		if inside {
			continue
		}
		w, set := word(k), false
		if _, v, ok := strings.Cut(w, "="); ok && !strings.HasPrefix(w, "=") {
			w, set = v, true // "processes=0"
		}
		if !number(w) {
			continue
		}
		switch prev := word(k - 1); {
		case set || prev == "=" || prev == "is" || prev == "be" || prev == "of" || prev == "equals":
		case prev == "to" && !number(word(k-2)):
		default:
			continue
		}
		if i := slices.Index(query, w); i >= 0 {
			if out == nil {
				out = map[int]bool{}
			}
			out[i] = true
		}
	}
	return out
}

// danglingCondition reports whether sentence s is a condition alone: after
// a connective ("However,", "But", "So"), it opens with "if", "when",
// "unless" or "in case" and no comma or "then" follows, where the main
// clause would start.
func danglingCondition(s string) bool {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, c := range []string{"however, ", "but ", "and ", "so ", "now, ", "also, "} {
		t = strings.TrimPrefix(t, c)
	}
	rest, ok := "", false
	for _, w := range []string{"if ", "when ", "unless ", "in case "} {
		if r, found := strings.CutPrefix(t, w); found {
			rest, ok = r, true
			break
		}
	}
	return ok && strings.HasSuffix(rest, ".") && !strings.ContainsAny(rest, ",;:?") && !strings.Contains(" "+rest, " then ")
}

// introducesNext reports whether a question term is among the last two
// terms of a sentence (prev) and the first two of the next (next): the
// sentence ends by bringing in what the next one opens with.
func introducesNext(prev, next, query []string) bool {
	tail := prev[max(0, len(prev)-2):]
	head := next[:min(2, len(next))]
	for _, t := range query {
		if slices.Contains(tail, t) && slices.Contains(head, t) {
			return true
		}
	}
	return false
}

// calloutCode returns the index of the code block whose callouts the
// numbered notes at d[from] explain, or -1: the units from the code to
// from are items of one numbered list, and for each item of that list a
// line of the code ends with its number as a callout mark ("$ git reset
// --soft HEAD^ <1>": AsciiDoc's and DocBook's; Asciidoctor's "(1)"). A Git trial's
// answer to undoing a commit quoted "1. This is most often done when you
// remembered …" without the command it explains.
func calloutCode(d []unit, from int) int {
	for k := from; k > 0 && d[k].kind == unitSentence && numbered(d[k].item); k-- {
		prev := d[k-1]
		if prev.kind == unitCode {
			if prev.echo || prev.output {
				return -1
			}
			// Every note of the list has its mark in the code: one line
			// ending in "(1)" (SQL's VALUES (1)) above an ordinary
			// numbered list marks no callouts.
			for j := k; j < len(d) && d[j].kind == unitSentence && numbered(d[j].item) && d[j].section == d[k].section; j++ {
				if !calloutMarked(prev.text, strings.TrimSuffix(strings.TrimLeft(d[j].item, " "), ". ")) {
					return -1
				}
			}
			return k - 1
		}
		if prev.kind != unitSentence || !numbered(prev.item) || prev.section != d[k].section {
			return -1
		}
	}
	return -1
}

// calloutMark is a callout mark ending a line of code.
var calloutMark = regexp.MustCompile(`[ \t](?:<([0-9]{1,2})>|\(([0-9]{1,2})\))[ \t]*$`)

// calloutMarked reports whether a line of code ends with callout number n.
func calloutMarked(code, n string) bool {
	for _, line := range strings.Split(code, "\n") {
		if m := calloutMark.FindStringSubmatch(line); m != nil && (m[1] == n || m[2] == n) {
			return true
		}
	}
	return false
}

// opensWithCopula reports a sentence that opens with "Is", "Are", "Was"
// or "Were" and asks nothing: its subject is what stands before it. Not
// one whose subject follows the verb ("Were the queue to fill up, …",
// "Is there …"), nor a keyword in capitals ("IS DISTINCT FROM …").
func opensWithCopula(s string) bool {
	f := strings.Fields(s)
	if len(f) < 2 || strings.HasSuffix(strings.TrimSpace(s), "?") {
		return false
	}
	switch f[0] {
	case "Is", "Are", "Was", "Were", "is", "are", "was", "were":
		return !invertedSubject[strings.ToLower(strings.Trim(f[1], ",;:"))]
	}
	return false
}

// invertedSubject are the words that, after an opening copula, are its
// subject: the sentence is a question or an inverted condition.
var invertedSubject = map[string]bool{"the": true, "a": true, "an": true, "this": true, "that": true, "these": true,
	"those": true, "there": true, "it": true, "they": true, "we": true, "you": true, "he": true, "she": true,
	"i": true, "one": true, "any": true, "some": true, "all": true, "each": true, "every": true, "no": true,
	"my": true, "your": true, "our": true, "their": true, "its": true}

// continues reports whether s opens with a continuation word.
func continues(s string) bool {
	w, _, _ := strings.Cut(s, " ")
	w = strings.TrimRight(w, ",;:")
	return continuations[w]
}

// procedureCues mark a question that asks how to do something, whose
// answer a numbered list gives as steps: English "how", "steps",
// "procedure", "process", "in what order"; Japanese 方法, 手順, やり方, には
// (…するには: in order to …); Chinese 如何, 怎么, 怎样, 步骤.
var procedureCues = regexp.MustCompile(`(?i)(\bhow\b|\bsteps?\b|\bprocedure\b|\bprocess\b|\bin what order\b|方法|手順|やり方|には|如何|怎么|怎样|步骤)`)

// asksProcedure reports whether question asks how to do something: "how
// long", "how many", … ask for a quantity, not for steps ("How long are
// entries kept in the cache?" was answered with the numbered list after
// the sentence that answers it).
func asksProcedure(question string) bool {
	return procedureCues.MatchString(analyze.WithoutQuantityQuestion(question))
}

// asksQuantity matches a question that asks for a number or a value: "How
// many …", "How much …", "What is the maximum/minimum … value (size,
// timeout, port, …)", "What is the default … size (timeout, port, …)",
// "What port …"; a default's value, level or time may be a name (WARNING,
// UTC, a comma), and so may the highest or lowest level (CRITICAL, Read
// Uncommitted): none of these. The passages an extractive
// answer quotes for it must give one (givesQuantity): in the development
// sets written by fresh users over eight documentation corpora, 8 such
// questions the documents do not answer and ragd did not refuse ("What is
// the maximum size of a single file that git can store?", "How many
// gunicorn workers per CPU core should I run?") were answered with
// passages about the thing that named no number, while every answerable
// one quoted its number. A question of how to do something ("How do I give a
// column a default value?") is none.
var asksQuantity = regexp.MustCompile(`(?i)^\W*(how (many|much)\b|what(?:'s|’s| is| are| was)\s+(?:the\s+)?((maximum|minimum|max|min|largest|smallest|highest|lowest|biggest|upper|lower)\s+(?:[\w-]+\s+){0,3}?(value|number|size|length|limit|count|timeout|depth|port|interval|duration|age|width|height|memory|time|amount|retries|connections|workers|threads)|default\s+(?:[\w-]+\s+){0,3}?(number|size|length|limit|count|timeout|depth|port|interval|duration|width|height|memory|retries|connections|workers|threads))\b|(what|which) port\b)`)

// quantityQuestion reports a question that asks for a number or a value
// (asksQuantity) and not also which setting gives it (asksName), nor how
// much something matters: "How much does the order of the middleware
// matter?" asks how, where "How much memory does it use?" and "How much
// does a license cost?" ask for an amount.
func quantityQuestion(question string) bool {
	if !asksQuantity.MatchString(question) || asksName.MatchString(question) {
		return false
	}
	return !howMuchVerb.MatchString(question) || amountVerb.MatchString(question)
}

// howMuchVerb matches "How much" followed by a verb ("How much does …"),
// and amountVerb the verbs of an amount ("… cost", "… take", "… use").
var (
	howMuchVerb = regexp.MustCompile(`(?i)^\W*how much\s+(does|do|did|is|are|was|were|will|would|can|could|should|has|have)\b`)
	amountVerb  = regexp.MustCompile(`(?i)\b(costs?|take|takes|use|uses|consumes?|weighs?|holds?|needs?|stores?|allocates?|occupy|occupies|requires?|charges?|spends?)\b`)
)

// asksName matches a question that also asks which setting, option or
// function does it ("How many concurrent disk I/O operations can
// PostgreSQL issue, and which setting controls it?"): a setting's entry
// that names no number ("effective_io_concurrency: Sets the number of
// concurrent disk I/O operations …") answers it.
var asksName = regexp.MustCompile(`(?i)\b(which|what) (settings?|options?|parameters?|variables?|functions?|commands?|flags?|configuration|properties|property|attributes?|keys?|methods?|class(es)?)\b|\b(which|what) \w+ (controls?|sets|limits|configures|determines|changes)\b`)

// givesQuantity matches text that gives a number or a value: a digit, a
// number in words ("once per request"; not "a single", an article's
// phrase as often: "a single IP address or a … list" answered what the
// default cache timeout is), a literal that
// stands for one (None, unlimited) or the absence of a bound ("no limit",
// "any number", "requests do not time out", "blocks indefinitely"). A boolean is none: an
// attribute line quoted beside the passage ("auto_declare = True") answered
// "What is the maximum message size kombu can publish?" in a held-out
// trial, which the documents do not say.
var givesQuantity = regexp.MustCompile(`(?i)\d|\bonce (per|a|an|every|each|for)\b|\b(only|exactly|just|at most|at least) once\b|\b(no|without an?|never) time-?outs?\b|\b(do|does|will|would) not time ?out\b|\bnever times? ?out\b|\b(forever|indefinitely)\b|\b(none|null|nil|unlimited|unbounded|infinite|infinity|arbitrary|any number|as many|as much|no (?:[\w-]+ ){0,2}(limit|limits|maximum|minimum|bound)|not limited|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|hundred|thousand|million|billion|twice|thrice)\b`)

// citationMark is a citation marker, "[3]", which is no number the text
// gives; nor are the numbers of a code example (fencedCode): a validator
// checking "value < 256" says nothing of how many bytes an instance takes.
// Over the development sets every answerable question of this kind had its
// number in the prose.
var (
	citationMark = regexp.MustCompile(`\[\d+\]`)
	fencedCode   = regexp.MustCompile("(?s)```.*?```")
)

// asksDifference matches a question about how things differ ("difference
// between Response and StreamResponse", "X vs Y", "How does X compare to
// Y?").
var asksDifference = regexp.MustCompile(`(?i)\b(differences?|differ|differs|compared?|comparison|vs\.?|versus|distinguish(es)?)\b`)

// outsideParens is text without its parenthesised asides: "(the
// difference between local and self is one of inheritance – see …)"
// points elsewhere, it does not say how they differ.
func outsideParens(text string) string {
	var b strings.Builder
	depth := 0
	for _, r := range text {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// asksContrast matches a question about how things differ, narrower than
// asksDifference: not the verb "compare" ("How do I compare two dates?"
// asks how to compare, and a sentence opening "Unlike timestamps, …" was
// quoted for it), only "X compared to/with Y".
var asksContrast = regexp.MustCompile(`(?i)\b(differences?|differ|differs|different from|vs\.?|versus|compared (to|with)|distinguish(es)?)\b`)

// contrasts matches a sentence that says how things differ: "the
// difference between", "X differs from Y", "unlike", "whereas", "in
// contrast", "as opposed to", "compared to/with", "distinction".
var contrasts = regexp.MustCompile(`(?i)\b(differences?|differs?|different from|distinction|distinguish(es|ed)?|unlike|whereas|in contrast|as opposed to|compared (to|with))\b`)

// asksDefinition matches a question that asks what something is or means
// ("What is a tree processor?", "What are eager parameters?", "What does
// SQLSTATE 42P01 mean?").
var asksDefinition = regexp.MustCompile(`(?i)^\W*(what(?:'s|’s| is| are)\s+(?:an?\s|the\s)?\S|what does .+ mean\b|define\b)`)

// numbered reports an item marker that numbers its item ("2. "): the item
// is a step of a procedure.
func numbered(marker string) bool {
	marker = strings.TrimLeft(marker, " ")
	return marker != "" && marker[0] >= '0' && marker[0] <= '9'
}

// adjacent reports whether unit j, just after unit i, is in the same block
// or the next one: a list's items (each a block) continue each other, and
// a list follows the sentence that announces it.
func adjacent(d []unit, i, j int) bool {
	return d[j].block == d[i].block || d[j].block == d[i].block+1
}

// announces reports a sentence ending with a colon, ASCII or full-width
// (Chinese and Japanese write "："), or with "the following …" or "as
// follows" and no stop (followingTail).
func announces(s string) bool {
	if strings.HasSuffix(s, ":") || strings.HasSuffix(s, "：") {
		return true
	}
	if !strings.Contains(s, "ollow") {
		return false // (most sentences: no pattern to run)
	}
	m := followingTail.FindStringSubmatch(s)
	return m != nil && !followingTime[strings.ToLower(strings.TrimSpace(m[2]))]
}

// followingTime are the words after "the following" that make it a time
// or a release to come ("… will be removed in the following release"),
// not what follows the sentence.
var followingTime = map[string]bool{"release": true, "releases": true, "version": true, "versions": true, "year": true, "years": true,
	"month": true, "months": true, "week": true, "weeks": true, "day": true, "days": true, "morning": true, "night": true, "update": true,
	"cycle": true, "sprint": true, "minor": true, "major": true}

// followingTail matches a sentence that ends, with no stop, by bringing in
// what follows it: "… which provides the following methods" above the
// methods' list (hiro's documentation writes no colon there, and the
// answer quoted the sentence without the list, a held-out trial), "… as
// follows".
var followingTail = regexp.MustCompile(`(?i)\b(the following(\s+[\pL-]+)?(\s+[\pL-]+)?|as follows)$`)

// maxListItems bounds the sentences of list items an announcing sentence
// brings, over maxSentences.
const maxListItems = 6

// definitionStart returns the index of the definition's first sentence when
// d[from] is a later sentence of a definition ("term: first sentence"
// starts the paragraph, package units' isDefinition), else -1. Table rows
// define their first cell on their own: a row is never inside one.
func definitionStart(d []unit, from int) int {
	if from >= len(d) || d[from].kind != unitSentence {
		return -1
	}
	for h := from - 1; h >= 0 && d[h].block == d[from].block && d[h].kind == unitSentence; h-- {
		if len(d[h].defines) > 0 {
			return h
		}
	}
	// A later paragraph of a definition (Sphinx's option lists give an
	// option several: "--trace: Put cmake in trace mode." above "Print a
	// trace of all calls made and from where.") is inside it when the
	// next definition of the list follows it: back to the term, over
	// sentences and code of the same section, at most maxDefinitionBlocks
	// paragraphs.
	if len(d[from].defines) > 0 {
		return -1
	}
	h := from - 1
	for h >= 0 && d[h].section == d[from].section && d[h].kind != unitRow && d[h].item == "" && len(d[h].defines) == 0 &&
		d[from].block-d[h].block <= maxDefinitionBlocks {
		h--
	}
	if h < 0 || d[h].section != d[from].section || d[h].kind != unitSentence || len(d[h].defines) == 0 || d[h].block == d[from].block ||
		d[from].block-d[h].block > maxDefinitionBlocks || entryField(d[h].defines) {
		// (An entry's field, "Raises: TypeError – …", is defined by
		// its own line: the prose after the fields describes the
		// entry, and opened by the field it read "Raises: TypeError –
		// the specified notice receiver is not callable. This method
		// allows setting a custom notice receiver …", a held-out
		// trial.)
		return -1
	}
	for n := from + 1; n < len(d) && d[n].section == d[from].section && d[n].kind != unitRow && d[n].item == ""; n++ {
		if len(d[n].defines) > 0 {
			return h
		}
	}
	return -1
}

// maxDefinitionBlocks bounds how many paragraphs after its term a
// definition is followed into.
const maxDefinitionBlocks = 4

// addsTerm reports whether u holds a query term that none of rest holds.
func addsTerm(rest []unit, u unit, query []string) bool {
	for _, q := range query {
		if !slices.Contains(u.terms, q) {
			continue
		}
		if !slices.ContainsFunc(rest, func(r unit) bool { return slices.Contains(r.terms, q) }) {
			return true
		}
	}
	return false
}

// opensWithContrast reports whether a sentence opens by turning against
// the one before it ("However, …", "Otherwise …"): the back-references
// (opensWithBackReference) that do, the only openings complete widens a
// beside sentence back for.
func opensWithContrast(s string) bool {
	f := strings.Fields(strings.ToLower(s))
	return len(f) > 0 && contrastWords[strings.Trim(f[0], ",;:.()\"'")]
}

// contrastWords open a sentence that turns against the one before it.
var contrastWords = map[string]bool{"however": true, "otherwise": true}

// opensWithBackReference reports whether a sentence's first words lean on
// the sentence before ("This mode…", "For this purpose, …", "It …").
func opensWithBackReference(s string) bool {
	f := strings.Fields(strings.ToLower(s))
	// "Failing to do so …", "Before doing so, …": the act is the previous
	// sentence's.
	for i := 1; i < len(f) && i < 5; i++ {
		if w := strings.Trim(f[i], ",;:.()\"'"); w == "so" && (f[i-1] == "do" || f[i-1] == "doing") {
			return true
		}
	}
	// A condition opening the sentence may hold the reference ("If
	// enabled they can drastically reduce performance"), but only as a
	// pronoun: "If there is no route …" and "Unless otherwise configured,
	// …" refer to nothing.
	condition := len(f) > 0 && conditions[strings.Trim(f[0], ",;:.()\"'")]
	// An elliptical condition ("If there is, a new occurrence is logged",
	// "If so, …", "If not, …") is the question the sentence before asked.
	if condition && ellipticalCondition.MatchString(strings.Join(f[:min(len(f), 4)], " ")) {
		return true
	}
	// So does a demonstrative inside the condition ("If the files you
	// compare using this option are …": the option is the previous
	// sentence's).
	for i := 1; condition && i < len(f) && i < maxConditionWords; i++ {
		// "such as" introduces examples, not a reference ("If upstream
		// does not use a normal versioning scheme such as 2.30.32 …"
		// brought an unrelated sentence before it into an answer).
		if w := strings.Trim(f[i], "\"'("); (w == "this" || w == "these" || w == "such") && i+1 < len(f) && !(w == "such" && f[i+1] == "as") {
			return true
		}
		if strings.HasSuffix(f[i], ",") {
			break
		}
	}
	for i := 0; i < len(f) && i < 3; i++ {
		w := strings.Trim(f[i], ",;:.()\"'")
		// A contraction leans as its pronoun does ("It’s not for
		// terminating the task …" under the note it continues).
		for _, c := range []string{"'s", "’s", "'re", "’re", "'ll", "’ll"} {
			w = strings.TrimSuffix(w, c)
		}
		if condition && i > 0 && pronouns[w] || !(condition && i > 0) && backReferences[w] {
			return true
		}
		if i == 0 && !(w == "for" || w == "in" || w == "with" || w == "as" || w == "by" || w == "at" || w == "of" || timeOrContrast[w] || condition) {
			return false
		}
		if condition && i > 0 && strings.HasSuffix(f[i], ",") {
			return false // the condition ended: "Unless otherwise configured, the …"
		}
	}
	return false
}

// ellipticalCondition matches the opening of a condition that leaves out
// what it asks, the sentence before's ("if there is,", "if so,", "if
// not,", "when it is,").
var ellipticalCondition = regexp.MustCompile(`^(if|when|unless) (so|not|there (is|are|was|were|isn't|aren't|is not|are not)|it (is|does|isn't|doesn't|is not|does not)),`)

// timeOrContrast are prepositions opening a sentence whose object may be
// a back-reference ("Before that happens, no processing takes place":
// Logbook's sentence was quoted without the one it follows).
var timeOrContrast = map[string]bool{"before": true, "after": true, "unlike": true, "besides": true, "despite": true}

// maxConditionWords bounds the opening condition opensWithBackReference
// reads for a demonstrative.
const maxConditionWords = 12

// refersBack reports whether a sentence leans on what precedes it: it opens
// with a back-reference, or names "this …", "these …" or "such …".
func refersBack(s string) bool {
	if opensWithBackReference(s) {
		return true
	}
	f := strings.Fields(strings.ToLower(s))
	for i, w := range f {
		// A word with the punctuation after it ("To enable this, if the
		// … variable LOGIN_DISABLED is set to True, …").
		w = strings.TrimRight(w, ",;:.!?)”’\"'")
		if w == "this" || w == "these" || w == "such" && (i+1 == len(f) || f[i+1] != "as") {
			return true
		}
	}
	return false
}

// namesDotted reports whether a sentence names a dot-command or a dot-file
// (".output", ".once", ".zshrc"): "You can change this using the ".output"
// and ".once" commands" continues "By default, sqlite3 sends query results
// to standard output." as a sentence naming any other command would. (As
// naming in the passage's score, it made a list item on ".spec files"
// outscore the sentence giving their paths.)
func namesDotted(s string) bool {
	for _, w := range strings.Fields(s) {
		if d := strings.Trim(w, "\"'“”‘’()[],;:!?"); len(d) >= 3 && d[0] == '.' && d[1] >= 'a' && d[1] <= 'z' {
			return true
		}
	}
	return false
}

// namesIdentifier reports whether a sentence names a command, setting or
// code: a word with an underscore, a call "f()", letters mixed with digits, a
// backslash command ("\\dt"), a command-line option ("--jobs"), or a number
// of three digits or more (a port, an error code).
func namesIdentifier(s string) bool { return namesCode(s, true) }

// namesCode is namesIdentifier, bare numbers ("99-1234") counting only when
// bareNumbers is set.
func namesCode(s string, bareNumbers bool) bool {
	for _, w := range strings.Fields(s) {
		if len(w) >= 2 && (w[0] == '\\' || strings.HasPrefix(w, "--") && len(w) > 3) && unicode.IsLetter(rune(w[len(w)/2])) {
			return true
		}
		call := strings.Contains(w, "()")
		w = strings.Trim(w, ".,;:!?\"'()[]")
		if call || strings.Contains(w, "_") {
			return true
		}
		if t := strings.ToLower(w); isIdentifierTerm(t) && (bareNumbers || strings.ContainsFunc(t, unicode.IsLetter)) {
			return true
		}
	}
	return false
}

// namesThing reports whether s names an identifier (namesIdentifier) or an
// SQL keyword in capitals ("VACUUM", "CONCURRENTLY") that the question
// (lowercased) does not hold.
func namesThing(s, lowerQuestion string) bool {
	for _, w := range strings.Fields(s) {
		w = strings.Trim(w, ".,;:!?\"'()[]")
		if len(w) >= 4 && isUpperWord(w) && !strings.Contains(lowerQuestion, strings.ToLower(w)) {
			return true
		}
	}
	return namesIdentifier(s)
}

// render quotes units of source n: sentences and rows each followed by
// " [n]", code as a fenced block (whole up to maxWholeCodeLines lines, else
// cut between statements, codeCut).
func render(us []unit, n int, options, query, optionQuery []string) string {
	var b strings.Builder
	marker := "[" + strconv.Itoa(n) + "]"
	cited := false
	prevCode := false
	// A quote opening inside a nested list writes its items from the
	// first one's depth: a marker after four blanks or more at a line's
	// start reads as code in Markdown.
	listBase := -1
	mark := func(item string) string {
		blanks := len(item) - len(strings.TrimLeft(item, " "))
		if listBase < 0 || blanks < listBase {
			listBase = blanks
		}
		return item[listBase:]
	}
	for i, u := range us {
		if u.item == "" {
			listBase = -1
		}
		if u.kind == unitCode {
			lines := codeLines(strings.Split(u.text, "\n"), options, optionQuery)
			if len(lines) > maxWholeCodeLines {
				lines = sessionLines(lines, query)
			}
			if len(lines) > maxWholeCodeLines {
				lines = cutCode(lines, query)
			}
			if i > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString("```\n" + strings.Join(lines, "\n") + "\n```")
			prevCode = true
			continue
		}
		switch {
		case prevCode:
			b.WriteString("\n\n")
			b.WriteString(mark(u.item))
		case u.item != "" && (i == 0 || us[i-1].item == "" || us[i-1].block != u.block):
			// A list item starts a line of its own, with its marker,
			// and the first item of a field's list under its label.
			if i > 0 {
				b.WriteByte('\n')
			}
			if u.fieldHead {
				b.WriteString(u.field + ":\n")
				listBase = -1
			}
			b.WriteString(mark(u.item))
		case i > 0 && u.item == "" && us[i-1].item != "":
			// What follows a list is not its last item.
			b.WriteString("\n\n")
		case i > 0 && !endsCJK(b.String()):
			b.WriteByte(' ')
		}
		prevCode = false
		text := sectionMark.ReplaceAllString(clip(u.text, maxQuoteChars), "$1")
		if cutShort(u) {
			text += " …"
		}
		b.WriteString(withCitation(text, n))
		cited = true
	}
	if !cited {
		b.WriteString("\n\n" + marker)
	}
	return b.String()
}

// codeLines returns the lines of a code block to quote: all of them, or,
// when the block is longer than maxCodeLines and an option the question
// names ("--use-fuzzy") first appears below that, its first codeHead
// lines, "…", and the lines from just above that option's line: a
// command's --help output was cut before the line the question asked
// about. Only for an option: a program's lines depend on the lines above
// them, and a window into an example lost the decorator the answer was
// about. render cuts what is still longer.
func codeLines(lines, options, optionQuery []string) []string {
	if len(lines) <= maxCodeLines || len(options) == 0 && len(optionQuery) == 0 {
		return lines
	}
	window := func(k int) []string {
		from := max(k-codeContext, codeHead)
		out := append(slices.Clone(lines[:codeHead]), "…")
		out = append(out, lines[from:min(len(lines), from+maxCodeLines-codeHead-1)]...)
		if from+maxCodeLines-codeHead-1 < len(lines) {
			out = append(out, "…")
		}
		return out
	}
	head := strings.Join(lines[:maxCodeLines], "\n")
	for k := maxCodeLines; k < len(lines); k++ {
		if slices.ContainsFunc(options, func(o string) bool { return containsOption(lines[k], o) && !containsOption(head, o) }) {
			return window(k)
		}
	}
	if len(options) > 0 {
		return lines
	}
	// A question asking which option does something ("Which option makes
	// pybabel compile include fuzzy translations?") names no option: the
	// option line, with its description's lines under it, holding the
	// most of the question's terms is the one, when it lies below what
	// the block's first lines show and holds more than any option line
	// there.
	best, bestScore, headScore := -1, 0, 0
	for k, l := range lines {
		if !optionLine.MatchString(l) {
			continue
		}
		text := l
		for j := k + 1; j < len(lines) && j <= k+3 && !optionLine.MatchString(lines[j]) && strings.TrimSpace(lines[j]) != "" && indentOf(lines[j]) > indentOf(l); j++ {
			text += " " + lines[j]
		}
		score := 0
		for _, t := range uniq(terms(text)) {
			if slices.Contains(optionQuery, t) {
				score++
			}
		}
		if k < maxCodeLines {
			headScore = max(headScore, score)
		} else if score > bestScore {
			best, bestScore = k, score
		}
	}
	if best >= 0 && bestScore > headScore {
		return window(best)
	}
	return lines
}

// optionLine matches a line of a command's --help output that starts an
// option's entry ("  -f, --use-fuzzy   also include …").
var optionLine = regexp.MustCompile(`^\s*-{1,2}[A-Za-z0-9]`)

// indentOf is the width of a line's leading blanks.
func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }

// asksOption matches a question asking which option, flag or switch does
// something; one asking which options a command takes asks for the list.
// The tool's name may stand between ("Which pytest option prints …"), a
// verb may not ("What is option X?" names the option).
var asksOption = regexp.MustCompile(`(?i)\b(which|what)\s+([\w.-]+\s+)?(command[- ]line\s+)?(option|flag|switch|argument)\b|\b(option|flag|switch)\s+(to|for|that|which|makes?|lets?)\b`)

func asksWhichOption(question string) bool {
	for _, m := range asksOption.FindAllStringSubmatch(question, -1) {
		if w := strings.ToLower(strings.TrimSpace(m[2])); !auxiliaries[w] {
			return true
		}
	}
	return false
}

// auxiliaries are the verbs that make "what is option X" a question about
// a named option.
var auxiliaries = map[string]bool{"is": true, "are": true, "was": true, "were": true, "does": true, "do": true, "did": true}

// sessionLines returns the lines of a long interactive session to quote
// (an IPython transcript's "In [26]:" cells, a doctest's ">>>" ones, each
// with the comment lines just above its prompt, its continuation lines
// and its output): its first cell, "…", and the cell whose input holds the
// most of the question's terms, when that cell lies below what the block's
// first maxCodeLines lines show. A session's cells are steps one can read
// apart, unlike a program's lines: pandas' rolling-window session was cut
// after its setup, before "# Window with 2 days worth of observations /
// s.rolling(window='2D').sum()", which the question asked for. lines as
// they are otherwise.
func sessionLines(lines, query []string) []string {
	var starts []int
	for i, l := range lines {
		if sessionPrompt.MatchString(l) {
			k := i
			for k > 0 && strings.HasPrefix(strings.TrimSpace(lines[k-1]), "#") && (len(starts) == 0 || k-1 > starts[len(starts)-1]) {
				k--
			}
			starts = append(starts, k)
		}
	}
	if len(starts) < 2 || len(query) == 0 {
		return lines
	}
	ends := append(slices.Clone(starts[1:]), len(lines))
	best, bestScore := -1, 0
	for c, st := range starts {
		held := map[string]bool{}
		for _, l := range lines[st:ends[c]] {
			if !sessionInput(l) {
				continue
			}
			for _, t := range terms(l) {
				if slices.Contains(query, t) {
					held[t] = true
				}
			}
		}
		if len(held) > bestScore {
			best, bestScore = c, len(held)
		}
	}
	if best < 0 || ends[best] <= maxCodeLines {
		return lines
	}
	head := lines[starts[0]:min(ends[0], starts[0]+codeHead)]
	if best == 0 {
		head = nil
	}
	out := append(slices.Clone(lines[:starts[0]]), head...)
	out = append(out, "…")
	room := maxCodeLines - len(out)
	cell := lines[starts[best]:ends[best]]
	if len(cell) > room {
		cell = cutAt(cell, max(room-1, 1), query)
	}
	return append(out, cell...)
}

// sessionPrompt matches the prompt opening a cell of an interactive
// session: IPython's "In [26]:", a Python or doctest ">>> ".
var sessionPrompt = regexp.MustCompile(`^\s*(?:In \[\d+\]:|>>> )`)

// sessionInput reports whether a session's line is input: its prompt, a
// continuation ("   ....:", "... ") or a comment above the prompt.
func sessionInput(l string) bool {
	t := strings.TrimSpace(l)
	return sessionPrompt.MatchString(l) || strings.HasPrefix(t, "...") || strings.HasPrefix(t, "#")
}

// assignedTerm returns the index of the first query term that a line of
// code assigns (assignedNames), with ok false when none does.
func assignedTerm(code string, query []string) (int, bool) {
	if names := assignedNames(code, query); len(names) > 0 {
		return slices.Index(query, strings.ToLower(names[0])), true
	}
	return 0, false
}

// assignedNames returns, as the code writes them, the query's identifier
// terms (one with "_" or digits: isIdentifierTerm) that lines of code
// assign ("name = value", "name: value", "self.name = value").
func assignedNames(code string, query []string) []string {
	var out []string
	for _, line := range strings.Split(code, "\n") {
		name := assignedName(line)
		if t := strings.ToLower(name); name != "" && isIdentifierTerm(t) && slices.Contains(query, t) && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// assignedName returns the name a line of code assigns a value to
// ("visibility_timeout = 3600", "timeout: 30", "self.limit = 10"), or "".
func assignedName(line string) string {
	m := assignment.FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	return m[1]
}

// assignment matches a line that assigns a value to a name: the name, then
// "=" (not "==") or ":" and a value.
var assignment = regexp.MustCompile(`^\s*(?:self\.)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:=[^=]|:\s+\S)`)

// assignedLines returns the names of the query's identifier terms that the
// code units of us assign, as the code writes them: the lines a long block
// is quoted around (codeLines), as it is around an option the question
// names.
func assignedLines(us []unit, query []string) []string {
	var out []string
	for _, u := range us {
		if u.kind == unitCode {
			for _, name := range assignedNames(u.text, query) {
				if !slices.Contains(out, name) {
					out = append(out, name)
				}
			}
		}
	}
	return out
}

// questionOptions returns the command-line options a question writes
// ("--use-fuzzy", "-f").
func questionOptions(question string) []string {
	var out []string
	for _, f := range strings.Fields(question) {
		f = strings.Trim(f, "`'\"“”‘’()[],;:?!.")
		if len(f) >= 2 && f[0] == '-' && strings.IndexFunc(f, unicode.IsLetter) >= 0 && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// containsOption reports whether text writes option whole: not as the
// start of a longer one ("--use" in "--use-fuzzy").
func containsOption(text, option string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], option)
		if j < 0 {
			return false
		}
		j += i
		e := j + len(option)
		before := j == 0 || !isWordByte(text[j-1]) && text[j-1] != '-'
		after := e == len(text) || !isWordByte(text[e]) && text[e] != '-' && text[e] != '_'
		if before && after {
			return true
		}
		i = j + 1
	}
}

// codeHead is how many first lines of a long code block (the command,
// the usage line) are quoted above the line of the option asked about,
// and codeContext how many lines above that one (codeLines).
const (
	codeHead    = 2
	codeContext = 2
)

// endsCJK reports whether s ends with Chinese or Japanese text or
// punctuation, after which the next sentence follows without a space.
func endsCJK(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return isCJKText(r)
}

// excerpt cites the start of the first non-empty source when no source has
// a quotable unit: its text with whitespace collapsed. It refuses when all
// sources are empty.
func excerpt(sources []Source) Result {
	for i, s := range sources {
		text := strings.Join(strings.Fields(stripMarkers(s.Content)), " ")
		if text == "" || plantedText.MatchString(s.Content) {
			// A source whose sentences were left out as addressed to an
			// assistant is not dumped whole instead.
			continue
		}
		order, _ := numberInOrder([]int{i + 1}, len(sources))
		return Result{
			Answer:           truncate(text, fallbackChars) + " [1]",
			Citations:        citations([]int{1}, reorder(sources, order)),
			InvalidCitations: []int{},
			Mode:             ModeExtractive,
			Order:            order,
		}
	}
	return refusal(ModeExtractive)
}

// asks reports whether a sentence is a question: it ends with a question
// mark (ASCII, fullwidth), closing quotes and brackets aside.
func asks(s string) bool {
	s = strings.TrimRight(strings.TrimSpace(s), "\"'”’)]）」』")
	return strings.HasSuffix(s, "?") || strings.HasSuffix(s, "？")
}

// sharesIdentifier reports whether prose names an identifier (a call
// "aggregate()", a word with an underscore, a dotted name) that code
// writes.
func sharesIdentifier(prose, code string) bool {
	for _, w := range strings.Fields(prose) {
		w = strings.Trim(w, ".,;:!?\"'`“”‘’[]")
		name := strings.TrimSuffix(w, "()")
		if name == "" || !(name != w || strings.Contains(name, "_") || strings.Contains(strings.Trim(name, "."), ".")) {
			continue
		}
		if strings.Contains(code, name) {
			return true
		}
	}
	return false
}

// imperatives are verbs that open an instruction.
var imperatives = map[string]bool{"select": true, "click": true, "choose": true, "open": true, "go": true, "press": true,
	"type": true, "enter": true, "run": true, "use": true, "set": true, "add": true, "navigate": true, "right-click": true,
	"double-click": true, "install": true, "edit": true, "create": true, "pick": true, "tap": true, "drag": true, "check": true,
	"uncheck": true, "execute": true, "call": true, "invoke": true, "specify": true, "configure": true, "launch": true,
	"follow": true, "pass": true}

// remedy matches the opening of a sentence that names the remedy for a
// problem the text has described ("The solution to this is to …", "The
// workaround is to …", "The fix is simple: …"), up to what it says to do.
var remedy = regexp.MustCompile(`(?i)^(the|a|one|another) (simple |easy |usual |best |only )?(solution|fix|workaround|work-around|remedy|cure)( to (this|that|it|the problem|this problem))? (is|was) (simple: |simply |to )?`)

// byMeans matches a sentence that says how something is done: a verb's
// means ("We do this by adding the attribute should_panic to our test
// function", "resolution can be restored by adding server clauses",
// "you can fix the problem by exporting the locale").
var byMeans = regexp.MustCompile(`(?i)\b(do|does|did|done|is|are|can|could|may|should|must|will|achieve[sd]?|accomplish(es|ed)?|fix(es|ed)?|enable[sd]?|disable[sd]?|restored|avoided|solved|resolved|prevented|changed|controlled|configured|set) (this |that |it |so |these |those )?(only |simply |just |easily |usually |either )?by (\w+ing)\b`)

// notGerund are words ending in "ing" that name a thing ("by string
// value", "done by Spring"), not a means.
var notGerund = map[string]bool{"string": true, "strings": true, "thing": true, "nothing": true, "something": true, "anything": true,
	"everything": true, "spring": true, "king": true, "ring": true, "wing": true, "during": true, "ceiling": true, "evening": true,
	"morning": true, "sibling": true, "offspring": true}

// negated reports whether the clause that s ends holds a negation: "Do
// not fix this by deleting the journal file" warns against a means.
func negated(s string) bool {
	if i := strings.LastIndexAny(s, ",;:"); i >= 0 {
		s = s[i+1:]
	}
	for _, w := range strings.Fields(strings.ToLower(s)) {
		w = strings.Trim(w, `"'“”‘’()`)
		if w == "not" || w == "never" || w == "cannot" || w == "no" || strings.HasSuffix(w, "n't") || strings.HasSuffix(w, "n’t") {
			return true
		}
	}
	return false
}

// instructs reports a sentence that tells the reader what to do: a menu
// path ("File → Print Checks"), or an imperative opening it or the clause
// after a leading purpose ("To print a single check, select …") or
// condition ("If …, click …"), the remedy a sentence names ("The solution
// to this is to add …") or the means it gives ("We do this by adding the
// attribute should_panic …": a tutorial's instructions in its own voice).
func instructs(s string) bool {
	if strings.ContainsAny(s, "→⇒▸") {
		return true
	}
	if m := byMeans.FindStringSubmatchIndex(s); m != nil && !notGerund[strings.ToLower(s[m[len(m)-2]:m[len(m)-1]])] && !negated(s[:m[0]]) {
		return true
	}
	clauses := []string{s}
	if m := remedy.FindStringIndex(s); m != nil {
		// "The solution to this is to add 2147483647 …": what to do
		// follows the remedy's name.
		clauses = append(clauses, s[m[1]:])
	}
	if f := strings.Fields(s); len(f) > 0 && (strings.EqualFold(f[0], "to") || strings.EqualFold(f[0], "if") || strings.EqualFold(f[0], "when")) {
		if _, rest, ok := strings.Cut(s, ", "); ok {
			clauses = append(clauses, rest)
		}
	}
	for _, dash := range []string{" - ", " – ", " — "} {
		// "Flask-Login makes it nearly transparent - just pass
		// remember=True to the login_user call": the instruction after a
		// dash.
		if _, rest, ok := strings.Cut(s, dash); ok {
			clauses = append(clauses, rest)
		}
	}
	for _, c := range clauses {
		f := strings.Fields(c)
		if len(f) > 2 && softeners[strings.ToLower(f[0])] {
			f = f[1:] // "just pass …", "simply call …"
		}
		if len(f) > 1 && imperatives[strings.ToLower(strings.Trim(f[0], "\"'“(-"))] {
			return true
		}
	}
	return false
}

// softeners are the adverbs an instruction may open with ("just pass
// remember=True", "simply call close()").
var softeners = map[string]bool{"just": true, "simply": true, "then": true, "also": true, "instead": true}

// purposeTerms returns the question terms (qi) of the purpose s offers a
// means for (purposeMeans), the words of the wish itself ("If you want
// to") left out. The sentence instructs when its purpose holds a term of
// at least the question's mean weight: the purpose is then the question's,
// not another one sharing a common word with it ("If you want to rerun
// only the tests that failed in the last run, you can use the --lf
// option" for "How do I run my tests in parallel?", a review), nor one
// beside it ("If you prefer the default terse Exception rendering, …, you
// can disable the pretty-printing by …" answered how to print JSON lines
// over the console format).
func purposeTerms(s string, qi map[string]int) []int {
	m := purposeMeans.FindStringSubmatchIndex(s)
	if m == nil {
		return nil
	}
	var out []int
	for _, t := range terms(s[m[2]:m[3]]) {
		if i, ok := qi[t]; ok && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}

// asksRaise matches a question on what a call raises or how it fails.
var asksRaise = regexp.MustCompile(`(?i)\b(rais\w*|throws?|thrown|exceptions?|errors?|\w+Error|\w+Exception|what happens|fails?|wrong)\b`)

// asksBase matches a question about what a class derives from.
var asksBase = regexp.MustCompile(`(?i)\b(bases?|base class(es)?|inherit\w*|derive[sd]?|deriving|subclass\w*|parent class(es)?|superclass\w*)\b`)

// asksReturn matches a question asking what a function or a call returns
// ("What does find_backref_chain return when …?", "What is returned if
// …", "return value of"), and givesReturn the sentence that says it:
// one opening with "Returns" or "Return value", or saying what "is
// returned".
var (
	asksReturn  = regexp.MustCompile(`(?i)\bwhat\b.*\breturns?\b|\breturn(ed)? values?\b|\bwhat (is|gets|will be) returned\b`)
	givesReturn = regexp.MustCompile(`(?i)^(returns?\b|return values?\b)|\b(is|are) returned\b`)
)

// asksHowLong matches a question asking for a duration ("How long does
// the cookie last?", "how long are entries kept") unless it asks for a
// length (asksLength: "How long must a password be?", "How long can a key
// name be, in bytes?", a review), and givesDuration a
// text that gives one: a number with a unit of time, a timedelta, or no
// end at all (forever, indefinitely). A word naming a duration is none:
// the row of REMEMBER_COOKIE_REFRESH_EACH_REQUEST ("… which bumps the
// lifetime") says how it changes, not how long it is.
var (
	asksHowLong   = regexp.MustCompile(`(?i)\bhow long\b`)
	asksLength    = regexp.MustCompile(`(?i)\bbe\s*[?.!]*\s*$|\b(characters?|chars|bytes?|digits|letters|words|lines|length|size)\b`)
	givesDuration = regexp.MustCompile(`(?i)\b\d+(\.\d+)?\s*(ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?)\b|\btimedelta\(|\b(forever|indefinitely)\b`)
)

// pastState matches a sentence telling how things used to be, and
// presentState one opening with how they are now.
var (
	pastState    = regexp.MustCompile(`(?i)\b(used to|previously|formerly|in (earlier|older|previous|prior) (versions|releases))\b`)
	presentState = regexp.MustCompile(`(?i)^(now|nowadays|today|currently|since then|from now on|as of|starting with|this (has been|was) (changed|fixed|removed))\b`)
)

// readersMeans is the means named in the reader's voice: "you can use",
// "you need to call", "one may simply set".
const readersMeans = `\b(?:you|one) (?:can|could|may|should|need to|must|have to) (?:simply |just |also |then |instead )?(?:use|call|pass|set|run|add|specify|install|enable|disable|configure|invoke|apply|write|define|create|change|turn on|turn off)\b`

// purposeMeans matches a sentence that opens with a purpose or a wish
// ("If you want to …", "To …", "In order to …") and then offers the means
// in the reader's voice ("…, you can create the pool using open=False");
// its one group is the purpose.
var purposeMeans = regexp.MustCompile(`(?i)^(?:if you (?:want|wish|need|would like|'d like|’d like|prefer)|in order|when you (?:want|need)|to)\b([^.;:]*?)` + readersMeans)

// offersMeans matches a sentence that names the means in the reader's
// voice: "You can use UnicodeDammit.detwingle() to …", "you need to call
// …".
var offersMeans = regexp.MustCompile(`(?i)` + readersMeans)

// namesAskedOption reports whether text names a command-line option
// (optionWord) whose name holds a term of the query
// ("--hypothesis-show-statistics" for a question about statistics,
// "--use-fuzzy" for fuzzy translations).
func namesAskedOption(text string, query []string) bool {
	for _, o := range optionWord.FindAllString(text, -1) {
		name := strings.ReplaceAll(strings.TrimLeft(o, " \t(-"), "-", " ")
		if slices.ContainsFunc(terms(name), func(t string) bool { return slices.Contains(query, t) }) {
			return true
		}
	}
	return false
}

// optionWord matches a command-line option ("-export-symbols", "--dry-run").
var optionWord = regexp.MustCompile(`(^|[\s(])--?[A-Za-z][A-Za-z0-9]*-?[A-Za-z0-9-]*\b`)

// givesMeans reports whether a sentence tells the reader what to do
// (instructs) or what they can use (offersMeans).
func givesMeans(s string) bool { return instructs(s) || offersMeans.MatchString(s) }

// quotedRuns returns the stretches of a question that, found in a code
// unit, make it the question's own pasted output (echo): three or more
// consecutive words, at least 20 characters, two of them content words
// (not stop words), one with a character of a message or of code (a digit,
// "/", ".", "'", ":", …), lowercased, the shortest such run from each word.
// Plain words ("next misspelled word") are how a question names what it
// asks about, and a reference listing that holds them answers it.
// messages are the runs that read as a pasted message rather than the
// asker's own words: one holding an error's name (errorName), a message's
// head ("ERROR:", "sqlalchemy.exc.MissingGreenlet:": messageHead) or a
// placeholder in angle brackets ("<User>"). A digit or a dot is how people
// write too ("make 2 gigabyte chunks", "in Python 3.11"), and so are quotes
// around a term ("How do I set 'max_connections'?"): a sentence that is
// mostly such a run is the page saying what the question asks, not the
// asker's copy of it.
func quotedRuns(question string) (runs, messages []string) {
	raw := strings.Fields(question)
	words := strings.Fields(strings.ToLower(question))
	for i := range words {
		words[i] = strings.Trim(words[i], runPunct)
	}
	// After a message's head ("AH00124:", "ERROR:", an error's name) the
	// question is the pasted message: every run from there is one, so the
	// page's copy of the message's text, which leaves the head out
	// ("Request exceeded the limit of 10 internal redirects …"), is no
	// answer either (an Apache trial's answer repeated the message
	// sentence by sentence and left out the fixes after it).
	head := slices.IndexFunc(raw, func(w string) bool { return messageHead(strings.Trim(w, "\"'“”‘’()[]")) })
	for i := 0; i+3 <= len(words); i++ {
		for j := i + 3; j <= len(words); j++ {
			run := strings.Join(words[i:j], " ")
			if len(run) < 20 {
				continue
			}
			content := 0
			for _, w := range words[i:j] {
				if len(terms(w)) > 0 {
					content++
				}
			}
			named := slices.ContainsFunc(raw[i:j], errorName)
			if content >= 2 && (strings.ContainsAny(run, "/.:'_=@()[]{}<>0123456789") || named) {
				runs = append(runs, run)
				if named || slices.ContainsFunc(raw[i:j], messageMark) || head >= 0 && i > head {
					messages = append(messages, run)
				}
			}
			break
		}
	}
	return runs, messages
}

// echoInList reports whether units end on a list (items, one after
// another) one of whose items is the question's message: the passage is
// its last item, or another one (an echo is no evidence, so the passage
// is often the item beside the message).
func echoInList(units []unit) bool {
	for k := len(units) - 1; k >= 0 && units[k].item != ""; k-- {
		if units[k].echo {
			return true
		}
	}
	return false
}

// quotesMessage reports whether the question quotes a message after
// saying it is one ("What does the error message 'End Of File (EOF) in
// read(). Exception style platform.' mean?"): a sentence of the page that
// the question holds whole is then the message pasted (pasted), however
// its words read; quotedRuns needs marks that the words of this one lose
// once trimmed. Not a restatement of the message within a longer
// sentence (restates): "If you get an error: libpq-fe.h: No such file or
// directory you are missing them" is psycopg2's answer.
func quotesMessage(question string) bool {
	if !messageCue.MatchString(question) {
		return false
	}
	for _, m := range quotedSpan.FindAllStringSubmatch(question, -1) {
		if strings.Count(strings.TrimSpace(flatWords(m[1])), " ") >= 2 {
			return true
		}
	}
	return false
}

// messageCue matches a question that speaks of a message it quotes.
var messageCue = regexp.MustCompile(`(?i)\b(error|message|warning|exception|traceback|says?|saying|prints?|printed|complains?)\b`)

// quotedSpan matches a span of a question between quotation marks that
// open after a blank and close before one or punctuation.
var quotedSpan = regexp.MustCompile(`(?:^|[\s(])['"“‘]([^'"“”‘’\n]{15,300})['"”’](?:[\s,.?!:;)]|$)`)

// messageMark reports a word as only a message prints it: a message's head
// (messageHead) or a word holding "<" or ">" ("<User>").
func messageMark(w string) bool {
	return messageHead(w) || strings.ContainsAny(w, "<>")
}

// messageHead reports the head of a message, a name and a colon: an
// error's name, a word in capitals ("ERROR:", "FATAL:"), or a class path
// in dots or camel case ("sqlalchemy.exc.MissingGreenlet:"). "In Python
// 3.11:" and "Question:" are how people write.
func messageHead(w string) bool {
	name, ok := strings.CutSuffix(w, ":")
	if !ok || name == "" {
		return false
	}
	if errorName(name) {
		return true
	}
	letters, upper, digits, camel := 0, 0, 0, false
	prev := ' '
	for _, r := range name {
		if unicode.IsDigit(r) {
			digits++
		}
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsUpper(r) {
				upper++
				camel = camel || unicode.IsLower(prev)
			}
		}
		prev = r
	}
	// (A message's number: "AH00124:", "ORA-00942:", "E11000:".)
	return letters >= 3 && upper == letters || camel || letters >= 1 && upper == letters && digits >= 3
}

// errorName reports an exception's or error's name as messages print it:
// one word in camel case ending in Error, Exception or Warning
// ("RuntimeError:", "OSError", "NullPointerException").
func errorName(w string) bool {
	w = strings.Trim(w, ",.;:!?\"'“”‘’()")
	for _, suffix := range []string{"Error", "Exception", "Warning"} {
		if head, ok := strings.CutSuffix(w, suffix); ok && head != "" && strings.IndexFunc(head, unicode.IsUpper) >= 0 &&
			strings.IndexFunc(head, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
			return true
		}
	}
	return false
}

// restates reports whether a sentence is mostly one of runs: the page's
// copy of the error message the question pastes ("RuntimeError: Working
// outside of application context."), which the asker has; what follows
// it is the answer. A sentence that explains the message while quoting it
// is evidence as any other.
func restates(text string, runs []string) bool {
	if len(runs) == 0 {
		return false
	}
	flat := flatWords(text)
	return slices.ContainsFunc(runs, func(r string) bool { return strings.Contains(flat, " "+r+" ") && 2*len(r) >= len(flat)-2 })
}

// pasted reports a sentence of five words or more that the question holds
// whole (a message the question pastes, which the page prints too): the
// asker has it.
func pasted(text, question string) bool {
	flat := flatWords(text)
	return strings.Count(flat, " ") > 5 && strings.Contains(flatWords(question), flat)
}

// flatWords is text's words lowercased and trimmed of the punctuation
// quotedRuns trims from the question's, one blank around each.
func flatWords(text string) string {
	words := strings.Fields(strings.ToLower(text))
	for i := range words {
		words[i] = strings.Trim(words[i], ",.;:!?\"'“”‘’()")
	}
	return " " + strings.Join(slices.DeleteFunc(words, func(w string) bool { return w == "" }), " ") + " "
}

// echoes reports whether text holds one of runs (quotedRuns) in order and
// adjacent, blanks and line breaks aside.
func echoes(text string, runs []string) bool {
	if len(runs) == 0 {
		return false
	}
	flat := runText(text)
	return slices.ContainsFunc(runs, func(r string) bool { return strings.Contains(flat, " "+r) })
}

// runText is text as quotedRuns reads a question: lower case, words
// trimmed of the punctuation around them, between blanks. Compared as
// written, the page's "RuntimeError: Click will abort" was no echo of the
// question's, whose run reads "runtimeerror click will abort".
func runText(text string) string {
	words := strings.Fields(strings.ToLower(text))
	for i := range words {
		words[i] = strings.Trim(words[i], runPunct)
	}
	return " " + strings.Join(words, " ") + " "
}

// runPunct is the punctuation quotedRuns trims from a question's words.
const runPunct = ",.;:!?\"'“”‘’()"

// sectionMark matches a "§" standing alone, not before a number (a
// statute's "§ 823" is text): the mark of a link to elsewhere (the
// PostgreSQL release notes link each item's commit as "§"), which read
// "… (Michael Paquier) § This is recommended …" in a quote.
var sectionMark = regexp.MustCompile(`\s§(\s+[^\s\d]|$)`)

// cutShort reports a sentence that stops without ending: a line of prose
// longer than a chunk may hold, split by the chunker between two words
// (a maintenance note of 600 words was quoted up to "… and valve 28 must"
// as if it ended there). It is the chunk's last unit, it ends on a plain
// word, a comma or a semicolon, and forty words and more are no heading,
// caption or item; the quote says it goes on.
func cutShort(u unit) bool {
	t := strings.TrimSpace(u.text)
	f := strings.Fields(t)
	if len(f) < 40 || !u.last || u.kind != unitSentence || u.item != "" {
		return false
	}
	// The last word is a plain word: a sentence may end on an address,
	// a path or a number without its full stop, and be whole.
	w := strings.TrimRight(f[len(f)-1], ",;")
	return w != "" && !strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' && r != '\'' })
}

// nameHeading reports whether a heading is a name (one token with a
// lower-case first letter, or holding an underscore, a dot, a colon, a
// slash, parentheses or a leading dash: "build", "sass_bin", "SASS_BIN",
// "--no-cache", "get_config()") rather than a title in words ("Included
// Commands", "Installation"), a release ("v0.10.2") or a section word that
// documentation writes in lower case ("usage", "examples").
func nameHeading(h string) bool {
	if len(h) < 2 || len(h) > 60 || strings.ContainsFunc(h, unicode.IsSpace) || releaseHeading.MatchString(h) {
		return false
	}
	first, _ := utf8.DecodeRuneInString(h)
	if unicode.IsDigit(first) || !strings.ContainsFunc(h, unicode.IsLetter) || sectionWords[strings.ToLower(h)] {
		return false
	}
	return unicode.IsLower(first) || first == '-' || strings.ContainsAny(h, "_.:/()") || pascalName.MatchString(h)
}

// pascalName matches a class's name in camel case with a capital first
// and two capitalised parts or more (TimeStampedModel, GreenPool): a
// heading written so is a name, not a title in words. A Django model
// page's sections are its classes, a short one each; packed into one
// chunk, "This abstract base class just provides self-updating created
// and modified fields" under TimeStampedModel was quoted as if the
// class above it, TimeFramedModel, were meant.
var pascalName = regexp.MustCompile(`^[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+$`)

// sectionWords are section titles documentation writes in lower case too,
// which name no command or option.
var sectionWords = map[string]bool{"usage": true, "examples": true, "example": true, "overview": true, "introduction": true, "installation": true,
	"install": true, "notes": true, "note": true, "summary": true, "description": true, "options": true, "arguments": true, "parameters": true,
	"returns": true, "raises": true, "todo": true, "warning": true, "changelog": true, "changes": true, "contents": true, "index": true,
	"api": true, "reference": true, "faq": true, "license": true, "credits": true, "authors": true, "history": true, "requirements": true,
	"setup": true, "configuration": true, "tutorial": true, "quickstart": true, "glossary": true, "details": true, "synopsis": true,
	"features": true, "limitations": true, "troubleshooting": true, "see": true, "bugs": true, "news": true, "readme": true, "contributing": true}
