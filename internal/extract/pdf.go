package extract

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// extractPDF reads a PDF's text layer (PDFium, pdfium.go) and lays it out as
// blocks with page offsets (layoutPDF).
func extractPDF(ctx context.Context, data []byte) (*Document, error) {
	// PDFium, like Acrobat, looks for the header in the first 1,024 bytes;
	// without one there is no need to start the engine.
	if !bytes.Contains(data[:min(len(data), 1024)], []byte("%PDF-")) {
		return nil, fmt.Errorf("%w: not a PDF (no %%PDF- header)", ErrUnreadable)
	}
	raw, err := readPDF(ctx, data)
	if err != nil {
		return nil, err
	}
	return layoutPDF(raw)
}

// line is a cleaned pdfLine: text collapsed to single spaces, and whether it
// ended with a hyphen PDFium marked as a line-end break (U+FFFE) or a soft
// hyphen (U+00AD, U+0002).
type line struct {
	pdfLine
	softHyphen bool
	// joins is how many physical lines PDFium joined into this one at a
	// hyphen; the baseline is the first one's.
	joins int
}

// layoutPDF turns the raw lines into a Document: running headers and footers
// dropped, headings marked (outline, else font size), lines joined into
// paragraphs and list items with end-of-line hyphenation repaired, and
// Document.Pages set; runs of monospaced lines become code blocks with their
// indentation. Errors: ErrNoPages for a PDF without pages, ErrNoTextLayer
// when no page has text.
func layoutPDF(raw *pdfRaw) (*Document, error) {
	if len(raw.pages) == 0 {
		return nil, ErrNoPages
	}
	pages := make([][]line, len(raw.pages))
	vocab := rawVocabulary(raw.pages)
	for i, p := range raw.pages {
		for _, l := range p.lines {
			if c, ok := cleanLine(l, vocab); ok {
				pages[i] = append(pages[i], c)
			}
		}
	}
	if !slices.ContainsFunc(pages, func(p []line) bool { return len(p) > 0 }) {
		return nil, ErrNoTextLayer
	}
	dropRunning(pages)
	spacing := typicalSpacing(pages)
	heads := outlineHeadings(raw.outline, pages)
	if len(heads) == 0 {
		heads = fontHeadings(pages)
		numberedHeadings(pages, heads, spacing)
	}

	var b builder
	// starts[p] is the offset of page p's first text, -1 until some is
	// written (mark); a paragraph carried over a page break marks the
	// next page where its text from that page begins.
	starts := make([]int, len(pages))
	for p := range starts {
		starts[p] = -1
	}
	mark := func(p, off int) {
		if starts[p] < 0 {
			starts[p] = off
		}
	}
	// added reports whether a block was added since there were n (an
	// empty text adds none), marking page p where it starts.
	added := func(p, n int) bool {
		if len(b.blocks) == n {
			return false
		}
		mark(p, b.blocks[n].Start)
		return true
	}
	title := raw.title
	skip := 0 // > 0: the heading level of the navigation section being left out
	// para is the paragraph being read, paraPage the page of each of its
	// lines; it is carried over a page break when its sentence goes on at
	// the top of the next page (carriesOver).
	var para []line
	var paraPage []int
	flush := func() {
		if len(para) == 0 {
			return
		}
		text := joinLines(para, vocab)
		n := len(b.blocks)
		if rest, ok := strings.CutPrefix(text, bulletMark); ok {
			b.add(KindListItem, 1, "- "+rest)
		} else {
			b.add(KindParagraph, 0, text)
		}
		if added(paraPage[0], n) {
			blk := b.blocks[n]
			for i := 1; i < len(para); i++ {
				if paraPage[i] != paraPage[i-1] {
					mark(paraPage[i], blk.Start+pageOffset(b.buf.String()[blk.Start:blk.End], joinLines(para[:i], vocab)))
				}
			}
		}
		para, paraPage = para[:0], paraPage[:0]
	}
	for p, pg := range pages {
		carried := len(para) > 0
		if navigationPage(pg, p, len(pages), heads) {
			// A page of contents or index entries without a heading of
			// its own that says so (navigationSection).
			flush()
			continue
		}
		for li := 0; li < len(pg); li++ {
			l := pg[li]
			if lvl := heads[lineRef{p, li}]; lvl > 0 && (skip == 0 || lvl <= skip) {
				skip = 0
				if navigationSection(l.text, p, len(pages)) {
					flush()
					skip = lvl
				}
			}
			if skip > 0 {
				continue
			}
			if n := codeRun(pg, li, heads, p); n > 0 {
				flush()
				nb := len(b.blocks)
				b.addCode(codeText(pg[li : li+n]))
				added(p, nb)
				li += n - 1
				continue
			}
			if lvl := heads[lineRef{p, li}]; lvl > 0 {
				flush()
				// A heading wrapped over two lines continues the previous one.
				if n := len(b.blocks); n > 0 && li > 0 && heads[lineRef{p, li - 1}] == lvl && b.blocks[n-1].Kind == KindHeading {
					b.extendLast(" " + l.text)
				} else {
					nb := len(b.blocks)
					b.add(KindHeading, lvl, l.text)
					added(p, nb)
				}
				continue
			}
			// The first line of a page continues a carried paragraph
			// whatever its position (the page's top, the other's bottom).
			if len(para) > 0 && (strings.HasPrefix(l.text, bulletMark) || paragraphBreak(para[len(para)-1], l, spacing) && !(carried && li == 0)) {
				flush()
			}
			para = append(para, l)
			paraPage = append(paraPage, p)
		}
		if skip > 0 || !carriesOver(pages, p, para, heads) {
			flush()
		}
	}
	flush()
	doc := b.document(title)
	next := len(doc.Text)
	for p := len(starts) - 1; p >= 0; p-- {
		if starts[p] < 0 {
			starts[p] = next
		}
		next = starts[p]
	}
	doc.Pages = starts
	if strings.TrimSpace(doc.Text) == "" {
		return nil, ErrNoTextLayer
	}
	return doc, nil
}

// pageOffset returns where in a paragraph's text (block) the text of its
// lines from a later page begins, given the text of its lines before them
// (before): after it and the blank joining them, or, where the join
// changed the text (a word hyphenated across the break rejoined), at the
// next blank after as many bytes.
func pageOffset(block, before string) int {
	if strings.HasPrefix(block, before) {
		return min(len(before)+1, len(block))
	}
	off := min(len(before), len(block))
	if i := strings.IndexByte(block[off:], ' '); i >= 0 {
		return off + i + 1
	}
	return len(block)
}

// carriesOver reports whether the paragraph para, last on page p, goes on
// at the top of the next page: its last line ends no sentence and the
// next page opens with a body line in lower case (no heading, code or
// item). Cut at the page break, the sentence was two ("… the library
// switches from" and "the standard sorting algorithm to a fallback …"),
// each quoted as if whole. The paragraph is then one block, and the next
// page starts where its text from that page does (layoutPDF).
func carriesOver(pages [][]line, p int, para []line, heads map[lineRef]int) bool {
	if len(para) == 0 || p+1 >= len(pages) || len(pages[p+1]) == 0 {
		return false
	}
	last := strings.TrimSpace(para[len(para)-1].text)
	if last == "" || strings.ContainsAny(last[len(last)-1:], ".!?:") || captionStart.MatchString(para[0].text) {
		return false
	}
	// A line alone (a figure's caption, a label: "Figure 3 Zones of the
	// plum network" above the next page's "iptables rules on each …")
	// goes on only when it is as wide as the page's text, as a line cut
	// by the page's end is.
	if len(para) == 1 {
		widest := 0
		for _, l := range pages[p] {
			widest = max(widest, utf8.RuneCountInString(strings.TrimSpace(l.text)))
		}
		if 10*utf8.RuneCountInString(last) < 9*widest {
			return false
		}
	}
	next := pages[p+1][0]
	return heads[lineRef{p + 1, 0}] == 0 && codeRun(pages[p+1], 0, heads, p+1) == 0 &&
		!strings.HasPrefix(next.text, bulletMark) && startsLower(next.text) && !navigationPage(pages[p+1], p+1, len(pages), heads)
}

// captionStart opens a figure's, table's or listing's caption.
var captionStart = regexp.MustCompile(`^(Figure|Fig\.|Table|Listing|Example|Chart|Plate)\s+[0-9IVX]`)

// navigationSection reports a heading of a document's own navigation: its
// table of contents, lists of figures and tables, and its back-of-book
// index, which pages of numbers and terms repeat from elsewhere (`\onecopy
// 2297, 2440 … asbox 10`). Their text matches many questions' words and
// answers none, so the section is left out, up to the next heading of its
// level or above. An "Index" is one only in the second half of the document
// (a chapter about indexes may be titled so).
func navigationSection(heading string, page, pages int) bool {
	// A numbered heading ("4 Index", "2.2 Contents") is a section of the
	// text: a book's own contents and index are not numbered.
	t := strings.ToLower(strings.TrimSpace(heading))
	switch t {
	case "contents", "table of contents", "list of figures", "list of tables", "list of listings":
		return true
	case "index", "general index", "subject index", "alphabetical index":
		return 2*page >= pages
	}
	// Texinfo's and others' named indexes ("Function and Data Index",
	// "Concept Index", "Index of Commands"), unnumbered, in the back half.
	return 2*page >= pages && len(strings.Fields(t)) <= 5 && !unicode.IsDigit(rune(t[0])) &&
		(strings.HasSuffix(t, " index") || strings.HasPrefix(t, "index of "))
}

// codeRun returns how many lines from li on form a code block: at least two
// consecutive monospaced lines that are not headings (one monospaced line is
// more often prose that starts and ends with a command name), or one right
// under a line of prose announcing it ("Syntax:", "Example:": gnuplot's
// manual ran 46 of its 204 one-line syntax blocks into the next sentence);
// 0 otherwise.
func codeRun(pg []line, li int, heads map[lineRef]int, p int) int {
	n := 0
	for li+n < len(pg) && pg[li+n].mono && heads[lineRef{p, li + n}] == 0 {
		n++
	}
	if n == 1 && li > 0 && !pg[li-1].mono && strings.HasSuffix(pg[li-1].text, ":") {
		return 1
	}
	if n < 2 {
		return 0
	}
	return n
}

// codeText joins code lines with "\n", restoring each line's indentation
// from its left edge: one space per character width (0.6 em, the advance of
// common monospaced fonts) right of the block's leftmost line, at most 40.
func codeText(ls []line) string {
	left := ls[0].x
	for _, l := range ls {
		left = min(left, l.x)
	}
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			b.WriteByte('\n')
		}
		if l.size > 0 {
			b.WriteString(strings.Repeat(" ", min(40, int((l.x-left)/(0.6*l.size)+0.5))))
		}
		t := l.text
		if rest, ok := strings.CutPrefix(t, bulletMark); ok {
			t = "• " + rest
		}
		if l.softHyphen {
			t += "-"
		}
		b.WriteString(t)
	}
	return b.String()
}

// bulletMark starts a list item after cleanLine (which maps the bullet
// characters PDFs use to it).
const bulletMark = "• "

// cleanLine collapses whitespace, drops control characters, resolves
// PDFium's in-line hyphen markers and maps bullets to bulletMark; ok is
// false for a line left empty. A hyphen PDFium marked inside a line it joined stays when vocab
// (rawVocabulary; nil: none) has the word hyphenated and never joined
// ("user\uFFFEdefined" where the document writes user-defined).
func cleanLine(l pdfLine, vocab map[string]bool) (line, bool) {
	s := l.text
	var out strings.Builder
	joins := 0
	for i, r := range s {
		switch {
		case r == 0xFFFE || r == 0x02 || r == 0xAD:
			joins++
			// A hyphen at a line break that PDFium joined: drop it before
			// a lower-case letter (a word broken in two), keep it otherwise
			// ("Diffie-Hellman") and in a compound the document writes so.
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
			if i+utf8.RuneLen(r) < len(s) && (!unicode.IsLower(next) || hyphenated(s[:i]+"-", s[i+utf8.RuneLen(r):], vocab)) {
				out.WriteByte('-')
			} else if i+utf8.RuneLen(r) == len(s) {
				out.WriteRune(0xFFFE)
			}
		case r == '\t' || r == '\r' || r == '\n':
			out.WriteByte(' ')
		case r >= 0x80 && r <= 0x9f:
			// C1 control characters are Windows-1252 codes a font maps
			// to no character: read as that code page writes them (an em
			// dash, quotes), and one with no such reading opening a line
			// as a bullet (gnuplot's manual: U+0088).
			switch w := cp1252[r-0x80]; {
			case w != 0:
				out.WriteRune(w)
			case strings.TrimSpace(out.String()) == "":
				out.WriteString("•")
			}
		case r < 0x20 || r == 0x7f || r == 0xFFFF:
		default:
			out.WriteRune(r)
		}
	}
	t := collapse(leaders.ReplaceAllString(composeAccents(out.String()), " … "))
	soft := false
	if u, ok := strings.CutSuffix(t, "\uFFFE"); ok {
		t, soft = strings.TrimRight(u, " "), true
	}
	for _, b := range []string{"•", "◦", "▪", "‣", "∙", "·", "●", "○", "■", "□", "–"} {
		if rest, ok := strings.CutPrefix(t, b); ok && (rest == "" || rest[0] == ' ') {
			if rest = strings.TrimSpace(rest); rest != "" {
				t = bulletMark + rest
			}
			break
		}
	}
	if strings.TrimSpace(t) == "" {
		return line{}, false
	}
	if soft {
		joins--
	}
	return line{pdfLine: pdfLine{text: t, x: l.x, y: l.y, size: l.size, mono: l.mono}, softHyphen: soft, joins: joins}, true
}

// cp1252 is the Windows-1252 reading of the C1 range 0x80–0x9F, 0 where it
// writes nothing or a sign that is no text (‰, †, ‡, ˆ: bullets, in the
// PDFs that use these codes so).
var cp1252 = [32]rune{
	'€', 0, '‚', 'ƒ', '„', '…', 0, 0, 0, 0, 'Š', '‹', 'Œ', 0, 'Ž', 0,
	0, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0, 'ž', 'Ÿ',
}

// spacingAccents maps the spacing accents TeX sets before a letter to
// their combining forms.
var spacingAccents = map[rune]rune{'¨': '\u0308', '´': '\u0301', 'ˆ': '\u0302', '˜': '\u0303', '¸': '\u0327', 'ˇ': '\u030C', '˚': '\u030A', '˝': '\u030B'}

// composeAccents joins a spacing accent with the letter after it
// ("Br¨oker" → "Bröker", "Mart´ınez" → "Martínez" over TeX's dotless i),
// as TeX's PDFs draw the accent over the letter as a character of its own:
// inside a word, or opening one before a capital ("´Ecole"). It is left
// where it is something else: an acute for an apostrophe ("Bachelor´s",
// "it´s", "don´t"), a tilde before a path ("˜/.gnuplot", "˜user").
func composeAccents(s string) string {
	if !strings.ContainsAny(s, "¨´ˆ˜¸ˇ˚˝") {
		return s
	}
	rs := []rune(s)
	var out []rune
	for i := 0; i < len(rs); i++ {
		c, ok := spacingAccents[rs[i]]
		if ok && i+1 < len(rs) && unicode.IsLetter(rs[i+1]) {
			inside := i > 0 && unicode.IsLetter(rs[i-1])
			opening := (i == 0 || !unicode.IsLetter(rs[i-1])) && rs[i] != '˜' && unicode.IsUpper(rs[i+1]) &&
				i+2 < len(rs) && unicode.IsLetter(rs[i+2])
			if (inside || opening) && !(rs[i] == '´' && apostrophe(rs[i+1:])) {
				base := rs[i+1]
				if base == 'ı' {
					base = 'i'
				}
				out = append(out, base, c)
				i++
				continue
			}
		}
		out = append(out, rs[i])
	}
	return norm.NFC.String(string(out))
}

// apostrophe reports whether rest, the text after an acute, is an English
// contraction's or possessive's ending ("s", "t", "ll", "re", "ve", "d",
// "m" and no more letters): the acute stands for an apostrophe.
func apostrophe(rest []rune) bool {
	n := 0
	for n < len(rest) && unicode.IsLetter(rest[n]) {
		n++
	}
	switch string(rest[:n]) {
	case "s", "t", "ll", "re", "ve", "d", "m":
		return true
	}
	return false
}

// joinLines joins a paragraph's lines with spaces, rejoining words broken
// across lines: after a marked hyphen, or after "-" between a letter and a
// line starting with a lower-case one (TeX hyphenation), the hyphen and the
// break go; before an upper-case letter the hyphen stays, without a space
// (a compound such as "Diffie-Hellman"). A compound broken at its hyphen keeps the hyphen when vocab
// (rawVocabulary; nil: none) holds the hyphenated form and not the joined
// one ("user-" "defined" is user-defined where the document writes
// user-defined elsewhere, not userdefined).
func joinLines(ls []line, vocab map[string]bool) string {
	var b strings.Builder
	for i, l := range ls {
		t := l.text
		if i > 0 {
			prev := ls[i-1]
			first, _ := utf8.DecodeRuneInString(t)
			switch {
			case prev.softHyphen && unicode.IsLower(first) && !hyphenated(prev.text+"-", t, vocab):
			case prev.softHyphen:
				b.WriteByte('-')
			case brokenWord(prev.text) && unicode.IsLower(first) && hyphenated(prev.text, t, vocab):
				// A compound: the hyphen stays, without a space.
			case brokenWord(prev.text) && unicode.IsLower(first):
				s := b.String()
				b.Reset()
				b.WriteString(s[:len(s)-1])
			case brokenWord(prev.text) && unicode.IsLetter(first):
				// A compound broken at its hyphen ("Diffie-" "Hellman").
			case brokenOption(prev.text, t, vocab):
				// A long option broken after its dashes ("Try using the
				// --" "track-origins=yes option").
			case brokenIdentifier(prev.text, t, vocab):
				// TeX breaks a name after an underscore ("BASH_"
				// "COMPAT"): the name is one word, as searched for.
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteString(t)
	}
	return b.String()
}

// hyphenated reports whether the word broken between the end of prev
// ("…user-") and the start of next ("defined …") is written with its
// hyphen elsewhere in the document and never without.
func hyphenated(prev, next string, vocab map[string]bool) bool {
	if vocab == nil {
		return false
	}
	f := strings.Fields(prev)
	g := strings.Fields(next)
	if len(f) == 0 || len(g) == 0 {
		return false
	}
	head := strings.ToLower(strings.TrimSuffix(wordOf(f[len(f)-1]), "-"))
	tail := strings.ToLower(wordOf(g[0]))
	return head != "" && tail != "" && vocab[head+"-"+tail] && !vocab[head+tail]
}

// wordOf trims the punctuation around a word, keeping inner hyphens.
func wordOf(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' })
}

// rawVocabulary is the set of the document's words as its lines write
// them, lower-cased (hyphenated compounds included; a word PDFium marked as
// broken at a line's end, or broken by a hyphen ending a line, is not one).
func rawVocabulary(pages []pdfPage) map[string]bool {
	v := map[string]bool{}
	for _, pg := range pages {
		for _, l := range pg.lines {
			f := strings.Fields(l.text)
			for i, w := range f {
				if strings.ContainsAny(w, "\uFFFE\u0002\u00AD") || i == len(f)-1 && strings.HasSuffix(w, "-") {
					continue
				}
				if w = strings.ToLower(wordOf(w)); w != "" {
					v[w] = true
				}
			}
		}
	}
	return v
}

// pageRef matches a line ending with a page number or range: a contents
// entry ("Complex arithmetic … 37") or an index entry ("zsort, 24, 114",
// "arrays, 45–47"); m[1] is the separator before it, m[2] the number.
var pageRef = regexp.MustCompile(`([\s,…])\s*(\d{1,4})(?:[–-]\d{1,4})?$`)

// navigationPage reports a page of contents or index entries in a document
// of eight pages or more, on a page without a heading of its own (a
// section's table is its content): at least eight lines, 60% of them
// ending with a page number, and those in order — contents entries, in the
// first fifth of the document, by non-decreasing page numbers; index
// entries, in its last third, by their first letters, most written as an
// index writes them (a comma or leaders before the number, or several
// numbers). Such pages under no heading that names them
// (navigationSection) were chunks of "Expressions 36 Complex arithmetic …
// 37" and "zsort, 24, 114 ztics, 225" that matched many questions' words
// and answered none.
func navigationPage(pg []line, p, pages int, heads map[lineRef]int) bool {
	front, back := 5*p < pages, 3*p >= 2*pages
	if pages < 8 || len(pg) < 8 || !front && !back {
		return false
	}
	for li := range pg {
		if heads[lineRef{p, li}] > 0 {
			return false
		}
	}
	var nums []int
	var firsts []rune
	indexLike := 0
	for _, l := range pg {
		m := pageRef.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(m[2])
		if err != nil || n > 2*pages+20 {
			continue
		}
		nums = append(nums, n)
		r, _ := utf8.DecodeRuneInString(strings.TrimLeftFunc(l.text, func(r rune) bool { return !unicode.IsLetter(r) }))
		firsts = append(firsts, unicode.ToLower(r))
		if m[1] == "," || strings.Contains(l.text, "…") || strings.Count(l.text, ",") >= 2 {
			indexLike++
		}
	}
	if 5*len(nums) < 3*len(pg) {
		return false
	}
	ordered := func(n int, less func(i int) bool) bool {
		in := 0
		for i := 1; i < n; i++ {
			if less(i) {
				in++
			}
		}
		return 5*in >= 4*(n-1)
	}
	if front && ordered(len(nums), func(i int) bool { return nums[i] >= nums[i-1] }) {
		return true
	}
	return back && 2*indexLike >= len(nums) && ordered(len(firsts), func(i int) bool { return firsts[i] >= firsts[i-1] })
}

// brokenIdentifier reports whether a line ending prev ends with a name
// broken after one of its underscores ("If BASH_") that the line next
// goes on with ("COMPAT is unset"): both parts in capitals, a constant's
// name, or the joined name written whole elsewhere in the document
// (vocab). A word that ends with two underscores (__init__) is whole.
func brokenIdentifier(prev, next string, vocab map[string]bool) bool {
	f, g := strings.Fields(prev), strings.Fields(next)
	if len(f) == 0 || len(g) == 0 {
		return false
	}
	head := strings.TrimLeftFunc(f[len(f)-1], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
	tail := strings.TrimRightFunc(g[0], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
	if i := strings.IndexFunc(tail, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }); i >= 0 && tail[i] == '(' {
		// A call's name ends at its parenthesis: "LIBS" of
		// "LIBS([strerror], [cposix])". Any other character inside
		// the word ("POSIX-mode", "I'd") makes it no name's tail.
		tail = tail[:i]
	}
	body, ok := strings.CutSuffix(head, "_")
	if !ok || body == "" || tail == "" {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(body)
	first, _ := utf8.DecodeRuneInString(tail)
	if !unicode.IsLetter(last) && !unicode.IsDigit(last) || !unicode.IsLetter(first) && !unicode.IsDigit(first) {
		return false
	}
	constant := func(w string) bool { return strings.ToUpper(w) == w && strings.ToLower(w) != w }
	// The vocabulary's words are trimmed of underscores at their ends
	// (wordOf: "_comp_cd" is "comp_cd" there).
	return constant(body) && constant(tail) || vocab[strings.Trim(strings.ToLower(head+tail), "_")]
}

// brokenOption reports whether a line ending prev with a long option's
// dashes alone ("--") goes on with the option's name on the next line,
// one the document writes whole elsewhere (vocab: "--track-origins=no").
func brokenOption(prev, next string, vocab map[string]bool) bool {
	f, g := strings.Fields(prev), strings.Fields(next)
	if len(f) == 0 || len(g) == 0 || f[len(f)-1] != "--" {
		return false
	}
	name, _, _ := strings.Cut(strings.ToLower(g[0]), "=")
	name = strings.TrimRightFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if r, _ := utf8.DecodeRuneInString(name); !unicode.IsLower(r) {
		return false
	}
	for w := range vocab {
		if strings.HasPrefix(w, "--"+name) {
			return true
		}
	}
	return false
}

// brokenWord reports whether s ends with a letter and "-".
func brokenWord(s string) bool {
	t, ok := strings.CutSuffix(s, "-")
	if !ok {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(t)
	return unicode.IsLetter(r)
}

// typicalSpacing is the median distance between consecutive baselines of
// lines of equal font size across the document, or 0 when the geometry is
// unknown.
func typicalSpacing(pages [][]line) float64 {
	var d []float64
	for _, pg := range pages {
		for i := 1; i < len(pg); i++ {
			a, b := pg[i-1], pg[i]
			if a.size > 0 && math.Abs(a.size-b.size) < 0.5 {
				if s := a.y - b.y; s > 0 && s < 3*a.size {
					d = append(d, s)
				}
			}
		}
	}
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[len(d)/2]
}

// paragraphBreak reports whether cur starts a new paragraph after prev: a
// baseline gap well above the typical line spacing, a step back up the page
// (a new column) or a change of font size.
func paragraphBreak(prev, cur line, spacing float64) bool {
	if prev.size == 0 || cur.size == 0 || spacing == 0 {
		return false
	}
	if math.Abs(prev.size-cur.size) > 0.1*prev.size {
		return true
	}
	gap := prev.y - cur.y
	return gap <= 0 || gap > (1.4+float64(prev.joins))*spacing
}

// lineRef names line l of page p (0-based).
type lineRef struct{ p, l int }

var (
	// leaders are the dot leaders of a table of contents.
	leaders    = regexp.MustCompile(`( ?\.){4,}`)
	digitRun   = regexp.MustCompile(`[0-9]+`)
	pageNumber = regexp.MustCompile(`(?i)^(page\s*)?([0-9]+|[ivxlcdm]{1,7})(\s*(/|of)\s*[0-9]+)?$|^[-–—]\s*[0-9]+\s*[-–—]$`)
)

// runningKey normalises an edge line for comparison across pages: lower
// case, a number that begins or ends it (the page number) as "#". Numbers
// inside the line stay, so "Figure 3 shows" and "Figure 4 shows" differ.
func runningKey(s string) string {
	f := strings.Fields(strings.ToLower(s))
	for _, i := range []int{0, len(f) - 1} {
		if i >= 0 && digitRun.MatchString(f[i]) && strings.Trim(f[i], "0123456789") == "" {
			f[i] = "#"
		}
	}
	return strings.Join(f, " ")
}

// dropRunning removes running headers and footers: from the top and the
// bottom of each page, up to two lines each that are
//   - a bare page number ("12", "xii", "Page 3 of 9", "- 4 -");
//   - a line beginning or ending with the page's printed number, where the
//     printed numbers follow the page sequence (page index minus number
//     constant) on at least three pages (two in a document of under six):
//     "Chapter 2: ASN.1 structure handling 3". A line in a font larger than
//     the body text's is a heading, never such a line: a numbered section
//     starting a page ("4 Nodes" on the fifth page) follows the page
//     sequence when its number happens to be the page's index, and four
//     such sections of a tutorial were dropped;
//   - a line repeated, its page number aside, at the same edge of that many
//     pages.
//
// A page that would keep nothing keeps its lines, bare page numbers aside.
func dropRunning(pages [][]line) {
	const depth = 2
	body := bodySize(pages)
	heading := func(l line) bool { return body > 0 && l.size > body*1.15 }
	top, bottom := map[string]int{}, map[string]int{}
	offsets := map[int]int{}
	for p, pg := range pages {
		seen := map[string]bool{}
		seenOff := map[int]bool{}
		for k := 0; k < depth && k < len(pg); k++ {
			for _, e := range []struct {
				l      line
				edge   string
				counts map[string]int
			}{{pg[k], "t", top}, {pg[len(pg)-1-k], "b", bottom}} {
				if key := runningKey(e.l.text); !seen[e.edge+key] {
					seen[e.edge+key] = true
					e.counts[key]++
				}
				for _, n := range edgeNumbers(e.l.text) {
					if heading(e.l) {
						break
					}
					if !seenOff[p-n] {
						seenOff[p-n] = true
						offsets[p-n]++
					}
				}
			}
		}
	}
	need := 3
	if len(pages) < 6 {
		need = 2
	}
	running := func(p int, l line, counts map[string]int) bool {
		if pageNumber.MatchString(l.text) || (len(pages) > 1 && counts[runningKey(l.text)] >= need) {
			return true
		}
		for _, n := range edgeNumbers(l.text) {
			if offsets[p-n] >= need && len(strings.Fields(l.text)) <= 12 && !heading(l) {
				return true
			}
		}
		return false
	}
	for i, pg := range pages {
		from, to := 0, len(pg)
		for k := 0; k < depth && from < to && running(i, pg[from], top); k++ {
			from++
		}
		for k := 0; k < depth && from < to && running(i, pg[to-1], bottom); k++ {
			to--
		}
		if from >= to {
			// A header is a header when something else is on the page:
			// a form's or a notice's one line repeated on every page is
			// its text (dropped, the PDF was refused as a scan). Only bare
			// page numbers go.
			kept := pg[:0:0]
			for _, l := range pg {
				if !pageNumber.MatchString(l.text) {
					kept = append(kept, l)
				}
			}
			pages[i] = kept
			continue
		}
		pages[i] = pg[from:to]
	}
}

// bodySize is the font size of the body text: the size most lines of the
// document have (0 when no line's size is known).
func bodySize(pages [][]line) float64 {
	count := map[float64]int{}
	best, most := 0.0, 0
	for _, pg := range pages {
		for _, l := range pg {
			if l.size <= 0 {
				continue
			}
			sz := math.Round(l.size*2) / 2
			count[sz]++
			if n := count[sz]; n > most || n == most && sz < best {
				best, most = sz, n
			}
		}
	}
	return best
}

// edgeNumbers returns the integers (at most 5 digits) that begin or end s
// as whole words.
func edgeNumbers(s string) []int {
	f := strings.Fields(s)
	if len(f) < 2 {
		return nil
	}
	var out []int
	for _, w := range []string{f[0], f[len(f)-1]} {
		if len(w) <= 5 {
			if n, err := strconv.Atoi(w); err == nil && n >= 0 {
				out = append(out, n)
			}
		}
	}
	return out
}

// outlineHeadings matches outline entries to lines of the page they point
// to: a line (or two consecutive lines) equal to the entry's title, or
// ending with it after a short prefix (a section number the outline leaves
// out). Level = outline depth, capped at 6.
func outlineHeadings(marks []pdfMark, pages [][]line) map[lineRef]int {
	heads := map[lineRef]int{}
	for _, m := range marks {
		if m.page < 0 || m.page >= len(pages) || m.title == "" {
			continue
		}
		want := strings.ToLower(strings.Join(strings.Fields(m.title), " "))
		matches := func(got string) bool {
			return got == want || (strings.HasSuffix(got, " "+want) && len(got)-len(want) <= 12)
		}
		pg := pages[m.page]
		found := false
		for li, l := range pg {
			ref := lineRef{m.page, li}
			if heads[ref] == 0 && matches(strings.ToLower(l.text)) {
				heads[ref] = min(m.level, 6)
				found = true
				break
			}
		}
		// A title wrapped over two lines ("Chapter 5. Working with" above
		// "Accounts and Transactions"): both are the heading, which the
		// reading joins (consecutive heading lines of one level).
		for li := 0; !found && li+1 < len(pg); li++ {
			ref, next := lineRef{m.page, li}, lineRef{m.page, li + 1}
			if heads[ref] == 0 && heads[next] == 0 && matches(strings.ToLower(pg[li].text+" "+pg[li+1].text)) {
				heads[ref], heads[next] = min(m.level, 6), min(m.level, 6)
				found = true
			}
		}
	}
	return heads
}

// fontHeadings marks as headings short lines (at most 20 words, not ending
// with a full stop) set at least 15% larger than the body text (the font
// size carrying the most characters); the largest such size is level 1, the
// next level 2, and so on up to 6. A size used by more than a third of the
// lines is body text of its own and is ignored.
func fontHeadings(pages [][]line) map[lineRef]int {
	round := func(s float64) float64 { return math.Round(s*2) / 2 }
	weight := map[float64]int{}
	linesAt := map[float64]int{}
	total := 0
	for _, pg := range pages {
		for _, l := range pg {
			if l.size > 0 {
				weight[round(l.size)] += utf8.RuneCountInString(l.text)
				linesAt[round(l.size)]++
				total++
			}
		}
	}
	body, best := 0.0, -1
	for s, w := range weight {
		if w > best || (w == best && s < body) {
			body, best = s, w
		}
	}
	if body == 0 {
		return nil
	}
	isHead := func(l line) bool {
		s := round(l.size)
		return s >= body*1.15 && linesAt[s]*3 <= total && len(strings.Fields(l.text)) <= 20 &&
			!strings.HasSuffix(l.text, ".") && strings.ContainsFunc(l.text, unicode.IsLetter)
	}
	var sizes []float64
	for _, pg := range pages {
		for _, l := range pg {
			if isHead(l) && !slices.Contains(sizes, round(l.size)) {
				sizes = append(sizes, round(l.size))
			}
		}
	}
	slices.SortFunc(sizes, func(a, b float64) int { return -cmpFloat(a, b) })
	heads := map[lineRef]int{}
	for p, pg := range pages {
		for li, l := range pg {
			if isHead(l) {
				heads[lineRef{p, li}] = min(slices.Index(sizes, round(l.size))+1, 6)
			}
		}
		// The labels of a figure drawn with text (a graph's nodes, set in a
		// larger font than the body) come as consecutive lines of one size
		// out of reading order: read as headings, Graphviz's guide had
		// "hello world b c d e g h f" above its sections' text. A heading
		// wraps downwards: a run whose next line is not below the one
		// before is a figure's, and so is one of more than three lines
		// spaced unevenly or of a few letters each.
		for li := 0; li < len(pg); {
			lvl := heads[lineRef{p, li}]
			end := li + 1
			for lvl > 0 && end < len(pg) && heads[lineRef{p, end}] == lvl {
				end++
			}
			figure := false
			minGap, maxGap, chars := math.Inf(1), 0.0, 0
			for k := li; k < end; k++ {
				chars += utf8.RuneCountInString(pg[k].text)
				if k > li {
					gap := pg[k-1].y - pg[k].y
					figure = figure || gap <= 0
					minGap, maxGap = min(minGap, gap), max(maxGap, gap)
				}
			}
			if end-li > 3 && !figure {
				// A long title wrapped over four lines goes down the page
				// evenly, line after line of words; a figure's labels, a
				// few letters each, at the gaps of its drawing.
				figure = maxGap > 1.3*minGap || chars < 10*(end-li)
			}
			if figure {
				for k := li; k < end; k++ {
					delete(heads, lineRef{p, k})
				}
			}
			li = end
		}
	}
	return heads
}

// pdfNumbered matches a numbered section title of two or more parts
// ("2.5 Drawing Orientation, Size and Spacing", "1.1.5 GXL and GML").
var pdfNumbered = regexp.MustCompile(`^(\d{1,2}(?:\.\d{1,2}){1,3})\.?\s+(\p{Lu}.*)$`)

// numberedHeadings adds to heads (font headings) the numbered section
// titles set in the body's size, as a LaTeX document sets its
// subsubsections and many manuals their subsections in bold: a line that
// is a number of two or more parts and a title (a capital first, at most
// twelve words, no final stop, comma, colon or semicolon, no dot leaders
// or page number of a table of contents), not code, and not smaller than
// the body text, and not the first line of a clause wrapped over lines
// (ending on a word such as "the", or above a line going on in lower
// case), when the document has at least two and each comes after the one
// before in the numbering (the longest such run; a font heading numbered
// no higher than the one before starts a new run: an annex numbered from
// 1.1 again). Its level is the level of the font heading numbered as its
// first part ("2 Drawing Attributes") plus its depth, else its depth plus
// one. Without them Graphviz's dotguide.pdf had one section of nine pages
// under "2 Drawing Attributes".
func numberedHeadings(pages [][]line, heads map[lineRef]int, spacing float64) {
	body := bodySize(pages)
	type cand struct {
		ref     lineRef
		parts   []int
		segment int
	}
	var cands []cand
	top := map[int]int{} // first part → the level of the font heading numbered so
	// A font heading numbered no higher than the one before ("1 Annex"
	// after "2 Interface") starts numbering anew: a second document in the
	// file. Each segment's titles ascend on their own.
	segment, lastTop := 0, 0
	// A page of contents lists numbered titles with their page numbers
	// ("1.2 Installing 7"), one under another: on a page with tocLines or
	// more such lines in a row, a title ending in a number is an entry of
	// the list. Elsewhere the number is the title's ("1.2 Installing on
	// Windows 11", "2.2 Upgrading to Python 3"), body text between them.
	// A chapter's own entry between its sections' ("2 Upgrading 3" between
	// "1.2 Installing the Tool 2" and "2.1 Before You Upgrade 3") keeps
	// the row going: a manual whose chapters have two sections each has no
	// three dotted entries in a row, and its contents entries were taken
	// for the headings instead of the body's titles.
	paged := make([]int, len(pages))
	for p, pg := range pages {
		row := 0
		for _, l := range pg {
			t := strings.TrimSpace(l.text)
			switch m := pdfNumbered.FindStringSubmatch(t); {
			case m != nil && endsInNumber(m[2]):
				row++
				paged[p] = max(paged[p], row)
			case row > 0 && chapterEntry.MatchString(t):
			default:
				row = 0
			}
		}
	}
	for p, pg := range pages {
		for li, l := range pg {
			t := strings.TrimSpace(l.text)
			if lvl := heads[lineRef{p, li}]; lvl > 0 {
				if f := strings.Fields(t); len(f) > 1 {
					if n, err := strconv.Atoi(strings.TrimSuffix(f[0], ".")); err == nil {
						top[n] = lvl
						if n <= lastTop {
							segment++
						}
						lastTop = n
					}
				}
				continue
			}
			m := pdfNumbered.FindStringSubmatch(t)
			if m == nil || l.mono || (body > 0 && l.size > 0 && l.size < body*0.95) {
				continue
			}
			title := m[2]
			words := strings.Fields(title)
			if len(words) > 12 || strings.ContainsAny(title[len(title)-1:], ".,;:") ||
				strings.Contains(title, ". .") || strings.Contains(title, "...") || strings.Contains(title, "…") || startsWithNumber(title) ||
				endsInNumber(title) && paged[p] >= tocLines {
				continue
			}
			// The first line of a numbered clause wrapped over lines ("1.1
			// The Tenant shall pay the rent monthly in advance on the"
			// above "first day of each month …") ends inside its
			// sentence: on a word that leads into the next, or above a
			// line that goes on in lower case.
			if continuesOnNext[words[len(words)-1]] ||
				li+1 < len(pg) && !paragraphBreak(l, pg[li+1], spacing) && startsLower(pg[li+1].text) {
				continue
			}
			var parts []int
			for _, x := range strings.Split(m[1], ".") {
				n, _ := strconv.Atoi(x)
				parts = append(parts, n)
			}
			cands = append(cands, cand{lineRef{p, li}, parts, segment})
		}
	}
	// The longest run of candidates in ascending numbering, in document
	// order: a line that only looks like a title ("3.5 Million requests a
	// day were served") falls out of the order of the others.
	best, prev := make([]int, len(cands)), make([]int, len(cands))
	var kept []cand
	for from := 0; from < len(cands); {
		to := from
		for to < len(cands) && cands[to].segment == cands[from].segment {
			to++
		}
		end := -1
		for i := from; i < to; i++ {
			best[i], prev[i] = 1, -1
			for j := from; j < i; j++ {
				if slices.Compare(cands[j].parts, cands[i].parts) < 0 && best[j]+1 > best[i] {
					best[i], prev[i] = best[j]+1, j
				}
			}
			if end < 0 || best[i] > best[end] {
				end = i
			}
		}
		for i := end; i >= 0; i = prev[i] {
			kept = append(kept, cands[i])
		}
		from = to
	}
	if len(kept) < 2 {
		return
	}
	for _, c := range kept {
		lvl := len(c.parts) + 1
		if base, ok := top[c.parts[0]]; ok {
			lvl = base + len(c.parts) - 1
		}
		heads[c.ref] = min(lvl, 6)
	}
}

// chapterEntry matches a contents line of a chapter: its number, its
// title and its page ("2 Upgrading 3", "10. Appendix 212").
var chapterEntry = regexp.MustCompile(`^\d{1,2}\.?\s+\p{Lu}.*\s\d{1,4}$`)

// tocLines is how many numbered titles ending in a number, one under
// another, make a page a table of contents (numberedHeadings).
const tocLines = 3

// endsInNumber and startsWithNumber report a title whose last (first)
// word, of two or more, is an integer of at most five digits.
func endsInNumber(title string) bool {
	f := strings.Fields(title)
	return len(f) >= 2 && len(f[len(f)-1]) <= 5 && isInteger(f[len(f)-1])
}

func startsWithNumber(title string) bool {
	f := strings.Fields(title)
	return len(f) >= 2 && len(f[0]) <= 5 && isInteger(f[0])
}

func isInteger(w string) bool {
	n, err := strconv.Atoi(w)
	return err == nil && n >= 0
}

// continuesOnNext are words a title does not end with and a line of a
// sentence wrapped mid-clause often does, as they are written there: in
// lower case ("… in advance on the"). Capitalised, the word is a title's
// ("2.2 Signing In", "1.2 Turning the Scanner On").
var continuesOnNext = map[string]bool{"the": true, "a": true, "an": true, "of": true, "and": true, "or": true,
	"to": true, "in": true, "on": true, "at": true, "for": true, "with": true, "by": true, "from": true,
	"after": true, "before": true, "that": true, "which": true, "is": true, "are": true, "be": true,
	"shall": true, "will": true, "must": true, "may": true, "its": true, "their": true, "as": true}

// startsLower reports whether s starts with a lower-case letter.
func startsLower(s string) bool {
	r, _ := utf8.DecodeRuneInString(strings.TrimSpace(s))
	return unicode.IsLower(r)
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
