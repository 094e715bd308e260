package extract

import (
	"regexp"
	"strings"
	"unicode"
)

// A <pre> that holds a text document's prose (the HAProxy manual's
// haproxy-dconv output, RFCs and other text formatted for 80 columns and
// put into HTML as it is) is read as paragraphs, not code: read as code,
// every description was quoted as a code block, and an entry's only
// sentence of prose was its "May be used in sections :" line.

// proseLine reports a line of running text: five or more words, most of
// them lower-case words (SQL, an error's "ERROR:  …" and code are not), and
// nearly all letters, spaces and sentence punctuation; opening with a
// letter, a quote or a "<placeholder>".
func proseLine(l string) bool {
	t := strings.TrimSpace(l)
	words := strings.Fields(t)
	if len(words) < 5 || strings.Contains(t, "...") || strings.Contains(t, "--") || strings.Contains(t, "   ") {
		// (Three blanks inside a line set columns apart: a table.)
		return false
	}
	r := []rune(t)
	if !(unicode.IsLetter(r[0]) || strings.ContainsRune("\"'“‘<", r[0])) {
		return false
	}
	lower := 0
	for _, w := range words {
		w = strings.TrimRight(w, ".,;:!?\"'”’)")
		if w != "" && strings.IndexFunc(w, func(c rune) bool { return !unicode.IsLower(c) && c != '-' && c != '\'' }) < 0 {
			lower++
		}
	}
	if 10*lower < 6*len(words) {
		return false
	}
	text, other := 0, 0
	for _, c := range r {
		switch {
		case unicode.IsLetter(c), c == ' ', strings.ContainsRune(".,;:'\"“”‘’!?-", c):
			text++
		default:
			other++
		}
	}
	return 10*text >= 9*(text+other)
}

// prosePre splits the text of a <pre> into blank-line separated
// paragraphs and reports which are prose (at least 70% of their lines
// proseLine, one of them ending a sentence), when prose paragraphs hold
// at least half of the non-blank lines; nil when the block is code (then
// it stays one code block, as every <pre> did).
func prosePre(s string) (paras []string, prose []bool) {
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			paras = append(paras, strings.Join(cur, "\n"))
			cur = nil
		}
	}
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) == "" {
			flush()
			continue
		}
		if len(paras) == 0 && len(cur) == 0 && promptLine.MatchString(l) {
			return nil, nil // a terminal session: its prose is a program's output
		}
		cur = append(cur, strings.TrimRight(l, " \t"))
	}
	flush()
	lines, proseLines := 0, 0
	prose = make([]bool, len(paras))
	for i, p := range paras {
		ls := strings.Split(p, "\n")
		n, ended, message := 0, false, false
		for _, l := range ls {
			message = message || messageLine.MatchString(l)
			if proseLine(l) {
				n++
			}
			ended = ended || endsProse(strings.TrimSpace(l))
		}
		lines += len(ls)
		if ended && 10*n >= 7*len(ls) && !message {
			prose[i] = true
			proseLines += len(ls)
		}
	}
	if lines == 0 || 2*proseLines < lines || proseLines < 2 {
		return nil, nil
	}
	return paras, prose
}

// promptLine is a command at a shell's or an interpreter's prompt.
var promptLine = regexp.MustCompile(`^(?:\$|%|#|>>>|[a-z][a-z0-9_-]*[>#]|[A-Za-z]:\\[^>]*>) \S`)

// messageLine opens a program's message, which is output even when it is
// a sentence: "ERROR:  …", "HINT:  …", "RuntimeError: …".
var messageLine = regexp.MustCompile(`^\s*(?:[A-Z][A-Z]+|[A-Z][a-z]+(?:[A-Z][a-z]*)+):`)

// endsProse reports a line that ends a sentence or announces what
// follows: a word, a closing bracket or quote, then "." or ":".
func endsProse(t string) bool {
	t, ok := strings.CutSuffix(t, ".")
	if !ok {
		if t, ok = strings.CutSuffix(t, ":"); !ok {
			return false
		}
	}
	t = strings.TrimSpace(t)
	if t == "" {
		return false
	}
	c := []rune(t)[len([]rune(t))-1]
	return unicode.IsLetter(c) || strings.ContainsRune(")\"'”’", c)
}

// dedent removes the indentation the lines of p share.
func dedent(p string) string {
	ls := strings.Split(p, "\n")
	common := -1
	for _, l := range ls {
		ind := len(l) - len(strings.TrimLeft(l, " \t"))
		if common < 0 || ind < common {
			common = ind
		}
	}
	for i, l := range ls {
		ls[i] = l[min(common, len(l)):]
	}
	return strings.Join(ls, "\n")
}
