package answer

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// blanks are the characters Verify trims around its input and result (ASCII
// only, so the streaming filter can hold them back byte by byte).
const blanks = " \t\r\n\v\f"

// maxCitationDigits bounds the digits of a citation number, so "[12345678]"
// (an ID, not a citation) is left alone and numbers cannot overflow.
const maxCitationDigits = 6

// marker is one citation marker in a text: text[start:end] is "[...]" and
// nums are its numbers as written (duplicates and invalid ones included).
type marker struct {
	start, end int
	nums       []int
}

// parseState is the outcome of parsing a marker at a '['.
type parseState int

const (
	parseFail       parseState = iota // not a marker, whatever follows
	parseOK                           // a complete marker
	parseIncomplete                   // input ended while it could still become one
)

// scanMarkers finds the citation markers of text outside code, left to right.
//
// With final set, text is complete: an unclosed fence runs to the end and an
// unclosed backtick is literal, as in CommonMark. Without it, text is a
// prefix of a reply still streaming in, and hold is the earliest byte offset
// from which its interpretation could still change (a '[' that may grow into
// a marker, an unclosed code span or fence, a backtick run at the very end);
// markers from hold on are not reported. hold is len(text) when nothing is
// pending, and always when final.
//
// safe is the last offset before hold that starts a line the scan reached
// outside any code span or fence (0 if none). Nothing before safe depends on
// what follows it: markers and the blanks Verify trims never span lines, so
// text[:safe] and text[safe:] can be verified separately.
func scanMarkers(text string, final bool) (markers []marker, hold, safe int) {
	hold = len(text)
	chain := -1 // first '[' of a run of '['s each failing on the next one
	for i := 0; i < len(text); {
		switch c := text[i]; c {
		case '`', '~':
			run := runLen(text, i, c)
			if !final && i+run == len(text) {
				// The run may still grow and change what it opens or closes.
				return markers, min(hold, i), safe
			}
			if run >= 3 && atLineStart(text, i) {
				// Fenced code block: skip to the line after the closing fence.
				end, closed := fenceEnd(text, i+run, c, run)
				if !closed {
					if final {
						return markers, hold, safe
					}
					return markers, min(hold, i), safe
				}
				i = end
				if hold == len(text) && text[end-1] == '\n' {
					safe = end
				}
				continue
			}
			if c == '~' {
				i += run
				continue
			}
			// Inline code span: closed by the next run of exactly the same length.
			closeAt, pending := findBacktickRun(text, i+run, run, final)
			if pending {
				return markers, min(hold, i), safe
			}
			if closeAt < 0 {
				// Unclosed: literal backticks; while streaming, a closing run
				// may still arrive, so nothing after here is final.
				if !final {
					hold = min(hold, i)
				}
				i += run
				continue
			}
			i = closeAt + run
		case '[', fullOpen[0], lenticularOpen[0], superOpen[0]:
			if c != '[' && openerLen(text, i) == 0 {
				if !final && !utf8.FullRuneInString(text[i:]) {
					// The first bytes of what may be a full-width "［".
					return markers, min(hold, i), safe
				}
				i++
				continue
			}
			m, st := parseMarker(text, i)
			if chain < 0 {
				chain = i
			}
			switch {
			case st == parseOK:
				markers = append(markers, m)
				i = m.end
				chain = -1
			case st == parseIncomplete && !final:
				// If earlier '['s failed only on this one, removing it as
				// an invalid marker may complete them: hold from the first.
				hold = min(hold, chain)
				i++
				chain = -1
			case st == parseFail && m.end < len(text) && openerLen(text, m.end) > 0:
				i++ // keep the chain: the next '[' is the one at m.end
			default:
				i++
				chain = -1
			}
		case '\n':
			i++
			if hold == len(text) {
				safe = i
			}
		default:
			i++
		}
	}
	return markers, hold, safe
}

func runLen(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// atLineStart reports whether only up to three spaces precede i on its line.
func atLineStart(s string, i int) bool {
	for j, spaces := i-1, 0; j >= 0; j-- {
		switch s[j] {
		case '\n':
			return true
		case ' ':
			if spaces++; spaces > 3 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// fenceEnd finds the line that closes a fence of n characters c opened just
// before from: up to three spaces, at least n characters c, then only blanks.
// It returns the offset after that closing line. A closing line that ends the
// text without a newline counts only if nothing but the fence is on it.
func fenceEnd(s string, from int, c byte, n int) (int, bool) {
	nl := strings.IndexByte(s[from:], '\n')
	if nl < 0 {
		return len(s), false
	}
	for i := from + nl + 1; i < len(s); {
		line := s[i:]
		lineEnd := strings.IndexByte(line, '\n')
		if lineEnd >= 0 {
			line = line[:lineEnd]
		}
		trimmed := strings.TrimLeft(line, " ")
		run := runLen(trimmed, 0, c)
		if len(line)-len(trimmed) <= 3 && run >= n && strings.TrimRight(trimmed[run:], " \t\r") == "" {
			if lineEnd < 0 {
				return len(s), true
			}
			return i + lineEnd + 1, true
		}
		if lineEnd < 0 {
			break
		}
		i += lineEnd + 1
	}
	return len(s), false
}

// findBacktickRun returns the start of the next run of exactly n backticks at
// or after from, or -1. Unless final, pending reports a run reaching the end
// of s that could still grow into (or out of) length n.
func findBacktickRun(s string, from, n int, final bool) (at int, pending bool) {
	for i := from; i < len(s); {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			return -1, false
		}
		i += j
		run := runLen(s, i, '`')
		if !final && i+run == len(s) && run <= n {
			return -1, true
		}
		if run == n {
			return i, false
		}
		i += run
	}
	return -1, false
}

// parseMarker parses the marker opening at text[i] (an opener: openerLen).
// Grammar:
//
//	open sp? item (sp? ("," | ";") sp? item)* sp? close
//	item = ("source" sp? (":" sp?)?)? digits       (case-insensitive "source")
//
// where sp is spaces, tabs or invisible characters (skipBlanks), digits
// has 1 to maxCitationDigits digits of any script or superscript digits,
// and open and close are "[" "]", their full-width forms, "【" "】" or
// superscript parentheses "⁽" "⁾" (each closes what any opens: a reader
// reads [2】 as [2] too); a number is all superscript digits or none
// ("[10²]" is a power of ten). On parseFail, m.end is the offset of the
// byte that failed the parse.
func parseMarker(text string, i int) (marker, parseState) {
	m := marker{start: i}
	j := skipBlanks(text, i+openerLen(text, i))
	for {
		if j == len(text) || partialRune(text, j) {
			return m, parseIncomplete
		}
		// Optional "source" word.
		if text[j] == 's' || text[j] == 'S' {
			const word = "source"
			k := 0
			for k < len(word) && j+k < len(text) && (text[j+k]|0x20) == word[k] {
				k++
			}
			if j+k == len(text) {
				return m, parseIncomplete
			}
			if k < len(word) {
				m.end = j + k
				return m, parseFail
			}
			j = skipBlanks(text, j+k)
			if j < len(text) && text[j] == ':' {
				// "[Source: 7]"
				j = skipBlanks(text, j+1)
			}
			if j == len(text) {
				return m, parseIncomplete
			}
		}
		// Digits of any script read as a number ("[٣]" is read as [3] by
		// people and by Python's \d alike).
		d, n, digits, sup := j, 0, 0, 0
		for d < len(text) {
			if partialRune(text, d) {
				return m, parseIncomplete
			}
			v, size := digitAt(text, d)
			if v < 0 {
				break
			}
			if r, _ := utf8.DecodeRuneInString(text[d:]); isSuperscriptDigit(r) {
				sup++
			}
			n, digits, d = n*10+v, digits+1, d+size
		}
		// A number is superscript digits throughout or none of them:
		// "[10²]" is a power of ten, not source 102.
		if digits == 0 || digits > maxCitationDigits || sup > 0 && sup < digits {
			m.end = j
			return m, parseFail
		}
		if d == len(text) {
			return m, parseIncomplete
		}
		m.nums = append(m.nums, n)
		j = skipBlanks(text, d)
		if j == len(text) || partialRune(text, j) {
			return m, parseIncomplete
		}
		if n := closerLen(text, j); n > 0 {
			m.end = j + n
			return m, parseOK
		}
		switch text[j] {
		case ',', ';':
			j = skipBlanks(text, j+1)
		default:
			m.end = j
			return m, parseFail
		}
	}
}

// skipBlanks skips blanks, and the characters that render as nothing and
// make a marker look like one while its bytes differ ("[\u200b3]" and
// "[7\u200e]" read as [3] and [7]): format characters (zero-width ones,
// bidi marks and isolates, invisible operators, tags), nonspacing marks
// (a combining grapheme joiner) and variation selectors.
func skipBlanks(s string, i int) int {
	for i < len(s) {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if invisibleInMarker(r) {
			i += size
			continue
		}
		return i
	}
	return i
}

// invisibleInMarker reports a character a reader does not see between a
// bracket and a digit.
func invisibleInMarker(r rune) bool {
	switch r {
	case '\u00a0', '\u3000', '\u180e':
		return true
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Variation_Selector, r)
}

// Brackets that read as "[" and "]": full-width ones (under NFKC they
// are), the lenticular ones some models cite with ("【2】"), and the
// superscript parentheses of a footnote ("⁽²⁾").
const (
	fullOpen        = "\uff3b"
	fullClose       = "\uff3d"
	lenticularOpen  = "\u3010"
	lenticularClose = "\u3011"
	superOpen       = "\u207d"
	superClose      = "\u207e"
)

// openerLen returns the length of the marker opener at s[i:], or 0. A
// superscript parenthesis glued to a letter or a digit is notation, not a
// marker: a derivative's order or a layer's index (f⁽⁵⁾, a⁽¹⁾).
func openerLen(s string, i int) int {
	if i < len(s) && s[i] == '[' {
		return 1
	}
	for _, o := range []string{fullOpen, lenticularOpen, superOpen} {
		if strings.HasPrefix(s[i:], o) {
			if o == superOpen && i > 0 {
				if r, _ := utf8.DecodeLastRuneInString(s[:i]); unicode.IsLetter(r) || unicode.IsDigit(r) {
					return 0
				}
			}
			return len(o)
		}
	}
	return 0
}

// closerLen returns the length of the marker closer at s[i:], or 0.
func closerLen(s string, i int) int {
	if i < len(s) && s[i] == ']' {
		return 1
	}
	for _, c := range []string{fullClose, lenticularClose, superClose} {
		if strings.HasPrefix(s[i:], c) {
			return len(c)
		}
	}
	return 0
}

// isSuperscriptDigit reports a superscript form of 0 to 9.
func isSuperscriptDigit(r rune) bool {
	_, ok := superscriptDigits[r]
	return ok
}

// superscriptDigits are the superscript forms of 0 to 9 ("[²]").
var superscriptDigits = map[rune]int{'\u2070': 0, '\u00b9': 1, '\u00b2': 2, '\u00b3': 3, '\u2074': 4,
	'\u2075': 5, '\u2076': 6, '\u2077': 7, '\u2078': 8, '\u2079': 9}

// digitAt returns the value of the decimal digit of any script at s[i:] and
// its length in bytes, or -1.
func digitAt(s string, i int) (int, int) {
	if c := s[i]; c < 0x80 {
		if c >= '0' && c <= '9' {
			return int(c - '0'), 1
		}
		return -1, 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if v, ok := superscriptDigits[r]; ok {
		return v, size
	}
	if !unicode.IsDigit(r) {
		return -1, size
	}
	// Unicode's decimal digits come in runs of ten, zero first, some runs
	// back to back (the mathematical digits: five runs from U+1D7CE).
	v := 0
	for v < 100 && unicode.IsDigit(r-rune(v)-1) {
		v++
	}
	return v % 10, size
}

// partialRune reports whether s[i:] is the start of a character whose
// remaining bytes have not arrived (a streamed piece cut inside it).
func partialRune(s string, i int) bool {
	return i < len(s) && s[i] >= utf8.RuneSelf && !utf8.FullRuneInString(s[i:])
}

// ParseCitations returns the citation numbers in text, each once, in order of
// first appearance. Numbers are not checked against any source list (see
// Verify).
//
// Recognised markers: "[n]", lists "[n, m]" or "[n; m]", adjacent markers
// "[n][m]", and the same with the word "source" ("[Source 2]", "[Source:
// 2]", "[source 1, source 3]"); n has 1 to 6 decimal digits (of any script,
// or superscript). Brackets that read as "[" "]" are brackets: full-width,
// lenticular ("【2】") and superscript parentheses ("⁽²⁾"). Deliberately not
// recognised: ranges such as "[1-3]" (indistinguishable from "[2019-2021]";
// the prompt asks for one number per bracket), footnotes "[^1]", and anything
// inside `code spans` or fenced code blocks, where brackets index arrays
// ("arr[0]"). A lone backtick without a closing one is literal text.
func ParseCitations(text string) []int {
	markers, _, _ := scanMarkers(text, true)
	var out []int
	for _, m := range markers {
		for _, n := range m.nums {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// Verify checks the citations of a generated answer against sources, which
// are numbered 1..len(sources).
//
// clean is text with every marker rewritten in the canonical form "[n]"
// ("[1, 2]" and "[Source 1][2]" become "[1][2]"; duplicates inside a marker
// collapse) and out-of-range numbers dropped; a marker left with no valid
// number is removed together with the blanks before it, so "done [7]." becomes
// "done.". clean is trimmed of surrounding ASCII whitespace. cited holds the
// valid numbers and invalid the out-of-range ones, each once, in order of
// first appearance; both are non-nil. Text inside code is left untouched.
//
// An answer with no valid citation is unsupported; Answerer then refuses it
// (see Result.Unsupported).
func Verify(text string, sources []Source) (clean string, cited []int, invalid []int) {
	clean, cited, invalid = verifyRaw(strings.Trim(text, blanks), len(sources))
	return strings.Trim(clean, blanks), cited, invalid
}

// maxVerifyPasses bounds verifyRaw's passes; only adversarial nesting such
// as "[[[9]9]9]" needs more than two.
const maxVerifyPasses = 16

// verifyRaw is Verify without the trimming, for the streaming filter:
// verifyRaw of a prefix before scanMarkers' hold (and before trailing blanks)
// is a prefix of verifyRaw of the whole text, and a text split at scanMarkers'
// safe verifies piecewise (nested-bracket tricks aside).
//
// It repeats the rewriting until nothing changes, because removing a marker
// can join its neighbours into a new one ("[[9]1]" becomes "[1]"); every
// marker in the result has been checked. Past maxVerifyPasses it gives up on
// the text's brackets and removes them all, leaving no marker (and so no
// citation).
func verifyRaw(text string, nSources int) (string, []int, []int) {
	v := verifier{nSources: nSources, cited: []int{}, invalid: []int{}, seen: map[int]bool{}}
	for pass := 1; ; pass++ {
		out, changed := v.once(text)
		if !changed {
			return out, v.cited, v.invalid
		}
		if pass == maxVerifyPasses {
			return strings.NewReplacer("[", "", "]", "").Replace(out), []int{}, v.invalid
		}
		text = out
	}
}

// verifier accumulates the numbers seen over verifyRaw's passes.
type verifier struct {
	nSources int
	cited    []int // valid numbers, first appearance first
	invalid  []int // out-of-range numbers, first appearance first
	seen     map[int]bool
}

// once rewrites the markers of text once; changed reports whether an invalid
// marker was removed (canonicalising valid markers cannot form new ones).
func (v *verifier) once(text string) (string, bool) {
	markers, _, _ := scanMarkers(text, true)
	if len(markers) == 0 {
		return text, false
	}
	changed := false
	buf := make([]byte, 0, len(text))
	last := 0
	var valid []int
	for _, m := range markers {
		buf = append(buf, text[last:m.start]...)
		last = m.end
		valid = valid[:0]
		for _, n := range m.nums {
			if !v.seen[n] {
				v.seen[n] = true
				if n >= 1 && n <= v.nSources {
					v.cited = append(v.cited, n)
				} else {
					v.invalid = append(v.invalid, n)
				}
			}
			if n >= 1 && n <= v.nSources && !slices.Contains(valid, n) {
				valid = append(valid, n)
			}
		}
		if len(valid) > 0 {
			for _, n := range valid {
				buf = append(buf, '[')
				buf = strconv.AppendInt(buf, int64(n), 10)
				buf = append(buf, ']')
			}
			continue
		}
		// Drop the marker and the blanks before it; keep one space if a word
		// follows directly ("a [9]b" -> "a b").
		changed = true
		trimmed := false
		for len(buf) > 0 && (buf[len(buf)-1] == ' ' || buf[len(buf)-1] == '\t') {
			buf = buf[:len(buf)-1]
			trimmed = true
		}
		if trimmed && m.end < len(text) && isWordStart(text[m.end]) {
			buf = append(buf, ' ')
		}
	}
	buf = append(buf, text[last:]...)
	return string(buf), changed
}

func isWordStart(c byte) bool {
	return c >= 0x80 || c == '_' || c == '(' || c == '"' || c == '\'' || c == '`' || c == '[' ||
		(c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

// normalizeForRefusal lowercases s, drops citation markers and punctuation
// noise and folds typographic apostrophes, for comparing with RefusalPhrase.
func normalizeForRefusal(s string) string {
	s, _, _ = verifyRaw(s, 0) // removes every marker
	s = strings.NewReplacer("\u2019", "'", "\u2018", "'", "*", "", "_", "", "\"", "", "\u201c", "", "\u201d", "").Replace(s)
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.Trim(s, " .!")
}

var normalizedRefusal = normalizeForRefusal(RefusalPhrase)

// isExactRefusal reports whether text is the refusal phrase and nothing else
// (markers, emphasis, quotes, case and final punctuation aside).
func isExactRefusal(text string) bool { return normalizeForRefusal(text) == normalizedRefusal }

// containsRefusal reports whether text contains the refusal phrase.
func containsRefusal(text string) bool {
	return strings.Contains(normalizeForRefusal(text), normalizedRefusal)
}
