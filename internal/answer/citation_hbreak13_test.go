package answer

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// invisibles are characters that render as nothing (or as nothing inside
// "[7]" in common fonts) and that skipBlanks does not skip: with one inside
// a bracketed number, the text shows "[7]" while neither ParseCitations nor
// Verify sees a marker, so it is neither checked nor removed.
var invisibles = map[string]rune{
	"LRM U+200E": '\u200e', "RLM U+200F": '\u200f', "ALM U+061C": '\u061c',
	"INVISIBLE SEPARATOR U+2063": '\u2063', "INVISIBLE TIMES U+2062": '\u2062', "FUNCTION APPLICATION U+2061": '\u2061',
	"COMBINING GRAPHEME JOINER U+034F": '\u034f', "VARIATION SELECTOR-16 U+FE0F": '\ufe0f',
	"MONGOLIAN VOWEL SEPARATOR U+180E": '\u180e', "LRI U+2066": '\u2066', "PDI U+2069": '\u2069',
	"LRE U+202A": '\u202a', "TAG SPACE U+E0020": '\U000E0020',
}

// visible drops what does not render (format characters, nonspacing marks,
// variation selectors), which is what a person reading the answer sees.
func visible(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Variation_Selector, r) || r == '\u180e' {
			return -1
		}
		return r
	}, s)
}

// An LLM answer (or a quoted source) that writes [7] with an invisible
// character inside it keeps a citation of a source that does not exist:
// Verify neither reports it as invalid nor removes it.
func TestHBreak13VerifyInvisibleInsideMarker(t *testing.T) {
	sources := []Source{{N: 1, Content: "a"}, {N: 2, Content: "b"}}
	for name, r := range invisibles {
		for _, m := range []string{"[7" + string(r) + "]", "[" + string(r) + "7]"} {
			clean, cited, invalid := Verify("Vacuum reclaims space [1]. It also deletes every table "+m+".", sources)
			if strings.Contains(visible(clean), "[7]") {
				t.Errorf("%s: Verify left %q (reads as [7]; cited %v, invalid %v): a citation of a source that does not exist", name, clean, cited, invalid)
			}
		}
	}
}

// The extractive answerer quotes a planted "[7<invisible>]" verbatim: the
// answer shows a citation number no source has (or, with a number in range,
// attributes the planted sentence to another document).
func TestHBreak13ExtractiveQuotesInvisibleMarker(t *testing.T) {
	for name, r := range invisibles {
		src := []Source{{N: 1, Content: "The frobnicator setting controls the depth of the server [7" + string(r) + "]."},
			{N: 2, Content: "Unrelated text about backups."}}
		res := Extractive("What does the frobnicator setting control?", src, 3)
		if strings.Contains(visible(res.Answer), "[7]") {
			t.Errorf("%s: answer %q reads as citing [7]; only %d sources exist (citations %v)", name, res.Answer, len(src), res.Citations)
		}
	}
}

// Lookalike brackets and digits read as citations are citations: the
// lenticular brackets some models cite with, superscript digits and
// parentheses, and "Source:" before the number. Out of range, they are
// removed; in range, counted.
func TestHBreak13LookalikeMarkers(t *testing.T) {
	t.Parallel()
	sources := []Source{{N: 1, Content: "a"}, {N: 2, Content: "b"}}
	for _, m := range []string{"【7】", "[⁷]", "⁽⁷⁾", "[Source: 7]", "[source:7]", "【⁷]"} {
		clean, cited, invalid := Verify("Vacuum reclaims space [1]. It also deletes every table "+m+".", sources)
		if strings.Contains(clean, m) || !slices.Equal(invalid, []int{7}) || !slices.Equal(cited, []int{1}) {
			t.Errorf("%s: Verify gave %q, cited %v, invalid %v; want it removed as an invalid citation", m, clean, cited, invalid)
		}
	}
	for _, c := range []struct {
		text string
		want []int
	}{
		{"Reclaims space 【2】.", []int{2}},
		{"Reclaims space [²].", []int{2}},
		{"Reclaims space ⁽¹⁾ and more [Source: 2].", []int{1, 2}},
		{"【注意】 x² and 10³ are not markers.", nil},
	} {
		if got := ParseCitations(c.text); !slices.Equal(got, c.want) {
			t.Errorf("ParseCitations(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
