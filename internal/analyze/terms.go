package analyze

import (
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
