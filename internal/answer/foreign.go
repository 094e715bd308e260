package answer

import (
	"strings"

	"github.com/ragd-dev/ragd/internal/analyze"
)

// foreign reports whether a supporting passage is in another language than
// both the question and the answer's main passage. Documentation ships its
// translations beside the original (Beautiful Soup's manual in English,
// Portuguese, Russian and Chinese in one package), and a translation
// matches the question through the identifiers, code and error messages it
// shares with the original; the answers then quoted the same paragraph
// again in Portuguese and in Russian. A reader gains nothing from a
// supporting passage in a language that is neither the one they asked in
// nor the answer's (documentation only in English answers a question asked
// in Japanese in English). Two signals, from the passage's prose (its code
// is the same in every language):
//   - its letters are mostly in another script than the question's and
//     the main passage's (Cyrillic, Greek, Arabic, CJK… under Latin
//     letters, or the reverse; a CJK character counts as two letters, as
//     identifiers in Latin letters fill a Japanese sentence);
//   - in Latin letters (eight words or more), the language whose function
//     words it uses most (language, at least three), when the question's
//     and the main passage's are known and differ from it, and the passage
//     uses at least two more and twice as many of its own as of theirs (a
//     terse line's "per" and "non-" are not Italian).
func foreign(question string, main, us []unit) bool {
	text := proseOf(us)
	ps := analyze.Script(text)
	if ps == "" {
		return false
	}
	mainText := proseOf(main)
	qs, ms := analyze.Script(question), analyze.Script(mainText)
	if qs == "" {
		return false
	}
	if ps != qs && ps != ms {
		return true
	}
	if ps != "latin" || analyze.LatinWordCount(text) < 8 {
		return false
	}
	// In Latin letters: another language than both the question's and the
	// main passage's, by a clear margin over each (a terse line's "e.g."
	// and "per" are not Italian).
	pl, counts := analyze.Language(text, 3)
	if pl == "" {
		return false
	}
	for _, t := range []string{question, mainText} {
		l, _ := analyze.Language(t, 2)
		if l == "" || l == pl || counts[pl] < counts[l]+2 || counts[pl] < 2*counts[l] {
			return false
		}
	}
	return true
}

// proseOf is the text of units other than code.
func proseOf(us []unit) string {
	var b strings.Builder
	for _, u := range us {
		if u.kind != unitCode {
			b.WriteString(u.text)
			b.WriteByte(' ')
		}
	}
	return b.String()
}
