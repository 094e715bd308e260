package extract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/ragd-dev/ragd/internal/analyze"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// texinfoNode matches a title as makeinfo writes one for each node of a
// manual split into pages: the node's name, then the manual's in
// parentheses ("Actions (Lexical Analysis With Flex, for Flex 2.6.4)").
var texinfoNode = regexp.MustCompile(`^(.+?) \(([^()]+)\)$`)

// texinfoTitle returns a makeinfo page's title without the manual's name
// that every page repeats (it stood in every heading path and citation),
// and the manual's name for its Top node; other pages' titles as they are.
func texinfoTitle(root *html.Node, title string) string {
	gen := findFirst(root, func(n *html.Node) bool {
		return n.DataAtom == atom.Meta && strings.EqualFold(attr(n, "name"), "generator")
	})
	if gen == nil || !strings.HasPrefix(strings.ToLower(attr(gen, "content")), "makeinfo") && !strings.HasPrefix(strings.ToLower(attr(gen, "content")), "texi2any") {
		return title
	}
	m := texinfoNode.FindStringSubmatch(title)
	if m == nil {
		return title
	}
	if m[1] == "Top" {
		return m[2]
	}
	return m[1]
}

// extractHTML parses src with the HTML5 algorithm and walks the main content.
// Documents the parser refuses (nesting deeper than 512 elements) go through
// the streaming fallback in htmlflat.go.
func extractHTML(src []byte) (*Document, error) {
	root, err := html.Parse(bytes.NewReader(src))
	if err != nil {
		return extractHTMLFlat(src), nil
	}
	title := ""
	if t := findFirst(root, func(n *html.Node) bool { return n.DataAtom == atom.Title && n.Namespace == "" }); t != nil {
		title = collapse(textContent(t))
	}
	title = texinfoTitle(root, title)
	body := findFirst(root, func(n *html.Node) bool { return n.DataAtom == atom.Body })
	if body == nil {
		body = root
	}
	if hasToken(body, tocPageTokens) {
		// A generator's page that is its table of contents, as it says
		// of itself (RDoc's table_of_contents.html: every heading and
		// every method of the documentation, 352 KB of links).
		return nil, ErrLinksOnly
	}
	main := findMain(body)

	w := &htmlWalker{banner: bannerHeading(main)}
	if main != body {
		w.content = 1 // header/footer inside <main>/<article> belong to the content
	}
	w.walkChildren(main)
	w.flush()
	if len(w.b.blocks) == 0 && main != body {
		// The main element was empty (e.g. filled by scripts): use the body.
		w = &htmlWalker{banner: bannerHeading(body)}
		w.walkChildren(body)
		w.flush()
	}
	if title == "" {
		title = metadataTitle(src)
	}
	if title == "" {
		title = firstH1(w.b.blocks, w.b.buf.String())
	}
	title = untitled(title, firstH1(w.b.blocks, w.b.buf.String()))
	if to := redirectTarget(root); to != "" && analyze.WordCount(w.b.buf.String()) <= redirectWords {
		// A page that only sends the reader elsewhere (texi2any writes one
		// per node: "The node you are looking for is at …", 144 of the zsh
		// manual's 186 files) has nothing to index; as documents, they
		// were near-empty pages whose titles matched questions.
		return nil, fmt.Errorf("%w to %q", ErrRedirect, to)
	}
	if strings.TrimSpace(w.b.buf.String()) == "" && hasText(body) {
		return nil, ErrChromeOnly
	}
	left := analyze.WordCount(w.b.buf.String())
	// Links written as code are names mentioned, not a page's navigation:
	// a javadoc class page lists every method it inherits as a link inside
	// code (600 for a Swing component), and was refused as an index.
	linked := w.siteLinks >= indexLinks && left >= indexPageWords && 2*w.codeLinks < w.siteLinks
	share := float64(w.siteLinkWords) / float64(left)
	if linked && (share >= indexLinkShare || 2*w.entryLinks >= w.siteLinks && share >= termIndexLinkShare &&
		float64(left-w.siteLinkWords) <= termIndexOtherWords*float64(w.siteLinks)) {
		return nil, ErrLinksOnly
	}
	if w.tocWords > 0 && left <= tocPageWords {
		// A page that is its title and a table of contents of the pages
		// under it (Sphinx's "Comparison with other tools", "Getting
		// started tutorials": a title, then a toctree) is no document;
		// stored, its list of titles matched questions about any of them.
		return nil, ErrLinksOnly
	}
	if len(w.b.blocks) == 1 && w.b.blocks[0].Kind == KindHeading {
		return nil, ErrTitleOnly
	}
	if w.linkWords >= minLinkPageWords && left < linkPageWords && 5*left < w.linkWords {
		// A page that is its index or contents (texi2any's
		// Options-Index.html, zsh_toc.html): once its table or list of
		// links is left out, its title, a letter bar and a footer remain.
		return nil, ErrLinksOnly
	}
	return w.b.document(title), nil
}

// metadataTitle returns the title a page without a <title> declares in a
// comment of JSON opening it, as the Go project's pages do (`<!--{
// "Title": "The Go Programming Language Specification", "Subtitle":
// "Version of June 29, 2022" }-->`), with the subtitle after a dash: the
// pages were titled by their file names, and two copies of the
// specification could not be told apart. "" when there is none.
func metadataTitle(src []byte) string {
	rest, ok := bytes.CutPrefix(bytes.TrimLeft(src, " \t\r\n\ufeff"), []byte("<!--{"))
	if !ok {
		return ""
	}
	body, _, ok := bytes.Cut(rest, []byte("}-->"))
	if !ok {
		return ""
	}
	var meta struct{ Title, Subtitle string }
	if json.Unmarshal(append(append([]byte("{"), body...), '}'), &meta) != nil {
		return ""
	}
	title := collapse(meta.Title)
	if sub := collapse(meta.Subtitle); title != "" && sub != "" {
		title += " — " + sub
	}
	return title
}

// bannerHeading returns the site's name set as the first h1 of a page
// that has a later h1 of its own, when all its text is one link to the
// site's home page (Django's YUI theme, `<div id="hd"><h1><a
// href="../index.html">Django 3.2.25 documentation</a></h1>`, no header
// element): it is the site's banner, not the page's title, and as the
// page's first heading it opened every chunk's heading path and took the
// first chunk's citation anchor. A listing whose every title links to its
// post, and a post's title linking to its own address, are headings. nil
// when there is none.
func bannerHeading(root *html.Node) *html.Node {
	var h1s []*html.Node
	findFirst(root, func(n *html.Node) bool {
		if n.Type == html.ElementNode && n.DataAtom == atom.H1 {
			h1s = append(h1s, n)
		}
		return len(h1s) == 2
	})
	if len(h1s) < 2 {
		return nil
	}
	link := wholeLink(h1s[0])
	if link == nil || wholeLink(h1s[1]) != nil || !homeLink(attr(link, "href")) {
		return nil
	}
	return h1s[0]
}

// wholeLink returns the link that is all of heading h's text, nil when
// there is none.
func wholeLink(h *html.Node) *html.Node {
	text := strings.TrimSpace(textContent(h))
	if text == "" {
		return nil
	}
	var link *html.Node
	links := 0
	findFirst(h, func(n *html.Node) bool {
		if n.Type == html.ElementNode && n.DataAtom == atom.A && hasAttr(n, "href") {
			links++
			link = n
		}
		return false
	})
	if links != 1 || strings.TrimSpace(textContent(link)) != text {
		return nil
	}
	return link
}

// homeLink reports whether href leads to a site's home page: its root, or
// an index page up the tree ("../index.html", "/", "./").
func homeLink(href string) bool {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "#") {
		return false // the page itself
	}
	if i := strings.IndexAny(href, "?#"); i >= 0 {
		href = href[:i]
	}
	for strings.HasPrefix(href, "../") {
		href = href[3:]
	}
	href = strings.TrimPrefix(strings.TrimPrefix(href, "./"), "/")
	return href == "" || href == "index.html" || href == "index.htm"
}

// hasText reports whether n holds any text a browser shows (not that of
// scripts, styles or templates).
func hasText(n *html.Node) bool {
	switch {
	case n.Type == html.TextNode:
		return strings.TrimSpace(n.Data) != ""
	case n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style || n.DataAtom == atom.Template || n.DataAtom == atom.Noscript):
		return false
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if hasText(c) {
			return true
		}
	}
	return false
}

// redirectWords bounds the text of a page that redirects (meta refresh) for
// it to count as a redirect only.
const redirectWords = 30

// redirectTarget returns the address a <meta http-equiv="refresh"> sends
// the reader to, or "" when the page has none.
func redirectTarget(root *html.Node) string {
	m := findFirst(root, func(n *html.Node) bool {
		return n.DataAtom == atom.Meta && strings.EqualFold(attr(n, "http-equiv"), "refresh")
	})
	if m == nil {
		return ""
	}
	_, url, ok := strings.Cut(attr(m, "content"), "=")
	if !ok || !strings.Contains(strings.ToLower(attr(m, "content")), "url") {
		return ""
	}
	return strings.Trim(strings.TrimSpace(url), `'"`)
}

// untitled replaces the placeholder Sphinx titles a page without a
// heading with ("<no title> — gevent 22.10.2 documentation") by the
// page's first level-1 heading (h1), or leaves it out: stored, it was the
// title readers saw on the page's citations.
func untitled(title, h1 string) string {
	rest, ok := strings.CutPrefix(title, "<no title>")
	if !ok {
		return title
	}
	rest = strings.TrimSpace(rest)
	if rest != "" {
		// Only the placeholder before a separator and the site's name;
		// a title that says "<no title>" in its words is kept.
		cut := false
		for _, sep := range []string{"—", "–", "-", "|", "·", ":"} {
			if r, ok := strings.CutPrefix(rest, sep); ok {
				rest, cut = strings.TrimSpace(r), true
				break
			}
		}
		if !cut {
			return title
		}
	}
	switch {
	case h1 != "" && rest != "":
		return h1 + " — " + rest
	case h1 != "":
		return h1
	}
	return rest
}

// firstH1 returns the text of the first level-1 heading, or "".
func firstH1(blocks []Block, text string) string {
	for _, blk := range blocks {
		if blk.Kind == KindHeading && blk.Level == 1 {
			return text[blk.Start:blk.End]
		}
	}
	return ""
}

// findFirst returns the first node in document order for which match is
// true, or nil. It walks with an explicit stack.
func findFirst(root *html.Node, match func(*html.Node) bool) *html.Node {
	stack := []*html.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Type == html.ElementNode && match(n) {
			return n
		}
		for c := n.LastChild; c != nil; c = c.PrevSibling {
			stack = append(stack, c)
		}
	}
	return nil
}

// findMain picks the main content element: the first <main> or role=main,
// else the only <article>, else body itself.
func findMain(body *html.Node) *html.Node {
	if m := findFirst(body, func(n *html.Node) bool {
		return n.DataAtom == atom.Main || strings.EqualFold(attr(n, "role"), "main")
	}); m != nil {
		return m
	}
	var article *html.Node
	count := 0
	findFirst(body, func(n *html.Node) bool {
		if n.DataAtom == atom.Article {
			count++
			if article == nil {
				article = n
			}
		}
		return false
	})
	if count == 1 {
		return article
	}
	return body
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return true
		}
	}
	return false
}

// chromeTokens are class names and ids that mark page chrome rather than
// content. Matching is on whole class tokens, case-insensitive, so a class
// like "navigation-guide" is not caught.
var chromeTokens = map[string]bool{
	"navheader": true, "navfooter": true, "docnav": true, // DocBook, Publican
	"toc": true, "table-of-contents": true,
	// The pydata and sphinx-book themes' column of the page's own contents,
	// whose "Contents" label opened the first chunk of every such page.
	"bd-toc": true, "onthispage": true,
	// Texinfo's list of a node's sections or subnodes ("section-toc",
	// "mini-toc" since Texinfo 7): stored, it ended 18 of the diffutils
	// manual's chunks.
	"section-toc": true, "mini-toc": true,
	"nav": true, "navbar": true, "navigation": true, "site-nav": true, "sitenav": true,
	"breadcrumb": true, "breadcrumbs": true,
	"sidebar": true, "menu": true,
	// Sphinx's sidebar (the page's contents, the previous and next
	// topics, the search box): themes that mark no role=main element
	// leave it beside the body (gevent's, whose "Table Of Contents" and
	// "Next:"/"Previous:" links ended every page's last chunk).
	"sphinxsidebar": true,
	// Bootstrap's drop-down menu, hidden until its toggle is clicked
	// (haproxy-dconv puts one after every keyword named in the text, "This
	// keyword is available in sections : …", glued to the next word).
	"dropdown-menu": true,
	"skip-link":     true, "skiplink": true, "skip-to-content": true,
	"pagination": true, "pager": true, "prev-next-area": true, // sphinx-book-theme's previous/next buttons
	// A pager's links to the previous, next and contents pages (Exim's
	// specification: "<-previous", "Table of Contents", "next->" above and
	// below every chapter, 133 chunks).
	"previous_page": true, "next_page": true, "toc_page": true, "prev_page": true,
	"previous-page": true, "next-page": true, "prev-page": true, "nav-previous": true, "nav-next": true,
	"left-prev": true, "right-next": true,
	"site-header": true, "site-footer": true,
	// A top bar over the page (Erlang/OTP's documentation repeats the
	// page's title there as an h1, with the title's id: 57 of a trial's
	// 64 pages opened with their title twice, and were cited at the bar).
	"topbar": true, "top-bar": true,
	"cookie-banner": true, "cookie-notice": true, "cookie-consent": true,
	// A heading's link to itself, shown as "¶" or "#" (Sphinx, the Apache
	// manual, Docusaurus, anchor.js): extracted, every heading and so every
	// citation ended in "¶".
	"headerlink": true, "permalink": true, "anchor-link": true, "anchorjs-link": true, "hash-link": true, "heading-anchor": true,
	// Sphinx's link from an API entry to its highlighted source, shown as
	// "[source]" after every signature (456 chunks of the Django docs).
	"viewcode-link": true, "viewcode-back": true,
	// DocBook's link under a figure to its long description ("[D]", a
	// page of its own): 11 of a trial's answers quoted it as code.
	"longdesc-link": true,
	// Pygments' line numbers in a code listing, inline ("<span
	// class="linenos"> 5</span>CherryPy Checker:") or as a table column:
	// glued to the code, they changed every line the asker pastes from it.
	"linenos": true, "lineno": true, "linenodiv": true,
	// A documentation theme's banner about the release the page is for, or
	// the site's news, shown on every page above the content (the Celery
	// theme's "This document is for Kombu's development version … Get the
	// stable docs here: 5.0", pydata-sphinx-theme's, Docusaurus's and MkDocs
	// Material's): it opened every page's first chunk of a held-out trial,
	// and an off-topic question was answered with it.
	"developmentversion": true, "oldversion": true, "version-warning": true, "version-banner": true,
	"bd-header-version-warning": true, "bd-header-announcement": true,
	"theme-doc-version-banner": true, "theme-announcement-bar": true, "md-banner": true,
}

// entryHeadTokens mark the heading line of an API entry laid out in divs
// (entryHeading).
var entryHeadTokens = map[string]bool{"method-heading": true}

// toctreeTokens mark Sphinx's table of contents of the pages under a page
// (the toctree directive's output).
var toctreeTokens = map[string]bool{"toctree-wrapper": true}

// tocPageWords bounds the words a page keeps beside its toctree to be a
// contents page: its title and a line at most.
const tocPageWords = 12

// linkTree reports whether n's lists are lists of links (linkList), the
// text outside them a caption at most (a toctree's "Contents:").
func linkTree(n *html.Node) bool {
	lists := 0
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && (d.DataAtom == atom.Ul || d.DataAtom == atom.Ol) && (d.Parent == nil || d.Parent.DataAtom != atom.Li) {
			if ok, _ := linkItems(d); !ok {
				return false
			}
			lists++
		}
	}
	return lists > 0
}

// generatedIndexList reports whether list n is links to a site's
// generated pages only, each item one link and its text: the general
// index, the module index, the search page (Sphinx's genindex.html,
// py-modindex.html, search.html).
func generatedIndexList(n *html.Node) bool {
	items := 0
	for li := n.FirstChild; li != nil; li = li.NextSibling {
		if li.Type == html.TextNode && strings.TrimSpace(li.Data) == "" {
			continue
		}
		if li.Type != html.ElementNode || li.DataAtom != atom.Li {
			return false
		}
		var links []*html.Node
		for d := range li.Descendants() {
			if d.Type == html.ElementNode && d.DataAtom == atom.A && hasAttr(d, "href") {
				links = append(links, d)
			}
		}
		if len(links) != 1 || strings.TrimSpace(textContent(links[0])) != strings.TrimSpace(textContent(li)) {
			return false
		}
		href, _, _ := strings.Cut(attr(links[0], "href"), "#")
		if !generatedPages[path.Base(href)] {
			return false
		}
		items++
	}
	return items > 0
}

// generatedPages are the file names of the pages a documentation
// generator writes beside the content: indices and the search page.
var generatedPages = map[string]bool{"genindex.html": true, "py-modindex.html": true, "modindex.html": true, "search.html": true, "np-modindex.html": true}

// tocPageTokens mark a page's body as a table of contents (RDoc's
// Darkfish writes `<body class="table-of-contents">`).
var tocPageTokens = map[string]bool{"table-of-contents": true}

// classifierTokens mark docutils' classifier of a definition list's term
// ("codetags : list of strings"), quoted in brackets after the term.
var (
	classifierTokens          = map[string]bool{"classifier": true}
	classifierDelimiterTokens = map[string]bool{"classifier-delimiter": true}
)

// codeTableTokens mark a table that lays out a code listing beside its
// line numbers (Pygments' "table" line numbers, Sphinx's highlighttable).
var codeTableTokens = map[string]bool{"highlighttable": true}

// boringTokens mark the lines of a code listing that mdBook hides.
var boringTokens = map[string]bool{"boring": true}

// captionTokens mark a paragraph as the title of the block after it
// (DocBook renders table, example and figure titles as p.title).
var captionTokens = map[string]bool{"title": true, "caption": true}

// chromeRoles are ARIA landmark roles that are never content.
var chromeRoles = map[string]bool{
	"navigation": true, "banner": true, "contentinfo": true, "complementary": true,
	"search": true, "menu": true, "menubar": true, "toolbar": true,
}

// outputTokens mark a notebook cell's output (nbsphinx's output_area,
// MyST-NB's cell_output, JupyterLab's): what an example printed, whose
// headings are its own ("<h1>My Table</h1>" in a styled table's output
// opened sections of pandas' Table Visualization page that the page's
// later text was filed under).
var outputTokens = map[string]bool{"output_area": true, "cell_output": true, "jp-OutputArea-output": true, "output_html": true}

// admonitionTokens mark boxes (DocBook note/tip/warning, Sphinx admonitions)
// whose own heading ("Note") is a label, not document structure.
var admonitionTokens = map[string]bool{
	"note": true, "tip": true, "warning": true, "caution": true, "important": true,
	"admonition": true, "callout": true, "hint": true, "attention": true, "danger": true,
}

// localContents reports docutils' table of contents of the page itself
// (the contents directive: div.contents.topic, a list of links to the
// page's own sections): navigation, whose lines were quoted as answers
// ("- The special _cp_dispatch method"). A div of class "contents" alone
// is the whole content in other generators (Doxygen's).
func localContents(n *html.Node) bool {
	var contents, topic bool
	for _, f := range strings.Fields(strings.ToLower(attr(n, "class"))) {
		contents = contents || f == "contents"
		topic = topic || f == "topic"
	}
	return contents && topic
}

// classToken reports whether one of n's classes is in set.
func classToken(n *html.Node, set map[string]bool) bool {
	for _, f := range strings.Fields(attr(n, "class")) {
		if set[strings.ToLower(f)] {
			return true
		}
	}
	return false
}

func hasToken(n *html.Node, set map[string]bool) bool {
	for _, f := range strings.Fields(attr(n, "class")) {
		if set[strings.ToLower(f)] {
			return true
		}
	}
	if id := attr(n, "id"); id != "" && set[strings.ToLower(id)] {
		return true
	}
	return false
}

// selfLink reports an anchor to a place on its own page whose text is one
// symbol ("¶", "#", "§", "🔗"): a heading's or paragraph's permalink, never
// content.
func selfLink(n *html.Node) bool {
	if !strings.HasPrefix(attr(n, "href"), "#") {
		return false
	}
	t := strings.TrimSpace(textContent(n))
	return t == "¶" || t == "#" || t == "§" || t == "🔗"
}

// symbolLink reports a link within the page whose text is an arrow back
// up alone: RDoc's "↑" to the top after every heading (in 2,027 heading
// paths of a trial's Ruby documentation, "Magic Comments ↑"), a
// footnote's "↩" back to its mark. Other symbols linked in the page say
// something: an operator method's name (Ruby's "<=>", "=="), a footnote
// mark ("*", "†").
func symbolLink(n *html.Node) bool {
	if !strings.HasPrefix(attr(n, "href"), "#") {
		return false
	}
	t := strings.TrimSpace(strings.ReplaceAll(textContent(n), "\ufe0e", ""))
	return backArrows[t]
}

// backArrows are the arrows a link back up the page shows.
var backArrows = map[string]bool{"↑": true, "⇑": true, "⬆": true, "▲": true, "↩": true, "⤴": true, "⮍": true}

// hiddenElements are the elements whose text is never page text: the
// head, scripts, embedded objects, controls, navigation (isChrome,
// textUpTo).
var hiddenElements = map[atom.Atom]bool{
	atom.Head: true, atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Nav: true, atom.Aside: true, atom.Iframe: true, atom.Object: true, atom.Embed: true,
	atom.Svg: true, atom.Math: true, atom.Button: true, atom.Select: true, atom.Textarea: true, atom.Input: true,
	atom.Canvas: true, atom.Audio: true, atom.Video: true, atom.Map: true, atom.Dialog: true, atom.Title: true,
	atom.Img: true, atom.Picture: true,
}

// isChrome reports whether element n is page chrome or invisible and must be
// dropped with its subtree. inContent is true inside main/article/section,
// where header and footer are the content's own.
func isChrome(n *html.Node, inContent bool) bool {
	if hiddenElements[n.DataAtom] {
		return true
	}
	switch n.DataAtom {
	case atom.Header, atom.Footer:
		if !inContent {
			return true
		}
	case atom.Form:
		// A search box or a login form is chrome; a form around the whole
		// page (ASP.NET Web Forms, classic SharePoint) holds the content,
		// and dropping it left such a page with no text at all.
		if !holdsContent(n) {
			return true
		}
	}
	if n.Namespace != "" { // foreign content: SVG or MathML subtrees
		return true
	}
	if n.DataAtom == atom.A && (selfLink(n) || symbolLink(n)) {
		return true
	}
	if n.DataAtom == atom.Table && linkBar(n) {
		return true
	}
	if !inContent && (n.DataAtom == atom.Div || n.DataAtom == atom.P) && linkLine(n) {
		return true
	}
	if (n.DataAtom == atom.Div || n.DataAtom == atom.P) && relNavLine(n) {
		return true
	}
	if n.DataAtom == atom.A && footnoteMark(n) {
		return true
	}
	if n.DataAtom == atom.Label && strings.IndexFunc(textContent(n), func(r rune) bool {
		return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !privateUse(r)
	}) < 0 {
		// A form control's label of icons or punctuation (a theme's tab
		// switch: "/" between two logo glyphs).
		return true
	}
	if (n.DataAtom == atom.P || n.DataAtom == atom.Div || n.DataAtom == atom.Footer) && colophon(n) {
		return true
	}
	if n.DataAtom == atom.Span && hasToken(n, boringTokens) {
		// mdBook's hidden lines of a listing ("fn main() {" around
		// every example of the Rust book): the page shows the listing
		// without them.
		return true
	}
	if len(n.Attr) == 0 {
		return false
	}
	if hasAttr(n, "hidden") || strings.EqualFold(attr(n, "aria-hidden"), "true") {
		return true
	}
	if chromeRoles[strings.ToLower(attr(n, "role"))] {
		return true
	}
	if st := attr(n, "style"); st != "" {
		st = strings.ToLower(strings.ReplaceAll(st, " ", ""))
		if strings.Contains(st, "display:none") || strings.Contains(st, "visibility:hidden") {
			return true
		}
	}
	if n.DataAtom == atom.Div && localContents(n) {
		return true
	}
	if hasToken(n, chromeTokens) {
		// A "sidebar" is a site's navigation column on most pages but a
		// boxed aside of the text in DocBook books (TIP, SECURITY, …:
		// 420 of them in the Debian Administrator's Handbook, dropped
		// with every command only they named): navigation is mostly
		// links, an aside mostly prose. The page's one sidebar, named by
		// its id, is its layout's column whatever it says (haproxy-dconv's
		// "Keyboard navigation" notes opened every page's first chunk).
		if classToken(n, sidebarTokens) && proseBox(n) {
			return false
		}
		return true
	}
	return false
}

// templatePlaceholder matches a text that is a site template's unfilled
// placeholder alone ("__JS_FLAVORED_DYNAMIC_CSS__" in the head of every
// page of the Node.js API documentation, which the parser moves into the
// body): it opened every page's first chunk.
var templatePlaceholder = regexp.MustCompile(`^\s*__[A-Z][A-Z0-9_]*__\s*$`)

// A page is a page of links, no document, when the walk left out at least
// minLinkPageWords words of lists and tables of links (linkList,
// linkTable) and what remains is fewer than linkPageWords words and a
// fifth of them (a title, a bar of letters, a footer).
const (
	minLinkPageWords = 100
	linkPageWords    = 150
)

// A page whose kept text is mostly the words of links to the site's own
// pages is a page of links too (an index written as a definition list of
// terms, each followed by its links: Exim's concept, option and variable
// indexes, 212 of the specification's 1,685 chunks, in the first results
// of 4 of a trial's 30 questions; libxslt's symbol indexes): at least
// indexLinks such links, at least indexPageWords words, and at least
// indexLinkShare of them link text. A page of prose that links a lot
// (an API summary with a description per entry) stays below the share.
const (
	indexLinks     = 50
	indexPageWords = 200
	indexLinkShare = 0.7
)

// A back-of-book or symbol index is a page of links too where less of
// its text is link text: each entry is a term or two and the titles of
// the sections that treat it, so between two links come at most a few
// words, where an API summary or prose gives each link a description or
// a sentence. DocBook's bookindex.html (the PostgreSQL manual's: 3,478
// links, 63 % of its words link text, 1.6 other words a link) was stored,
// and its entries were quoted as the answer to questions about any term
// ("each, hstore Operators and Functions earth, Cube-Based Earth Distances
// …"); so were gtk-doc's api-index-full.html (about half its words link
// text) and rustdoc's all.html. At least half the links entries of a
// definition list or a list (entryLink; a javadoc class page lists the
// methods it inherits as comma-separated links inside code, 0.9 other
// words a link, and stays a document), at least termIndexLinkShare of the
// words link text, and at most termIndexOtherWords other words a link.
const (
	termIndexLinkShare  = 0.4
	termIndexOtherWords = 2.5
)

// minLinkItems is the least number of items of a list of links alone that
// makes it a site's menu outside the page's content.
const minLinkItems = 5

// linkList reports a list (ul, ol) outside the page's content each of
// whose items is a link and nothing else, or a nested list of such items,
// with at least minLinkItems items in all: a site's menu (the Node.js API
// documentation's list of its 60 modules, repeated atop every page) or a
// table of contents (texi2any's zsh_toc.html). Inside main, article or
// section, such a list is the page's own and kept.
func linkList(n *html.Node) bool {
	ok, items := linkItems(n)
	return ok && items >= minLinkItems
}

// pagerList reports a list of two or more items, each one link to the
// site's pages whose text only says where it leads in the site's order
// ("Previous Chapter", "Next", "Up", "Table of Contents", "Index").
func pagerList(n *html.Node) bool {
	ok, items := linkItems(n)
	if !ok || items < 2 {
		return false
	}
	for a := range n.Descendants() {
		if a.Type == html.ElementNode && a.DataAtom == atom.A && !pagerText.MatchString(strings.TrimSpace(textContent(a))) {
			return false
		}
	}
	return true
}

// pagerText matches a pager link's text.
var pagerText = regexp.MustCompile(`(?i)^[«‹<←↑→>›» ]*(previous|prev|next|up|top|home|index|contents|table of contents)( (chapter|page|section|topic|node))?[«‹<←↑→>›» ]*$`)

// linkItems reports whether n is a list whose every item is one link to
// the site's pages, with its own such lists nested at most, and how many
// items it has, nested ones included.
func linkItems(n *html.Node) (bool, int) {
	items := 0
	var list func(l *html.Node) bool
	list = func(l *html.Node) bool {
		for li := l.FirstChild; li != nil; li = li.NextSibling {
			switch {
			case li.Type == html.TextNode && strings.TrimSpace(li.Data) == "":
				continue
			case li.Type != html.ElementNode || li.DataAtom != atom.Li:
				return false
			}
			items++
			links := 0
			for c := li.FirstChild; c != nil; c = c.NextSibling {
				switch {
				case c.Type == html.TextNode && strings.IndexFunc(c.Data, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0:
				case c.Type == html.ElementNode && c.DataAtom == atom.A && hasAttr(c, "href"):
					if !siteLink(attr(c, "href")) {
						// A list of links to other sites (a release's
						// changes, each its pull request) is content.
						return false
					}
					links++
				case c.Type == html.ElementNode && (c.DataAtom == atom.Ul || c.DataAtom == atom.Ol):
					if !list(c) {
						return false
					}
				default:
					return false
				}
			}
			if links != 1 {
				return false
			}
		}
		return true
	}
	ok := list(n)
	return ok, items
}

// minLinkRows is the least number of rows of a table whose text is links
// that makes it an index outside the page's content.
const minLinkRows = 10

// linkTable reports a table outside the page's content of at least
// minLinkRows rows whose letters are, but for a tenth (its header row),
// in links: a generated index (texi2any's Options-Index.html, an entry
// and its section per row, all links), not prose.
func linkTable(n *html.Node) bool {
	rows, inLinks, all := 0, 0, 0
	var walk func(c *html.Node, inLink bool)
	walk = func(c *html.Node, inLink bool) {
		switch {
		case c.Type == html.TextNode:
			for _, r := range c.Data {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					all++
					if inLink {
						inLinks++
					}
				}
			}
			return
		case c.Type != html.ElementNode:
			return
		case c.DataAtom == atom.Tr:
			rows++
		case c.DataAtom == atom.A && hasAttr(c, "href"):
			inLink = siteLink(attr(c, "href"))
		}
		for k := c.FirstChild; k != nil; k = k.NextSibling {
			walk(k, inLink)
		}
	}
	walk(n, false)
	return rows >= minLinkRows && all > 0 && float64(inLinks) >= 0.9*float64(all)
}

// siteLink reports an href within the site: relative, or a fragment. A
// menu, a table of contents and an index link the site's own pages; links
// to other sites (a release note's pull requests) are what a page cites.
func siteLink(href string) bool {
	h := strings.TrimSpace(href)
	if strings.HasPrefix(h, "//") {
		return false
	}
	if i := strings.IndexAny(h, ":/?#"); i > 0 && h[i] == ':' {
		return false // a scheme: http:, mailto:, …
	}
	return true
}

// linkBar reports a navigation bar laid out as a table: one or two rows
// of at least two links, every cell's letters and digits inside links
// ("[ << ] [ < ] [ Up ] [ > ] … [Contents] [Index]", texi2any's header on
// every node: in 304 of the zsh manual's 1,103 chunks), or an index's
// letters after a header cell that labels them ("Jump to:", texi2any's
// bar above and below every index). A table of content has cells of
// text.
func linkBar(n *html.Node) bool {
	rows, links, plain := 0, 0, false
	// labelled is set by a header cell's label; the links beside it are
	// then an index's letters, longest at most 3 runes ("A", "!", "[")
	// — a "See also:" or "Depends:" cell before links to pages is content.
	labelled, longest := false, 0
	var walk func(c *html.Node, inLink bool)
	walk = func(c *html.Node, inLink bool) {
		switch {
		case c.Type == html.TextNode:
			if !inLink && strings.IndexFunc(c.Data, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
				plain = true
			}
			return
		case c.Type != html.ElementNode:
			return
		case c.DataAtom == atom.Tr:
			rows++
		case c.DataAtom == atom.A && hasAttr(c, "href"):
			links++
			inLink = true
			longest = max(longest, utf8.RuneCountInString(strings.TrimSpace(textContent(c))))
		case c.DataAtom == atom.Th && barLabel(textContent(c)):
			labelled = true
			return
		}
		for k := c.FirstChild; k != nil && !plain; k = k.NextSibling {
			walk(k, inLink)
		}
	}
	walk(n, false)
	return !plain && links >= 2 && rows >= 1 && rows <= 2 && (!labelled || longest <= 3)
}

// barLabel reports a header cell's text that labels the links beside it:
// one to three words ending with a colon ("Jump to:").
func barLabel(t string) bool {
	t = strings.TrimSpace(strings.ReplaceAll(t, "\u00a0", " "))
	n := len(strings.Fields(t))
	return strings.HasSuffix(t, ":") && n >= 1 && n <= 3
}

// linkLine reports a navigation bar written as one line of links outside
// the page's main content: at least three links, nothing outside them but
// blanks and bar separators, one at least, and no line break
// ("Home | Table of contents | Index | Modules", a Sphinx theme's header on
// every page, was indexed and then quoted as an answer), and no block
// inside. Links separated by commas, or a list or paragraphs of links,
// are content ("See also: os.path, shutil, glob").
func linkLine(n *html.Node) bool {
	links, plain, block, bar := 0, false, false, false
	var walk func(c *html.Node, inLink bool)
	walk = func(c *html.Node, inLink bool) {
		switch {
		case c.Type == html.TextNode:
			if !inLink && strings.IndexFunc(c.Data, func(r rune) bool { return !unicode.IsSpace(r) && !strings.ContainsRune(barSeparators, r) }) >= 0 {
				plain = true
			}
			bar = bar || !inLink && strings.ContainsAny(c.Data, barSeparators)
			return
		case c.Type != html.ElementNode:
			return
		case c.DataAtom == atom.A && hasAttr(c, "href"):
			links++
			inLink = true
		case c.DataAtom != atom.Span && c.DataAtom != atom.B && c.DataAtom != atom.Strong && c.DataAtom != atom.Em &&
			c.DataAtom != atom.I && c.DataAtom != atom.Code && c.DataAtom != atom.Small && c != n:
			block = true
			return
		}
		for k := c.FirstChild; k != nil && !plain && !block; k = k.NextSibling {
			walk(k, inLink)
		}
	}
	walk(n, false)
	return !plain && !block && bar && links >= 3
}

// relNavLine reports a line of links to the pages around the page, as
// texinfo writes above every node ("Next: <a rel="next">Preface</a>,
// Previous: <a rel="prev">…</a>, Up: <a rel="up">…</a> [<a
// rel="contents">Contents</a>][<a rel="index">Index</a>]"): two or more
// links, each with such a rel or right after its label ("Next:"), and no
// text outside them but their labels and punctuation. Kept, it was in half
// the chunks of the R manuals, each carrying the next section's title into
// the chunk before it.
func relNavLine(n *html.Node) bool {
	links, labelled, other := 0, 0, false
	last := "" // the text before the current node
	var walk func(c *html.Node)
	walk = func(c *html.Node) {
		for k := c.FirstChild; k != nil && !other; k = k.NextSibling {
			switch {
			case k.Type == html.TextNode:
				for _, w := range strings.FieldsFunc(strings.ToLower(k.Data), func(r rune) bool { return !unicode.IsLetter(r) }) {
					if !navLabels[w] {
						other = true
					}
				}
				last = k.Data
			case k.Type != html.ElementNode:
			case k.DataAtom == atom.A:
				// The line texinfo repeats at a node's foot links its
				// neighbours without rel, each after its label ("Next:
				// <a href=…>Special arguments to macros</a>").
				switch {
				case navLabelled.MatchString(last):
					labelled++
				case !navRels[strings.ToLower(attr(k, "rel"))]:
					other = true
				}
				last = ""
				links++
			default:
				walk(k)
			}
		}
	}
	walk(n)
	// One link after its label is a pager too ("Next page: <a>gevent –
	// common functions</a>" under every page of gevent's documentation).
	return !other && (links >= 2 || links == 1 && labelled == 1)
}

// navLabelled matches text ending with a navigation label and its colon,
// which names the link after it ("…, Previous: ", "Next page: ").
var navLabelled = regexp.MustCompile(`(?i)\b(next|previous|prev|up)(?:[\s\x{a0}]+(?:page|chapter|topic|section))?:[\s\x{a0}]*$`)

// navRels are the link relations of a page's links to the pages around
// it (HTML's next, prev, up; texinfo's contents and index).
var navRels = map[string]bool{"next": true, "prev": true, "previous": true, "up": true, "contents": true, "index": true,
	"toc": true, "start": true, "first": true, "last": true, "top": true}

// navLabels are the words a navigation line writes outside its links.
var navLabels = map[string]bool{"next": true, "previous": true, "prev": true, "up": true, "contents": true, "index": true,
	"top": true, "home": true, "table": true, "of": true, "nbsp": true, "page": true, "chapter": true, "topic": true, "section": true}

// footnoteMark reports a link to a footnote on the page, as its mark in
// the text: an in-page link whose text is a number of up to three digits
// (bracketed or not) set as a superscript, or with a footnote's class.
// Kept, the number was glued to the word before it ("performance75
// penalty", "‘English’42": texinfo writes <a href="#FOOT75"><sup>75</sup></a>
// after the word), which neither the keyword index nor a reader can use.
func footnoteMark(n *html.Node) bool {
	if !strings.HasPrefix(attr(n, "href"), "#") || !footnoteNumber.MatchString(strings.TrimSpace(textContent(n))) {
		return false
	}
	if hasToken(n, footnoteTokens) || n.Parent != nil && n.Parent.DataAtom == atom.Sup {
		return true
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Sup {
			return true
		}
	}
	return false
}

// footnoteNumber is a footnote mark's text: "41", "[3]".
var footnoteNumber = regexp.MustCompile(`^\[?\d{1,3}\]?$`)

// footnoteTokens are classes of a footnote's mark in the text (docutils,
// pandoc, Python-Markdown).
var footnoteTokens = map[string]bool{"footnote-reference": true, "footnote-ref": true, "footnote": true, "fn-ref": true}

// barSeparators are the characters a navigation bar puts between its
// links.
const barSeparators = "|·•»«‹›/–—-[]:｜・"

// colophonRe matches a generator's colophon: "This document was generated
// on February 5, 2023 using texi2any." (texi2any's and texi2html's footer
// on every page, 36 of the zsh manual's), "Generated by Doxygen 1.9.4",
// "Created using Sphinx 5.3.0".
var colophonRe = regexp.MustCompile(`(?i)^(?:(?:this|the) (?:document|page|manual|documentation|web ?site|site|guide) (?:was|is|has been) (?:automatically )?(?:generated|created|produced|built|converted)\b.*\b(?:using|by|with|from)\b|(?:generated|created|built|produced|made|rendered) (?:by|with|using) (?:the )?(?:doxygen|sphinx|texi2any|texi2html|makeinfo|javadoc|jsdoc|typedoc|mkdocs|hugo|jekyll|asciidoctor|docbook|pandoc|rustdoc|godoc|rdoc|yard|latex2html|hevea|docusaurus|gitbook)\b)`)

// colophon reports a paragraph (or a div) that only says which tool
// generated the page, or, in the page's footer or as the footer, its
// copyright or when it was last updated: chrome repeated on every page of
// a generated manual (the Read the Docs theme's footer: "© Copyright …"
// and a bare "Built with Sphinx using a theme provided by Read the Docs.").
func colophon(n *html.Node) bool {
	raw, ok := textUpTo(n, 1000)
	if !ok {
		// Read no further than a colophon can reach: every div of a page
		// is asked, and the page's own content is one of them.
		return false
	}
	t := strings.Join(strings.Fields(raw), " ")
	footer := inFooter(n) || n.DataAtom == atom.Footer || hasToken(n, footerTokens)
	return len(t) <= 200 && (colophonRe.MatchString(t) || (copyrightLine.MatchString(t) || lastUpdated.MatchString(t)) && footer ||
		footerCopyright.MatchString(t) && footer && !inContent(n))
}

// inContent reports whether n lies in the page's content element (main,
// role=main, article): a footer there is the article's own ("This guide
// is licensed under CC BY-SA 4.0; © 2024 …"), its text content.
func inContent(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && (p.DataAtom == atom.Main || p.DataAtom == atom.Article || strings.EqualFold(attr(p, "role"), "main")) {
			return true
		}
	}
	return false
}

// footerCopyright matches a copyright notice anywhere in a short line of
// the page's footer ("version 22.10.2 © 2009-2019 Denis Bilenko, gevent
// contributors", the last line of every page of gevent's documentation).
var footerCopyright = regexp.MustCompile(`(?i)©|\(c\)\s*\d{4}|\bcopyright\b`)

// textUpTo returns the words of n's subtree, each followed by a blank,
// hiddenElements left out (other chrome is read: asking isChrome of each
// descendant again would make a page's check quadratic), and false as
// soon as they take more than max bytes.
func textUpTo(n *html.Node, max int) (string, bool) {
	var sb strings.Builder
	var walk func(*html.Node) bool
	walk = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				for _, f := range strings.Fields(c.Data) {
					sb.WriteString(f)
					sb.WriteByte(' ')
				}
			case html.ElementNode:
				if c.DataAtom == atom.Br {
					sb.WriteByte(' ')
				} else if !hiddenElements[c.DataAtom] && !walk(c) {
					return false
				}
			}
			if sb.Len() > max {
				return false
			}
		}
		return true
	}
	if !walk(n) {
		return "", false
	}
	return sb.String(), true
}

// lastUpdated matches a page's date stamp ("Last updated 2024-05-31
// 00:35:55 UTC", AsciiDoc's footer on every page of Git's manual, 240
// chunks of a trial's tenant; "Last modified: March 3, 2023"). In the
// text it may be content (a policy's "last updated" date).
var lastUpdated = regexp.MustCompile(`(?i)^(?:this )?(?:page )?(?:was )?last (?:updated|modified|changed|built|generated)\b.{0,60}\b[0-9]{4}\b`)

// copyrightLine matches a copyright notice ("© Copyright 2014-2023,
// Anaconda, Inc. and contributors."): in a page's footer, the last line of
// every page of the Dask documentation; in the text (a manual's front
// matter, the notices of code a program incorporates) it is content.
var copyrightLine = regexp.MustCompile(`(?i)^(?:©|\(c\))?\s*copyright\b`)

// inFooter reports whether n lies in a footer element or in an element
// whose class or id is "footer".
func inFooter(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && (p.DataAtom == atom.Footer || hasToken(p, footerTokens)) {
			return true
		}
	}
	return false
}

// footerTokens mark a page's footer.
var footerTokens = map[string]bool{"footer": true}

// sidebarTokens mark boxes that are content when they read as prose.
var sidebarTokens = map[string]bool{"sidebar": true}

// proseBox reports a box of at least 15 words of which under a third are
// link text.
func proseBox(n *html.Node) bool {
	var all, linked int
	var walk func(*html.Node, bool)
	walk = func(n *html.Node, inLink bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				k := analyze.WordCount(c.Data)
				all += k
				if inLink {
					linked += k
				}
			case html.ElementNode:
				// What extraction drops (a script, a select's options)
				// is not the box's prose.
				if !isChrome(c, true) {
					walk(c, inLink || c.DataAtom == atom.A)
				}
			}
		}
	}
	walk(n, false)
	return all >= 15 && 3*linked < all
}

// holdsContent reports whether n's subtree holds a document's content
// rather than controls: a main or article element, a top-level heading (h1,
// h2), or two paragraphs without form controls. A comment form has a
// paragraph per field, each around its label and input, and a smaller
// heading ("Leave a Reply"): it stays chrome.
func holdsContent(n *html.Node) bool {
	paragraphs := 0
	var walk func(*html.Node) bool
	walk = func(c *html.Node) bool {
		for c := c.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.H1, atom.H2, atom.Main, atom.Article:
				return true
			case atom.P:
				if !holdsControl(c) {
					if paragraphs++; paragraphs >= 2 {
						return true
					}
				}
				continue
			}
			if walk(c) {
				return true
			}
		}
		return false
	}
	return walk(n)
}

// holdsControl reports whether n's subtree holds a form control or label.
func holdsControl(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		switch c.DataAtom {
		case atom.Input, atom.Textarea, atom.Select, atom.Button, atom.Label:
			return true
		}
		if holdsControl(c) {
			return true
		}
	}
	return false
}

// blockElements start and end a paragraph of flowing text.
var blockElements = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Blockquote: true, atom.Body: true,
	atom.Center: true, atom.Details: true, atom.Div: true, atom.Fieldset: true,
	atom.Figcaption: true, atom.Figure: true, atom.Footer: true, atom.Header: true,
	atom.Hgroup: true, atom.Hr: true, atom.Html: true, atom.Legend: true,
	atom.Main: true, atom.P: true, atom.Section: true, atom.Summary: true,
	atom.Caption: true, atom.Tr: true, atom.Td: true, atom.Th: true,
	atom.Tbody: true, atom.Thead: true, atom.Tfoot: true, atom.Option: true,
	atom.Frameset: true, atom.Noframes: true,
}

type listState struct {
	ordered bool
	next    int
}

type itemState struct {
	depth  int
	marker string // "- " or "3. " with indentation
	cont   string // indentation of continuation paragraphs
	used   bool   // marker already emitted
}

// htmlWalker turns a parsed tree into blocks. Recursion is bounded by the
// parser's 512-element nesting limit.
type htmlWalker struct {
	b         builder
	in        inline
	lists     []listState
	item      *itemState
	noHeading int // >0 inside lists, tables, quotes, admonitions: headings are labels
	// quotes counts the blockquotes among noHeading's reasons: a heading
	// inside only quotes is a section when the page links to it (heading).
	quotes int
	// level is the level of the last h1–h6 heading (0 before any), under
	// which a named title line (namedTitle) is one level deeper.
	level   int
	content int // >0 inside main/article/section: keep header/footer
	// linkWords counts the words of the lists and tables of links left
	// out as a menu or an index (linkList, linkTable).
	linkWords int
	// tocWords counts the words of Sphinx tables of contents left out
	// (toctreeTokens).
	tocWords int
	// siteLinks and siteLinkWords count the links to the site's pages the
	// walk keeps and their words; entryLinks those of them that are an
	// index's or a list's entry (entryLink), codeLinks those written as
	// code (inside <code>).
	siteLinks, siteLinkWords, entryLinks, codeLinks int
	// dropEmptyParams is set inside a field list's parameter field: its
	// entries without a description are left out (fieldList).
	dropEmptyParams bool
	// banner is the site's name set as a heading (bannerHeading), left
	// out; nil when the page has none.
	banner *html.Node
}

func (w *htmlWalker) walkChildren(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c)
	}
}

// flush emits the pending flowing text as a paragraph (or list item).
func (w *htmlWalker) flush() {
	if w.in.empty() {
		w.in.space = false
		return
	}
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
	s = prefix + strings.ReplaceAll(s, "\n", "\n"+w.item.cont)
	w.b.add(KindListItem, w.item.depth, s)
}

func (w *htmlWalker) walk(n *html.Node) {
	if n == w.banner {
		return
	}
	switch n.Type {
	case html.TextNode:
		if templatePlaceholder.MatchString(n.Data) && n.Parent != nil &&
			(n.Parent.DataAtom == atom.Body || n.Parent.DataAtom == atom.Head || n.Parent.DataAtom == atom.Html) {
			// Only where a template's text lands outside any element of
			// the page; inside one ("the __PTX_SM__ macro" in code) it is
			// the page's.
			return
		}
		w.in.text(n.Data)
		return
	case html.ElementNode:
	default:
		return
	}
	if t, ok := subscriptCode(n); ok {
		w.in.text(t)
		return
	}
	if w.content == 0 && (n.DataAtom == atom.Table && linkTable(n) || (n.DataAtom == atom.Ul || n.DataAtom == atom.Ol) && linkList(n)) {
		// Outside the content, a menu, a table of contents or an index
		// is chrome; its words are counted to tell a page that is
		// nothing else (ErrLinksOnly).
		w.linkWords += analyze.WordCount(textContent(n))
		return
	}
	if (n.DataAtom == atom.Ul || n.DataAtom == atom.Ol) && pagerList(n) {
		// A pager written as a list ("Table of Contents", "Previous
		// Chapter", "Next Chapter" above and below each chapter of the
		// zsh FAQ, 12 of its chunks) is chrome wherever it is.
		return
	}
	if (n.DataAtom == atom.Ul || n.DataAtom == atom.Ol) && generatedIndexList(n) {
		// Sphinx's "Indices and tables" (links to the generated index,
		// the module index and the search page) is chrome wherever it
		// is: on a landing page of a toctree and nothing else
		// (configobj's and humanfriendly's index.html: a title,
		// "Contents:" and these), its three lines kept the page a
		// document. Not counted as a toctree: a page of a sentence above
		// it stays one.
		return
	}
	if n.DataAtom == atom.Div && hasToken(n, toctreeTokens) && linkTree(n) {
		// Sphinx's table of contents of the pages under this one, in the
		// content or not: the pages it lists are documents of their own.
		w.tocWords += analyze.WordCount(textContent(n))
		return
	}
	if n.DataAtom == 0 && n.Data == "h" && n.Namespace == "" && w.item == nil && inlineText(n) != "" {
		// SQLite's documentation heads each entry of a long page with an
		// element named "h", hidden (<h _id=pragma_page_size
		// style="display:none"> PRAGMA page_size</h>), under an empty <a
		// name> of the same name: it is the entry's heading, one level
		// under the page's last heading. Left out as hidden, 53 of
		// pragma.html's 57 chunks had "List Of PRAGMAs" for heading and
		// its anchor for citation, and ran across entries.
		w.flush()
		w.addAnchored(KindHeading, min(6, w.level+1), inlineText(n), n)
		return
	}
	if isChrome(n, w.content > 0) {
		return
	}
	w.countSiteLink(n)
	a := n.DataAtom
	switch a {
	case atom.Br:
		w.in.breakLine()
	case atom.Wbr:
	case atom.Sup:
		if exponent(n) {
			w.in.text("^")
		}
		w.walkChildren(n)
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		w.heading(n, int(a.String()[1]-'0'))
	case atom.Pre, atom.Listing, atom.Xmp, atom.Plaintext:
		w.flush()
		var sb strings.Builder
		if c := preCaption(n); c != nil {
			// A caption the generator put inside the listing
			// (haproxy-dconv's example-desc) is prose above the code.
			w.b.add(KindParagraph, 0, textContent(c))
			rawTextSkipping(n, c, &sb)
		} else {
			rawText(n, &sb)
		}
		if isManPage(sb.String()) {
			manPage(&w.b, sb.String())
			return
		}
		if paras := prosePre(sb.String()); paras != nil {
			for _, p := range paras {
				switch {
				case p.tag != "":
					addTagged(&w.b, p.tag, p.desc)
				case p.prose:
					w.b.add(KindParagraph, 0, dedent(p.text))
				default:
					w.b.addCode(p.text)
				}
			}
			return
		}
		w.b.addCode(sb.String())
	case atom.Table:
		w.flush()
		if hasToken(n, codeTableTokens) {
			// Pygments' listing with its line numbers in a column of
			// their own (dropped as chrome): the code cell is the code,
			// not a table of one cell.
			w.walkChildren(n)
			w.flush()
			return
		}
		w.table(n)
	case atom.Ul, atom.Ol, atom.Menu, atom.Dir:
		w.flush()
		st := listState{ordered: a == atom.Ol, next: 1}
		if v, err := strconv.Atoi(attr(n, "start")); err == nil && v >= 0 && v < 1e9 {
			st.next = v
		}
		w.lists = append(w.lists, st)
		w.noHeading++
		w.walkChildren(n)
		w.flush()
		w.noHeading--
		w.lists = w.lists[:len(w.lists)-1]
	case atom.Li:
		if w.dropEmptyParams && emptyParameter(inlineText(n)) {
			return
		}
		w.listItem(n)
	case atom.Dl:
		w.flush()
		if hasToken(n, fieldListTokens) {
			w.fieldList(n)
		} else {
			w.walkChildren(n)
		}
		w.flush()
	case atom.Dt:
		w.flush()
		// A term's links count as the walk's (an index's terms link the
		// sections that treat them).
		w.countSiteLinks(n)
		if t := inlineText(n); t != "" {
			w.addAnchored(KindTerm, 0, t, n)
		}
	case atom.P:
		if w.noHeading == 0 && w.item == nil && namedTitle(n) {
			w.flush()
			w.addAnchored(KindHeading, min(w.level+1, 6), inlineText(n), n)
			return
		}
		if w.item == nil && hasToken(n, captionTokens) {
			w.flush()
			w.b.add(KindCaption, 0, inlineText(n))
			return
		}
		w.flush()
		w.walkChildren(n)
		w.flush()
	case atom.Dd:
		w.flush()
		w.b.inDefinition++
		w.walkChildren(n)
		w.flush()
		w.b.inDefinition--
	case atom.Div:
		if head := entryHeading(n); head != nil && w.item == nil {
			w.entry(n, head)
			return
		}
		if w.noHeading == 0 && w.item == nil && namedTitle(n) {
			// A reference entry's title line (haproxy-dconv's keywords):
			// a heading under the section it is in, so each entry is a
			// section of its own with its anchor.
			w.flush()
			w.addAnchored(KindHeading, min(w.level+1, 6), inlineText(n), n)
			return
		}
		w.walkBlock(n)
	default:
		w.walkBlock(n)
	}
}

// qaTable reports a table of questions and answers, rows classed
// "question" and "answer", with the division's title row ("qandadiv") and
// its list of the questions ("toc") (DocBook's qandaset as its XSL
// stylesheets write it: Valgrind's FAQ). Read as a table, its chunks were
// rows of "| 1.1. | How do you pronounce …", every one cited at the page's
// top.
func qaTable(trs []*html.Node) bool {
	questions := 0
	for _, tr := range trs {
		switch {
		case classToken(tr, qaQuestionTokens):
			questions++
		case classToken(tr, qaAnswerTokens), classToken(tr, qaDivTokens), classToken(tr, qaTOCTokens):
		case strings.TrimSpace(strings.ReplaceAll(textContent(tr), "\u00a0", "")) == "":
			// A spacer row between entries.
		default:
			return false
		}
	}
	return questions > 0
}

var (
	qaQuestionTokens = map[string]bool{"question": true}
	qaAnswerTokens   = map[string]bool{"answer": true}
	qaDivTokens      = map[string]bool{"qandadiv": true}
	qaTOCTokens      = map[string]bool{"toc": true}
)

// qaRows walks a table of questions and answers (qaTable) as a definition
// list: each question, its cells' text, a term linking to the question's
// anchor; each answer's cells its definition; a division's title row as
// the page has it (its heading); the division's list of its questions
// not at all.
func (w *htmlWalker) qaRows(trs []*html.Node) {
	w.flush()
	for _, tr := range trs {
		if classToken(tr, qaTOCTokens) || !classToken(tr, qaDivTokens) && !classToken(tr, qaQuestionTokens) && !classToken(tr, qaAnswerTokens) {
			continue
		}
		if classToken(tr, qaDivTokens) {
			for c := tr.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode {
					w.walkChildren(c)
					w.flush()
				}
			}
			continue
		}
		if classToken(tr, qaQuestionTokens) {
			var parts []string
			for c := tr.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && (c.DataAtom == atom.Td || c.DataAtom == atom.Th) {
					if t := inlineText(c); t != "" {
						parts = append(parts, t)
					}
				}
			}
			before := len(w.b.blocks)
			w.b.add(KindTerm, 0, strings.Join(parts, " "))
			if len(w.b.blocks) > before {
				w.b.blocks[before].Anchor = anchorOf(tr)
			}
			continue
		}
		w.b.inDefinition++
		w.noHeading++
		for c := tr.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && (c.DataAtom == atom.Td || c.DataAtom == atom.Th) {
				w.walkChildren(c)
				w.flush()
			}
		}
		w.noHeading--
		w.b.inDefinition--
	}
}

// entryHeading returns the heading line of an API reference's entry laid
// out in divs, n: an element with an id whose first child element is a
// div of inline text alone classed as an entry's heading (RDoc's
// Darkfish: `<div id="method-i-select" class="method-detail"><div
// class="method-heading"><span class="method-callseq">select(…)</span>
// </div><div class="method-description">…`). nil when n is none. Other
// generators' "*-heading" divs hold a page's title (rustdoc's
// main-heading, around its h1) or a panel's label (Bootstrap's
// panel-heading, above sections of their own): no entries.
func entryHeading(n *html.Node) *html.Node {
	if anchorID(n) == "" {
		return nil
	}
	var first *html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			first = c
			break
		}
		if c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
			return nil
		}
	}
	if first == nil || first.DataAtom != atom.Div || first.NextSibling == nil || !hasToken(first, entryHeadTokens) {
		return nil
	}
	for d := range first.Descendants() {
		if d.Type == html.ElementNode && (blockElements[d.DataAtom] || d.DataAtom == atom.Br || headingLevel(d.DataAtom) > 0) {
			return nil
		}
	}
	if inlineText(first) == "" {
		return nil
	}
	return first
}

// entry walks an API reference's entry (entryHeading) as a definition
// list's: its heading line a term linking to the entry's id, the rest its
// definition, whose headings are labels ("Example" under Kernel#select
// opened a section that every later method of the page was filed under,
// and cited with its anchor).
func (w *htmlWalker) entry(n, head *html.Node) {
	w.flush()
	// A method with several call sequences has a heading div for each
	// (Comparable#clamp: "clamp(min, max) → obj", "clamp(range) → obj"):
	// each is a term of the entry, linking to it.
	c := head
	for ; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode && strings.TrimSpace(c.Data) == "" {
			continue
		}
		if c != head && (c.Type != html.ElementNode || c.DataAtom != atom.Div || !hasToken(c, entryHeadTokens)) {
			break
		}
		before := len(w.b.blocks)
		w.b.add(KindTerm, 0, inlineText(c))
		if len(w.b.blocks) > before {
			w.b.blocks[before].Anchor = fragment(anchorID(n))
		}
	}
	w.b.inDefinition++
	w.noHeading++
	for ; c != nil; c = c.NextSibling {
		w.walk(c)
	}
	w.flush()
	w.noHeading--
	w.b.inDefinition--
}

// walkBlock walks an element without a rule of its own: a block element
// (blockElements) is a paragraph break before and after its content.
func (w *htmlWalker) walkBlock(n *html.Node) {
	a := n.DataAtom
	{
		block := blockElements[a]
		quote := a == atom.Blockquote && !hasToken(n, admonitionTokens)
		label := quote || hasToken(n, admonitionTokens) || hasToken(n, outputTokens)
		// Its linked headings open sections only when nothing of the
		// section around it follows it: a section opened inside the
		// quote does not end with it, and the text after the quote
		// would be taken for the aside's.
		quote = quote && headingNext(n)
		content := a == atom.Article || a == atom.Main || a == atom.Section
		if block {
			w.flush()
		}
		if label {
			w.noHeading++
		}
		if quote {
			w.quotes++
		}
		if content {
			w.content++
		}
		w.walkChildren(n)
		if content {
			w.content--
		}
		if label {
			w.noHeading--
		}
		if quote {
			w.quotes--
		}
		if block {
			w.flush()
		}
	}
}

// headingNext reports whether the first content after n in document
// order, outside n, is a heading, or there is none: n's blank text and
// comments aside, climbing out of the elements n closes.
func headingNext(n *html.Node) bool {
	for ; n != nil && n.DataAtom != atom.Body; n = n.Parent {
		for c := n.NextSibling; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "", c.Type == html.CommentNode:
				continue
			case c.Type == html.ElementNode:
				switch c.DataAtom {
				case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
					return true
				case atom.Script, atom.Style, atom.Nav, atom.Footer:
					continue
				}
			}
			return false
		}
	}
	return true
}

// fieldListTokens mark a docutils field list (Sphinx's "Parameters:",
// "Returns:", "Return type:" of an API entry).
var fieldListTokens = map[string]bool{"field-list": true}

// fieldList walks a field list, leaving out what says nothing: a
// parameter whose description is empty ("msg (str) –", autodoc's entry for
// every annotated parameter nobody documented) and a parameter field all
// of whose entries are such. Kept, they were quoted as answers: a block of
// "Parameters: - msg (str) – - lineno (Optional[int]) –" under the
// signature that already names them.
func (w *htmlWalker) fieldList(n *html.Node) {
	params := false // the field being walked lists parameters
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Dt {
			params = parameterFields[strings.ToLower(strings.TrimRight(strings.TrimSpace(inlineText(c)), ":"))]
			dd := c.NextSibling
			for dd != nil && dd.Type != html.ElementNode {
				dd = dd.NextSibling
			}
			if params && dd != nil && dd.DataAtom == atom.Dd && emptyFields(dd) {
				c = dd
				continue
			}
		}
		// A parameter field's definition is walked without its empty
		// entries (listItem).
		outer := w.dropEmptyParams
		w.dropEmptyParams = params && c.Type == html.ElementNode && c.DataAtom == atom.Dd
		w.walk(c)
		w.dropEmptyParams = outer
	}
}

// parameterFields are the field names whose entries are parameters, which
// the signature above names: "Raises: ValueError –" says which exceptions
// come, and stays however bare.
var parameterFields = map[string]bool{"parameters": true, "parameter": true, "params": true, "args": true, "arguments": true,
	"keyword arguments": true, "other parameters": true, "keyword args": true}

// emptyFields reports a field definition whose every entry is an empty
// parameter (a paragraph of one, or a list of them).
func emptyFields(dd *html.Node) bool {
	entries := 0
	for c := dd.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			if strings.TrimSpace(c.Data) != "" {
				return false
			}
		case c.Type != html.ElementNode:
		case c.DataAtom == atom.Ul || c.DataAtom == atom.Ol:
			for li := c.FirstChild; li != nil; li = li.NextSibling {
				if li.Type == html.ElementNode {
					if !emptyParameter(inlineText(li)) {
						return false
					}
					entries++
				}
			}
		default:
			if !emptyParameter(inlineText(c)) {
				return false
			}
			entries++
		}
	}
	return entries > 0
}

// emptyParameter matches a parameter entry without a description: a name,
// optionally its type in parentheses, and the dash that would introduce
// the description ("msg (str) –", "**kwargs –").
func emptyParameter(s string) bool {
	s = strings.TrimSpace(s)
	for _, dash := range []string{"–", "—", "-"} {
		if rest, ok := strings.CutSuffix(s, dash); ok {
			return emptyParameterName.MatchString(strings.TrimSpace(rest))
		}
	}
	return false
}

// emptyParameterName is a parameter's name (stars allowed) and optionally
// its type in parentheses.
var emptyParameterName = regexp.MustCompile(`^\*{0,2}[A-Za-z_][A-Za-z0-9_.]*( \(.*\))?$`)

func (w *htmlWalker) heading(n *html.Node, level int) {
	w.flush()
	t := inlineText(n)
	if t == "" {
		return
	}
	// A heading inside quotes alone that the page links to (its own id or
	// a permalink: mdBook's "> ##### Integer Overflow" asides, 15 sections
	// of the Rust book) opens a section as any other: read as a label, its
	// text ran into the section above and citations of it linked there.
	// One without an anchor is a quoted text's heading, a label.
	if w.item != nil || w.noHeading > 0 && (w.noHeading > w.quotes || anchorOf(n) == "") {
		w.in.text(t)
		w.flush()
		return
	}
	w.addAnchored(KindHeading, level, t, n)
	w.level = level
}

// addAnchored adds a heading or term block for element n with the anchor
// that links to it (anchorOf).
func (w *htmlWalker) addAnchored(k Kind, level int, t string, n *html.Node) {
	before := len(w.b.blocks)
	w.b.add(k, level, t)
	if len(w.b.blocks) > before {
		w.b.blocks[before].Anchor = anchorOf(n)
	}
}

func (w *htmlWalker) listItem(n *html.Node) {
	w.flush()
	depth := len(w.lists)
	marker := "- "
	if depth > 0 {
		st := &w.lists[depth-1]
		if st.ordered {
			marker = strconv.Itoa(st.next) + ". "
			st.next++
		}
	} else {
		depth = 1
	}
	indent := strings.Repeat("  ", depth-1)
	saved := w.item
	w.item = &itemState{depth: depth, marker: indent + marker, cont: indent + "  "}
	if len(w.lists) > 0 || saved != nil || w.noHeading > 0 || w.b.inDefinition > 0 {
		w.walkChildren(n)
	} else {
		// An <li> in no list is closed only by the next <li> or its
		// parent's end, so the parser nests in the page's last stray item
		// everything after it: PLY's manual writes its "4.20 Miscellaneous
		// Issues" as bare <li> paragraphs, and the 47 sections after them
		// (the whole Yacc half, <h2> and <h3> with anchors) were read as
		// labels inside that item. The item ends at the first heading
		// after its text; a heading that opens the item is its label
		// ("<li><h4>Fast</h4>Parses …</li>", a review), and inside a
		// table, a quote or a definition headings are labels anyway.
		said := false
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if w.item != saved && said && holdsHeading(c) {
				w.flush()
				w.item = saved
			}
			said = said || hasText(c)
			w.walk(c)
		}
	}
	w.flush()
	w.item = saved
}

// holdsHeading reports whether n is or contains an <h1>–<h6> element.
func holdsHeading(n *html.Node) bool {
	if n.Type == html.ElementNode && headingLevel(n.DataAtom) > 0 {
		return true
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if holdsHeading(c) {
			return true
		}
	}
	return false
}

// iconLayout reports a table of two rows or more in which a row has two
// cells or more and no row has two with text: an icon's cell beside a
// label, and the text under them (DocBook's admonitions).
func iconLayout[R any](rows []R, cells func(R) []*html.Node) bool {
	if len(rows) < 2 {
		return false
	}
	wide := false
	for _, r := range rows {
		cs := cells(r)
		texts := 0
		for _, c := range cs {
			if hasText(c) {
				texts++
			}
		}
		if texts > 1 {
			return false
		}
		wide = wide || len(cs) > 1
	}
	return wide
}

// table renders n as rows of cells joined by " | ". A 1×1 table is a layout
// wrapper and is walked as flowing content instead.
func (w *htmlWalker) table(n *html.Node) {
	var caption string
	var trs []*html.Node
	var inHead []bool
	hasThead := false
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || isChrome(c, true) {
			continue
		}
		switch c.DataAtom {
		case atom.Caption:
			caption = inlineText(c)
		case atom.Tr:
			trs, inHead = append(trs, c), append(inHead, false)
		case atom.Thead, atom.Tbody, atom.Tfoot:
			head := c.DataAtom == atom.Thead
			hasThead = hasThead || head
			for r := c.FirstChild; r != nil; r = r.NextSibling {
				if r.Type == html.ElementNode && r.DataAtom == atom.Tr {
					trs, inHead = append(trs, r), append(inHead, head)
				}
			}
		}
	}
	if qaTable(trs) {
		w.qaRows(trs)
		return
	}
	type row struct {
		cells []*html.Node
		allTH bool
	}
	rows := make([]row, 0, len(trs))
	for _, tr := range trs {
		r := row{allTH: true}
		for c := tr.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && (c.DataAtom == atom.Td || c.DataAtom == atom.Th) {
				r.cells = append(r.cells, c)
				r.allTH = r.allTH && c.DataAtom == atom.Th
			}
		}
		rows = append(rows, r)
	}
	if iconLayout(rows, func(r row) []*html.Node { return r.cells }) {
		// An icon beside a label above the text (DocBook's admonitions:
		// the note's icon, "Note", then the note) is laid out, not
		// tabulated: its label and text are read as flowing content,
		// where they had been " | Note" above the text.
		w.in.text(caption)
		w.flush()
		w.noHeading++
		for _, r := range rows {
			for _, c := range r.cells {
				if hasText(c) {
					w.walkChildren(c)
					w.flush()
				}
			}
		}
		w.noHeading--
		return
	}
	if len(rows) == 1 && len(rows[0].cells) == 1 {
		w.in.text(caption)
		w.flush()
		w.noHeading++
		w.walkChildren(rows[0].cells[0])
		w.noHeading--
		w.flush()
		return
	}
	if entryTable(rows, func(r row) []*html.Node { return r.cells }) {
		// A one-column table whose cells hold paragraphs (the manual's
		// function tables: signature, description, examples in one cell)
		// is a list of entries, read as a definition list: each cell's
		// first paragraph its term, the rest its definition. Read as rows
		// of one line, an entry's sentences ran into the next entry's
		// ("… length('jose') → 4 lpad ( string text, …").
		w.b.add(KindCaption, 0, caption)
		for i, r := range rows {
			w.flush()
			if len(r.cells) == 0 {
				continue
			}
			if inHead[i] || !hasThead && i == 0 && r.allTH {
				w.b.add(KindCaption, 0, inlineText(r.cells[0]))
				continue
			}
			w.noHeading++
			first := true
			for c := r.cells[0].FirstChild; c != nil; c = c.NextSibling {
				if first {
					if t := inlineText(c); t != "" {
						w.b.add(KindTerm, 0, t)
						first = false
						w.b.inDefinition++
					}
					continue
				}
				w.walk(c)
			}
			w.flush()
			if !first {
				w.b.inDefinition--
			}
			w.noHeading--
		}
		return
	}
	// The rows' links to the site's pages count as the walk's do (a page
	// of links is no document): an index laid out as a table (the Lua
	// manual's contents.html, 460 function names in its cells) was
	// stored, and its chunks ranked among the answers. Only here, where
	// the cells are read as text: the tables above walk their cells,
	// which counts their links.
	for _, r := range rows {
		for _, c := range r.cells {
			w.countSiteLinks(c)
		}
	}
	w.b.add(KindCaption, 0, caption)
	var header, body []string
	cells := make([]string, 0, 8)
	// A cell spanning columns or rows stands in each of them, so that every
	// row's cells line up with the header's ("None" spanning the SQLite and
	// MySQL columns read as SQLite's, and MySQL's as the next column's);
	// a row of one cell (a group label across the table) is not repeated.
	// Spans are capped (colspan at maxColSpan, rowspan at the rows left,
	// and the cells they add at budget), so a hostile table cannot
	// multiply its text.
	carry := map[int]*spanned{} // column → the cell of an earlier row spanning it
	// Carried and repeated cells are counted against a budget of twice the
	// table's own cells: past it a span stands in its first cell only
	// (one row of cells spanning every later row would otherwise make a
	// table of n rows n×n cells).
	budget := 0
	for _, r := range rows {
		budget += 2 * len(r.cells)
	}
	for i, r := range rows {
		cells = cells[:0]
		col := 0
		fill := func() {
			for sp := carry[col]; sp != nil && sp.rows > 0; sp = carry[col] {
				if budget--; budget < 0 {
					clear(carry)
					return
				}
				cells = append(cells, sp.text)
				if sp.rows--; sp.rows == 0 {
					delete(carry, col)
				}
				col++
			}
		}
		// An empty cell spanning rows keeps its column in a row of data
		// (two cells or more with text), not in a layout row of an icon
		// beside its label (DocBook's admonitions: " | Note" above the
		// note's text).
		texts := make([]string, len(r.cells))
		filled := 0
		for k, c := range r.cells {
			if texts[k] = inlineText(c); texts[k] == "" && !hasText(c) {
				texts[k] = iconText(c)
			}
			if texts[k] != "" {
				filled++
			}
		}
		for k, c := range r.cells {
			fill()
			t := texts[k]
			cs, rs := span(c, "colspan", maxColSpan), span(c, "rowspan", len(rows)-i)
			if len(r.cells) == 1 {
				cs = 1
			}
			for k := 0; k < cs; k++ {
				if k > 0 {
					if budget--; budget < 0 {
						break
					}
				}
				cells = append(cells, t)
				if rs > 1 && (t != "" || filled >= 2) {
					carry[col] = &spanned{text: t, rows: rs - 1}
				}
				col++
			}
		}
		fill()
		if filled == 0 {
			continue
		}
		line := strings.Join(cells, " | ")
		isHead := inHead[i] || (!hasThead && i == 0 && r.allTH && len(rows) > 1)
		if isHead && len(body) == 0 {
			header = append(header, line)
		} else {
			body = append(body, line)
		}
	}
	w.b.addTable(header, body)
}

// entryTable reports a one-column table of at least two entries: cells
// holding nothing but two or more paragraphs (element children with text:
// p, div, pre), the first a term rather than a sentence (entryTerm). A
// cell of other content (text of its own, a nested table), or of
// paragraphs that open with a sentence (a page laid out in a table), makes
// it a table like any other.
func entryTable[R any](rows []R, cellsOf func(R) []*html.Node) bool {
	if len(rows) < 2 {
		return false
	}
	entries, cells := 0, 0
	for _, r := range rows {
		cs := cellsOf(r)
		if len(cs) > 1 {
			return false
		}
		if len(cs) == 0 {
			continue
		}
		var first *html.Node
		blocks := 0
		for c := cs[0].FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.ElementNode && (c.DataAtom == atom.P || c.DataAtom == atom.Div || c.DataAtom == atom.Pre):
				if inlineText(c) == "" {
					continue
				}
				if first == nil {
					first = c
				}
				blocks++
			case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "", c.Type == html.CommentNode:
			default:
				return false
			}
		}
		if blocks >= 2 {
			cells++
			if entryTerm(inlineText(first)) {
				entries++
			}
		}
	}
	// Most such cells, not all: a cell of three signatures is long, and
	// a description may open one.
	return entries >= 2 && entries*5 >= cells*4
}

// entryTerm reports a cell's first paragraph that can be an entry's term:
// at most 30 words and no sentence's end ("lpad ( string text, length
// integer ) → text", "Function"), not "Our office moves on Monday. Please
// bring your badge."
func entryTerm(t string) bool {
	t = strings.TrimRight(t, "\"')]”’» ")
	return t != "" && len(strings.Fields(t)) <= 30 && !strings.HasSuffix(t, ".") && !strings.HasSuffix(t, "!") &&
		!strings.HasSuffix(t, "?") && !strings.HasSuffix(t, "。") && !strings.Contains(t, ". ")
}

// spanned is a table cell that spans later rows: its text and how many
// rows it still stands in.
type spanned struct {
	text string
	rows int
}

// maxColSpan caps a cell's colspan (HTML allows 1000).
const maxColSpan = 20

// span returns n's span attribute key as a count from 1 to max (1 when
// absent or not a number).
func span(n *html.Node, key string, max int) int {
	v, err := strconv.Atoi(strings.TrimSpace(attr(n, key)))
	if err != nil || v < 1 {
		return 1
	}
	return min(v, max)
}

// exponent reports whether a <sup> element is an exponent: a number right
// after a digit or a closing parenthesis ("2<sup>31</sup>-1" is 2^31-1;
// flattened, it read 231-1, another number). A footnote mark follows a word
// or links to its note, and "1<sup>st</sup>" is an ordinal: those stay as
// they are.
func exponent(n *html.Node) bool {
	// The text just before the element, in an enclosing inline element's
	// preceding sibling when the <sup> opens it (2<small><sup>31</sup>…).
	prev := n
	for prev.PrevSibling == nil && prev.Parent != nil && !blockElements[prev.Parent.DataAtom] {
		prev = prev.Parent
	}
	prev = prev.PrevSibling
	for prev != nil && prev.Type == html.ElementNode && prev.LastChild != nil {
		prev = prev.LastChild
	}
	if prev == nil || prev.Type != html.TextNode {
		return false
	}
	before := strings.TrimRight(prev.Data, " ")
	if before == "" || before != prev.Data {
		return false
	}
	var link func(*html.Node) bool
	link = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.A || link(c) {
				return true
			}
		}
		return false
	}
	if link(n) {
		return false
	}
	if last := before[len(before)-1]; (last < '0' || last > '9') && last != ')' {
		return false
	}
	t := strings.TrimSpace(textContent(n))
	t = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(t, "-"), "−"), "+")
	if t != "" && strings.Trim(t, "0123456789") == "" {
		return true
	}
	// A power written with a variable (the Go specification's "modulo
	// 2<sup><i>n</i></sup>", "by 10<sup>exp</sup>", flattened to "2n" and
	// "10exp"), but not an ordinal's suffix ("1<sup>st</sup>").
	return symbolicExponent.MatchString(t) && !ordinalSuffixes[strings.ToLower(t)]
}

// symbolicExponent matches a short exponent of letters and digits, with one
// operator perhaps ("n", "exp", "n-1", "2k").
var symbolicExponent = regexp.MustCompile(`^[A-Za-z0-9]{1,4}([-+−*][A-Za-z0-9]{1,3})?$`)

// ordinalSuffixes are raised after a number to make it an ordinal.
var ordinalSuffixes = map[string]bool{"st": true, "nd": true, "rd": true, "th": true, "er": true, "re": true, "e": true, "o": true, "a": true}

// inlineText returns the text of n's subtree as one normalised line: block
// boundaries and line breaks become spaces, chrome is dropped, nested tables
// are flattened.
// iconText is the alternative text of the images of table cell n that
// holds no text of its own: a compatibility table that gives each row's
// status as an icon ("most", "partial", "low" as the images' alt) was
// stored with those cells empty, and no answer could say a parser's
// support level (a held-out trial on md-toc's documentation). An alt that
// names a file ("status.png") or runs past maxIconAlt characters is no
// label of the cell.
func iconText(n *html.Node) string {
	var alts []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if c.DataAtom == atom.Img {
				if a := strings.TrimSpace(attr(c, "alt")); a != "" && len(a) <= maxIconAlt && !fileLike.MatchString(a) {
					alts = append(alts, a)
				}
				continue
			}
			walk(c)
		}
	}
	walk(n)
	return strings.Join(alts, " ")
}

// maxIconAlt bounds the alternative text read as a table cell's label
// (iconText).
const maxIconAlt = 40

// fileLike matches an alternative text that is a file's name or a path.
var fileLike = regexp.MustCompile(`(?i)[/\\]|\.(png|jpe?g|gif|svg|webp|ico|bmp)$`)

func inlineText(n *html.Node) string {
	var in inline
	inlineInto(n, &in)
	return in.take(true)
}

func inlineInto(n *html.Node, in *inline) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			in.text(c.Data)
		case html.ElementNode:
			if isChrome(c, true) {
				continue
			}
			if c.DataAtom == atom.Br {
				in.softSpace()
				continue
			}
			if t, ok := subscriptCode(c); ok {
				in.text(t)
				continue
			}
			if c.DataAtom == atom.Sup && exponent(c) {
				in.text("^")
			}
			if hasToken(c, classifierDelimiterTokens) {
				// html4css1's " : " before the classifier, which is
				// written in brackets instead.
				continue
			}
			if hasToken(c, classifierTokens) {
				// docutils' classifier of a definition's term, shown
				// after " : " by its stylesheet: glued to the term,
				// "codetags" and "list of strings" read as
				// "codetagslist of strings" in Pygments' options.
				in.text(" (")
				inlineInto(c, in)
				in.text(")")
				continue
			}
			block := blockElements[c.DataAtom] || c.DataAtom == atom.Li || c.DataAtom == atom.Dt ||
				c.DataAtom == atom.Dd || c.DataAtom == atom.Pre || c.DataAtom == atom.Table
			if block {
				in.softSpace()
			}
			inlineInto(c, in)
			if block {
				in.softSpace()
			}
		}
	}
}

// subscriptCode returns an inline code element's text between backticks
// (keptCode) when it holds a bracketed number ("<code>env[0]</code>");
// ok is false for any other node, whose text is walked as usual.
func subscriptCode(n *html.Node) (string, bool) {
	if n.Type != html.ElementNode || n.DataAtom != atom.Code && n.DataAtom != atom.Tt && n.DataAtom != atom.Kbd && n.DataAtom != atom.Samp && n.DataAtom != atom.Var {
		return "", false
	}
	var sb strings.Builder
	rawText(n, &sb)
	t := strings.Join(strings.Fields(sb.String()), " ")
	if strings.Contains(sb.String(), "\n") || !bracketedNumber.MatchString(t) {
		return "", false
	}
	return keptCode(t), true
}

// rawText appends the text of n's subtree verbatim (for pre), with <br> as a
// newline and chrome dropped. A div or p inside it is a line (or lines) of
// its own, as a browser shows it.
func rawText(n *html.Node, sb *strings.Builder) { rawTextSkipping(n, nil, sb) }

// rawTextSkipping is rawText leaving out the subtree skip.
func rawTextSkipping(n, skip *html.Node, sb *strings.Builder) {
	newline := func() {
		if s := sb.String(); s != "" && !strings.HasSuffix(s, "\n") {
			sb.WriteByte('\n')
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			sb.WriteString(c.Data)
		case html.ElementNode:
			if c.DataAtom == atom.Br {
				sb.WriteByte('\n')
				continue
			}
			if c == skip || isChrome(c, true) {
				continue
			}
			block := c.DataAtom == atom.Div || c.DataAtom == atom.P
			if block {
				newline()
			}
			rawTextSkipping(c, skip, sb)
			if block {
				newline()
			}
		}
	}
}

// countSiteLink counts n when it is a link to one of the site's pages
// (siteLinks, siteLinkWords), and reports whether it was.
func (w *htmlWalker) countSiteLink(n *html.Node) bool {
	if n.DataAtom != atom.A || !hasAttr(n, "href") || !siteLink(attr(n, "href")) {
		return false
	}
	w.siteLinks++
	w.siteLinkWords += analyze.WordCount(textContent(n))
	if entryLink(n) {
		w.entryLinks++
	}
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && p.DataAtom == atom.Code {
			w.codeLinks++
			break
		}
	}
	return true
}

// entryLink reports a link that is an entry of an index or a list: the
// nearest block around it is a definition list's term or a list item
// (DocBook's and gtk-doc's indexes, rustdoc's list of all items), not a
// paragraph, a cell or a code listing (javadoc's comma-separated lists of
// inherited methods, which made a class page look like an index).
func entryLink(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type != html.ElementNode {
			continue
		}
		switch p.DataAtom {
		case atom.Dt, atom.Li:
			return true
		case atom.Dd, atom.P, atom.Td, atom.Th, atom.Div, atom.Section, atom.Main, atom.Article, atom.Body, atom.Pre, atom.Code, atom.Table:
			return false
		}
	}
	return false
}

// countSiteLinks counts the links to the site's pages under n, chrome
// left out, as the walk counts those it passes.
func (w *htmlWalker) countSiteLinks(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && !isChrome(c, true) && !w.countSiteLink(c) {
			w.countSiteLinks(c)
		}
	}
}

// preCaption returns the div or p that opens a pre before any of its
// text, holding text and no code of its own: a caption a documentation
// generator put inside the listing (haproxy-dconv's <div
// class="example-desc"> above the <code>), which was glued to the code's
// first line ("…handled by HAProxy.redirect scheme https if …"), when a
// code element follows it. Nil when there is none.
func preCaption(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "", c.Type == html.CommentNode:
			continue
		case c.Type == html.ElementNode && (c.DataAtom == atom.Div || c.DataAtom == atom.P) && !isChrome(c, true) &&
			strings.TrimSpace(textContent(c)) != "" && findFirst(c, func(x *html.Node) bool { return x.DataAtom == atom.Code || x.DataAtom == atom.Pre }) == nil:
			// Only above a code element: a listing whose lines are divs
			// (one per line) opens with code, not a caption.
			next := c.NextSibling
			for next != nil && (next.Type == html.TextNode && strings.TrimSpace(next.Data) == "" || next.Type == html.CommentNode) {
				next = next.NextSibling
			}
			if next != nil && next.Type == html.ElementNode && next.DataAtom == atom.Code {
				return c
			}
		}
		return nil
	}
	return nil
}

// textContent returns all text of n's subtree, unnormalised.
func textContent(n *html.Node) string {
	var sb strings.Builder
	rawText(n, &sb)
	return sb.String()
}
