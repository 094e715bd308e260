package extract

import (
	"net/url"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// anchorOf returns the fragment identifier that links to heading or term n
// on its page, so a citation can point at the section rather than the top
// of a long page; "" when the page gives none. In order:
//
//   - n's own id (HAProxy's and Node.js's headings, a Python dt.sig);
//   - the target of a permalink inside n (Sphinx's a.headerlink, whose
//     href is the section's anchor; "¶", "#", "§" links), else an element
//     inside n with an id, or an <a name> (an anchor written first in the
//     heading);
//   - climbing while nothing with text comes before n in its parent: an
//     empty element just before it with an id or a name (texi2any's
//     <span id>, Sphinx's <span id>, <a name> before an h2), then the
//     parent's own id (DocBook's div.sect1 around div.titlepage around
//     the h2, Sphinx's section, texi2any's div.section after its bar of
//     navigation links, which counts as no text). The climb stops at the
//     page's body or main element.
//
// The result is the fragment as a URL writes it: an id or name with a
// space ("timeout server", as haproxy-dconv names its anchors) is
// percent-encoded ("timeout%20server"), a permalink's href kept as written.
func anchorOf(n *html.Node) string {
	if id := anchorID(n); id != "" {
		return fragment(id)
	}
	var inner string
	for d := range n.Descendants() {
		if d.Type != html.ElementNode {
			continue
		}
		if d.DataAtom == atom.A && selfLink(d) {
			if t := hrefTarget(d); t != "" {
				return fragment(t)
			}
		}
		if inner == "" {
			inner = anchorID(d)
		}
	}
	// A link in the title to one of the names given it (haproxy-dconv:
	// <a name="maxconn"> in the title of every maxconn entry, and
	// <a href="#4.2-maxconn"> to the name only this entry has, among the
	// empty anchors before it) is the entry's own.
	names := map[string]bool{}
	for d := range n.Descendants() {
		if id := anchorID(d); id != "" {
			names[id] = true
		}
	}
	for _, s := range emptyBefore(n) {
		names[anchorID(s)] = true
	}
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.DataAtom == atom.A {
			if t := hrefTarget(d); t != "" && names[t] && t != inner {
				return fragment(t)
			}
		}
	}
	if inner != "" {
		return fragment(inner)
	}
	for at := n; at.Parent != nil && at.Parent.Type == html.ElementNode; at = at.Parent {
		nearest := true
		for s := at.PrevSibling; s != nil; s = s.PrevSibling {
			if s.Type == html.ElementNode && nearest {
				nearest = false
				// Empty anchors ending the element right before n
				// are n's (Texinfo ends an option's description with
				// the next option's index anchors).
				if id := trailingAnchor(s); id != "" && at == n {
					return fragment(id)
				}
			}
			if hasText(s) && !linksOnly(s) {
				return ""
			}
			if id := anchorID(s); id != "" {
				return fragment(id)
			}
			if s.Type == html.ElementNode && !hasText(s) {
				// An element without text holding the anchors of
				// what follows (Texinfo puts an option's index
				// anchors in an empty <dd> before its <dt>): its
				// first is the entry's own.
				for d := range s.Descendants() {
					if id := anchorID(d); id != "" {
						return fragment(id)
					}
				}
			}
		}
		p := at.Parent
		if p.DataAtom == atom.Body || p.DataAtom == atom.Main || p.DataAtom == atom.Html {
			return ""
		}
		if id := anchorID(p); id != "" {
			return fragment(id)
		}
	}
	return ""
}

// hrefTarget is the name a link to a place on its own page ("#name")
// targets, unescaped; "" for other links or a name no anchor can have.
func hrefTarget(a *html.Node) string {
	t, ok := strings.CutPrefix(attr(a, "href"), "#")
	if !ok {
		return ""
	}
	if u, err := url.PathUnescape(t); err == nil {
		t = u
	}
	if !validAnchor(t) {
		return ""
	}
	return t
}

// trailingAnchor returns the first of the empty elements with an anchor
// that end element s (white space between them allowed), "" when none
// does.
func trailingAnchor(s *html.Node) string {
	first := ""
	for c := s.LastChild; c != nil; c = c.PrevSibling {
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "":
		case c.Type == html.ElementNode && c.FirstChild == nil && anchorID(c) != "":
			first = anchorID(c)
		default:
			return first
		}
	}
	return first
}

// emptyBefore returns the run of empty elements with an anchor (anchorID)
// right before n, nearest first, white space between them allowed.
func emptyBefore(n *html.Node) []*html.Node {
	var out []*html.Node
	for s := n.PrevSibling; s != nil; s = s.PrevSibling {
		switch {
		case s.Type == html.TextNode && strings.TrimSpace(s.Data) == "":
		case s.Type == html.ElementNode && s.FirstChild == nil && anchorID(s) != "":
			out = append(out, s)
		default:
			return out
		}
	}
	return out
}

// anchorID is element n's id, or an <a name>'s name, when it can be a
// URL's fragment.
func anchorID(n *html.Node) string {
	if n.Type != html.ElementNode {
		return ""
	}
	id := attr(n, "id")
	if id == "" && n.DataAtom == atom.A {
		id = attr(n, "name")
	}
	if validAnchor(id) {
		return id
	}
	return ""
}

// validAnchor accepts an id a fragment can name: no control characters,
// white space other than a space, or '#', not empty or padded, and not too
// long to be a link people keep.
func validAnchor(id string) bool {
	if id == "" || len(id) > 200 || strings.TrimSpace(id) != id {
		return false
	}
	for _, r := range id {
		if r < ' ' || r == 0x7f || r == '#' || unicode.IsSpace(r) && r != ' ' {
			return false
		}
	}
	return true
}

// fragment writes id as a URL's fragment, percent-encoding what a fragment
// cannot hold as it is (a space, a quote, '%').
func fragment(id string) string {
	return (&url.URL{Fragment: id}).EscapedFragment()
}

// linksOnly reports whether every letter or digit of n's text is inside a
// link: a bar of navigation links ("[ < ] [ Up ] [ > ]"), which the reader
// skips and which does not separate a heading from its section's start.
func linksOnly(n *html.Node) bool {
	var walk func(*html.Node, bool) bool
	walk = func(n *html.Node, inLink bool) bool {
		if n.Type == html.TextNode {
			return inLink || !strings.ContainsFunc(n.Data, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
		}
		inLink = inLink || n.DataAtom == atom.A && attr(n, "href") != ""
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if !walk(c, inLink) {
				return false
			}
		}
		return true
	}
	return walk(n, false)
}

// maxNamedTitle bounds the text of a named title line (namedTitle).
const maxNamedTitle = 160

// namedTitle reports a div or p that is the title line of a reference or
// FAQ entry: one short line of inline content opening with bold text (a
// p: all of it bold), and an anchor to link to it, inside that bold text
// or as an empty named element just before the line — haproxy-dconv's
// `<div class="keyword"><b><a name="timeout server"></a>timeout
// server</b> <timeout></div>`, the SQLite FAQ's `<a name="q2"></a><p><b>(2)
// What datatypes does SQLite support?</b></p>`. Read as text, every
// entry's title ended the previous entry's chunk, and FAQ questions were
// quoted as their answers.
func namedTitle(n *html.Node) bool {
	var first *html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "":
			continue
		case c.Type == html.ElementNode && blockElements[c.DataAtom]:
			return false
		}
		if first == nil {
			first = c
		}
		for d := range c.Descendants() {
			if d.Type == html.ElementNode && (blockElements[d.DataAtom] || d.DataAtom == atom.Br) {
				return false
			}
		}
	}
	if first == nil || first.Type != html.ElementNode || (first.DataAtom != atom.B && first.DataAtom != atom.Strong) {
		return false
	}
	t := collapse(textContent(n))
	if t == "" || len(t) > maxNamedTitle || n.DataAtom == atom.Div && strings.HasSuffix(t, ".") {
		// (A title line ends without a full stop: "Warning: the cleanup
		// command removes every file." is a statement after its label.
		// An FAQ's question, all bold, may end with one.)
		return false
	}
	if n.DataAtom == atom.P && collapse(textContent(first)) != t {
		return false
	}
	for d := range first.Descendants() {
		if anchorID(d) != "" && d != first {
			return true
		}
	}
	// An <a> written as the entry's target: an empty <span id> before a
	// paragraph is a generator's index target (Sphinx's index-0), which
	// says nothing of a title.
	return slices.ContainsFunc(emptyBefore(n), func(s *html.Node) bool { return s.DataAtom == atom.A })
}
