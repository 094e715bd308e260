package ask

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/search"
)

// neighbourhood is how widen made a source's text: the chunks it spans, in
// order, and where the document's text starts in the source's Content.
type neighbourhood struct {
	prefix int // bytes of repeated table header rows before the document text
	start  int // byte offset in the document's text of Content[prefix]
	parts  []part
	chunk  int // index in parts of the retrieved chunk
}

// part is one chunk of a neighbourhood: its byte range in the document's
// text, its pages (0 without), its heading path, its id, and the heading
// paths of the sections its text lies in, in order (nil when unknown).
type part struct {
	start, end         int
	pageStart, pageEnd int
	heading, id        string
	sections           []string
	anchor             string // the chunk's anchor, "" when none
	// sectionAnchors are the anchors of sections, one each; nil when
	// unknown.
	sectionAnchors []string
	// marks are where the anchor in effect changes inside the chunk
	// (chunk.Chunk.AnchorMarks), in order; nil when none or unknown.
	marks []mark
}

// mark is an anchor in effect from the document offset at on.
type mark struct {
	at     int
	anchor string
}

// anchorAt returns the anchor of the last mark at or before the document
// offset at, "" when none is.
func (p part) anchorAt(at int) string {
	a := ""
	for _, m := range p.marks {
		if m.at > at {
			break
		}
		a = m.anchor
	}
	return a
}

// citeQuoted points each citation of an extractive answer at the chunk its
// quotation comes from: its id, and the pages and heading path of the chunks of the
// widened source that the sentences cited [n] were taken from, not the
// whole neighbourhood's (a PDF citation said "pages 62-63" for a sentence on
// page 62, and a sentence of section 4.6 was cited under 4.7's heading). A
// citation whose sentences cannot be found word for word in the source (a
// table row, quoted with its header cells) names the retrieved chunk. nbs
// holds each source's neighbourhood, nil for a source that was not widened.
func citeQuoted(text string, cs []answer.Citation, srcs []answer.Source, nbs []*neighbourhood) {
	for i := range cs {
		n := cs[i].N
		if n < 1 || n > len(srcs) || n > len(nbs) || nbs[n-1] == nil || len(nbs[n-1].parts) == 0 {
			continue
		}
		nb := nbs[n-1]
		var hit []int
		at := map[int]int{}   // part → the source offset of its first quoted sentence
		ends := map[int]int{} // part → the source offset where its last quoted sentence ends
		var repeated [][2]int
		// lead is the part and source offset of the first sentence the
		// answer quotes (in the answer's order, not the document's): the
		// citation's heading path and link are its. A sentence beside the
		// passage may come earlier in the page (an API reference's
		// ANSI_COLOR_CODES entry above HIGHLIGHT_COLOR's, the answer's
		// passage): in document order, the link went to the entry beside.
		lead, leadAt := -1, 0
		// record counts the quoted sentence at [from, to) of the source in
		// the chunks holding it; where chunks overlap and the retrieved
		// one is among them, in that one.
		record := func(from, to int) {
			s, e := nb.start+from-nb.prefix, nb.start+to-nb.prefix
			var in []int
			for j, p := range nb.parts {
				if s < p.end && e > p.start {
					in = append(in, j)
				}
			}
			if slices.Contains(in, nb.chunk) {
				in = []int{nb.chunk}
			}
			if lead < 0 && len(in) > 0 {
				lead, leadAt = in[0], from
			}
			for _, j := range in {
				if !slices.Contains(hit, j) {
					hit = append(hit, j)
				}
				if f, seen := at[j]; !seen || from < f {
					at[j] = from
				}
				ends[j] = max(ends[j], to)
			}
		}
		for _, q := range quotedSentences(text, n) {
			from, to, ok := locate(srcs[n-1].Content, q)
			if m := listMarker.FindString(q); !ok && m != "" {
				// The source may mark the item otherwise ("*", "1)"); a
				// short item is found with its marker only.
				from, to, ok = locate(srcs[n-1].Content, q[len(m):])
			}
			for k := 0; !ok; {
				// A definition is quoted "term: its first sentence",
				// the source writing the term on a line of its own
				// ("$BUP_DIR/bup-dumb-server" above "Activate dumb
				// server mode …"): its sentence is found, in the
				// term's section. The term may hold ": " itself (a
				// signature's "pprint(value: Any) → str"): each is
				// tried in turn.
				i := strings.Index(q[k:], ": ")
				if i < 0 {
					break
				}
				k += i + 2
				if k > 2 {
					from, to, ok = locate(srcs[n-1].Content, q[k:])
				}
			}
			if !ok {
				continue
			}
			if c := srcs[n-1].Content; strings.Count(c, c[from:to]) > 1 {
				// Text the source repeats (an API reference's "url – URL
				// for the new Request object" in every entry) places the
				// quote only if nothing else does: found first, it
				// linked requests.post's parameters to requests.head.
				repeated = append(repeated, [2]int{from, to})
				continue
			}
			record(from, to)
		}
		if len(hit) == 0 {
			for _, r := range repeated {
				record(r[0], r[1])
			}
		}
		if len(hit) == 0 {
			hit = []int{nb.chunk}
		}
		slices.Sort(hit) // document order
		head := hit[0]
		from, ok := at[head]
		if lead >= 0 {
			head, from, ok = lead, leadAt, true
		}
		first := nb.parts[head]
		cs[i].HeadingPath = first.heading
		if first.id != "" {
			cs[i].ChunkID = first.id
			cs[i].Anchor = first.anchor
		}
		if ok {
			if path := sectionAt(srcs[n-1].Content, nb.prefix+first.start-nb.start, from, first.sections); path != "" {
				cs[i].HeadingPath = path
				// The link follows the heading path: a later section
				// of a chunk packing short ones has an anchor of its
				// own.
				if k := slices.Index(first.sections, path); k > 0 && len(first.sectionAnchors) == len(first.sections) && first.sectionAnchors[k] != "" {
					cs[i].Anchor = first.sectionAnchors[k]
				}
			}
			// The finest anchor the page gives the quoted text: a
			// later definition term's or section's inside the chunk
			// (a reference page's entries follow one another in a
			// chunk; the BIND manual's recursive-clients text was
			// cited with max-types-per-name's anchor, the chunk's
			// first).
			if a := first.anchorAt(nb.start + from - nb.prefix); a != "" {
				cs[i].Anchor = a
			}
		}
		// Every chunk the cited sentences come from, in document order: a
		// passage across a chunk boundary is in neither chunk alone.
		ids := []string{}
		for _, j := range hit {
			if id := nb.parts[j].id; id != "" {
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			cs[i].ChunkIDs = ids
		}
		ps, pe := 0, 0
		for _, j := range hit {
			p := nb.parts[j]
			if p.pageStart > 0 && (ps == 0 || p.pageStart < ps) {
				ps = p.pageStart
			}
			pe = max(pe, p.pageEnd)
		}
		if ps > 0 {
			if n, ok := search.AnchorPage(cs[i].Anchor); ok && n > ps {
				// The quoted text starts on a later page of its chunk
				// (a page mark, chunk.Chunk.AnchorMarks): the citation
				// names and opens that page, not the chunk's first (a
				// sentence on page 86 was linked to page 85).
				ps = n
			} else if cs[i].Anchor == "" || search.IsPageAnchor(cs[i].Anchor) {
				// The first page of the chunks the quoted text comes
				// from (their text starts on it).
				cs[i].Anchor = search.PageAnchor(ps)
			}
			if last := nb.parts[hit[len(hit)-1]]; ends[hit[len(hit)-1]] > 0 {
				// The range ends on the page the quoted text ends on,
				// when the chunk marks its pages (a sentence on page 86
				// of a chunk over pages 85-87 is "page 86").
				if n, ok := last.pageAt(nb.start + ends[hit[len(hit)-1]] - 1 - nb.prefix); ok {
					pe = n
				}
			}
			pe = max(pe, ps)
			cs[i].PageStart, cs[i].PageEnd = &ps, &pe
			cs[i].Page = answer.Source{PageStart: &ps, PageEnd: &pe}.Pages()
		}
	}
}

// sectionAt returns the heading path of the section of a chunk that holds
// the text at offset at of content, where the chunk's text starts at
// offset start: of the chunk's sections (their heading paths, in order),
// the last whose title stands as a line of its own between start and at;
// "" when none does (the text lies before the chunk's first title inside
// it, under the chunk's own heading path), or when a title after the first
// is nowhere in the text from there on (then which section the text lies
// in is unknown). A title the heading path keeps only the start of ("…",
// chunk.pathElem) stands at the start of its line. A chunk packing an
// FAQ's entries has the FAQ's heading path, and its citations named only
// that.
func sectionAt(content string, start, at int, sections []string) string {
	start = max(start, 0)
	if at > len(content) || start >= at {
		return ""
	}
	out, pos := "", start
	for n, path := range sections {
		i, title, named := -1, "", false
		for _, t := range pathTitles(path) {
			whole := true
			if p, ok := strings.CutSuffix(t, "…"); ok {
				t, whole = p, false
			}
			if t == "" {
				continue
			}
			named = true
			if j := titleLine(content, pos, t, whole); j >= 0 && (i < 0 || j < i) {
				i, title = j, t
			}
		}
		if !named {
			continue
		}
		switch {
		case i < 0 && n > 0:
			return ""
		case i < 0:
			continue
		case i >= at:
			return out
		}
		out, pos = path, i+len(title)
	}
	return out
}

// titleLine returns the offset of the first line of content from pos on
// that is title (or, when !whole, starts with it), or -1.
func titleLine(content string, pos int, title string, whole bool) int {
	for k := pos; k < len(content); {
		i := strings.Index(content[k:], title)
		if i < 0 {
			return -1
		}
		i += k
		e := i + len(title)
		if (i == 0 || content[i-1] == '\n') && (!whole || e == len(content) || content[e] == '\n') {
			return i
		}
		k = i + 1
	}
	return -1
}

var markerRE = regexp.MustCompile(`\[(\d+)\]`)

// quotedSentences returns the text of an answer's sentences cited [n]: for
// each marker, what precedes it back to the previous marker or blank line,
// without the punctuation and blanks between sentences.
// listMarker is the marker the extractive answer puts before a list item.
var listMarker = regexp.MustCompile(`^(?:- |\d{1,3}\. )`)

func quotedSentences(text string, n int) []string {
	var out []string
	prev := 0
	for _, m := range markerRE.FindAllStringSubmatchIndex(text, -1) {
		seg := text[prev:m[0]]
		prev = m[1]
		if k, err := strconv.Atoi(text[m[2]:m[3]]); err != nil || k != n {
			continue
		}
		raw := seg
		if i := strings.LastIndex(seg, "\n\n"); i >= 0 {
			seg = seg[i+2:]
		}
		seg = strings.TrimLeftFunc(seg, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(".!?:;,。！？", r) })
		if seg = strings.TrimSpace(seg); seg != "" {
			out = append(out, seg)
		} else if code := fencedBefore(raw); code != "" {
			// A quote that is only code is cited after its block
			// ("```…```\n\n[1]"): the code places it.
			out = append(out, code)
		}
	}
	return out
}

// fencedBefore returns the code of the fenced block s ends with, without
// its fences and info string; "" when s ends otherwise.
func fencedBefore(s string) string {
	s = strings.TrimSpace(s)
	body, ok := strings.CutSuffix(s, "```")
	if !ok {
		return ""
	}
	i := strings.LastIndex(body, "```")
	if i < 0 {
		return ""
	}
	_, code, ok := strings.Cut(body[i+3:], "\n")
	if !ok {
		return ""
	}
	return strings.TrimSpace(code)
}

// locate finds quote in content, blanks matched loosely (a run of blanks or
// line breaks equals one space): the whole quote, else its first or last
// 48 bytes (the answerer joins a definition's term to its sentence with
// ": "). It returns the byte range in content.
func locate(content, quote string) (from, to int, ok bool) {
	norm, idx := collapse(content)
	q, _ := collapse(quote)
	try := func(needle string) (int, int, bool) {
		if len(needle) < 12 {
			return 0, 0, false
		}
		i := strings.Index(norm, needle)
		if i < 0 {
			return 0, 0, false
		}
		end := i + len(needle)
		return idx[i], idx[end-1] + 1, true
	}
	if f, t, ok := try(q); ok {
		return f, t, true
	}
	if f, t, ok := try(cut(q, 48, true)); ok {
		return f, t, true
	}
	return try(cut(q, 48, false))
}

// collapse returns s with every run of white space as one space, and for
// each byte of the result the offset of the byte of s it comes from.
func collapse(s string) (string, []int) {
	var b strings.Builder
	idx := make([]int, 0, len(s))
	space := false
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
				idx = append(idx, i)
			}
			space = true
			i += w
			continue
		}
		space = false
		b.WriteString(s[i : i+w])
		for k := range w {
			idx = append(idx, i+k)
		}
		i += w
	}
	return strings.TrimRight(b.String(), " "), idx
}

// cut returns the first (head) or last n bytes of s, on rune boundaries.
func cut(s string, n int, head bool) string {
	if len(s) <= n {
		return s
	}
	if head {
		i := n
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		return s[:i]
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// pageAt returns the page the document offset at lies on, when the chunk
// marks its pages (chunk.Chunk.AnchorMarks of a paged document): the last
// page mark's at or before it, else the chunk's first page. ok is false
// when the chunk has no page marks and spans pages (stored before they
// were marked).
func (p part) pageAt(at int) (int, bool) {
	marked := false
	page := p.pageStart
	for _, m := range p.marks {
		n, ok := search.AnchorPage(m.anchor)
		if !ok {
			continue
		}
		marked = true
		if m.at <= at {
			page = n
		}
	}
	return page, page > 0 && (marked || p.pageEnd == p.pageStart)
}
