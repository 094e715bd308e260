package chunk

import (
	"sort"
	"strconv"
	"strings"

	"github.com/ragd-dev/ragd/internal/extract"
)

// blockAnchors returns, for each block, the anchor (extract.Block.Anchor)
// of the innermost heading or definition term it lies under that has one:
// a block defining a term links to the term, else to its section's
// heading, else to the nearest enclosing heading that has an anchor. A
// heading or term with its own anchor links to itself. "" where none does.
// sections are the same without the terms: each block's section's anchor
// (Chunk.SectionAnchors).
func blockAnchors(blocks []extract.Block) (out, sections []string) {
	out = make([]string, len(blocks))
	sections = make([]string, len(blocks))
	type open struct {
		level  int
		anchor string
	}
	var headings []open
	var terms []string // terms[d-1]: the anchor of the last term of depth d
	section := func() string {
		for i := len(headings) - 1; i >= 0; i-- {
			if headings[i].anchor != "" {
				return headings[i].anchor
			}
		}
		return ""
	}
	defined := func(depth int) string {
		for d := min(depth, len(terms)); d >= 1; d-- {
			if terms[d-1] != "" {
				return terms[d-1]
			}
		}
		return section()
	}
	for i, b := range blocks {
		if b.Kind == extract.KindHeading {
			for len(headings) > 0 && headings[len(headings)-1].level >= b.Level {
				headings = headings[:len(headings)-1]
			}
			headings = append(headings, open{b.Level, b.Anchor})
		}
		sections[i] = section()
		switch {
		case b.Kind == extract.KindHeading:
			terms = terms[:0]
			out[i] = section()
		case b.Kind == extract.KindTerm && b.Definition >= 1:
			terms = terms[:min(len(terms), b.Definition-1)]
			for len(terms) < b.Definition-1 {
				terms = append(terms, "")
			}
			terms = append(terms, b.Anchor)
			out[i] = defined(b.Definition)
		case b.Definition >= 1:
			out[i] = defined(b.Definition)
		default:
			out[i] = section()
		}
	}
	return out, sections
}

// ensureAnchors computes the blocks' anchors once (blockAnchors).
func (s *splitter) ensureAnchors() {
	if s.anchors == nil {
		s.anchors, s.secAnchors = blockAnchors(s.blocks)
	}
}

// anchorAt is the anchor of a chunk whose text is [start, end): the one in
// effect at start (that of the block holding it, or of the last block
// before it); when the chunk starts with headings that have no anchor of
// their own, that of its first block after them (a definition's term with
// an id under an "Options" heading without one; a paragraph takes its
// section's anchor, as the heading would).
func (s *splitter) anchorAt(start, end int) string {
	s.ensureAnchors()
	i := sort.Search(len(s.blocks), func(i int) bool { return s.blocks[i].Start > start }) - 1
	if i < 0 {
		return ""
	}
	for ; s.blocks[i].Kind == extract.KindHeading && s.blocks[i].Anchor == "" && i+1 < len(s.blocks) && s.blocks[i+1].Start < end; i++ {
	}
	return s.anchors[i]
}

// marksIn returns the changes of the anchor in effect inside a chunk whose
// text is [start, end) (Chunk.AnchorMarks): for each block that starts
// after start and has an anchor other than the one in effect before it,
// that block's start and anchor. A block without one changes nothing.
// A paged document's (a PDF's) anchors are its pages (PageAnchor): a mark
// where each later page's text begins, so that a citation of text on the
// chunk's second page opens that page, not the one before it.
func (s *splitter) marksIn(start, end int) []AnchorMark {
	if len(s.doc.Pages) > 0 {
		var out []AnchorMark
		for _, p := range s.doc.Pages {
			if p > start && p < end && (len(out) == 0 || out[len(out)-1].At != p) {
				out = append(out, AnchorMark{At: p, Anchor: PageAnchor(s.doc.PageAt(p))})
			}
		}
		return out
	}
	cur := s.anchorAt(start, end)
	var out []AnchorMark
	for i := sort.Search(len(s.blocks), func(i int) bool { return s.blocks[i].Start > start }); i < len(s.blocks) && s.blocks[i].Start < end; i++ {
		if a := s.anchors[i]; a != "" && a != cur {
			out = append(out, AnchorMark{At: s.blocks[i].Start, Anchor: a})
			cur = a
		}
	}
	return out
}

// PageAnchor is the fragment identifier of page n (1-based) of a PDF,
// "page=n" (RFC 8118: source_uri + "#page=n" opens the page).
func PageAnchor(n int) string { return pagePrefix + strconv.Itoa(n) }

// AnchorPage returns the page a PageAnchor names; ok is false for any
// other anchor.
func AnchorPage(anchor string) (n int, ok bool) {
	rest, found := strings.CutPrefix(anchor, pagePrefix)
	if !found {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n > 0
}

const pagePrefix = "page="
