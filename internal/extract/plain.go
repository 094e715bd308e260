package extract

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// extractPlain splits sanitised text into paragraphs on blank lines. Lines
// inside a paragraph are kept (only trailing spaces are trimmed), so plain
// text files with meaningful line structure stay readable. No title; a
// formatted manual page (isManPage) is read as manPage reads one. Headings
// are the conventions of plain-text documentation (plainHeadings):
// underlined titles, a title under a separator line, numbered section
// lines and numbered FAQ questions, so that a section's heading path names
// it and a question stays with its answer.
func extractPlain(src []byte) *Document {
	var b builder
	if isManPage(string(src)) {
		// A manual page saved as text (man page | col -b > page.txt):
		// its layout says what is a section, an option and a paragraph.
		manPage(&b, string(src))
		if len(b.blocks) > 0 {
			return b.document("")
		}
	}
	paras := plainParagraphs(string(src))
	heads := plainHeadings(paras)
	for i, p := range paras {
		if h := heads[i]; h.level > 0 {
			b.add(KindHeading, h.level, h.text)
			b.add(KindParagraph, 0, h.tags)
			continue
		}
		lines := p.lines
		if len(lines) == 0 {
			continue
		}
		// A paragraph never starts with indentation-only noise, but keeps
		// the indentation of later lines.
		first := strings.TrimLeft(lines[0], " \t")
		b.add(KindParagraph, 0, strings.Join(append([]string{first}, lines[1:]...), "\n"))
	}
	return b.document("")
}

// plainPara is one blank-line separated paragraph of plain text.
type plainPara struct {
	lines []string // trailing blanks trimmed
	// sepAbove: a separator line (a run of "=", "-", "~", "*", "#" or "_")
	// came right before the paragraph, with only blank lines between.
	sepAbove bool
	// under is the character of the separator line right under a
	// one-line paragraph (an underlined title), else 0.
	under byte
}

// separatorLine reports a line that is a run of four or more of one of
// "=-~*#_" (blanks around allowed) and returns that character.
func separatorLine(l string) byte {
	t := strings.TrimSpace(l)
	if len(t) < 4 || !strings.ContainsRune("=-~*#_", rune(t[0])) {
		return 0
	}
	for i := 1; i < len(t); i++ {
		if t[i] != t[0] {
			return 0
		}
	}
	return t[0]
}

// plainParagraphs cuts text into paragraphs on blank lines and separator
// lines; separator lines are not text and are left out.
func plainParagraphs(s string) []plainPara {
	var out []plainPara
	var cur plainPara
	sep := false
	flush := func() {
		if len(cur.lines) > 0 {
			out = append(out, cur)
		}
		cur = plainPara{sepAbove: sep}
	}
	for len(s) > 0 {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		line = strings.TrimRight(line, " \t")
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		c := separatorLine(line)
		if c != 0 && (strings.HasPrefix(line, "\t") || len(line)-len(strings.TrimLeft(line, " ")) > 3) {
			c = 0 // an indented rule is an example's or a listing's own line
		}
		if c == 0 && len(cur.lines) == 1 && !strings.HasPrefix(line, "\t") && len(line)-len(strings.TrimLeft(line, " ")) <= 3 {
			// An underline of three ("API" over "===") is as long as its
			// title: rule lines elsewhere are four or more.
			if t := strings.TrimSpace(line); len(t) == 3 && strings.Trim(t, t[:1]) == "" && strings.ContainsRune("=-~*#_", rune(t[0])) &&
				utf8.RuneCountInString(strings.TrimSpace(cur.lines[0])) <= 3 {
				c = t[0]
			}
		}
		if c != 0 {
			// Under a one-line paragraph it underlines a title; else it
			// separates what follows.
			under := len(cur.lines) == 1
			if under {
				cur.under = c
			}
			sep = false
			flush()
			sep = !under
			cur.sepAbove = sep
			continue
		}
		if len(cur.lines) == 0 {
			cur.sepAbove = sep
		}
		sep = false
		cur.lines = append(cur.lines, line)
	}
	flush()
	return out
}

// plainHead is the heading a paragraph is, if any.
type plainHead struct {
	level int
	text  string
	tags  string // anchors written with the title, kept as a paragraph
}

// plainCand is a paragraph that may be a heading.
type plainCand struct {
	style    string // what marks it: "under=", "sep", "num2" (a number of two parts)…
	text     string
	tags     string
	question bool
	number   []int // for numbered ones
}

var (
	// numberedLine is a section number ("30.1.", "1.2.3", "2)") then a title.
	numberedLine = regexp.MustCompile(`^ {0,3}(\d{1,3}(?:\.\d{1,3}){0,4})[.)]?[ \t]+(\S.*)$`)
	// vimNumber is a Vim help section number written as a tag: "*28.7*".
	vimNumber = regexp.MustCompile(`^\*(\d{1,3}(?:\.\d{1,3}){0,4})\*`)
	// trailingTags are Vim help anchors ending a title: "*fold-methods* *E490*".
	trailingTags = regexp.MustCompile(`(?:\s+\*[^*\s]+\*)+$`)
	// questionLine opens a Q&A question: "Q:", "Q.", "Question:".
	questionLine = regexp.MustCompile(`^(?i)(?:q|question)[:.)][ \t]+\S`)
	answerLine   = regexp.MustCompile(`^(?i)(?:a|answer)[:.)][ \t]+\S`)
)

// Limits of a heading's text: a title line, a question over a few lines.
const (
	maxTitleChars    = 80
	maxQuestionChars = 300
	maxQuestionLines = 4
	maxCapsChars     = 60
)

// plainHeadings decides which paragraphs are headings, and their levels.
//
//   - A one-line paragraph underlined by a separator line ("Title" over
//     "=====") is a heading.
//   - A one-line paragraph right under a separator line ("=====" above
//     "*28.7* Folding by syntax" or "SECTION 1 - GENERAL INFORMATION") is a
//     heading when a paragraph follows it and it reads as a title: at most
//     80 characters, no final period, comma, colon or semicolon.
//   - A numbered section line ("30.1. Title", "1.2.3 Title") alone in its
//     paragraph is a heading when it reads as a title (as above, starting
//     with no lower-case letter), a paragraph that is not a numbered line
//     of its depth or shallower follows it, and the document has at least
//     two numbered lines of its depth, in ascending order. A question
//     ("30.1. Can I run a shell inside a Vim window?") may wrap over up to
//     four lines indented under its first. A number of one part ("2. Usage")
//     is a heading only under a separator line, as a question, or when
//     deeper numbered headings start with it ("2.1 Options"): a numbered
//     list of steps ("1. Do X.\n2. Do Y.", or one step per paragraph) is
//     not headings.
//   - A one-line paragraph in capitals ("INSTALLATION", "SPELL FILES")
//     that reads as a title and has a paragraph after it is a heading.
//   - A question opened by "Q:" is a heading when the next paragraph opens
//     with "A:", so that a question and its answer are one section.
//
// Levels go by the order in which the kinds of heading first appear, as in
// reStructuredText, numbered headings ordered among themselves by the
// number of parts; a document with headings of one kind has level 1 only.
// Trailing Vim help anchors ("*fold-methods*") are left out of the text.
func plainHeadings(paras []plainPara) []plainHead {
	heads := make([]plainHead, len(paras))
	cands := make([]*plainCand, len(paras))
	for i := range paras {
		cands[i] = plainCandidate(paras[i])
	}
	// Numbered candidates by depth, for the sibling rule; questions on
	// lines of their own.
	counts := map[int]int{}
	qlines := 0
	for _, c := range cands {
		if c != nil && c.number != nil {
			counts[len(c.number)]++
		}
		if c != nil && c.style == "qline" {
			qlines++
		}
	}
	accepted := make([]bool, len(paras))
	prevNum := map[int][]int{}
	deepFirst := map[int]bool{} // first parts of accepted deeper numbered headings
	var ones []int              // one-part candidates, decided last
	for i, c := range cands {
		if c == nil {
			continue
		}
		p := paras[i]
		next := i + 1
		if next >= len(paras) {
			continue // a heading heads something
		}
		switch {
		case c.style == "q":
			accepted[i] = answerLine.MatchString(strings.TrimSpace(paras[next].lines[0]))
		case c.style == "qline":
			// Two questions or more on lines of their own make an FAQ
			// (procps's: each question unindented, its answer indented
			// under it); one is a sentence of the text.
			accepted[i] = qlines >= 2 && cands[next] == nil
		case c.number == nil:
			accepted[i] = true // underlined, or under a separator
		default:
			d := len(c.number)
			n := cands[next]
			if n != nil && n.number != nil && len(n.number) <= d && !p.sepAbove {
				// Another numbered line of its depth right after: a list.
				continue
			}
			ascending := prevNum[d] == nil || lessNumber(prevNum[d], c.number)
			prevNum[d] = c.number
			switch {
			case p.sepAbove || p.under != 0:
				accepted[i] = true
			case d == 1:
				ones = append(ones, i)
			default:
				accepted[i] = counts[d] >= 2 && ascending
			}
			if accepted[i] && d > 1 {
				deepFirst[c.number[0]] = true
			}
		}
	}
	// In a document numbered in several levels, its numbered titles of
	// one part are headings too, whether or not they have subsections
	// ("3. Security Considerations" beside "1. Introduction" over "1.1.").
	// They must ascend: steps numbered from 1 again inside a section
	// ("1. Download the archive" under "2.1 Unix") are no sections.
	last := 0
	for _, i := range ones {
		c := cands[i]
		accepted[i] = (c.question || (deepFirst[c.number[0]] || len(deepFirst) > 0 && titleLike(c.text)) && c.number[0] > last) && counts[1] >= 2
		if accepted[i] {
			last = c.number[0]
		}
	}
	// Levels by first appearance of each style; numbered styles take the
	// slots they occupy in order of depth.
	var order []string
	seen := map[string]bool{}
	for i, c := range cands {
		if accepted[i] && !seen[c.style] {
			seen[c.style] = true
			order = append(order, c.style)
		}
	}
	var nums []string
	for _, s := range order {
		if strings.HasPrefix(s, "num") {
			nums = append(nums, s)
		}
	}
	// "num1" < "num2" … (depth is one digit: at most five parts).
	sortStrings(nums)
	level := map[string]int{}
	k := 0
	for i, s := range order {
		if strings.HasPrefix(s, "num") {
			s = nums[k]
			k++
		}
		level[s] = min(i+1, 6)
	}
	for i, c := range cands {
		if accepted[i] {
			heads[i] = plainHead{level: level[c.style], text: c.text, tags: c.tags}
		}
	}
	return heads
}

// columnGap is a run of blanks between two words that sets them apart in
// columns.
var columnGap = regexp.MustCompile(`\S {2,}\S`)

// wideGap is a run of three blanks or more between two words: columns, in
// a title that has no number before it.
var wideGap = regexp.MustCompile(`\S {3,}\S`)

// anchorLine is a line of Vim help anchors only: "*E387* *E388*".
var anchorLine = regexp.MustCompile(`^(?:\*[^*\s]+\*\s*)+$`)

// plainCandidate returns what paragraph p would be as a heading, or nil.
func plainCandidate(p plainPara) *plainCand {
	first := p.lines[0]
	if len(first) > 2*maxQuestionChars {
		return nil // a line of prose: no title nor question is this long (and the patterns below need not read it)
	}
	if strings.HasPrefix(first, "\t") || len(first)-len(strings.TrimLeft(first, " ")) > 3 {
		return nil // indented: an example, a quotation, a list's body
	}
	if body := trailingTags.ReplaceAllString(strings.TrimSpace(first), ""); len(columnGap.FindAllStringIndex(body, -1)) >= 2 ||
		wideGap.MatchString(strings.TrimSpace(numberedLine.ReplaceAllString(body, "$2"))) {
		// Words set apart in columns: a table's row ("Name    Size
		// Date", "Option      Default").
		return nil
	}
	line := strings.TrimSpace(first)
	if m := vimNumber.FindStringSubmatchIndex(line); m != nil {
		line = line[m[2]:m[3]] + " " + strings.TrimSpace(line[m[1]:])
	}
	// Anchors after the title and on lines of their own under it are
	// kept as a paragraph after the heading.
	var tags []string
	if m := trailingTags.FindStringIndex(line); m != nil {
		tags = append(tags, strings.TrimSpace(line[m[0]:]))
		line = line[:m[0]]
	}
	lines := p.lines
	k := len(lines)
	for k > 1 && anchorLine.MatchString(strings.TrimSpace(lines[k-1])) {
		k--
	}
	for _, l := range lines[k:] {
		tags = append(tags, strings.TrimSpace(l))
	}
	lines = lines[:k]
	c := plainCandidateLines(plainPara{lines: lines, sepAbove: p.sepAbove, under: p.under}, collapse(line))
	if c != nil {
		c.tags = collapse(strings.Join(tags, " "))
	}
	return c
}

func plainCandidateLines(p plainPara, line string) *plainCand {
	if line == "" {
		return nil
	}
	if questionLine.MatchString(line) {
		text, ok := wrappedQuestion(p.lines, line)
		if !ok {
			return nil
		}
		return &plainCand{style: "q", text: text, question: true}
	}
	if m := numberedLine.FindStringSubmatch(line); m != nil {
		var num []int
		for _, f := range strings.Split(m[1], ".") {
			n, _ := strconv.Atoi(f)
			if n > 99 {
				return nil // an address or a version ("192.168.1.10 fileserver"), no section
			}
			num = append(num, n)
		}
		c := &plainCand{style: "num" + strconv.Itoa(len(num)), number: num}
		if len(p.lines) > 1 || strings.HasSuffix(line, "?") {
			text, ok := wrappedQuestion(p.lines, line)
			if !ok {
				return nil
			}
			c.text, c.question = text, true
			return c
		}
		// "5.1 using Vim's internal grep": a number of several parts
		// may head a short title in lower case ("2.1 brings a faster
		// parser and fixes two crashes" is a sentence).
		if !titleLike(m[2]) && (len(num) == 1 || !titleLike(strings.ToUpper(m[2][:1])+m[2][1:]) || len(strings.Fields(m[2])) > 4) {
			return nil
		}
		c.text = line
		return c
	}
	if r, _ := utf8.DecodeRuneInString(strings.TrimLeft(line, "\"'“‘(«")); !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return nil // "$ make install" between two rules: a listing's line
	}
	if len(p.lines) == 1 && p.under == 0 && strings.HasSuffix(line, "?") && len(line) <= maxQuestionChars {
		// A question on a line of its own: an FAQ's, when the document
		// has two or more (plainHeadings).
		return &plainCand{style: "qline", text: line, question: true}
	}
	if len(p.lines) != 1 || !titleLike(line) && !(p.under != 0 && titleLike(strings.ToUpper(line[:1])+line[1:])) {
		// An underline is the author's own mark of a title, in lower
		// case too ("dbus 1.14.10 (2023-09-01)" over "=====").
		return nil
	}
	switch {
	case p.under != 0:
		style := "under" + string(p.under)
		if p.sepAbove {
			style = "over" + string(p.under)
		}
		return &plainCand{style: style, text: line}
	case allCaps(line) && !strings.ContainsAny(line, "/=();,<>{}[]*"):
		// ("HTTP/1.1 200 OK", "SELECT ID, NAME FROM USERS" are code.)
		return &plainCand{style: "caps", text: line}
	case p.sepAbove:
		return &plainCand{style: "sep", text: line}
	}
	return nil
}

// wrappedQuestion returns the question a paragraph is: its first line
// (already cleaned) and up to three more indented under it, one of them
// ending with "?".
func wrappedQuestion(lines []string, first string) (string, bool) {
	if len(lines) > maxQuestionLines {
		return "", false
	}
	parts := []string{first}
	q := strings.HasSuffix(first, "?")
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "\t") {
			return "", false
		}
		t := strings.TrimSpace(l)
		if numberedLine.MatchString(t) {
			return "", false
		}
		q = q || strings.HasSuffix(t, "?")
		parts = append(parts, t)
	}
	text := collapse(strings.Join(parts, " "))
	if !q || len(text) > maxQuestionChars {
		return "", false
	}
	return text, true
}

// titleLike reports a short line that reads as a title: no final period,
// comma, colon or semicolon, not starting with a lower-case letter.
func titleLike(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > maxTitleChars {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	if unicode.IsLower(r) {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(s)
	if strings.ContainsRune(".,:;。、．，：；", last) {
		return strings.HasSuffix(s, "...") // "Where next..."
	}
	return true
}

// allCaps reports a title in capitals: three capital letters or more,
// none in lower case ("INSTALLATION", "SECTION 2 - RESOURCES").
func allCaps(s string) bool {
	letters := 0
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsUpper(r) {
			letters++
		}
	}
	return letters >= 3 && utf8.RuneCountInString(s) <= maxCapsChars
}

// lessNumber compares section numbers part by part.
func lessNumber(a, b []int) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

// sortStrings sorts a short slice in place.
func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
