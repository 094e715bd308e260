package chunk

import (
	"unicode"
	"unicode/utf8"
)

// WordCount is the default token counter: the number of runs of
// non-whitespace characters, except that each Han, Hiragana or Katakana
// character counts as one word of its own (those scripts do not separate
// words with spaces). It is additive over whitespace-separated pieces and
// allocation-free; about 1.3 BPE tokens per word for English prose.
func WordCount(s string) int {
	n := 0
	inWord := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f' {
				inWord = false
			} else if !inWord {
				n++
				inWord = true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case unicode.IsSpace(r):
			inWord = false
		case r >= 0x3040 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)):
			n++
			inWord = false
		case !inWord:
			n++
			inWord = true
		}
	}
	return n
}
