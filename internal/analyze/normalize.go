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
// The Latin ligatures U+FB00–U+FB06 (ﬁ, ﬂ, ﬀ, …, what text copied out of
// typeset PDFs holds) are their letters: "conﬁguration" is the word
// configuration to a reader, and neither PostgreSQL's parser nor NFC
// folds them.
// The hyphen U+2010, the non-breaking hyphen U+2011 and the minus sign
// U+2212 are "-": typesetters (groff's UTF-8 output, TeX, word processors)
// write a command's options and a negative number with them ("dot −Tpng",
// "−0.5"), a reader types "-", and a command quoted with them fails in a
// shell. Code keeps them (NormalizeCode).
// Widths are not folded here: a document's text is quoted as written (code
// that converts fullwidth digits must keep them); questions are folded
// (Question) and documents indexed with folded forms too (Keywords).
func Normalize(s string) string { return normalize(s, true) }

// NormalizeCode is Normalize for a block of code: its hyphens and minus
// signs stay as written, since code may handle them itself
// (`text.replace("−", "-")` would read as a no-op).
func NormalizeCode(s string) string { return normalize(s, false) }

func normalize(s string, dashes bool) string {
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
	if strings.ContainsFunc(s, func(r rune) bool { return r >= '\ufb00' && r <= '\ufb06' }) {
		s = ligatures.Replace(s)
	}
	if strings.ContainsAny(s, "\u00ad\u200b\u2060\ufeff\u2010\u2011\u2212") {
		s = strings.Map(func(r rune) rune {
			switch r {
			case '\u00ad', '\u200b', '\u2060', '\ufeff':
				return -1
			case '\u2010', '\u2011', '\u2212':
				if dashes {
					return '-'
				}
			}
			return r
		}, s)
	}
	return norm.NFC.String(s)
}

// Question is Normalize for a question, with widths folded as Japanese
// input methods produce them (FoldWidth): "ＡＰＴでパッケージを固定" asks about
// APT, "ｱｯﾌﾟﾃﾞｰﾄの方法" about アップデート.
func Question(s string) string { return FoldWidth(Normalize(s)) }

// FoldWidth maps the fullwidth forms of ASCII letters and digits to ASCII
// (and a fullwidth "-", ".", "/" or "_" between two of them: "ｓｓｈ－ｋｅｙｇｅｎ"),
// and halfwidth katakana, with their voicing marks and halfwidth
// punctuation, to the ordinary forms (compatibility decomposition and
// composition: ｶﾞ is ガ). Fullwidth punctuation elsewhere is how Japanese
// and Chinese text is written, and stays.
func FoldWidth(s string) string {
	if !strings.ContainsFunc(s, widthForm) {
		return s
	}
	rs := []rune(s)
	alnum := func(i int) bool {
		if i < 0 || i >= len(rs) {
			return false
		}
		r := rs[i]
		return fullwidthAlnum(r) || r < 0x80 && (r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z')
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case fullwidthAlnum(r):
			b.WriteRune(r - 0xfee0)
		case (r == 0xff0d || r == 0xff0e || r == 0xff0f || r == 0xff3f) && alnum(i-1) && alnum(i+1):
			b.WriteRune(r - 0xfee0)
		case r >= 0xff61 && r <= 0xff9f:
			j := i
			for j < len(rs) && rs[j] >= 0xff61 && rs[j] <= 0xff9f {
				j++
			}
			b.WriteString(norm.NFKC.String(string(rs[i:j])))
			i = j - 1
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// fullwidthAlnum reports a fullwidth digit or Latin letter (U+FF10–FF19,
// FF21–FF3A, FF41–FF5A).
func fullwidthAlnum(r rune) bool {
	return r >= 0xff10 && r <= 0xff19 || r >= 0xff21 && r <= 0xff3a || r >= 0xff41 && r <= 0xff5a
}

// ligatures maps the Latin ligatures to their letters (their NFKC forms).
var ligatures = strings.NewReplacer("\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl", "\ufb03", "ffi", "\ufb04", "ffl", "\ufb05", "st", "\ufb06", "st")
