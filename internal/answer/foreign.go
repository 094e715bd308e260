package answer

import (
	"strings"
	"unicode"
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
	ps := script(text)
	if ps == "" {
		return false
	}
	mainText := proseOf(main)
	qs, ms := script(question), script(mainText)
	if qs == "" {
		return false
	}
	if ps != qs && ps != ms {
		return true
	}
	if ps != "latin" || len(words(text)) < 8 {
		return false
	}
	// In Latin letters: another language than both the question's and the
	// main passage's, by a clear margin over each (a terse line's "e.g."
	// and "per" are not Italian).
	pl, counts := language(text, 3)
	if pl == "" {
		return false
	}
	for _, t := range []string{question, mainText} {
		l, _ := language(t, 2)
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

func words(s string) []string {
	s = latinAbbreviations.Replace(strings.ToLower(s))
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
}

// latinAbbreviations are Latin latinAbbreviations English prose uses, whose letters
// would count as words of other languages ("e.g." as Italian "e").
var latinAbbreviations = strings.NewReplacer("e.g.", " ", "i.e.", " ", "etc.", " ", "vs.", " ", "cf.", " ")

// functionWords are the most frequent words of languages written in Latin
// letters (after the Snowball stop lists, shortened); a word several
// languages share counts for each.
var functionWords = map[string][]string{
	"en": strings.Fields("the of and to in is that it for with as on be are this by from or not you your can if which have has an at was will but such " +
		"how what why where do does i my should would when there they than into its a no so we all also only then these those may must " +
		"been were some any each about after before over up out just here per non via"),
	"pt": strings.Fields("de a o que e do da em um para é com não uma os no se na por mais as dos como mas ao ele das à seu sua ou quando muito nos já " +
		"também só pelo pela até isso ela entre depois sem mesmo aos seus quem nas me esse eles você essa num nem suas meu às minha numa qual nós lhe este"),
	"es": strings.Fields("de la que el en y a los del se las por un para con no una su al lo como más pero sus le ya o este sí porque esta entre cuando " +
		"muy sin sobre también me hasta hay donde quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos esto antes algunos qué unos"),
	"fr": strings.Fields("de la le et les des en un du une que est pour qui dans a par plus pas au sur ne se ce il sont avec ou son aux nous vous mais " +
		"leur elle cette être on"),
	"de": strings.Fields("der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als auch es an werden aus er hat dass sie nach " +
		"wird bei einer um am sind noch wie einem über einen so zum war haben nur oder aber vor zur bis mehr durch man sein wurde sei ich"),
	"it": strings.Fields("di e il la che a per in un è del non una con le si da i dei sono alla come gli più ma nel al lo della anche se questo ha"),
	"nl": strings.Fields("de en van het een in is dat op te zijn met voor niet aan er om die ook als bij maar dan nog wordt door naar of"),
}

var functionIndex = func() map[string][]string {
	m := map[string][]string{}
	for lang, ws := range functionWords {
		for _, w := range ws {
			m[w] = append(m[w], lang)
		}
	}
	return m
}()

// language returns the language whose function words text uses most, with
// at least min of them and no tie for the most, and each language's count;
// "" when none qualifies.
func language(text string, min int) (string, map[string]int) {
	counts := map[string]int{}
	for _, w := range words(text) {
		for _, lang := range functionIndex[w] {
			counts[lang]++
		}
	}
	best, most, tie := "", 0, false
	for lang, n := range counts {
		switch {
		case n > most:
			best, most, tie = lang, n, false
		case n == most:
			tie = true
		}
	}
	if most < min || tie {
		return "", counts
	}
	return best, counts
}

// script names the script most of s's letters are written in: "latin",
// "cyrillic", "greek", "cjk" (Han, kana and Hangul together: Japanese and
// Korean text mixes them), "arabic", "hebrew", "thai", "devanagari",
// "other"; "" when s has no letters.
func script(s string) string {
	counts := map[string]int{}
	for _, r := range s {
		if !unicode.IsLetter(r) {
			continue
		}
		switch {
		case unicode.Is(unicode.Latin, r):
			counts["latin"]++
		case unicode.Is(unicode.Cyrillic, r):
			counts["cyrillic"]++
		case unicode.Is(unicode.Greek, r):
			counts["greek"]++
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Bopomofo):
			counts["cjk"] += 2 // a character says about what a short word does
		case unicode.Is(unicode.Arabic, r):
			counts["arabic"]++
		case unicode.Is(unicode.Hebrew, r):
			counts["hebrew"]++
		case unicode.Is(unicode.Thai, r):
			counts["thai"]++
		case unicode.Is(unicode.Devanagari, r):
			counts["devanagari"]++
		default:
			counts["other"]++
		}
	}
	best, most := "", 0
	for _, k := range []string{"latin", "cyrillic", "greek", "cjk", "arabic", "hebrew", "thai", "devanagari", "other"} {
		if counts[k] > most {
			best, most = k, counts[k]
		}
	}
	return best
}
