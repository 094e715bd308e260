package extract

import (
	"bytes"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Inline raw HTML in Markdown. CommonMark reads any "<word>" as an inline
// HTML tag, but technical documentation writes such words as text all the
// time: key names (<Tab>, <Leader>, <C-R>), placeholders (<file>, <name>),
// Vim's map arguments (<buffer>, <expr>, <script>), generics (List<String>).
// A browser would hide them; a reader of the document never meant them as
// markup, and dropping them lost the very words questions ask about
// ("is "<script>" and it is used" was stored as "is "" and it is used").
//
// classifyRawHTML decides, for the tags of one inline container (paragraph,
// heading, table cell), which are markup (dropped, their content kept as
// text) and which are words (kept verbatim):
//
//   - comments, processing instructions, declarations and CDATA are markup;
//   - a self-closing tag (<x/>) and a tag with an attribute value
//     (<span class="k">, <img src=a.png>) are markup;
//   - <br>, <hr>, <wbr> and the elements whose end tag HTML lets authors
//     omit (<p>, <li>, <td>…) are markup alone; any other HTML element
//     name (<b>, <kbd>, <script>, <input>, <details open>) is markup only
//     when its end tag follows in the same container: "<kbd>Ctrl</kbd>" is
//     markup, "the <script> argument", "cat <input>" and "<source file>"
//     are words;
//   - any other name (<Tab>, <buffer>, <file>, <C-R>, <String>) is a word;
//   - an end tag is markup when it closes a markup start tag, or when its
//     name is a known element (a stray </b>), else a word.
//
// The content of a <script> or <style> element (start and end tag in the
// container) is not text a reader sees and is dropped with its tags.
type rawAction uint8

const (
	rawDrop      rawAction = iota // markup: nothing
	rawWord                       // a word: the tag's source verbatim
	rawBreak                      // <br>: a line break
	rawSkipStart                  // <script>/<style> start: drop until rawSkipEnd
	rawSkipEnd
)

// htmlElements are the element names of HTML (WHATWG, with the obsolete
// ones still met in READMEs) and the embedded svg and math roots.
var htmlElements = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`a abbr address area article aside audio b base bdi bdo
		blockquote body br button canvas caption cite code col colgroup data datalist dd del
		details dfn dialog div dl dt em embed fieldset figcaption figure footer form h1 h2 h3
		h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label legend li link
		main map mark menu meta meter nav noscript object ol optgroup option output p param
		picture pre progress q rp rt ruby s samp script search section select slot small
		source span strong style sub summary sup table tbody td template textarea tfoot th
		thead time title tr track u ul var video wbr acronym applet basefont big blink center
		dir font frame frameset marquee nobr noframes strike tt math svg`) {
		m[n] = true
	}
	return m
}()

// htmlAloneMarkup are elements that are markup without an end tag: void
// elements that mean something bare, and those whose end tag is optional.
var htmlAloneMarkup = map[string]bool{
	"br": true, "hr": true, "wbr": true,
	"p": true, "li": true, "dt": true, "dd": true, "tr": true, "td": true, "th": true,
	"thead": true, "tbody": true, "tfoot": true,
}

// rawTag is one parsed inline raw HTML node.
type rawTag struct {
	node      *ast.RawHTML
	name      string // lower-case; "" for comments and the like
	end       bool   // </name>
	selfClose bool   // <name/>
	values    bool   // some attribute has a value
}

// parseRawTag reads the tag goldmark recognised (its grammar guarantees the
// shape: "<" name attributes "/"? ">" or "</" name ">").
func parseRawTag(n *ast.RawHTML, raw string) rawTag {
	t := rawTag{node: n}
	if len(raw) < 3 || raw[0] != '<' {
		return t
	}
	s := raw[1:]
	if s[0] == '/' {
		t.end = true
		s = s[1:]
	}
	i := 0
	for i < len(s) && (isASCIILetter(s[i]) || i > 0 && (s[i] >= '0' && s[i] <= '9' || s[i] == '-')) {
		i++
	}
	if i == 0 {
		return t // <!-- -->, <?…?>, <!DOCTYPE>, <![CDATA[…]]>
	}
	t.name = strings.ToLower(s[:i])
	rest := strings.TrimSuffix(strings.TrimSpace(s[i:]), ">")
	if strings.HasSuffix(rest, "/") {
		t.selfClose = true
		rest = rest[:len(rest)-1]
	}
	// Attributes: is there a value? Quoted values may hold blanks and "=".
	for j := 0; j < len(rest); {
		c := rest[j]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			j++
		case c == '=':
			t.values = true
			j++
			for j < len(rest) && (rest[j] == ' ' || rest[j] == '\t' || rest[j] == '\n') {
				j++
			}
			if j < len(rest) && (rest[j] == '"' || rest[j] == '\'') {
				q := rest[j]
				k := strings.IndexByte(rest[j+1:], q)
				if k < 0 {
					return t
				}
				j += k + 2
			} else {
				for j < len(rest) && rest[j] != ' ' && rest[j] != '\t' && rest[j] != '\n' {
					j++
				}
			}
		default: // an attribute name
			for j < len(rest) && rest[j] != ' ' && rest[j] != '\t' && rest[j] != '\n' && rest[j] != '=' {
				j++
			}
		}
	}
	return t
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// rawHTMLText is the source of an inline raw HTML node, its line breaks
// as blanks.
func (w *mdWalker) rawHTMLText(n *ast.RawHTML) string {
	var sb strings.Builder
	for i := 0; i < n.Segments.Len(); i++ {
		seg := n.Segments.At(i)
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.Write(seg.Value(w.src))
	}
	return strings.TrimSpace(strings.ReplaceAll(sb.String(), "\n", " "))
}

// classifyRawHTML sets w.raw to the action of every inline raw HTML node
// under the inline container n (see rawAction).
func (w *mdWalker) classifyRawHTML(n ast.Node) {
	var tags []rawTag
	var collect func(n ast.Node, depth int)
	collect = func(n ast.Node, depth int) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if r, ok := c.(*ast.RawHTML); ok {
				tags = append(tags, parseRawTag(r, w.rawHTMLText(r)))
			} else if depth < maxMarkdownDepth {
				collect(c, depth+1)
			}
		}
	}
	collect(n, 0)
	if len(tags) == 0 {
		return
	}
	if w.raw == nil {
		w.raw = map[*ast.RawHTML]rawAction{}
	}
	// open holds, per name, the indexes of start tags waiting for their end
	// tag (one stack per name: scanning one stack of every open tag for
	// each end tag took quadratic time on many unclosed tags).
	open := map[string][]int{}
	for i, t := range tags {
		known := htmlElements[t.name]
		switch {
		case t.name == "":
			w.raw[t.node] = rawDrop
		case t.end:
			st := open[t.name]
			if len(st) == 0 {
				if known {
					w.raw[t.node] = rawDrop
				} else {
					w.raw[t.node] = rawWord
				}
				continue
			}
			o := st[len(st)-1]
			open[t.name] = st[:len(st)-1]
			if t.name == "script" || t.name == "style" {
				w.raw[tags[o].node], w.raw[t.node] = rawSkipStart, rawSkipEnd
			} else {
				w.raw[tags[o].node], w.raw[t.node] = rawDrop, rawDrop
			}
		case t.selfClose || t.values || htmlAloneMarkup[t.name]:
			if t.name == "br" {
				w.raw[t.node] = rawBreak
			} else {
				w.raw[t.node] = rawDrop
			}
			if !t.selfClose && !htmlAloneMarkup[t.name] {
				open[t.name] = append(open[t.name], i)
			}
		case known:
			// A word unless its end tag follows.
			w.raw[t.node] = rawWord
			open[t.name] = append(open[t.name], i)
		default:
			w.raw[t.node] = rawWord
		}
	}
}

// wordBlock reads an HTML block that opens with a word rather than markup
// as Markdown, and reports whether it did. CommonMark starts an HTML block
// at a line that is only a tag ("<Leader>" above its explanation: the tag
// was lost) and at a line opening with <script>, <style>, <pre> or
// <textarea>, which runs to such an end tag or, without one, to the end of
// the document: "<script> is a map argument." swallowed every heading and
// paragraph after it into one block of HTML. A block opening with a start
// tag without attribute values is Markdown, its first "<" escaped, when
// the tag names no HTML element (a line-only tag: the block ends at the
// next blank line) or is one of those four with more start tags than end
// tags from there to the block's end (scriptWords).
func (w *mdWalker) wordBlock(n *ast.HTMLBlock, raw string, top bool, depth int) bool {
	if len(raw) > w.reparse || depth >= maxMarkdownDepth {
		return false
	}
	t := blockTag(raw)
	if t.name == "" || t.end || t.selfClose || t.values {
		return false
	}
	switch {
	case n.HTMLBlockType == ast.HTMLBlockType1:
		return w.scriptWords(raw, top, depth)
	case n.HTMLBlockType == ast.HTMLBlockType7 && !htmlElements[t.name]:
		w.markdownAgain(raw, true, top, depth)
		return true
	case n.HTMLBlockType == ast.HTMLBlockType6 && !htmlAloneMarkup[t.name] && proseAfterTag(raw) && !w.closedAfter(n, t.name):
		// A block element's name as a placeholder opening a sentence
		// ("<dir> is the directory where <file> goes.", "<title> names
		// the page."): prose follows the tag on its line and the element
		// is never closed, in this block or later. A real block
		// (<details> alone on its line, <div>Intro… closed after a blank
		// line, <p> whose end tag HTML lets one leave out) is not read
		// again.
		w.markdownAgain(raw, true, top, depth)
		return true
	}
	return false
}

// proseAfterTag reports whether the first line of raw has a word after the
// tag that opens it.
func proseAfterTag(raw string) bool {
	line, _, _ := strings.Cut(strings.TrimLeft(raw, " "), "\n")
	end := strings.IndexByte(line, '>')
	if end < 0 {
		return false
	}
	rest := strings.TrimSpace(line[end+1:])
	return rest != "" && rest[0] != '<' && strings.IndexFunc(rest, unicode.IsLetter) >= 0
}

// blockTag parses the tag opening an HTML block's first line.
func blockTag(raw string) rawTag {
	s := strings.TrimLeft(raw, " ")
	if end := strings.IndexByte(s, '>'); end > 0 {
		return parseRawTag(nil, strings.ReplaceAll(s[:end+1], "\n", " "))
	}
	return rawTag{}
}

// type1Names are the elements that open a CommonMark HTML block of type 1.
var type1Names = []string{"script", "pre", "style", "textarea"}

// type1Opener returns the name of the type-1 block a line would open.
func type1Opener(line string) string {
	l := strings.ToLower(strings.TrimLeft(line, " "))
	if len(line)-len(l) > 3 {
		return ""
	}
	for _, n := range type1Names {
		if rest, ok := strings.CutPrefix(l, "<"+n); ok && (rest == "" || strings.IndexByte(" \t\n>", rest[0]) >= 0 || strings.HasPrefix(rest, "/>")) {
			return n
		}
	}
	return ""
}

// scriptWords reads a type-1 HTML block whose opening tag is a word: it is
// cut before every line that would open another such block, and each part
// is read as Markdown, its first "<" escaped when its tag has more start
// tags than end tags from there to the block's end (a word), else as it is
// (a real <script>…</script> after the words). Reading again is bounded
// by w.reparse (a multiple of the document's size), so time stays linear
// however many such lines follow each other.
// It reports false, leaving the block to the HTML extractor, when the
// first tag is closed.
func (w *mdWalker) scriptWords(raw string, top bool, depth int) bool {
	type part struct {
		text, name string
	}
	var parts []part
	start := 0
	for off := 0; off < len(raw); {
		end := strings.IndexByte(raw[off:], '\n')
		next := len(raw)
		if end >= 0 {
			next = off + end + 1
		}
		if name := type1Opener(raw[off:next]); name != "" && (off > 0 || len(parts) == 0) {
			if off > start {
				parts[len(parts)-1].text = raw[start:off]
			}
			parts = append(parts, part{name: name})
			start = off
		}
		off = next
	}
	if len(parts) == 0 {
		return false
	}
	parts[len(parts)-1].text = raw[start:]
	// Start and end tags of each name from each part to the end.
	opens := map[string]int{}
	closes := map[string]int{}
	word := make([]bool, len(parts))
	for i := len(parts) - 1; i >= 0; i-- {
		// Start tags count where they open a line (a part); inside a
		// line they are the content's own (a <pre> showing "<pre>", a
		// script writing "<script src=…>"), and counted, they made a real
		// block a word.
		l := strings.ToLower(parts[i].text)
		opens[parts[i].name]++
		for _, n := range type1Names {
			closes[n] += strings.Count(l, "</"+n)
		}
		word[i] = opens[parts[i].name] > closes[parts[i].name]
	}
	if !word[0] {
		return false
	}
	for i, p := range parts {
		w.markdownAgain(p.text, word[i], top, depth)
	}
	return true
}

// markdownAgain parses src as Markdown in place of the HTML block it was,
// its first "<" escaped when escape is set.
func (w *mdWalker) markdownAgain(src string, escape, top bool, depth int) {
	w.reparse -= len(src)
	if escape {
		lead := len(src) - len(strings.TrimLeft(src, " "))
		src = src[:lead] + "\\" + src[lead:]
	}
	saved := w.src
	w.src = []byte(src)
	w.flush()
	w.children(md.Parser().Parse(text.NewReader(w.src)), top, depth)
	w.flush()
	w.src = saved
}

// closedAfter reports whether an end tag of the element name follows the
// start of block n in the source. The last end tag of each name is found
// once per source, so many such blocks cost no more than one scan each.
func (w *mdWalker) closedAfter(n *ast.HTMLBlock, name string) bool {
	if n.Lines().Len() == 0 {
		return false
	}
	if w.lastClose == nil || len(w.closesFor) != len(w.src) || len(w.src) > 0 && &w.closesFor[0] != &w.src[0] {
		w.lastClose, w.closesFor = map[string]int{}, w.src
	}
	last, ok := w.lastClose[name]
	if !ok {
		last = lastEndTag(w.src, name)
		w.lastClose[name] = last
	}
	return last >= n.Lines().At(0).Start
}

// lastEndTag returns where the last "</name" (any case) is in src, or -1.
func lastEndTag(src []byte, name string) int {
	pat := []byte("</" + name)
	for i := len(src) - len(pat); i >= 0; i-- {
		if src[i] == '<' && i+1 < len(src) && src[i+1] == '/' && bytes.EqualFold(src[i:i+len(pat)], pat) {
			return i
		}
	}
	return -1
}
