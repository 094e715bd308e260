package analyze

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzCompoundTerms checks the identifier joining on arbitrary text: no
// panic; every term is non-empty, lower case, without underscores, spaces
// or CJK characters, shorter than 100 bytes, unique, and is an
// underscore identifier of the text with its underscores removed; terms
// come in order of first appearance; the output has no identifiers left to
// join (CompoundTerms is idempotent on it); valid UTF-8 stays valid.
func FuzzCompoundTerms(f *testing.F) {
	for _, s := range []string{
		"", "plain words only", "effective_io_concurrency", "SET work_mem = '64MB'; SHOW shared_buffers;",
		"pg_stat_activity pg_stat_activity PG_STAT_ACTIVITY", "__dunder__ _x_ a__b", "snake_case_ÜBER_größe",
		"'&|!:*<->\\()", "a_b:*", "x_" + strings.Repeat("y", 120), "İ_İ ǅ_ǅ", "日本_語", "pg_stat_activity表", "_", "a\x00_b", "\xff_\xfe",
		"tab\t_sep\n_line", "x_1 1_x 1_1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		out := CompoundTerms(text)
		if out == "" {
			return
		}
		terms := strings.Split(out, " ")
		isWord := func(r rune) bool { return r == '_' || (unicode.IsLetter(r) || unicode.IsDigit(r)) && !Unspaced(r) }
		var idents []string // joined forms of the text's identifiers, in order
		for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return !isWord(r) }) {
			if tok = strings.Trim(tok, "_"); strings.Contains(tok, "_") && len(tok) <= 100 {
				idents = append(idents, strings.ToLower(strings.ReplaceAll(tok, "_", "")))
			}
		}
		seen := map[string]bool{}
		pos := 0
		for _, term := range terms {
			switch {
			case term == "":
				t.Fatalf("%q: empty term in %q", text, out)
			case strings.ContainsAny(term, "_ \t\n") || strings.ContainsFunc(term, Unspaced):
				t.Fatalf("%q: term %q has an underscore, space or CJK character", text, term)
			case len(term) >= 100:
				t.Fatalf("%q: term of %d bytes", text, len(term))
			case seen[term]:
				t.Fatalf("%q: term %q twice", text, term)
			case strings.ToLower(term) != term && utf8.ValidString(term):
				t.Fatalf("%q: term %q is not lower case", text, term)
			}
			seen[term] = true
			found := false
			for ; pos < len(idents); pos++ {
				if idents[pos] == term {
					found = true
					break
				}
			}
			if !found {
				t.Fatalf("%q: term %q is not an identifier of the text (in order)", text, term)
			}
		}
		if again := CompoundTerms(out); again != "" {
			t.Fatalf("%q: output %q still has identifiers: %q", text, out, again)
		}
		if utf8.ValidString(text) && !utf8.ValidString(out) {
			t.Fatalf("%q: invalid UTF-8 output %q", text, out)
		}
	})
}
