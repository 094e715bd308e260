package analyze

import (
	"sort"
	"unicode"
)

// ScriptCount is how much of a text is written in one Unicode script.
type ScriptCount struct {
	// Script is the Unicode script's name, a key of unicode.Scripts ("Latin",
	// "Han", "Hiragana", …).
	Script string
	// Units counts the script's words, except for the scripts written
	// without spaces (Unspaced): for Han, kana and Hangul every character
	// counts (a Chinese or Japanese character carries about as much of a
	// question as an English word does, and the keyword leg indexes it as
	// about one bigram); for Thai, Lao, Khmer and Myanmar every three
	// letters count one (their words are longer: counted by the letter, one
	// Thai word quoted in an English question made it 70% Thai).
	Units int
}

// commonScripts are tried first by scriptOf, most frequent first; the rest
// of unicode.Scripts is searched in name order.
var commonScripts = []string{"Latin", "Han", "Hiragana", "Katakana", "Hangul", "Cyrillic", "Greek", "Arabic", "Hebrew",
	"Devanagari", "Thai"}

var otherScripts = func() []string {
	common := map[string]bool{"Common": true, "Inherited": true}
	for _, s := range commonScripts {
		common[s] = true
	}
	var out []string
	for name := range unicode.Scripts {
		if !common[name] {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}()

// scriptOf returns the script of letter r, or "" for a non-letter or a
// letter of no particular script (Common, Inherited). The CJK marks Unspaced
// admits count as Katakana (ー) or Hiragana (voiced sound marks).
func scriptOf(r rune) string {
	switch {
	case r < 0x80:
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return "Latin"
		}
		return ""
	case r == 0x30FC, r == 0xFF70, r == 0xFF9E, r == 0xFF9F:
		return "Katakana"
	case r >= 0x3099 && r <= 0x309C:
		return "Hiragana"
	case !unicode.IsLetter(r):
		return ""
	}
	for _, name := range commonScripts {
		if unicode.Is(unicode.Scripts[name], r) {
			return name
		}
	}
	for _, name := range otherScripts {
		if unicode.Is(unicode.Scripts[name], r) {
			return name
		}
	}
	return ""
}

// Scripts returns the scripts text is written in with their units (see
// ScriptCount), most units first, ties by name. Digits, punctuation,
// symbols and marks belong to no script and count nothing, so a text of
// them alone returns nil. A word is a maximal run of letters of one script
// (marks inside it do not split it).
func Scripts(text string) []ScriptCount {
	units := map[string]int{}
	letters := map[string]int{} // Thai, Lao, Khmer, Myanmar: letters, three a unit
	prev := ""
	for _, r := range text {
		s := scriptOf(r)
		switch {
		case s == "":
			if !unicode.IsMark(r) {
				prev = ""
			}
			continue
		case southeastAsian(r):
			letters[s]++
		case Unspaced(r):
			units[s]++
		case s != prev:
			units[s]++
		}
		prev = s
	}
	for s, n := range letters {
		units[s] += (n + 2) / 3
	}
	if len(units) == 0 {
		return nil
	}
	out := make([]ScriptCount, 0, len(units))
	for s, n := range units {
		out = append(out, ScriptCount{Script: s, Units: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Units != out[j].Units {
			return out[i].Units > out[j].Units
		}
		return out[i].Script < out[j].Script
	})
	return out
}
