package analyze

import (
	"slices"
	"strings"
	"unicode"
)

// CompoundTerms returns the identifiers in text that contain underscores
// (effective_io_concurrency, pg_stat_activity), each lowercased with its
// underscores removed, space-separated, each once, in order of appearance.
// CJK characters end an identifier like punctuation does
// ("pg_stat_activity表" gives pgstatactivity; the 表 is Keywords' business).
//
// PostgreSQL's default text-search parser splits words at "_", so
// "effective_io_concurrency" is indexed only as effect, io, concurr. The
// joined form is indexed alongside (chunks.keywords) and added to every query,
// so an exact identifier also matches as one rare term.
func CompoundTerms(text string) string {
	var out []string
	seen := map[string]bool{}
	isWord := func(r rune) bool { return r == '_' || (unicode.IsLetter(r) || unicode.IsDigit(r)) && !Unspaced(r) }
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return !isWord(r) }) {
		tok = strings.Trim(tok, "_")
		if !strings.Contains(tok, "_") || len(tok) > 100 {
			continue
		}
		joined := strings.ToLower(strings.ReplaceAll(tok, "_", ""))
		if joined == "" || seen[joined] {
			continue
		}
		seen[joined] = true
		out = append(out, joined)
	}
	return strings.Join(out, " ")
}

// HyphenatedWords returns the words of text written with hyphens
// ("auto-vacuum", "e-mail", "UTF-8"), each once, in order of appearance. A
// word is written both joined and hyphenated ("multi-column" and
// "multicolumn" are both in the PostgreSQL manual, AUTOINCREMENT is
// SQLite's "auto-increment"), and PostgreSQL's parser gives a hyphenated
// word its parts and the whole (multi-column, multi, column), never the
// joined form, so a search adds the joined form as an alternative. Words
// of two or three parts, each of letters or digits, at least one letter, up
// to 40 bytes: dates, ranges, command-line options and long compounds
// ("state-of-the-art") are not words written joined.
func HyphenatedWords(text string) []string {
	var out []string
	seen := map[string]bool{}
	isWord := func(r rune) bool { return r == '-' || (unicode.IsLetter(r) || unicode.IsDigit(r)) && !Unspaced(r) }
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return !isWord(r) }) {
		if len(tok) > 40 || tok[0] == '-' || tok[len(tok)-1] == '-' || !strings.Contains(tok, "-") {
			continue
		}
		parts := strings.Split(tok, "-")
		if len(parts) > 3 || slices.Contains(parts, "") || !strings.ContainsFunc(tok, unicode.IsLetter) {
			continue
		}
		if key := strings.ToLower(tok); !seen[key] {
			seen[key] = true
			out = append(out, tok)
		}
	}
	return out
}
