package extract

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A manual page formatted for a terminal and wrapped in <pre> (man2html,
// Postfix's and many projects' HTML manuals) is prose laid out with
// indentation, not code: section names at the margin, paragraphs indented,
// option tags above (or beside) their indented descriptions, lines filled
// with runs of blanks and words hyphenated at line ends. Kept verbatim, a
// whole page was one code block: its chunks had no headings but the title,
// answers quoted justified paragraphs as code, and "-d  ALL" did not match
// "-d ALL". manPage reads that layout back into headings, terms,
// paragraphs, list items and code.

// manHeader matches a manual page's first line: "POSTSUPER(1)   …
// POSTSUPER(1)".
var manHeader = regexp.MustCompile(`^\s*([A-Za-z0-9_.:+-]+)\(([0-9][A-Za-z0-9]*)\)\s.*\s([A-Za-z0-9_.:+-]+)\(([0-9][A-Za-z0-9]*)\)\s*$`)

// manSection matches a section name at the margin: capitals, digits and
// blanks ("NAME", "SEE ALSO", "CONFIGURATION PARAMETERS").
var manSection = regexp.MustCompile(`^[A-Z][A-Z0-9 /&,()-]*[A-Z0-9)]$`)

// isManPage reports whether pre, the text of a preformatted block, is a
// formatted manual page: a NAME section and a SYNOPSIS or DESCRIPTION one,
// each name alone on its line at the margin. (A header line alone is not
// enough: "max(1) + max(1)" is shaped like one.)
func isManPage(pre string) bool {
	name, body := false, false
	for _, l := range strings.Split(pre, "\n") {
		switch strings.TrimRightFunc(l, unicode.IsSpace) {
		case "NAME":
			name = true
		case "SYNOPSIS", "DESCRIPTION":
			body = true
		}
	}
	return name && body
}

// manBullet matches a list item's line: a bullet ("o", "*", "-", "•") or
// a number ("1)", "2.") set apart from its text by blanks.
var manBullet = regexp.MustCompile(`^(o|\*|-|•|[0-9]+[.)])  +(\S.*)$`)

// manLine is one non-blank line of a page with its indentation.
type manLine struct {
	indent int
	text   string // without the indentation or trailing blanks
}

// manPage adds the blocks of a formatted manual page to b.
func manPage(b *builder, pre string) {
	var groups [][]manLine
	var cur []manLine
	for i, raw := range strings.Split(strings.ReplaceAll(pre, "\t", "        "), "\n") {
		l := strings.TrimRightFunc(raw, unicode.IsSpace)
		text := strings.TrimLeftFunc(l, unicode.IsSpace)
		if text == "" {
			if len(cur) > 0 {
				groups = append(groups, cur)
				cur = nil
			}
			continue
		}
		if m := manHeader.FindStringSubmatch(l); m != nil && (i == 0 || m[1] == m[3]) {
			continue // the running header and footer
		}
		if isFooter(l) {
			continue
		}
		cur = append(cur, manLine{indent: len(l) - len(text), text: text})
	}
	if len(cur) > 0 {
		groups = append(groups, cur)
	}
	base := bodyIndent(groups)
	section := ""
	// defining: the last group added an option's term; the groups right of
	// the margin after it (more paragraphs, examples) define it too.
	defining := false
	for _, g := range groups {
		// Section and subsection names, left of the paragraphs' margin,
		// start groups of their own or head them ("NAME" right above
		// "postsuper - Postfix superintendent").
		for len(g) > 0 && g[0].indent < base && manHeading(g[0].text) {
			level := 2
			if g[0].indent > 0 {
				level = 3
			}
			b.add(KindHeading, level, strings.TrimSuffix(g[0].text, ":"))
			if level == 2 {
				section = g[0].text
			}
			defining = false
			g = g[1:]
		}
		switch {
		case len(g) == 0:
		case section == "SYNOPSIS":
			// A command's synopsis is quoted as written.
			b.addCode(indented(g))
		case defining && g[0].indent > base:
			b.inDefinition++
			manGroup(b, g, base)
			b.inDefinition--
		default:
			n := len(b.blocks)
			manGroup(b, g, base)
			defining = false
			for _, blk := range b.blocks[n:] {
				defining = defining || blk.Kind == KindTerm
			}
		}
	}
}

// manHeading reports a line left of the margin that names a section: in
// capitals, or short and not ending a sentence.
func manHeading(t string) bool {
	return manSection.MatchString(t) || len(strings.Fields(t)) <= 8 && !strings.HasSuffix(t, ".")
}

// manFooter matches the page's last line: the page name alone, or after
// a release and a date, at the right margin; or the three fields of man's
// own footer from the left margin ("GNU coreutils 9.1    September 2022
// DU(1)"), set apart by runs of blanks.
var manFooter = regexp.MustCompile(`^( {20,}(\S+ +){0,3}|\S.*\S {3,}\S.*\S {3,})[A-Za-z0-9_.:+-]+\([0-9][A-Za-z0-9]*\)$`)

// isFooter reports the page's last line (manFooter).
func isFooter(l string) bool { return manFooter.MatchString(l) }

// bodyIndent is the paragraphs' margin: the smallest indentation of at
// least a twentieth of the lines (three at least); section names are left
// of it, descriptions right of it.
func bodyIndent(groups [][]manLine) int {
	count, total := map[int]int{}, 0
	for _, g := range groups {
		for _, l := range g {
			if l.indent > 0 {
				count[l.indent]++
				total++
			}
		}
	}
	best := -1
	for indent, c := range count {
		if c >= max(3, total/20) && (best < 0 || indent < best) {
			best = indent
		}
	}
	return max(best, 1)
}

// manGroup adds one blank-separated group of lines: a tagged paragraph
// (an option above, or beside, its description), a paragraph, or code.
func manGroup(b *builder, g []manLine, base int) {
	if len(g) > 1 && g[1].indent > g[0].indent && sameIndent(g[1:]) && prose(g[1:]) {
		first := g[0].text
		// A short tag shares its line with the description's start
		// ("hold   Messages that are kept…"): the description's column
		// splits them.
		col := g[1].indent - g[0].indent
		if utf8.RuneCountInString(first) > col && col > 1 {
			// Not where one blank separates option forms ("-u, --unit=UNIT"
			// reaching past the column): the line is one term.
			if tag, rest := splitAt(first, col); tag != "" && rest != "" && strings.HasSuffix(tag, " ") &&
				!(strings.HasPrefix(rest, "-") && !strings.HasSuffix(tag, "  ")) {
				addTagged(b, strings.TrimSpace(tag), append([]manLine{{indent: g[1].indent, text: rest}}, g[1:]...))
				return
			}
		}
		addTagged(b, first, g[1:])
		return
	}
	if m := manBullet.FindStringSubmatch(g[0].text); m != nil && (len(g) == 1 || prose(g)) {
		// A one-line item: its bullet or number beside it.
		addTagged(b, m[1], append([]manLine{{indent: g[0].indent, text: m[2]}}, g[1:]...))
		return
	}
	if len(g) == 1 && g[0].indent > base && announced(b) && !strings.HasSuffix(g[0].text, ".") {
		// A one-line example under the sentence announcing it ("To flush
		// the queue:" above "postqueue -f") is code, blanks and all.
		b.addCode(g[0].text)
		return
	}
	if len(g) == 1 || sameIndent(g) && prose(g) {
		b.add(KindParagraph, 0, reflow(g))
		return
	}
	b.addCode(indented(g))
}

// indented is the lines as code, their indentation kept relative to the
// least indented.
func indented(g []manLine) string {
	least := g[0].indent
	for _, l := range g {
		least = min(least, l.indent)
	}
	lines := make([]string, len(g))
	for i, l := range g {
		lines[i] = strings.Repeat(" ", l.indent-least) + l.text
	}
	return strings.Join(lines, "\n")
}

// addTagged adds a tag and its description: a numbered tag ("1)") as a
// list item, any other as a definition term.
func addTagged(b *builder, tag string, desc []manLine) {
	if strings.Contains("o*-+•·", tag) && utf8.RuneCountInString(tag) == 1 {
		b.add(KindListItem, 1, "- "+reflow(desc))
		return
	}
	if n := strings.TrimRight(tag, ").:"); n != "" && len(n) < len(tag) && strings.IndexFunc(n, func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
		b.add(KindListItem, 1, n+". "+reflow(desc))
		return
	}
	b.add(KindTerm, 0, strings.Join(strings.Fields(tag), " "))
	b.inDefinition++
	b.add(KindParagraph, 0, reflow(desc))
	b.inDefinition--
}

// splitAt splits s after its first n runes.
func splitAt(s string, n int) (string, string) {
	i := 0
	for j := range s {
		if i == n {
			return s[:j], strings.TrimLeft(s[j:], " ")
		}
		i++
	}
	return s, ""
}

// sameIndent reports whether the lines share one indentation.
func sameIndent(ls []manLine) bool {
	for _, l := range ls[1:] {
		if l.indent != ls[0].indent {
			return false
		}
	}
	return true
}

// prose reports whether lines read as filled text: most of them but the
// last hold four words or more, or the only one ends a sentence or
// announces what follows.
func prose(ls []manLine) bool {
	if len(ls) == 1 {
		t := ls[0].text
		return strings.HasSuffix(t, ".") || strings.HasSuffix(t, ":") || len(strings.Fields(t)) >= 6
	}
	// The last line of a filled paragraph may be short.
	wordy := 0
	for _, l := range ls[:len(ls)-1] {
		if len(strings.Fields(l.text)) >= 4 {
			wordy++
		}
	}
	return 2*wordy > len(ls)-1
}

// announced reports whether the last block added is a paragraph ending
// with ":", announcing what follows.
func announced(b *builder) bool {
	n := len(b.blocks)
	if n == 0 || b.blocks[n-1].Kind != KindParagraph {
		return false
	}
	return strings.HasSuffix(b.buf.String()[b.blocks[n-1].Start:b.blocks[n-1].End], ":")
}

// lastRune is b's last rune (utf8.RuneError when none).
func lastRune(b []byte) rune {
	r, _ := utf8.DecodeLastRune(b)
	return r
}

// reflow joins filled lines into one paragraph: blanks collapsed, and a
// word hyphenated at a line's end joined again ("mes-" above "sage"). In
// time linear in the lines' length.
func reflow(ls []manLine) string {
	var buf []byte
	for i, l := range ls {
		t := strings.Join(strings.Fields(l.text), " ")
		if i > 0 {
			r, _ := utf8.DecodeRuneInString(t)
			// man writes a line-end hyphenation as "-", or, in UTF-8, as
			// the hyphen U+2010 ("directo‐" above "ries": kept, the
			// keyword leg indexed directo and rie).
			h := 0
			switch {
			case bytes.HasSuffix(buf, []byte("-")):
				h = 1
			case bytes.HasSuffix(buf, []byte("\u2010")):
				h = len("\u2010")
			}
			if n := len(buf); h > 0 && n > h && unicode.IsLower(lastRune(buf[:n-h])) && unicode.IsLower(r) {
				buf = buf[:n-h]
			} else {
				buf = append(buf, ' ')
			}
		}
		buf = append(buf, t...)
	}
	return string(buf)
}
