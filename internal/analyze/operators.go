package analyze

import "strings"

// PostgreSQL's parser reads no symbol as a word, so a question about an
// operator ("What does the @> operator do?", "what does the ~ operator
// do") searched for "operator" alone and was answered with whatever page
// said "operator" most. Operators are indexed and searched as words of
// their own (OperatorTerms): each becomes "op", a letter per character
// and a closing "0" ("@>" is op_ag0 without the underscore), a form the
// parser keeps whole and no stemmer changes.

// operatorLetters spells each operator character.
var operatorLetters = map[rune]byte{'~': 't', '!': 'x', '@': 'a', '#': 'h', '%': 'p', '^': 'c', '&': 'm', '|': 'v',
	'<': 'l', '>': 'g', '=': 'e', ':': 'k', '?': 'q', '-': 'd', '+': 's', '/': 'f', '*': 'r'}

// operatorChars are the keys of operatorLetters.
const operatorChars = "~!@#%^&|<>=:?-+/*"

// loneOperators are the characters that are an operator alone only where
// they stand alone ("a ~ b", "@ -5"); the others ("-", "/", "|", ":", …)
// are punctuation as often, and a lone "|" separates every table cell.
const loneOperators = "~@%^&"

// OperatorTerms returns the words for the operators written in text,
// separated by spaces, one per occurrence: every run of two or three
// operator characters, except a rule ("---", "==="), an option's dashes
// ("--help") and a URL's "://", and a character of loneOperators standing
// alone between blanks (or a quote or bracket).
func OperatorTerms(text string) string {
	if !strings.ContainsAny(text, operatorChars) {
		return "" // most sentences: the answerer asks this of every unit
	}
	var b strings.Builder
	rs := []rune(text)
	for i := 0; i < len(rs); {
		if _, ok := operatorLetters[rs[i]]; !ok {
			i++
			continue
		}
		j := i
		for j < len(rs) && operatorLetters[rs[j]] != 0 {
			j++
		}
		// A question or exclamation mark closing a sentence ("50%?") is
		// none of the run.
		for j > i && (rs[j-1] == '?' || rs[j-1] == '!') && (j == len(rs) || strings.ContainsRune(" \t\n\"')]", rs[j])) {
			j--
		}
		if j == i {
			i++
			continue
		}
		if run := string(rs[i:j]); operatorRun(run, rs, i, j) {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(OperatorWord(run))
		}
		i = j
	}
	return b.String()
}

// OperatorWord is the word an operator is indexed as.
func OperatorWord(op string) string {
	w := []byte("op")
	for _, r := range op {
		w = append(w, operatorLetters[r])
	}
	return string(append(w, '0'))
}

// IsOperatorWord reports whether lexeme is a word OperatorWord makes.
func IsOperatorWord(lexeme string) bool {
	if len(lexeme) < 4 || !strings.HasPrefix(lexeme, "op") || lexeme[len(lexeme)-1] != '0' {
		return false
	}
	for i := 2; i < len(lexeme)-1; i++ {
		if !strings.ContainsRune(operatorWordLetters, rune(lexeme[i])) {
			return false
		}
	}
	return true
}

// operatorWordLetters are the letters of operatorLetters.
const operatorWordLetters = "txahpcmvlgekqdsfr"

func operatorRun(run string, rs []rune, i, j int) bool {
	n := j - i
	switch {
	case n == 1:
		return strings.ContainsRune(loneOperators, rs[i]) && standsAlone(rs, i, j)
	case n > 3:
		return false
	case strings.Trim(run, "-") == "" || strings.Trim(run, "=") == "" || strings.Trim(run, "*") == "" || strings.Trim(run, "#") == "":
		// A rule, a heading's underline, an option's dashes, a bold
		// marker: no operator.
		return false
	case n == 3 && rs[i] == rs[i+1] && rs[i+1] == rs[i+2]:
		// A fence (":::", "~~~") or a doctest prompt (">>>").
		return false
	case run == "-->" || run == "<!-" || strings.HasPrefix(run, "#!"):
		// An HTML comment's end, a shebang.
		return false
	case strings.Contains(run, "//"):
		return false // a URL's "://", a comment's "//"
	}
	return true
}

// standsAlone reports whether rs[i:j] has a blank, a quote, a bracket or
// the text's edge on each side.
func standsAlone(rs []rune, i, j int) bool {
	edge := func(k int) bool {
		if k < 0 || k >= len(rs) {
			return true
		}
		return strings.ContainsRune(" \t\n\"'`()[]{}", rs[k])
	}
	return edge(i-1) && edge(j)
}
