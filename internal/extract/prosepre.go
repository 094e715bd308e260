package extract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
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

// prePara is one blank-line separated paragraph of a <pre> as prosePre
// reads it: a definition with a hanging tag (tag and desc set), prose, or
// code.
type prePara struct {
	text  string
	prose bool
	tag   string
	desc  []manLine
}

// prosePre splits the text of a <pre> into blank-line separated
// paragraphs and reads each: a definition with a hanging tag
// (taggedPara), prose (at least 70% of its lines proseLine, one of them
// ending a sentence) or code; when prose and hanging definitions of two
// lines or more hold at least half of the non-blank lines. Nil when the
// block is code (then it stays one code block, as every <pre> did).
func prosePre(s string) []prePara {
	var paras []prePara
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			paras = append(paras, prePara{text: strings.Join(cur, "\n")})
			cur = nil
		}
	}
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) == "" {
			flush()
			continue
		}
		if len(paras) == 0 && len(cur) == 0 && promptLine.MatchString(l) {
			return nil // a terminal session: its prose is a program's output
		}
		cur = append(cur, strings.TrimRight(l, " \t"))
	}
	flush()
	lines, proseLines := 0, 0
	for i := range paras {
		p := &paras[i]
		ls := strings.Split(p.text, "\n")
		lines += len(ls)
		var ok bool
		if p.tag, p.desc, ok = taggedPara(p.text); ok && len(ls) > 1 {
			// A definition whose description hangs at its column is laid
			// out as text is; a row of one line may be a table's, and
			// counts as prose only when it reads as prose.
			proseLines += len(ls)
			continue
		}
		n, ended, message := 0, false, false
		for _, l := range ls {
			message = message || messageLine.MatchString(l)
			if proseLine(l) {
				n++
			}
			ended = ended || endsProse(strings.TrimSpace(l))
		}
		if ended && 10*n >= 7*len(ls) && !message {
			p.prose = true
			proseLines += len(ls)
		}
	}
	if lines == 0 || 2*proseLines < lines || proseLines < 2 {
		return nil
	}
	return paras
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

// taggedPara reads a paragraph of a <pre> laid out as a definition with a
// hanging tag: a short tag, two or more blanks, then the description,
// whose further lines are indented to where it starts (the HAProxy
// manual's termination states, "sH   The "timeout server" stroke before
// …", its arguments, "<name>    is the name of …"). ok only when the
// description reads as prose: a run of code whose comments are aligned
// has no sentences beside its statements. Read as code, the definitions
// of a list were one block and no line of it defined its tag.
func taggedPara(p string) (tag string, desc []manLine, ok bool) {
	var ls []manLine
	for _, raw := range strings.Split(strings.ReplaceAll(p, "\t", "        "), "\n") {
		l := strings.TrimRightFunc(raw, unicode.IsSpace)
		text := strings.TrimLeftFunc(l, unicode.IsSpace)
		if text == "" {
			continue
		}
		ls = append(ls, manLine{indent: len(l) - len(text), text: text})
	}
	if len(ls) == 0 {
		return "", nil, false
	}
	first := ls[0].text
	var rest string
	if len(ls) > 1 {
		// The description's column splits the first line.
		col := ls[1].indent - ls[0].indent
		if col < 2 || !sameIndent(ls[1:]) || utf8.RuneCountInString(first) <= col {
			return "", nil, false
		}
		var t string
		t, rest = splitAt(first, col)
		if !strings.HasSuffix(t, "  ") {
			return "", nil, false
		}
		tag = strings.TrimSpace(t)
	} else {
		// On one line, the tag is one word: two blanks also follow a
		// full stop in text typed for a terminal ("It is deprecated.
		// Clients should …"), and a log line's time stamp is no term.
		i := strings.Index(first, "  ")
		if i < 0 || strings.Contains(first[:i], " ") {
			return "", nil, false
		}
		tag, rest = first[:i], strings.TrimSpace(first[i:])
	}
	if f := strings.Fields(tag); len(f) > 1 && utf8.RuneCountInString(f[0]) == 1 && strings.Contains("-*•", f[0]) {
		// A bulleted tag ("- wurfl_root_id   Contains the device …")
		// names its term without the bullet.
		tag = strings.TrimSpace(tag[len(f[0]):])
	}
	if tag == "" || rest == "" || strings.Contains(tag, "  ") || len(strings.Fields(tag)) > 3 || utf8.RuneCountInString(tag) > 30 {
		return "", nil, false
	}
	// A tag names something: it has a letter (not a diagram's "+----+",
	// a footnote's "[1]" or a time stamp) and does not end as a sentence,
	// a clause or a label does ("A.", "Regards,", "Note:", "Subject:"),
	// nor open a program's message ("ERROR:  …", "HINT:  …").
	if strings.IndexFunc(tag, unicode.IsLetter) < 0 || strings.ContainsAny(tag[len(tag)-1:], ".,;:?!") || messageLine.MatchString(first) {
		return "", nil, false
	}
	desc = append([]manLine{{indent: ls[0].indent + utf8.RuneCountInString(first) - utf8.RuneCountInString(rest), text: rest}}, ls[1:]...)
	// The last line of a filled paragraph may be short.
	filled := desc
	if len(desc) > 1 {
		filled = desc[:len(desc)-1]
	}
	proseLines, ended := 0, false
	for _, l := range filled {
		if proseLine(l.text) {
			proseLines++
		}
	}
	for _, l := range desc {
		ended = ended || endsProse(l.text)
	}
	if !ended || 10*proseLines < 7*len(filled) {
		return "", nil, false
	}
	return tag, desc, true
}
