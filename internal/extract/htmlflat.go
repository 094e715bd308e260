package extract

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// extractHTMLFlat is the fallback for HTML the tree parser refuses (nesting
// deeper than 512 elements). It streams tokens, so memory and time stay
// linear however deep the nesting. It keeps headings, pre blocks and
// paragraphs broken at block elements, drops chrome elements (by tag, and by
// class/id token as in the tree walk), but has no main-content selection,
// lists or tables: table cells become spaces and rows paragraphs.
func extractHTMLFlat(src []byte) *Document {
	z := html.NewTokenizer(bytes.NewReader(src))
	var (
		b       builder
		in      inline
		pre     strings.Builder
		title   strings.Builder
		inPre   int
		inTitle bool
		heading int
		// skip is the element whose subtree is being dropped and how many
		// same-named elements are open inside it.
		skip      atom.Atom
		skipName  string
		skipDepth int
	)
	flush := func() {
		if heading > 0 {
			return // heading text is collected until its end tag
		}
		if s := in.take(false); s != "" {
			b.add(KindParagraph, 0, s)
		}
	}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			flush()
			if heading > 0 {
				heading = 0
				flush()
			}
			if inPre > 0 {
				b.addCode(pre.String())
			}
			t := collapse(title.String())
			return b.document(t)
		case html.TextToken:
			switch {
			case skipDepth > 0:
			case inTitle:
				title.Write(z.Text())
			case inPre > 0:
				pre.Write(z.Text())
			default:
				in.text(string(z.Text()))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			if skipDepth > 0 {
				if tt == html.StartTagToken && sameTag(a, skip, name, skipName) {
					skipDepth++
				}
				continue
			}
			drop := flatChromeTag(a)
			for hasAttr && !drop {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				drop = flatChromeAttr(string(k), string(v))
			}
			if drop {
				if tt == html.StartTagToken && !voidElement(a) {
					skip, skipName, skipDepth = a, string(name), 1
				}
				continue
			}
			switch {
			case a == atom.Title:
				inTitle = tt == html.StartTagToken
			case inPre > 0:
				if a == atom.Br {
					pre.WriteByte('\n')
				} else if a == atom.Pre && tt == html.StartTagToken {
					inPre++
				}
			case a == atom.Br:
				in.breakLine()
			case headingLevel(a) > 0:
				flush()
				heading = headingLevel(a)
			case a == atom.Pre || a == atom.Listing || a == atom.Xmp:
				flush()
				if tt == html.StartTagToken {
					inPre = 1
					pre.Reset()
				}
			case a == atom.Td || a == atom.Th:
				in.softSpace()
			case flatBlock(a):
				flush()
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if skipDepth > 0 {
				if sameTag(a, skip, name, skipName) {
					skipDepth--
				}
				continue
			}
			switch {
			case a == atom.Title:
				inTitle = false
			case inPre > 0:
				if a == atom.Pre || a == atom.Listing || a == atom.Xmp {
					inPre--
					if inPre == 0 {
						b.addCode(pre.String())
						pre.Reset()
					}
				}
			case headingLevel(a) > 0 && heading > 0:
				level := heading
				heading = 0
				if s := in.take(true); s != "" {
					b.add(KindHeading, level, s)
				}
			case a == atom.Td || a == atom.Th:
				in.softSpace()
			case flatBlock(a):
				flush()
			}
		}
	}
}

func sameTag(a, b atom.Atom, an []byte, bn string) bool {
	if a != 0 || b != 0 {
		return a == b
	}
	return string(an) == bn
}

func headingLevel(a atom.Atom) int {
	switch a {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}

func flatChromeTag(a atom.Atom) bool {
	switch a {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Nav, atom.Aside,
		atom.Form, atom.Iframe, atom.Object, atom.Svg, atom.Math, atom.Button,
		atom.Select, atom.Textarea, atom.Header, atom.Footer, atom.Canvas,
		atom.Audio, atom.Video, atom.Dialog:
		return true
	}
	return false
}

func flatChromeAttr(k, v string) bool {
	switch k {
	case "hidden":
		return true
	case "aria-hidden":
		return strings.EqualFold(v, "true")
	case "role":
		return chromeRoles[strings.ToLower(v)]
	case "id":
		return chromeTokens[strings.ToLower(v)]
	case "class":
		for _, f := range strings.Fields(v) {
			if chromeTokens[strings.ToLower(f)] {
				return true
			}
		}
	}
	return false
}

func flatBlock(a atom.Atom) bool {
	switch a {
	case atom.Li, atom.Dt, atom.Dd, atom.Ul, atom.Ol, atom.Dl, atom.Table:
		return true
	}
	return blockElements[a]
}

func voidElement(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img,
		atom.Input, atom.Link, atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}
