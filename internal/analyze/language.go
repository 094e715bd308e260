package analyze

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What language a text is in, told cheaply from its letters and its
// function words: documentation ships its translations beside the original
// (a manual in English, Portuguese, Russian and Chinese in one package),
// and a translation matches a question through the identifiers, code and
// error messages it keeps. Script tells Cyrillic, CJK and the others from
// Latin letters; among languages written in Latin letters, Language counts
// the function words of English, Portuguese, Spanish, French, German,
// Italian and Dutch (short Snowball-style stop lists). Neither is a
// language identifier for arbitrary text: callers act only on a clear
// margin.

// latinWords calls yield with each lower-cased word of s (a run of
// letters) that is prose: a part of an identifier (os.path, com.example,
// na_values, /usr/share) is code, the same in every language, and "os",
// "com" and "na" are Portuguese words. The letters of Latin abbreviations
// ("e.g.", "i.e.", "etc.", "vs.", "cf.", whose letters would count as
// words of other languages: "e" is Italian and Portuguese) are left out
// too: a one-letter word before a full stop, and etc, vs and cf before
// one. The word is only valid during the call.
func latinWords(s string, yield func(w []byte)) {
	var arr [64]byte
	w := arr[:0]
	var prev rune // the rune before the word
	for i := 0; i < len(s); {
		// ASCII letters without decoding (most text is ASCII: the search
		// judges every candidate chunk's language).
		r, size := rune(s[i]), 1
		switch {
		case 'a' <= r && r <= 'z':
			w = append(w, byte(r))
			i++
			continue
		case 'A' <= r && r <= 'Z':
			w = append(w, byte(r)+'a'-'A')
			i++
			continue
		case r >= utf8.RuneSelf:
			r, size = utf8.DecodeRuneInString(s[i:])
			if unicode.IsLetter(r) {
				w = utf8.AppendRune(w, unicode.ToLower(r))
				i += size
				continue
			}
		}
		if len(w) > 0 {
			abbreviation := r == '.' && (utf8.RuneCount(w) == 1 || string(w) == "etc" || string(w) == "vs" || string(w) == "cf")
			if !abbreviation && !identifierPart(prev, s[i:]) {
				yield(w)
			}
			w = w[:0]
		}
		prev = r
		i += size
	}
	if len(w) > 0 && !identifierPart(prev, "") {
		yield(w)
	}
}

// identifierPart reports whether a word between prev (the rune before it)
// and rest (the text after it) is part of an identifier, a path or an
// address: joined to what is around it by a dot, an underscore, a slash,
// "@", "=", "(" or a digit.
func identifierPart(prev rune, rest string) bool {
	if prev == '.' || prev == '_' || prev == '/' || prev == '\\' || prev == '@' || prev == '$' || prev == '`' || unicode.IsDigit(prev) {
		return true
	}
	if rest == "" {
		return false
	}
	next, size := utf8.DecodeRuneInString(rest)
	switch next {
	case '_', '/', '\\', '(', '=', '@', '`':
		return true
	case '.', ':':
		after, _ := utf8.DecodeRuneInString(rest[size:])
		return unicode.IsLetter(after) || unicode.IsDigit(after) || after == '_' || after == '/'
	}
	return unicode.IsDigit(next)
}

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

// questionWords are the words that phrase a question in each language
// (interrogatives, "how many", modal verbs), beside its function words.
var questionWords = map[string][]string{
	"pt": strings.Fields("como quando onde quanto quantos quantas qual quais quem porque posso pode existe"),
	"es": strings.Fields("cómo como qué cuándo dónde cuánto cuántos cuántas cuál cuáles quién porqué puedo puede hay existe"),
	"fr": strings.Fields("comment combien pourquoi quand où quel quelle quels quelles qui que quoi puis je peut peux faut"),
	"de": strings.Fields("wie was wer wann wo warum welche welcher welches welchen wieviel viele wieso weshalb woher wohin kann können muss soll gibt"),
	"it": strings.Fields("come quando dove quanto quanti quante quale quali chi perché posso può"),
	"nl": strings.Fields("hoe wat wie wanneer waar waarom welke hoeveel kan moet"),
}

// QuestionLanguage returns the language a question is phrased in, other
// than English, told from the function and question words of each
// language it uses (most of one language's, no tie, at least two), and the
// lower-cased words of the question that are that language's function or
// question words: they phrase the question and name no subject. "" and
// nil for an English question or when no language is clear.
func QuestionLanguage(question string) (string, []string) {
	var n [len(languages)]int
	var words []string
	latinWords(question, func(w []byte) {
		ls := phrasingIndex[string(w)]
		for _, l := range ls {
			n[l]++
		}
		if len(ls) > 0 && !slices.Contains(words, string(w)) {
			words = append(words, string(w))
		}
	})
	best := mostUsed(n, 2)
	if best < 0 || languages[best] == "en" {
		return "", nil
	}
	return languages[best], slices.DeleteFunc(words, func(w string) bool { return !slices.Contains(phrasingIndex[w], best) })
}

// languages are functionWords' languages, in a fixed order.
var languages = [...]string{"en", "pt", "es", "fr", "de", "it", "nl"}

// functionIndex maps a function word to the languages (indexes into
// languages) it is one of; phrasingIndex does so for function and question
// words (questionWords) together.
var functionIndex, phrasingIndex = wordIndex(functionWords), wordIndex(functionWords, questionWords)

// wordIndex maps each word of the lists to the languages it is listed for,
// each language once.
func wordIndex(lists ...map[string][]string) map[string][]int {
	m := map[string][]int{}
	for i, lang := range languages {
		for _, list := range lists {
			for _, w := range list[lang] {
				if !slices.Contains(m[w], i) {
					m[w] = append(m[w], i)
				}
			}
		}
	}
	return m
}

// mostUsed returns the index of the largest count, when it is at least min
// and no other count ties it; -1 otherwise.
func mostUsed(n [len(languages)]int, min int) int {
	best, most, tie := -1, 0, false
	for i, c := range n {
		switch {
		case c > most:
			best, most, tie = i, c, false
		case c == most && c > 0:
			tie = true
		}
	}
	if most < min || tie {
		return -1
	}
	return best
}

// Language returns the language, among those of functionWords, whose
// function words text uses most, with at least min of them and no tie for
// the most, and each language's count; "" when none qualifies.
func Language(text string, min int) (string, map[string]int) {
	lang, counts, _ := LanguageWords(text, min)
	return lang, counts
}

// LanguageWords is Language with text's LatinWordCount, from one reading
// of text (the search judges every candidate chunk's language).
func LanguageWords(text string, min int) (string, map[string]int, int) {
	var n [len(languages)]int
	words := 0
	latinWords(text, func(w []byte) {
		words++
		for _, l := range functionIndex[string(w)] {
			n[l]++
		}
	})
	counts := make(map[string]int, len(languages))
	for i, c := range n {
		if c > 0 {
			counts[languages[i]] = c
		}
	}
	if best := mostUsed(n, min); best >= 0 {
		return languages[best], counts, words
	}
	return "", counts, words
}

// Script names the script most of s's letters are written in: "latin",
// "cyrillic", "greek", "cjk" (Han, kana and Hangul together: Japanese and
// Korean text mixes them), "arabic", "hebrew", "thai", "devanagari",
// "other"; "" when s has no letters.
func Script(s string) string {
	var n [len(scripts)]int
	latin, start := 0, -1 // the Latin letters of the current word, where it starts
	var before rune       // the rune before it
	var prev rune
	for i, r := range s {
		isLatin := r < 0x80 && ('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') || r >= 0x80 && unicode.Is(unicode.Latin, r)
		if isLatin {
			if start < 0 {
				start, before = i, prev
			}
			latin++
			prev = r
			continue
		}
		if start >= 0 {
			// Identifiers are code, the same in every language: a
			// Japanese question naming requests.Session and
			// requests.get is Japanese.
			if !identifierPart(before, s[i:]) {
				n[0] += latin
			}
			latin, start = 0, -1
		}
		prev = r
		if r < 0x80 || !unicode.IsLetter(r) {
			continue
		}
		switch {
		case unicode.Is(unicode.Cyrillic, r):
			n[1]++
		case unicode.Is(unicode.Greek, r):
			n[2]++
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Bopomofo):
			n[3] += 2 // a character says about what a short word does
		case unicode.Is(unicode.Arabic, r):
			n[4]++
		case unicode.Is(unicode.Hebrew, r):
			n[5]++
		case unicode.Is(unicode.Thai, r):
			n[6]++
		case unicode.Is(unicode.Devanagari, r):
			n[7]++
		default:
			n[8]++
		}
	}
	if start >= 0 && !identifierPart(before, "") {
		n[0] += latin
	}
	if n == [len(scripts)]int{} && strings.ContainsFunc(s, unicode.IsLetter) {
		// Only identifiers: their letters tell the script.
		for _, r := range s {
			if r < 0x80 && ('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
				n[0]++
			}
		}
	}
	best, most := "", 0
	for i, c := range n {
		if c > most {
			best, most = scripts[i], c
		}
	}
	return best
}

// scripts are Script's names, in the order it counts them.
var scripts = [...]string{"latin", "cyrillic", "greek", "cjk", "arabic", "hebrew", "thai", "devanagari", "other"}

// LatinWordCount is the number of words of s, Latin abbreviations dropped.
func LatinWordCount(s string) int {
	n := 0
	latinWords(s, func([]byte) { n++ })
	return n
}
