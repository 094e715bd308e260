package answer

import (
	"strings"
	"unicode"
)

// foreign reports whether a supporting passage is in another language than
// the question. Documentation ships its translations beside the original
// (Beautiful Soup's manual in English, Portuguese, Russian and Chinese in
// one package), and a translation matches the question through the
// identifiers, code and error messages it shares with the original; the
// answers then quoted the same paragraph again in Portuguese and in
// Russian. A reader who asked in one language gains nothing from a
// supporting passage in another. Two signals, from the passage's prose
// (its code is the same in every language):
//   - its letters are mostly in another script than the question's
//     (Cyrillic, Greek, Arabic, CJK… under a question in Latin letters, or
//     the reverse);
//   - in Latin letters, the language whose function words it uses most
//     (language), when the question's own is known and differs, and the
//     passage uses more of its language's function words than of the
//     question's (eight words or more).
func foreign(question string, us []unit) bool {
	var prose strings.Builder
	for _, u := range us {
		if u.kind != unitCode {
			prose.WriteString(u.text)
			prose.WriteByte(' ')
		}
	}
	text := prose.String()
	qs, ps := script(question), script(text)
	if qs == "" || ps == "" {
		return false
	}
	if qs != ps {
		return true
	}
	if qs != "latin" {
		return false
	}
	ql, _ := language(question, 1)
	if ql == "" {
		return false
	}
	if len(words(text)) < 8 {
		return false
	}
	pl, counts := language(text, 2)
	return pl != "" && pl != ql && counts[pl] > counts[ql]
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}

// functionWords are the most frequent words of languages written in Latin
// letters (after the Snowball stop lists, shortened); a word several
// languages share counts for each.
var functionWords = map[string][]string{
	"en": strings.Fields("the of and to in is that it for with as on be are this by from or not you your can if which have has an at was will but such " +
		"how what why where do does i my should would when there they than into its a no so we all also only then these those may must " +
		"been were some any each about after before over up out just here"),
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
			counts["cjk"]++
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
