package extract

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// md is safe for concurrent use: goldmark parsers keep no per-parse state.
var md = goldmark.New(goldmark.WithExtensions(extension.GFM))

// maxMarkdownDepth bounds the AST depth the walk descends into; deeper
// containers (hundreds of nested quotes or lists) are flattened to text.
const maxMarkdownDepth = 200

func extractMarkdown(src []byte) (*Document, error) {
	title, body := frontMatter(src)
	body = myst(body)
	if markdownRisky(body) {
		doc := extractPlain(body)
		doc.Title = title
		return doc, nil
	}
	root := md.Parser().Parse(text.NewReader(body))
	w := &mdWalker{src: body, reparse: 3*len(body) + 4096, lastHeading: -1, frontMatter: len(body) < len(src)}
	w.block(root, true, 0)
	w.flush()
	if title == "" {
		title = w.h1
	}
	return w.b.document(title), nil
}

// Limits of markdownRisky. goldmark (like most CommonMark parsers) has
// inputs that take time quadratic in a count within one paragraph or line:
// "[a](" repeated 20,000 times takes 4 s, "“\\" 1 s, 20,000 nested list
// markers on one line 1.7 s. An upload must not pin a core for minutes, so
// such inputs are read as plain text instead.
const (
	// riskBudget bounds the sum over paragraphs of (openers)², where openers
	// counts '[' plus a quarter of '`' (backtick runs cost less): about
	// 0.3 s of goldmark time at worst.
	riskBudget = 25_000_000
	// maxLineMarkers bounds container markers (">", "-", "*", "+", "1.")
	// opening one line; real documents nest a handful.
	maxLineMarkers = 32
	// maxIndent bounds a line's leading whitespace in columns (deep list
	// nesting by indentation).
	maxIndent = 400
	// maxTableCells bounds a GFM table's header width times its rows:
	// goldmark pads every row to the header's width, so a 131 KB table of
	// 12,000 header cells over 3,000 short rows was 36 million cells and
	// 6.5 GB. Real tables have tens of columns.
	maxTableCells = 200_000
	// maxRawTags bounds the inline HTML tags ("<" then a letter, "/", "!"
	// or "?") of a document: goldmark makes a node of each, and 10 MB of
	// "<x> " took 9 s and 1.5 GB. Documents with HTML inline write
	// thousands.
	maxRawTags = 100_000
)

// markdownRisky reports whether src would drive goldmark into super-linear
// time; see riskBudget. It is a single linear scan.
func markdownRisky(src []byte) bool {
	budget := riskBudget
	brackets, ticks, stars, unders := 0, 0, 0, 0
	// header is the cell count of the table whose delimiter row was seen
	// last in this paragraph, rows its rows so far.
	header, rows := 0, 0
	endPara := func() bool {
		// Emphasis costs when the two delimiters interleave: a closer of
		// one kind looks back over every opener of the other ("*a_ "
		// repeated, the CommonMark suite's mismatched openers and closers:
		// 6 s for 100 KB); runs of one kind, matched or not, are linear
		// (a changelog's 3,000 "**module**" items parse in 70 ms).
		w := brackets + ticks/4 + min(stars, unders)
		budget -= w * w
		brackets, ticks, stars, unders, header, rows = 0, 0, 0, 0, 0, 0
		return budget < 0
	}
	// A list item is an inline context of its own: its delimiters never
	// meet the next item's (a 2,600-item list of "- **opt**: sets the
	// _opt_ value." is linear), so its emphasis is charged on its own.
	endItem := func() {
		e := min(stars, unders)
		budget -= e * e
		stars, unders = 0, 0
	}
	tags := 0
	for i := 0; i+1 < len(src); i++ {
		if src[i] == '<' {
			if c := src[i+1]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/' || c == '!' || c == '?' {
				if tags++; tags > maxRawTags {
					return true
				}
			}
		}
	}
	prev := []byte(nil)
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			if endPara() {
				return true
			}
			prev = nil
			continue
		}
		if lineMarkers(line) > maxLineMarkers {
			return true
		}
		if listItemStart(line) {
			endItem()
		}
		if header > 0 {
			rows++
			if header*rows > maxTableCells {
				return true
			}
		} else if prev != nil && delimiterRow(line) {
			header = max(bytes.Count(prev, []byte("|")), bytes.Count(line, []byte("|")))
		}
		brackets += bytes.Count(line, []byte("["))
		ticks += bytes.Count(line, []byte("`"))
		st, un := emphasisDelimiters(line)
		stars, unders = stars+st, unders+un
		prev = line
	}
	return endPara()
}

// listItemStart reports a line that opens a list item: a bullet ("-",
// "*", "+") or a number with "." or ")", then a blank.
func listItemStart(line []byte) bool {
	t := bytes.TrimLeft(line, " \t")
	if len(t) >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && (t[1] == ' ' || t[1] == '\t') {
		return true
	}
	i := 0
	for i < len(t) && i < 10 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && (t[i+1] == ' ' || t[i+1] == '\t')
}

// delimiterRow reports a GFM table's delimiter row: pipes, dashes, colons
// and blanks only, with at least one pipe and one dash.
func delimiterRow(line []byte) bool {
	t := bytes.TrimSpace(line)
	return bytes.IndexByte(t, '|') >= 0 && bytes.IndexByte(t, '-') >= 0 &&
		len(bytes.Trim(t, "|-: \t")) == 0
}

// emphasisDelimiters counts the '*' and the '_' of line that may open or
// close emphasis: not a list marker opening the line, not an underscore
// inside a word (snake_case names are not emphasis in CommonMark).
func emphasisDelimiters(line []byte) (stars, unders int) {
	start := 0
	for start < len(line) && (line[start] == ' ' || line[start] == '\t' || line[start] == '>') {
		start++
	}
	if start+1 < len(line) && (line[start] == '*' || line[start] == '-' || line[start] == '+') && line[start+1] == ' ' {
		start += 2
	}
	word := func(i int) bool {
		if i < 0 || i >= len(line) {
			return false
		}
		c := line[i]
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
	}
	for i := start; i < len(line); i++ {
		switch line[i] {
		case '*':
			stars++
		case '_':
			if !(word(i-1) && word(i+1)) {
				unders++
			}
		}
	}
	return stars, unders
}

// lineMarkers counts the container markers and indentation that open a
// line, returning a large number when indentation alone exceeds maxIndent.
func lineMarkers(line []byte) int {
	n, col := 0, 0
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == ' ':
			col++
			i++
		case c == '\t':
			col += 4
			i++
		case c == '>':
			n++
			i++
		case c == '-' || c == '*' || c == '+':
			// A list marker only when followed by a space ("---" is a rule).
			if i+1 < len(line) && line[i+1] != ' ' && line[i+1] != '\t' {
				return n
			}
			n++
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 10 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j < len(line) && (line[j] == '.' || line[j] == ')') {
				n++
				i = j + 1
				continue
			}
			return n
		default:
			return n
		}
		if col > maxIndent {
			return maxLineMarkers + 1
		}
	}
	return n
}

// frontMatter splits off YAML front matter ("---" … "---" or "..." at the
// very start) and returns its title: value, if any, and the rest.
func frontMatter(src []byte) (string, []byte) {
	if !bytes.HasPrefix(src, []byte("---\n")) {
		return "", src
	}
	rest := src[4:]
	title := ""
	for off := 0; off < len(rest) && off < 64<<10; {
		end := bytes.IndexByte(rest[off:], '\n')
		line := rest[off:]
		next := len(rest)
		if end >= 0 {
			line, next = rest[off:off+end], off+end+1
		}
		l := strings.TrimRight(string(line), " \t")
		if l == "---" || l == "..." {
			return title, rest[next:]
		}
		if v, ok := strings.CutPrefix(l, "title:"); ok && title == "" {
			title = collapse(strings.Trim(strings.TrimSpace(v), `"'`))
		}
		off = next
	}
	return "", src // no closing line: not front matter
}

type mdWalker struct {
	src []byte
	// frontMatter is set for a document that opened with YAML front
	// matter, as a static site's pages do.
	frontMatter bool
	b           builder
	in          inline
	lists       []listState
	item        *itemState
	h1          string // first top-level h1
	// raw is what each inline raw HTML node of the container being walked
	// stands for (classifyRawHTML); skip is set between the tags of a
	// <script> or <style> element.
	raw  map[*ast.RawHTML]rawAction
	skip bool
	// reparse is how many more bytes wordBlock may parse again.
	reparse int
	// lastClose caches, for src (closesFor), where each element's last
	// end tag is in it.
	lastClose map[string]int
	closesFor []byte
	// slugs counts the heading slugs given so far (headingSlug).
	slugs map[string]int
	// markupEnd is where the last line of site markup ends (siteMarkup).
	markupEnd int
	// lastHeading is the index in b.blocks of the last heading added, -1
	// before the first.
	lastHeading int
	// namedNext is the anchor an HTML block of empty named elements
	// gives the heading right after it (htmlBlock).
	namedNext string
}

func (w *mdWalker) flush() {
	s := w.in.take(false)
	if s == "" {
		return
	}
	if w.item == nil {
		w.b.add(KindParagraph, 0, s)
		return
	}
	prefix := w.item.cont
	if !w.item.used {
		prefix, w.item.used = w.item.marker, true
	}
	w.b.add(KindListItem, w.item.depth, prefix+strings.ReplaceAll(s, "\n", "\n"+w.item.cont))
}

// lowerJS is rs[i] lower-cased as JavaScript's toLowerCase does, which
// GitHub's slugs use: a capital sigma ending a word is "ς", a dotted
// capital I is "i̇"; other letters as Go lower-cases them.
func lowerJS(rs []rune, i int) string {
	switch r := rs[i]; {
	case r == 'Σ' && i > 0 && unicode.IsLetter(rs[i-1]) && (i+1 == len(rs) || !unicode.IsLetter(rs[i+1])):
		return "ς"
	case r == 'İ':
		return "i\u0307"
	default:
		return string(unicode.ToLower(r))
	}
}

// slugText is heading n's text as a renderer's HTML holds it, from which
// its slug is made: its own blanks kept ("a  b" is "a--b"), a line break
// nothing, an image's alternative text and raw HTML nothing.
func (w *mdWalker) slugText(n ast.Node, depth int) string {
	var sb strings.Builder
	for c := n.FirstChild(); c != nil && depth < maxMarkdownDepth; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			sb.Write(w.textValue(c))
		case *ast.String:
			v := c.Value
			if !c.IsRaw() && !c.IsCode() {
				v = unescape(v)
			}
			sb.Write(v)
		case *ast.AutoLink:
			sb.Write(c.Label(w.src))
		case *ast.Image, *ast.RawHTML:
		default:
			sb.WriteString(w.slugText(c, depth+1))
		}
	}
	return sb.String()
}

// headingSlug returns the fragment identifier a Markdown renderer gives a
// heading whose text is t, so that a citation links to its section: the
// algorithm of GitHub (github-slugger, also used by Docusaurus and Hugo's
// default), which MkDocs and GitLab agree with on ordinary headings. The
// text is lower-cased, every character but a letter, mark, digit,
// connector ("_"), space or hyphen is dropped and each space becomes a
// hyphen; a slug seen before in the document gets "-1", "-2", … after it.
func (w *mdWalker) headingSlug(t string) string {
	var sb strings.Builder
	rs := []rune(t)
	for i, r := range rs {
		switch {
		case r == ' ':
			sb.WriteByte('-')
		case r == '-' || unicode.In(r, unicode.L, unicode.M, unicode.Nd, unicode.Nl, unicode.Pc) ||
			unicode.Is(unicode.So, r) && unicode.Is(unicode.Other_Alphabetic, r):
			sb.WriteString(lowerJS(rs, i))
		}
	}
	base := sb.String()
	if w.slugs == nil {
		w.slugs = map[string]int{}
	}
	slug := base
	for {
		if _, seen := w.slugs[slug]; !seen {
			break
		}
		w.slugs[base]++
		slug = base + "-" + strconv.Itoa(w.slugs[base])
	}
	w.slugs[slug] = 0
	return slug
}

// siteMarkupLine matches a line of a static-site generator's markup
// rather than text: Liquid tags (Jekyll's "{% raw %}", "{% endraw %}",
// "{% include note.html %}") and kramdown's attribute lists
// ("{:.warning}", "{: #id .class}"). The site's build removes them.
var siteMarkupLine = regexp.MustCompile(`^(?:\{%-?[ \t]*(?:` + jekyllTags + `)(?:[ \t]+[^%"'{}][^%{}]*)?[ \t]*-?%\}[ \t]*)+$|^` + attrList + `$`)

// jekyllTags are the Liquid tags only a Jekyll site writes: an "include"
// with a quoted file, an "if", a "block" or a "csrf_token" is as likely a
// Django or Jinja template the text shows.
const jekyllTags = `raw|endraw|include|include_relative|highlight|endhighlight|assign|capture|endcapture|post_url|link|seo|feed_meta`

// attrList is a kramdown or Pandoc attribute list: "{:" or "{", then
// classes, ids and key=value pairs ("{:.warning}", "{: #custom .cls}",
// "{#install}"), nothing else: "{:ok, pid}" is Elixir, "{:>10}" a format.
const attrList = `\{:?[ \t]*(?:` + attrName + `|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s}]+))(?:[ \t]+(?:` + attrName + `|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s}]+)))*[ \t]*\}`

// attrName is an attribute list's class or id: a class starts with a
// letter, "_" or "-", so that a format spec ("{:.2f}") is none.
const attrName = `(?:\.[A-Za-z_-][\w-]*|#[\w-]+)`

// headingAttrs matches an attribute list ending a heading's text ("Install
// {#install}"); its group is the id it gives, if any.
var headingAttrs = regexp.MustCompile(`[ \t]*\{:?[ \t]*(?:#([\w-]+)|\.[A-Za-z_-][\w-]*|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s}]+))(?:[ \t]+(?:#[\w-]+|\.[A-Za-z_-][\w-]*|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s}]+)))*[ \t]*\}$`)

// blockAttr matches a paragraph that is only an attribute list; its group
// is the id it gives, if any.
var blockAttr = regexp.MustCompile(`^\{:[ \t]*(?:[.\w-]+=(?:"[^"]*"|'[^']*'|[^\s}]+)[ \t]+|\.[A-Za-z_-][\w-]*[ \t]+)*#([\w-]+)`)

// blockAttrs reports a paragraph that is only a kramdown attribute list
// ("{: #install}", "{:.warning}"), and the id it gives.
func (w *mdWalker) blockAttrs(n ast.Node) (string, bool) {
	lines := n.Lines()
	if lines.Len() != 1 {
		return "", false
	}
	seg := lines.At(0)
	line := strings.TrimSpace(string(seg.Value(w.src)))
	if !strings.HasPrefix(line, "{:") || !attrLine.MatchString(line) {
		return "", false
	}
	if m := blockAttr.FindStringSubmatch(line); m != nil {
		return m[1], true
	}
	return "", true
}

// attrLine matches a whole attribute list.
var attrLine = regexp.MustCompile(`^` + attrList + `$`)

// maxMarkupLine bounds a line siteMarkup reads: site markup is short.
const maxMarkupLine = 256

// liquidRaw matches a code line that is only Liquid's "{% raw %}" or
// "{% endraw %}": Jekyll sites wrap code holding "{{ }}" in them so that
// the build leaves it alone, and the build removes them. Other template
// tags in code are the example's own and stay.
var liquidRaw = regexp.MustCompile(`(?m)^[ \t]*\{%-?[ \t]*(?:end)?raw[ \t]*-?%\}[ \t]*(?:\n|$)`)

// templateCode reports a fenced listing in a template language whose tags
// Liquid's are ("```jinja", "```liquid", "```django", "```twig" …).
func templateCode(n ast.Node, src []byte) bool {
	f, ok := n.(*ast.FencedCodeBlock)
	if !ok {
		return false
	}
	lang := strings.ToLower(string(f.Language(src)))
	for _, t := range []string{"jinja", "j2", "liquid", "django", "twig", "nunjucks", "njk", "htmldjango", "jinja2"} {
		if strings.Contains(lang, t) {
			return true
		}
	}
	return false
}

// siteMarkup reports whether text node t lies on a line of site markup
// (siteMarkupLine): the node that opens the line is checked, and the
// nodes after it on that line (goldmark splits "{% raw %}" in two) go
// with it. Code is never read this way: t is prose, and a template's tags
// inside a code block or span stay.
func (w *mdWalker) siteMarkup(t *ast.Text) bool {
	at := t.Segment.Start
	if at < w.markupEnd {
		return true
	}
	start := at
	for start > 0 && at-start < maxMarkupLine && strings.IndexByte(" \t>", w.src[start-1]) >= 0 {
		start--
	}
	if start > 0 && w.src[start-1] != '\n' {
		return false
	}
	rest := w.src[at:min(len(w.src), at+maxMarkupLine)]
	end := len(w.src)
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		end = at + i
	} else if at+maxMarkupLine < len(w.src) {
		return false
	}
	if !siteMarkupLine.Match(bytes.TrimSpace(w.src[at:end])) {
		return false
	}
	w.markupEnd = end
	return true
}

// namedTag matches an HTML start tag's id, or an <a>'s name, as
// documents write an anchor by hand: `<a name="publish">`, `<a id="x">`,
// `<span id="x">`.
var namedTag = regexp.MustCompile(`(?i)^<(?:a\s(?:[^>]*\s)?(?:name|id)|[a-z][a-z0-9]*\s(?:[^>]*\s)?id)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))`)

// anchorAttr returns the anchor a start tag names (namedTag), "" when
// it names none a fragment can link to.
func anchorAttr(tag string) string {
	m := namedTag.FindStringSubmatch(tag)
	if m == nil {
		return ""
	}
	id := m[1] + m[2] + m[3]
	if !validAnchor(id) {
		return ""
	}
	return id
}

// namedIn returns the anchor an inline tag of heading n names.
func (w *mdWalker) namedIn(n ast.Node) string {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if r, ok := c.(*ast.RawHTML); ok {
			if id := anchorAttr(w.rawHTMLText(r)); id != "" {
				return fragment(id)
			}
		}
	}
	return ""
}

// onlyNamed returns the anchor of a paragraph that is only inline tags,
// one of them naming an anchor (`<a id="tmpfs"></a>` on a line of its
// own, which CommonMark reads as a paragraph), "" for any other.
func (w *mdWalker) onlyNamed(n ast.Node) string {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.RawHTML:
		case *ast.Text:
			if strings.TrimSpace(string(c.Segment.Value(w.src))) != "" {
				return ""
			}
		default:
			return ""
		}
	}
	return w.namedIn(n)
}

// emptyNamed returns the anchor of an HTML block that is only empty named
// elements (`<a name="x"></a>` on the line before a heading), "" for any
// other block.
func emptyNamed(raw string) string {
	t := strings.TrimSpace(raw)
	id := anchorAttr(t)
	if id == "" {
		return ""
	}
	if !emptyElements.MatchString(t) {
		return ""
	}
	return fragment(id)
}

// emptyElements matches start and end tags with nothing between them.
var emptyElements = regexp.MustCompile(`^(?:<[a-zA-Z][^<>]*>\s*(?:</[a-zA-Z][a-zA-Z0-9]*>)?\s*)+$`)

func (w *mdWalker) children(n ast.Node, top bool, depth int) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.block(c, top, depth+1)
	}
}

// block handles one block node; top is true for direct children of the
// document (the only place headings are structure).
func (w *mdWalker) block(n ast.Node, top bool, depth int) {
	if depth > maxMarkdownDepth {
		w.flatten(n)
		return
	}
	named := w.namedNext
	w.namedNext = ""
	switch n := n.(type) {
	case *ast.Document:
		w.children(n, true, depth)
	case *ast.Heading:
		w.flush()
		var in inline
		w.inlines(n, &in)
		t := in.take(true)
		if t == "" {
			return
		}
		// Every heading takes its slug, nested ones too: a renderer
		// numbers repeated slugs in document order. An anchor the
		// author wrote in the heading, on the line before it ("### <a
		// name=\"publish\"></a> Publish a port") or as an attribute
		// list at its end ("## Install {#install}": kramdown, Pandoc,
		// MkDocs) is the one the documents' own links use.
		raw := w.slugText(n, 0)
		written := ""
		if m := headingAttrs.FindStringSubmatchIndex(t); m != nil {
			if m[2] >= 0 {
				written = t[m[2]:m[3]]
			}
			t = strings.TrimSpace(t[:m[0]])
			if k := headingAttrs.FindStringIndex(raw); k != nil {
				raw = raw[:k[0]]
			}
			if t == "" {
				return
			}
		}
		var anchor string
		if written == "" || !validAnchor(written) {
			// A heading given its id by an attribute list gets no
			// automatic one (kramdown's rule): counted, it made a later
			// heading of the same text "options-1", which no renderer
			// gives.
			anchor = fragment(w.headingSlug(raw))
		}
		switch id := w.namedIn(n); {
		case written != "" && validAnchor(written):
			anchor = fragment(written)
		case id != "":
			anchor = id
		case named != "":
			anchor = named
		}
		if !top {
			w.in.text(t)
			w.flush()
			return
		}
		if n.Level == 1 && w.h1 == "" {
			w.h1 = t
		}
		before := len(w.b.blocks)
		w.b.add(KindHeading, n.Level, t)
		if len(w.b.blocks) > before {
			w.b.blocks[before].Anchor = anchor
			w.lastHeading = before
		}
	case *ast.Paragraph, *ast.TextBlock:
		if id, ok := w.blockAttrs(n); ok {
			// "{: #install}" on the line after a heading (kramdown's
			// block attribute list) names that heading's anchor.
			if id != "" && w.lastHeading >= 0 && w.lastHeading == len(w.b.blocks)-1 && w.in.empty() {
				w.b.blocks[w.lastHeading].Anchor = fragment(id)
			}
			return
		}
		if id := w.onlyNamed(n); id != "" {
			w.namedNext = id
			return
		}
		w.inlines(n, &w.in)
		w.flush()
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		w.flush()
		code := w.lines(n)
		if w.frontMatter && !templateCode(n, w.src) {
			// Liquid's raw tags around a listing are a Jekyll site's
			// (its pages open with YAML front matter), not the
			// listing's; in a template language's own listing ("```jinja")
			// or a page without front matter they are what it shows.
			code = liquidRaw.ReplaceAllString(code, "")
		}
		w.b.addCode(code)
	case *ast.HTMLBlock:
		w.flush()
		w.htmlBlock(n, top, depth)
	case *ast.List:
		w.flush()
		w.lists = append(w.lists, listState{ordered: n.IsOrdered(), next: n.Start})
		w.children(n, false, depth)
		w.flush()
		w.lists = w.lists[:len(w.lists)-1]
	case *ast.ListItem:
		w.flush()
		d := max(len(w.lists), 1)
		marker := "- "
		if len(w.lists) > 0 && w.lists[d-1].ordered {
			marker = strconv.Itoa(w.lists[d-1].next) + ". "
			w.lists[d-1].next++
		}
		indent := strings.Repeat("  ", d-1)
		saved := w.item
		w.item = &itemState{depth: d, marker: indent + marker, cont: indent + "  "}
		w.children(n, false, depth)
		w.flush()
		w.item = saved
	case *east.Table:
		w.flush()
		w.table(n)
	case *ast.ThematicBreak, *ast.LinkReferenceDefinition:
		w.flush()
	default: // Blockquote and extension containers
		w.flush()
		w.children(n, false, depth)
		w.flush()
	}
}

// flatten appends all text under n as flowing text (used past the depth cap).
func (w *mdWalker) flatten(n ast.Node) {
	stack := []ast.Node{n}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch c := c.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			w.in.text(w.lines(c))
			w.in.softSpace()
			continue
		case *ast.Text:
			w.in.text(string(w.textValue(c)))
			w.in.softSpace()
			continue
		}
		if c.Type() == ast.TypeBlock && c.FirstChild() == nil && c.Lines().Len() > 0 {
			w.in.text(w.lines(c))
			w.in.softSpace()
		}
		for k := c.LastChild(); k != nil; k = k.PreviousSibling() {
			stack = append(stack, k)
		}
	}
}

// lines concatenates a block's raw lines (code keeps them verbatim).
func (w *mdWalker) lines(n ast.Node) string {
	var sb strings.Builder
	ls := n.Lines()
	for i := 0; i < ls.Len(); i++ {
		seg := ls.At(i)
		sb.Write(seg.Value(w.src))
	}
	return sb.String()
}

// htmlBlock extracts the text of raw HTML embedded in Markdown with the
// streaming HTML extractor; headings survive only at the top level.
func (w *mdWalker) htmlBlock(n *ast.HTMLBlock, top bool, depth int) {
	raw := w.lines(n)
	if n.HasClosure() {
		raw += string(n.ClosureLine.Value(w.src))
	}
	if w.wordBlock(n, raw, top, depth) {
		return
	}
	if id := emptyNamed(raw); id != "" {
		w.namedNext = id
		return
	}
	doc := extractHTMLFlat([]byte(raw))
	for _, blk := range doc.Blocks {
		s := doc.Text[blk.Start:blk.End]
		switch {
		case blk.Kind == KindCode:
			w.flush()
			w.b.addCode(s)
		case blk.Kind == KindHeading && top && w.item == nil:
			w.flush()
			if blk.Level == 1 && w.h1 == "" {
				w.h1 = s
			}
			w.b.add(KindHeading, blk.Level, s)
		default:
			w.in.text(s)
			w.flush()
		}
	}
}

func (w *mdWalker) table(t *east.Table) {
	var header, rows []string
	cells := make([]string, 0, 8)
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		cells = cells[:0]
		nonEmpty := false
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			var in inline
			w.inlines(c, &in)
			s := in.take(true)
			nonEmpty = nonEmpty || s != ""
			cells = append(cells, s)
		}
		if !nonEmpty {
			continue
		}
		// The parser pads a short row to the header's width with empty
		// cells; written out, each cost " | ", and a 26 KB upload of short
		// rows under a 3,000-column header became 4.5 MB of text.
		// Trailing empty cells say nothing and are dropped.
		for len(cells) > 1 && cells[len(cells)-1] == "" {
			cells = cells[:len(cells)-1]
		}
		line := strings.Join(cells, " | ")
		if _, ok := r.(*east.TableHeader); ok && len(rows) == 0 {
			header = append(header, line)
		} else {
			rows = append(rows, line)
		}
	}
	w.b.addTable(header, rows)
}

func (w *mdWalker) textValue(t *ast.Text) []byte {
	v := t.Value(w.src)
	if t.IsRaw() {
		return v
	}
	return unescape(v)
}

func unescape(v []byte) []byte {
	if bytes.IndexByte(v, '\\') >= 0 {
		v = util.UnescapePunctuations(v)
	}
	if bytes.IndexByte(v, '&') >= 0 {
		v = util.ResolveNumericReferences(v)
		v = util.ResolveEntityNames(v)
	}
	return v
}

// inlines appends the inline content of n to in. Inline nesting is shallow
// in practice but the recursion is bounded like the block walk.
func (w *mdWalker) inlines(n ast.Node, in *inline) {
	clear(w.raw)
	w.skip = false
	w.classifyRawHTML(n)
	w.inlinesDepth(n, in, 0)
	w.skip = false
}

func (w *mdWalker) inlinesDepth(n ast.Node, in *inline, depth int) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if w.skip {
			// Inside <script> or <style>: nothing until the end tag.
			if r, ok := c.(*ast.RawHTML); ok && w.raw[r] == rawSkipEnd {
				w.skip = false
			} else if depth < maxMarkdownDepth {
				w.inlinesDepth(c, in, depth+1)
			}
			continue
		}
		switch c := c.(type) {
		case *ast.Text:
			if w.siteMarkup(c) {
				continue
			}
			in.text(string(w.textValue(c)))
			if c.HardLineBreak() {
				in.breakLine()
			} else if c.SoftLineBreak() {
				in.softSpace()
			}
		case *ast.String:
			v := c.Value
			if !c.IsRaw() && !c.IsCode() {
				v = unescape(v)
			}
			in.text(string(v))
		case *ast.AutoLink:
			in.text(string(c.Label(w.src)))
		case *ast.RawHTML:
			switch w.raw[c] {
			case rawWord:
				in.text(w.rawHTMLText(c))
			case rawBreak:
				in.breakLine()
			case rawSkipStart:
				w.skip = true
			}
		case *ast.CodeSpan:
			var sb strings.Builder
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if x, ok := t.(*ast.Text); ok {
					sb.Write(x.Value(w.src))
				}
			}
			in.text(keptCode(sb.String()))
		case *ast.Image:
		case *east.TaskCheckBox:
			if c.IsChecked {
				in.text("[x] ")
			} else {
				in.text("[ ] ")
			}
		default:
			if depth < maxMarkdownDepth {
				w.inlinesDepth(c, in, depth+1)
			}
		}
	}
}
