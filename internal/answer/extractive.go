package answer

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// BM25 parameters (Robertson & Zaragoza 2009, "The Probabilistic Relevance
// Framework: BM25 and Beyond"), the usual defaults.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// relCutoff drops picked sentences scoring below this fraction of the best
// one, so a strong match is not padded with sentences that share one common
// word with the question.
const relCutoff = 0.3

// Sentences shorter than this are fragments (list stubs, labels, "See below.").
const (
	minSentenceWords = 3
	minSentenceChars = 15
)

// fallbackChars bounds the raw excerpt used when no source has a usable
// sentence, and maxQuoteChars a quoted sentence (a paragraph without
// punctuation is one long "sentence").
const (
	fallbackChars = 300
	maxQuoteChars = 400
)

// candidate is one usable sentence of a source.
type candidate struct {
	src   int // 0-based source index
	pos   int // sentence position within the source
	text  string
	terms []string
}

// Extractive answers without an LLM by quoting the source sentences that best
// match the question, each followed by its source's "[n]"; maxSentences < 1
// means DefaultMaxSentences.
//
// Sources are split into sentences (fenced code blocks, headings, code-like
// lines and fragments under three words are skipped; list items and table
// rows count as sentences). Each sentence is scored with BM25 against the
// question's content words: lowercased, stop words removed, lightly stemmed
// (plural, -ing, -ed), with IDF computed over all the sources' sentences, so
// rare words weigh more. The best sentences (at most maxSentences, each
// scoring at least 30% of the best) are returned in reading order: by source,
// then position. Citation-like markers inside quoted sentences are removed so
// that the only markers are the answer's own.
//
// If no sentence shares a word with the question, the first sentences of the
// first source that has any are returned: retrieval judged it the most
// relevant, and the caller decides refusal before calling Extractive. The
// result is Refused only when every source is empty.
//
// The result has Mode ModeExtractive. Source: BM25, Robertson & Zaragoza 2009.
func Extractive(question string, sources []Source, maxSentences int) Result {
	if maxSentences < 1 {
		maxSentences = DefaultMaxSentences
	}
	var cands []candidate
	for si, s := range sources {
		for pi, sent := range splitSentences(s.Content) {
			if !usable(sent) {
				continue
			}
			cands = append(cands, candidate{src: si, pos: pi, text: sent, terms: terms(sent)})
		}
	}
	picked := pickBest(cands, uniq(terms(question)), maxSentences)
	if len(picked) == 0 {
		picked = firstSentences(cands, maxSentences)
	}
	if len(picked) == 0 {
		return excerpt(sources)
	}
	var b strings.Builder
	var cited []int
	for i, c := range picked {
		if i > 0 {
			b.WriteByte(' ')
		}
		n := c.src + 1
		b.WriteString(withCitation(truncate(stripMarkers(c.text), maxQuoteChars), n))
		if !slices.Contains(cited, n) {
			cited = append(cited, n)
		}
	}
	return Result{
		Answer:           b.String(),
		Citations:        citations(cited, sources),
		InvalidCitations: []int{},
		Mode:             ModeExtractive,
	}
}

// pickBest scores cands with BM25 against the query terms and returns the
// best (see Extractive), in reading order; none if nothing overlaps.
func pickBest(cands []candidate, query []string, max int) []candidate {
	if len(cands) == 0 || len(query) == 0 {
		return nil
	}
	df := map[string]int{}
	total := 0
	for _, c := range cands {
		total += len(c.terms)
		for _, t := range uniq(c.terms) {
			df[t]++
		}
	}
	avgdl := float64(total) / float64(len(cands))
	if avgdl == 0 {
		return nil
	}
	n := float64(len(cands))
	scores := make([]float64, len(cands))
	for i, c := range cands {
		dl := float64(len(c.terms))
		for _, q := range query {
			d := df[q]
			if d == 0 {
				continue
			}
			tf := 0.0
			for _, t := range c.terms {
				if t == q {
					tf++
				}
			}
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(d)+0.5)/(float64(d)+0.5))
			scores[i] += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*dl/avgdl))
		}
	}
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	// Stable on equal scores: better source first, then earlier sentence.
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	best := scores[order[0]]
	if best <= 0 {
		return nil
	}
	var picked []candidate
	seen := map[string]bool{}
	for _, i := range order {
		if len(picked) == max || scores[i] < relCutoff*best {
			break
		}
		key := strings.ToLower(strings.Join(strings.Fields(cands[i].text), " "))
		if seen[key] { // overlapping chunks repeat sentences
			continue
		}
		seen[key] = true
		picked = append(picked, cands[i])
	}
	slices.SortFunc(picked, func(a, b candidate) int {
		if a.src != b.src {
			return a.src - b.src
		}
		return a.pos - b.pos
	})
	return picked
}

// firstSentences returns up to max candidates of the first source that has any.
func firstSentences(cands []candidate, max int) []candidate {
	var out []candidate
	for _, c := range cands {
		if len(out) > 0 && c.src != out[0].src || len(out) == max {
			break
		}
		out = append(out, c)
	}
	return out
}

// excerpt cites the start of the first non-empty source when no source has
// a usable sentence: its prose fragments if it has any, else its raw text
// (code). It refuses when all sources are empty.
func excerpt(sources []Source) Result {
	for i, s := range sources {
		text := strings.Join(strings.Fields(stripMarkers(strings.Join(splitSentences(s.Content), " "))), " ")
		if text == "" {
			text = strings.Join(strings.Fields(stripMarkers(s.Content)), " ")
		}
		if text == "" {
			continue
		}
		return Result{
			Answer:           truncate(text, fallbackChars) + " [" + strconv.Itoa(i+1) + "]",
			Citations:        citations([]int{i + 1}, sources),
			InvalidCitations: []int{},
			Mode:             ModeExtractive,
		}
	}
	return refusal(ModeExtractive)
}

// truncate cuts s to at most max bytes, at a space when one is in the second
// half, else at a rune boundary, and appends "…" when it cut.
func truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := strings.LastIndexByte(s[:max], ' ')
	if cut < max/2 {
		cut = max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// stripMarkers removes citation-like markers from source text, so that the
// only markers in an extractive answer are its own.
func stripMarkers(s string) string {
	out, _, _ := verifyRaw(s, 0)
	return out
}

// withCitation puts " [n]" before the sentence's final punctuation ("is Y [1].")
// or at its end when it has none.
func withCitation(s string, n int) string {
	s = strings.TrimSpace(s)
	marker := " [" + strconv.Itoa(n) + "]"
	end := len(s)
	for end > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:end])
		if !strings.ContainsRune(".!?。！？", r) {
			break
		}
		end -= size
	}
	if end == 0 || end == len(s) {
		return s + marker
	}
	return s[:end] + marker + s[end:]
}

// usable reports whether a sentence is worth quoting: not a fragment, not code.
func usable(s string) bool {
	// A table row (cells joined by "; ", see tableRow) is a fact even when short:
	// "42P01; undefined_table".
	isRow := strings.Count(s, "; ") >= 1 && len(strings.Fields(s)) >= 2
	if len(s) < minSentenceChars || (len(strings.Fields(s)) < minSentenceWords && !isRow) {
		return false
	}
	return !looksLikeCode(s)
}

// looksLikeCode flags lines dense in code punctuation or shaped like
// statements and shell commands.
func looksLikeCode(s string) bool {
	t := strings.TrimSpace(s)
	if strings.HasSuffix(t, "{") || strings.HasSuffix(t, ";") || strings.HasPrefix(t, "$ ") || strings.HasPrefix(t, "//") {
		return true
	}
	sym, nonSpace := 0, 0
	inCode := false
	for _, r := range t {
		if r == '`' {
			inCode = !inCode // inline code in prose is fine
			continue
		}
		if unicode.IsSpace(r) {
			continue
		}
		nonSpace++
		if !inCode && strings.ContainsRune("{}[]();=<>$|\\&", r) {
			sym++
		}
	}
	return nonSpace > 0 && float64(sym)/float64(nonSpace) > 0.12
}

// splitSentences splits markdown-ish text into sentences: fenced code and
// headings are dropped, list items, table rows and quotes start their own
// unit, blank lines end paragraphs, and paragraphs are split at sentence
// punctuation (see splitUnit).
func splitSentences(content string) []string {
	var (
		units []string
		cur   []string
		fence string // the open fence's marker, "" outside code
	)
	flush := func() {
		if len(cur) > 0 {
			units = append(units, strings.Join(cur, " "))
			cur = cur[:0]
		}
	}
	for _, line := range strings.Split(content, "\n") {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			flush()
			fence = t[:runLen(t, 0, t[0])]
			continue
		}
		switch {
		case t == "":
			flush()
		case isHeading(t):
			flush()
		case strings.HasPrefix(t, "|") || strings.Contains(t, " | "):
			// A table row: Markdown ("| a | b |") or as package extract
			// renders tables ("a | b"), one row a line. Each row stands alone.
			flush()
			cur = append(cur, tableRow(t))
			flush()
		default:
			if item, ok := listItem(t); ok {
				flush()
				t = item
			}
			cur = append(cur, t)
		}
	}
	flush()
	var out []string
	for _, u := range units {
		out = append(out, splitUnit(u)...)
	}
	return out
}

func isHeading(t string) bool {
	n := runLen(t, 0, '#')
	return n >= 1 && n <= 6 && (len(t) == n || t[n] == ' ')
}

// listItem strips a list or quote marker: "- ", "* ", "+ ", "1. ", "1) ", "> ".
func listItem(t string) (string, bool) {
	if len(t) >= 2 && strings.ContainsRune("-*+>", rune(t[0])) && t[1] == ' ' {
		return strings.TrimSpace(t[2:]), true
	}
	d := 0
	for d < len(t) && d < 3 && t[d] >= '0' && t[d] <= '9' {
		d++
	}
	if d > 0 && d+1 < len(t) && (t[d] == '.' || t[d] == ')') && t[d+1] == ' ' {
		return strings.TrimSpace(t[d+2:]), true
	}
	return t, false
}

// tableRow turns "| a | b |" into "a; b".
func tableRow(t string) string {
	cells := strings.Split(strings.Trim(t, "| "), "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return strings.Join(cells, "; ")
}

// abbreviations that end in a period without ending a sentence.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "mr": true, "mrs": true, "ms": true,
	"dr": true, "prof": true, "fig": true, "no": true, "cf": true, "approx": true,
	"inc": true, "ltd": true, "jr": true, "sr": true, "st": true, "al": true, "eq": true,
}

// splitUnit splits a paragraph at ".", "!" or "?" (optionally followed by
// closing quotes or brackets) followed by a blank and a character that is not
// lowercase, unless the period ends an abbreviation or an initial; "。！？"
// always end a sentence. A period inside a token ("3.14", "os.Exit",
// "main.go") never does.
func splitUnit(u string) []string {
	var out []string
	start := 0
	add := func(end int) {
		if s := strings.TrimSpace(u[start:end]); s != "" {
			out = append(out, s)
		}
		start = end
	}
	for i := 0; i < len(u); {
		r, size := utf8.DecodeRuneInString(u[i:])
		switch r {
		case '。', '！', '？':
			add(i + size)
		case '.', '!', '?':
			j := i + size
			for j < len(u) && strings.ContainsRune("\"')]”’»", rune(u[j])) {
				j++
			}
			if j == len(u) || (u[j] != ' ' && u[j] != '\t') {
				break
			}
			k := j
			for k < len(u) && (u[k] == ' ' || u[k] == '\t') {
				k++
			}
			if k < len(u) {
				next, _ := utf8.DecodeRuneInString(u[k:])
				if unicode.IsLower(next) {
					break
				}
			}
			if r == '.' && endsAbbreviation(u[:i]) {
				break
			}
			add(j)
		}
		i += size
	}
	add(len(u))
	return out
}

// endsAbbreviation reports whether s ends with an abbreviation or a
// single-letter initial (the period that follows is not a sentence end).
func endsAbbreviation(s string) bool {
	j := len(s)
	for j > 0 {
		c := s[j-1]
		if c == '.' || (c|0x20 >= 'a' && c|0x20 <= 'z') {
			j--
			continue
		}
		break
	}
	w := strings.ToLower(s[j:])
	if w == "" {
		return false
	}
	return abbreviations[w] || (len(w) == 1 && w[0] >= 'a' && w[0] <= 'z' && strings.ToUpper(s[j:]) == s[j:])
}

// terms returns the content words of s: lowercased letter/digit runs, stop
// words and single letters dropped, stemmed.
func terms(s string) []string {
	var out []string
	start := -1
	emit := func(end int) {
		if start < 0 {
			return
		}
		w := strings.ToLower(s[start:end])
		start = -1
		if stopWords[w] {
			return
		}
		if utf8.RuneCountInString(w) < 2 && !(w[0] >= '0' && w[0] <= '9') {
			return
		}
		out = append(out, stem(w))
	}
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		emit(i)
	}
	emit(len(s))
	return out
}

func uniq(ts []string) []string {
	var out []string
	for _, t := range ts {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// stem strips common English inflections, just enough for "tenants" to meet
// "tenant", "indexing" "index" and "stored" "store": -ies→y, -sses→ss, -s,
// -ing, -ed (undoubling a final consonant), then a final -e. It is applied to
// question and sources alike, so only consistency matters.
func stem(w string) string {
	if len(w) <= 3 || !isASCIILetters(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ing") && len(w) >= 6:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) >= 5:
		w = undouble(w[:len(w)-2])
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	if len(w) >= 4 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouslz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

func isASCIILetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// stopWords are English function words and question words, which carry no
// topic. Contractions appear split ("don" of "don't"), as terms splits them.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all am an and any are as at be because
	been before being below between both but by can could did do does doing done down during each either
	few for from further had has have having he her here hers herself him himself his how i if in into is
	it its itself just me more most my myself no nor not now of off on once only or other our ours
	ourselves out over own same she should so some such than that the their theirs them themselves then
	there these they this those through to too under until up very was we were what when where which
	while who whom why will with would you your yours yourself yourselves also may might must shall
	cannot get gets got use used using tell explain describe please don doesn isn aren`) {
		m[w] = true
	}
	return m
}()
