package analyze

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Normalize returns s as documents and questions are compared: in Unicode
// normal form C, without the invisible characters that split a word a
// reader sees whole (soft hyphen U+00AD, zero-width space U+200B, word
// joiner U+2060, zero-width no-break space U+FEFF). "café" typed with a
// combining accent (as macOS file names and many PDFs have it) is then the
// same word as the precomposed one, and "quokka&shy;berry" is "quokkaberry".
// The zero-width joiner and non-joiner are kept: they change how Indic and
// Persian words are written, and join emoji. ASCII text is returned as is.
func Normalize(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	if strings.ContainsAny(s, "\u00ad\u200b\u2060\ufeff") {
		s = strings.Map(func(r rune) rune {
			switch r {
			case '\u00ad', '\u200b', '\u2060', '\ufeff':
				return -1
			}
			return r
		}, s)
	}
	return norm.NFC.String(s)
}
