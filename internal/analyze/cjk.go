package analyze

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Unspaced reports whether r is written in a script that puts no spaces
// between words and is therefore indexed as character bigrams: Han,
// Hiragana, Katakana and Hangul (the scripts of Lucene's CJKBigramFilter),
// Thai, Lao, Khmer and Myanmar (written without spaces between words too;
// PostgreSQL's parser makes a whole phrase of them one lexeme, so no
// question would match a document), plus the marks that belong inside
// their words although Unicode files them under Common or Inherited: the
// prolonged sound mark ー (full and half width) and the kana voiced sound
// marks. Without ー, "データベース" would fall apart into デ / タベ / ス.
// The combining vowels and tone marks of Thai, Lao, Khmer and Myanmar
// belong to their scripts and so are in their bigrams ("น้ำ" gives "น้",
// "้ำ"), as they are in the lexemes PostgreSQL's parser makes of them.
func Unspaced(r rune) bool {
	switch {
	case r < 0x0E00:
		return false // Latin, Greek, Cyrillic, Arabic, Devanagari, …: the common case, decided at once
	case r == 0x30FC, r == 0xFF70, r >= 0x3099 && r <= 0x309C, r == 0xFF9E, r == 0xFF9F:
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul,
		unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// Keywords returns the extra terms indexed with a chunk's text (stored in
// chunks.keywords): CompoundTerms, the words of tag-like spans (TagText),
// the words of operators (OperatorTerms), then the bigrams of every CJK run with
// the non-CJK pieces glued to it, separated by spaces, each occurrence
// kept (term frequency counts). A segment PostgreSQL already indexes
// correctly, a standalone CJK word of one or two characters, adds nothing.
// "pg_stat_activity表记录会话" gives "pgstatactivity activity 表记 记录 录会 会话".
//
// A stretch written in fullwidth or halfwidth forms (ＡＰＴ, ｓｓｈ－ｋｅｙｇｅｎ,
// ﾃﾞｰﾀ) is indexed folded too, as questions are folded (Question), while
// the text itself is kept as written.
func Keywords(text string) string {
	k := keywords(text)
	if t := TagText(text); t != "" {
		// The words of spans the parser would drop as tags (tagWords):
		// "<A000表示>" as one word had given one lexeme no question sends.
		k = strings.TrimSpace(k + " " + tagWords(t))
	}
	if skippedTag.MatchString(text) {
		// And the words it drops after a script or style tag. The index
		// parses the chunk and its keywords as one text, so they open
		// with the closing tags: an unclosed <script> in the chunk had
		// dropped the keywords too.
		k = "</script></style> " + strings.TrimSpace(k+" "+SkippedText(text))
	}
	if o := OperatorTerms(text); o != "" {
		k = strings.TrimSpace(k + " " + o)
	}
	if u := SchemeWords(text); u != "" {
		k = strings.TrimSpace(k + " " + u)
	}
	if w := widthRuns(text); w != "" {
		// The folded stretches themselves where PostgreSQL's parser reads
		// them as words (APT, ssh-keygen); those in CJK scripts as their
		// bigrams, as any CJK text is indexed.
		var words []string
		for _, r := range strings.Fields(w) {
			if !hasCJK(r) {
				words = append(words, r)
			}
		}
		k = strings.TrimSpace(k + " " + strings.Join(words, " ") + " " + keywords(w))
	}
	return k
}

// tagWords returns the words of tag-like spans (TagText) the index still
// lacks: keywords has indexed every segment holding CJK as its tokens,
// wherever it stands, except a standalone CJK word of one or two
// characters, which the parser indexes itself outside a tag. TagText holds
// only spans the parser drops (parsedAsTag), so such a word there (in a
// tag's name, "<a_表示>", or a quoted value, "<x a='名前'>") is added.
// "<A000表示设置> <a_表示> <x a='名前'>" gives "A000 a_ 表示 x a= 名前".
func tagWords(tagText string) string {
	if !hasCJK(tagText) {
		return tagText
	}
	var out []string
	for _, f := range strings.Fields(tagText) {
		last := 0
		var b strings.Builder
		segmentsAt(f, func(s, e int) {
			if seg := f[s:e]; hasCJK(seg) {
				b.WriteString(f[last:s])
				b.WriteByte(' ')
				if utf8.RuneCountInString(seg) <= 2 && allCJK(seg) {
					b.WriteString(seg)
					b.WriteByte(' ')
				}
				last = e
			}
		})
		b.WriteString(f[last:])
		out = append(out, strings.Fields(b.String())...)
	}
	return strings.Join(out, " ")
}

// widthRuns returns the stretches of text in fullwidth or halfwidth forms
// that FoldWidth changes, folded, separated by spaces.
func widthRuns(text string) string {
	if !strings.ContainsFunc(text, widthForm) {
		return ""
	}
	var out []string
	rs := []rune(text)
	for i := 0; i < len(rs); {
		if !widthForm(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && widthForm(rs[j]) {
			j++
		}
		if run := string(rs[i:j]); FoldWidth(run) != run {
			out = append(out, FoldWidth(run))
		}
		i = j
	}
	return strings.Join(out, " ")
}

// widthForm reports a rune of the Halfwidth and Fullwidth Forms block that
// FoldWidth may change.
func widthForm(r rune) bool { return r >= 0xff01 && r <= 0xff9f }

func keywords(text string) string {
	k := CompoundTerms(text)
	if f := DocumentFusedParts(text); f != "" {
		k = strings.TrimSpace(k + " " + f)
	}
	if !hasCJK(text) {
		return k
	}
	var b strings.Builder
	b.WriteString(k)
	segments(text, func(seg string) {
		if !hasCJK(seg) || utf8.RuneCountInString(seg) <= 2 && allCJK(seg) {
			return
		}
		separate(seg, func(tok string) {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(tok)
		})
	})
	return b.String()
}

// Query returns the keyword leg's text for a question: the question with
// every CJK run replaced by its bigrams (and the pieces glued to it set
// apart by spaces), then a line of its CompoundTerms. The runs themselves
// are not sent: no document is indexed under a whole run's lexeme, and an
// absent query term would lower the idf-based confidence.
// "GPT-4模型是什么？" gives "GPT-4 模型 型是 是什 什么 ？".
//
// A bigram holding hiragana is left out when the question has a CJK bigram
// without any: in Japanese, hiragana writes the particles, endings and
// copulas (の, は, ですか, ますか), so such bigrams match any Japanese page
// and made an off-topic question look covered ("富士山の高さは何メートル
// ですか" matched a support page through です and すか), while the words
// are written in kanji and katakana (富士, 士山, メー, ート, トル). So is,
// in a question with kana, a bigram holding an interrogative kanji (何時,
// 何分, 誰が): the question words, which are stop words in English; and in
// a question without kana (Chinese), a bigram holding a Chinese question
// word (chineseQuestionWord). A question written in hiragana alone keeps
// its bigrams. Documents are
// indexed with every bigram (Keywords), so no reindexing follows.
func Query(text string) string {
	text = untag(dropQuantityWord(text))
	if hasContentBigram(text) {
		return query(text, dropParticles)
	}
	// The question's form is left out when something is left besides it:
	// a word in another script or a CJK bigram holding a kanji.
	if light := query(text, dropForm); hasLatinWord(text) || hasCJKToken(light) {
		return light
	}
	return query(text, keepAll)
}

// queryMode is what of a question's CJK text query leaves out.
type queryMode uint8

const (
	// keepAll sends every bigram: a question written in hiragana alone
	// (おすすめはなんですか) has nothing else.
	keepAll queryMode = iota
	// dropForm leaves out the bigrams that are only the question's form:
	// hiragana alone (とは, です, すか, には) and, in Japanese, an
	// interrogative kanji (何で); in Chinese, the question words
	// (chineseQuestionMask). A word written with okurigana (折り畳み,
	// 取り消す) keeps its bigrams that hold a kanji.
	dropForm
	// dropParticles leaves out every bigram holding hiragana too, when the
	// question has a bigram without any (富士山の高さ…: 富士, 士山).
	dropParticles
)

// hasCJKToken reports whether a query's text holds a CJK token.
func hasCJKToken(q string) bool {
	for _, f := range strings.Fields(q) {
		if hasCJK(f) && strings.IndexFunc(f, unicode.IsPunct) < 0 {
			return true
		}
	}
	return false
}

// dropQuantityWord drops the word after "how" in "how much", "how many",
// "how long", … when it stands alone (quantityForm).
func dropQuantityWord(text string) string { return quantityForm.ReplaceAllString(text, "$1$2") }

// WithoutQuantityQuestion returns text without its "how much", "how many",
// "how long", … (quantityForm), "how" included: what is left says whether
// the question also asks how to do something.
func WithoutQuantityQuestion(text string) string { return quantityForm.ReplaceAllString(text, "$2") }

// quantityForm matches an English question's "how much", "how many", "how
// long", …: the word after "how" asks for a quantity the answer states
// ("drifts by two seconds a day"), and is seldom written where it is
// ("How much does the oscillator drift?" was refused over that sentence,
// the reason naming "much"). Query keeps "how" (a stop word) and drops the
// word.
// In a hyphenated compound ("how long-running queries …") the word is
// content and stays.
var quantityForm = regexp.MustCompile(`(?i)\b(how)\s+(?:much|many|often|long|far|old|big|large|soon|frequently)(\s|[?.,;:!…—)]|$)`)

// ContentQuery is Query with the question words and particles left out
// even when nothing else of the question's CJK text remains: the terms
// that can be evidence of an answer ("什么是apt-pinning？" keeps only
// apt-pinning), where Query keeps 什么 to search with when it has nothing
// else.
func ContentQuery(text string) string {
	text = dropQuantityWord(text)
	if hasContentBigram(text) {
		return query(text, dropParticles)
	}
	return query(text, dropForm)
}

func query(text string, mode queryMode) string {
	var b strings.Builder
	last := 0
	kana := HasKana(text)
	segmentsAt(text, func(start, end int) {
		if !hasCJK(text[start:end]) {
			return
		}
		b.WriteString(text[last:start])
		var mask func([]rune) []bool
		if mode != keepAll && !kana {
			mask = chineseQuestionMask
		}
		separateMasked(text[start:end], mask, func(tok string) {
			if mode != keepAll && hasCJK(tok) && kana && strings.ContainsAny(tok, interrogatives) ||
				mode == dropForm && allHiragana(tok) || mode == dropParticles && hasCJK(tok) && hasHiragana(tok) {
				return
			}
			b.WriteByte(' ')
			b.WriteString(tok)
		})
		b.WriteByte(' ')
		last = end
	})
	b.WriteString(text[last:])
	if c := strings.TrimSpace(CompoundTerms(text) + " " + FusedParts(text) + " " + OperatorTerms(text)); c != "" {
		b.WriteByte('\n')
		b.WriteString(c)
	}
	return b.String()
}

// segmentRune reports whether r belongs to a word as PostgreSQL's parser
// glues them: letters of any script, digits and combining marks.
func segmentRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || Unspaced(r)
}

// joiner reports whether r may join two word pieces into one segment, as
// in GPT-4模型 or v1.2版本 (the parser's hyphenated words, versions, hosts).
func joiner(r rune) bool { return r == '-' || r == '.' }

// segmentsAt calls fn with the byte range of every segment of text in
// order: a maximal run of segment runes and joiners, without joiners at
// either end. Invalid UTF-8 separates segments.
func segmentsAt(text string, fn func(start, end int)) {
	start := -1
	for i := 0; i <= len(text); {
		r, w := utf8.RuneError, 1
		if i < len(text) {
			r, w = utf8.DecodeRuneInString(text[i:])
		}
		in := i < len(text) && !(r == utf8.RuneError && w == 1) && (segmentRune(r) || joiner(r))
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			s, e := start, i
			for s < e && joiner(rune(text[s])) {
				s++
			}
			for e > s && joiner(rune(text[e-1])) {
				e--
			}
			if s < e {
				fn(s, e)
			}
			start = -1
		}
		i += w
	}
}

// segments is segmentsAt with the segment's text.
func segments(text string, fn func(seg string)) {
	segmentsAt(text, func(s, e int) { fn(text[s:e]) })
}

// separate calls emit with the tokens of one segment in order: each CJK run
// as overlapping bigrams (a single character as itself), each non-CJK piece
// between runs whole, without joiners at its ends.
func separate(seg string, emit func(string)) { separateMasked(seg, nil, emit) }

// separateMasked is separate leaving out the bigrams (and lone characters)
// that touch a character mask marks in its run (nil: none).
func separateMasked(seg string, mask func(run []rune) []bool, emit func(string)) {
	var run []rune
	flushRun := func() {
		var skip []bool
		if mask != nil && len(run) > 0 {
			skip = mask(run)
		}
		skipped := func(i int) bool { return skip != nil && skip[i] }
		switch len(run) {
		case 0:
		case 1:
			if !skipped(0) {
				emit(string(run))
			}
		default:
			for i := 0; i+1 < len(run); i++ {
				if !skipped(i) && !skipped(i+1) {
					emit(string(run[i : i+2]))
				}
			}
		}
		run = run[:0]
	}
	piece := -1 // start of the current non-CJK piece
	flushPiece := func(end int) {
		if piece >= 0 {
			if p := strings.Trim(seg[piece:end], "-."); p != "" {
				emit(p)
			}
			piece = -1
		}
	}
	for i, r := range seg {
		if Unspaced(r) {
			flushPiece(i)
			run = append(run, r)
			continue
		}
		flushRun()
		if piece < 0 {
			piece = i
		}
	}
	flushRun()
	flushPiece(len(seg))
}

func hasCJK(s string) bool { return strings.IndexFunc(s, Unspaced) >= 0 }

// HasKana reports whether text holds hiragana or katakana: Japanese, not
// Chinese (see AbsentBigramCounts).
func HasKana(text string) bool {
	return strings.IndexFunc(text, func(r rune) bool { return unicode.In(r, unicode.Hiragana, unicode.Katakana) }) >= 0
}

// AbsentBigramCounts reports whether a query's CJK bigram that no chunk
// has counts as a missing term, for a question with kana or without. A
// bigram of Chinese text (no spaces, no script change between words) spans
// a word boundary as often as not, so its absence says little and it does
// not count. In Japanese, Query leaves the hiragana bigrams out, and a
// bigram of one script (two kanji, two katakana) is most often part of a
// word (富士山, メートル): its absence is evidence that the corpus does not
// speak of it; one that changes script (何メ) spans a boundary and does not
// count. Thai, Lao, Khmer and Myanmar are one script each, written with
// spaces between phrases: a bigram is most often inside a word, and an
// absent one counts (Query leaves the Thai question words out, whose
// bigrams no document needs to have). Non-CJK lexemes always count.
func AbsentBigramCounts(lexeme string, kana bool) bool {
	if !allCJK(lexeme) {
		return true
	}
	if strings.IndexFunc(lexeme, southeastAsian) >= 0 {
		return true
	}
	if !kana {
		return false
	}
	script := func(r rune) int {
		switch {
		case unicode.Is(unicode.Han, r):
			return 1
		case unicode.Is(unicode.Katakana, r) || r == 0x30FC || r == 0xFF70:
			return 2
		}
		return 3
	}
	rs := []rune(lexeme)
	for _, r := range rs[1:] {
		if script(r) != script(rs[0]) {
			return false
		}
	}
	return true
}

// southeastAsian reports a character of the Thai, Lao, Khmer or Myanmar
// script.
func southeastAsian(r rune) bool {
	return unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// interrogatives are the kanji of Japanese question words (何 what, 誰
// who), left out of a Japanese question's bigrams (see Query).
const interrogatives = "何誰"

// chineseQuestionMask marks the characters of a Chinese question's run
// that belong to a question word (怎么 how, 什么 what, 哪个 which, 如何 how,
// 为何 why, 多少 how many, …) or are its sentence-final particle (吗, 呢 at
// the run's end): stop words in English. Query leaves out the bigrams that
// touch them when the question has others. Kept, they matched any Chinese
// page that asks or answers a question, and "红烧肉怎么做？" (how do I cook
// red-braised pork?) was answered from a Linux manual through 怎么 and 么做
// at confidence 0.62. A word that merely holds such a character stays
// (吗啡 morphine, 哪吒, 什锦, 呢绒).
func chineseQuestionMask(run []rune) []bool {
	m := make([]bool, len(run))
	for i := 0; i+1 < len(run); i++ {
		if chineseQuestionWords[string(run[i:i+2])] {
			m[i], m[i+1] = true, true
		}
	}
	if n := len(run); n > 1 && (run[n-1] == '吗' || run[n-1] == '呢') {
		m[n-1] = true
	}
	return m
}

var chineseQuestionWords = map[string]bool{"怎么": true, "怎样": true, "什么": true, "哪个": true, "哪些": true, "哪里": true,
	"哪儿": true, "哪种": true, "如何": true, "为何": true, "多少": true, "为什": true, "谁的": true, "是否": true}

func hasHiragana(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Hiragana, r) }) >= 0
}

// hasLatinWord reports whether text has a word of two or more letters or
// digits outside the CJK scripts ("apt-pinningとは何ですか？" asks about
// apt-pinning; its bigrams とは and すか are its form, and no document
// writes them).
func hasLatinWord(text string) bool {
	found := false
	segments(text, func(seg string) {
		separate(seg, func(tok string) { found = found || !hasCJK(tok) && wordChars(tok) >= 2 })
	})
	return found
}

// allHiragana reports whether tok is hiragana only.
func allHiragana(tok string) bool {
	return tok != "" && strings.IndexFunc(tok, func(r rune) bool { return !unicode.Is(unicode.Hiragana, r) }) < 0
}

// hasContentBigram reports whether text has a CJK token without hiragana
// that is a bigram (see Query).
func hasContentBigram(text string) bool {
	found := false
	kana := HasKana(text)
	var mask func([]rune) []bool
	if !kana {
		mask = chineseQuestionMask
	}
	segments(text, func(seg string) {
		separateMasked(seg, mask, func(tok string) {
			found = found || utf8.RuneCountInString(tok) == 2 && allCJK(tok) && !hasHiragana(tok) &&
				!(kana && strings.ContainsAny(tok, interrogatives))
		})
	})
	return found
}

// Bigram reports whether lexeme is a character bigram (or a lone
// character) of the scripts written without spaces (Unspaced), as Keywords
// and Query make them.
func Bigram(lexeme string) bool {
	return lexeme != "" && utf8.RuneCountInString(lexeme) <= 2 && allCJK(lexeme)
}

// wordChars counts the letters and digits of s.
func wordChars(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

func allCJK(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !Unspaced(r) }) < 0
}

// WordCount counts the words of text as a reader of its scripts would:
// blank-separated words, except that a run of Han or kana, which Chinese
// and Japanese write without blanks between words, counts a word for every
// two of its characters (at least one; a Chinese word is one to three
// characters), and the pieces glued to it count one each. Shares of words
// (how much of a page is link text) then mean about the same in Chinese
// and Japanese as in English; counted by blanks, a Chinese paragraph was
// one word. Korean writes blanks between words, and Thai, Lao, Khmer and
// Myanmar words are not a fixed number of characters (their vowels and
// tone marks are characters of their own): those count by blanks.
func WordCount(text string) int {
	n := 0
	for _, f := range strings.Fields(text) {
		if !strings.ContainsFunc(f, hanOrKana) {
			n++
			continue
		}
		piece, run := false, 0
		for _, r := range f {
			if hanOrKana(r) {
				if piece {
					n, piece = n+1, false
				}
				run++
				continue
			}
			if run > 0 {
				n, run = n+max(1, run/2), 0
			}
			piece = piece || unicode.IsLetter(r) || unicode.IsDigit(r)
		}
		if piece {
			n++
		}
		if run > 0 {
			n += max(1, run/2)
		}
	}
	return n
}

// hanOrKana reports a character of the Han, Hiragana or Katakana scripts,
// or the marks Unspaced counts with them.
func hanOrKana(r rune) bool {
	return Unspaced(r) && !unicode.In(r, unicode.Hangul, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}
