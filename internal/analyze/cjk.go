package analyze

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsCJK reports whether r is written in a script that puts no spaces
// between words and is therefore indexed as character bigrams: Han,
// Hiragana, Katakana and Hangul (the scripts of Lucene's CJKBigramFilter),
// plus the marks that belong inside their words although Unicode files them
// under Common or Inherited: the prolonged sound mark ー (full and half
// width) and the kana voiced sound marks. Without ー, "データベース" would
// fall apart into デ / タベ / ス.
func IsCJK(r rune) bool {
	switch {
	case r < 0x1100:
		return false // Latin, Greek, Cyrillic, …: the common case, decided at once
	case r == 0x30FC, r == 0xFF70, r >= 0x3099 && r <= 0x309C, r == 0xFF9E, r == 0xFF9F:
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// Keywords returns the extra terms indexed with a chunk's text (stored in
// chunks.keywords): CompoundTerms, then the bigrams of every CJK run with
// the non-CJK pieces glued to it, separated by spaces, each occurrence
// kept (term frequency counts). A segment PostgreSQL already indexes
// correctly, a standalone CJK word of one or two characters, adds nothing.
// "pg_stat_activity表记录会话" gives "pgstatactivity activity 表记 记录 录会 会话".
func Keywords(text string) string {
	if !hasCJK(text) {
		return CompoundTerms(text)
	}
	var b strings.Builder
	b.WriteString(CompoundTerms(text))
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
func Query(text string) string {
	var b strings.Builder
	last := 0
	segmentsAt(text, func(start, end int) {
		if !hasCJK(text[start:end]) {
			return
		}
		b.WriteString(text[last:start])
		separate(text[start:end], func(tok string) {
			b.WriteByte(' ')
			b.WriteString(tok)
		})
		b.WriteByte(' ')
		last = end
	})
	b.WriteString(text[last:])
	if c := CompoundTerms(text); c != "" {
		b.WriteByte('\n')
		b.WriteString(c)
	}
	return b.String()
}

// segmentRune reports whether r belongs to a word as PostgreSQL's parser
// glues them: letters of any script, digits and combining marks.
func segmentRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || IsCJK(r)
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
func separate(seg string, emit func(string)) {
	var run []rune
	flushRun := func() {
		switch len(run) {
		case 0:
		case 1:
			emit(string(run))
		default:
			for i := 0; i+1 < len(run); i++ {
				emit(string(run[i : i+2]))
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
		if IsCJK(r) {
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

func hasCJK(s string) bool { return strings.IndexFunc(s, IsCJK) >= 0 }

func allCJK(s string) bool { return strings.IndexFunc(s, func(r rune) bool { return !IsCJK(r) }) < 0 }
