package chunk

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ragd-dev/ragd/internal/extract"
)

// ErrInvalidConfig is returned (wrapped, with the offending field and value)
// by Config.Validate and Split for an unusable configuration.
var ErrInvalidConfig = errors.New("chunk: invalid config")

// ErrInvalidDocument is returned (wrapped) by Split for a nil document or
// one whose blocks are not ascending, non-empty, non-overlapping ranges of
// its Text. Documents from extract.Extract are always valid.
var ErrInvalidDocument = errors.New("chunk: invalid document")

// Limits accepted by Config.Validate.
const (
	// MinMaxChars is the smallest MaxChars accepted: room for a few words.
	MinMaxChars = 64
	// MaxMaxChars is the largest MaxChars accepted (256 KiB), so a chunk's
	// tsvector stays far below PostgreSQL's 1 MB limit.
	MaxMaxChars = 256 << 10
)

// Config is the single place chunk sizes are set. Sizes are in tokens as
// measured by Count, except MaxChars, which is in bytes of Chunk.Content.
type Config struct {
	// TargetTokens is the size packing and windows aim for (≥ 1).
	TargetTokens int
	// MaxTokens is the hard upper bound of a chunk (≥ TargetTokens). Units
	// between TargetTokens and MaxTokens stay whole rather than being cut.
	MaxTokens int
	// MinTokens is the size under which a unit (a small section, or a run
	// of small sections) is merged into the next one even past TargetTokens,
	// so that short sections do not become tiny chunks
	// (0 ≤ MinTokens ≤ TargetTokens).
	MinTokens int
	// OverlapTokens is how much of a block cut between two windows the second
	// window repeats (0 ≤ OverlapTokens ≤ TargetTokens/2).
	OverlapTokens int
	// MaxChars is the hard upper bound of len(Chunk.Content) in bytes
	// (MinMaxChars ≤ MaxChars ≤ MaxMaxChars).
	MaxChars int
	// Count returns the number of tokens in a string. Nil means WordCount.
	// It must be deterministic and should be roughly additive (the count of
	// a concatenation close to the sum of the counts): packing sums the
	// counts of pieces and only the final Chunk.Tokens is measured whole.
	Count func(string) int
}

// DefaultConfig returns the default sizes: windows of about 200 words, at
// most 300 words, sections under 50 words merged forward, 30 words of overlap, at most 32 KiB per chunk, counted
// with WordCount. 200 words is roughly 260 tokens of a BPE tokenizer for
// English prose.
func DefaultConfig() Config {
	return Config{
		TargetTokens:  200,
		MaxTokens:     300,
		MinTokens:     50,
		OverlapTokens: 30,
		MaxChars:      32 << 10,
		Count:         WordCount,
	}
}

// Validate reports the first unusable field. Errors: ErrInvalidConfig,
// wrapped with a message naming the field and its allowed range.
func (c Config) Validate() error {
	switch {
	case c.TargetTokens < 1:
		return fmt.Errorf("%w: TargetTokens is %d, must be at least 1", ErrInvalidConfig, c.TargetTokens)
	case c.MaxTokens < c.TargetTokens:
		return fmt.Errorf("%w: MaxTokens is %d, must be at least TargetTokens (%d)", ErrInvalidConfig, c.MaxTokens, c.TargetTokens)
	case c.MinTokens < 0 || c.MinTokens > c.TargetTokens:
		return fmt.Errorf("%w: MinTokens is %d, must be between 0 and TargetTokens (%d)", ErrInvalidConfig, c.MinTokens, c.TargetTokens)
	case c.OverlapTokens < 0 || c.OverlapTokens > c.TargetTokens/2:
		return fmt.Errorf("%w: OverlapTokens is %d, must be between 0 and TargetTokens/2 (%d)", ErrInvalidConfig, c.OverlapTokens, c.TargetTokens/2)
	case c.MaxChars < MinMaxChars || c.MaxChars > MaxMaxChars:
		return fmt.Errorf("%w: MaxChars is %d, must be between %d and %d", ErrInvalidConfig, c.MaxChars, MinMaxChars, MaxMaxChars)
	}
	return nil
}

// Chunk is one piece of a document, ready to embed and index.
type Chunk struct {
	// Index is the 0-based position of the chunk in the document.
	Index int
	// HeadingPath is "Title > Section > Subsection": the document title (when
	// non-empty) and the headings the chunk sits under, joined by " > ", and
	// the term a chunk of one definition defines. Empty for an untitled
	// document without headings.
	HeadingPath string
	// Content is the chunk text: doc.Text[Start:End], preceded, when the
	// chunk starts inside a table, by that table's header row(s) and "\n"
	// (PrefixLen bytes). Never empty; len(Content) ≤ Config.MaxChars.
	Content string
	// Start and End are byte offsets into doc.Text, 0 ≤ Start < End ≤
	// len(doc.Text); Content[PrefixLen:] == doc.Text[Start:End]. Chunks are in
	// ascending order; windows with overlap share bytes with the previous chunk.
	Start, End int
	// PrefixLen is the number of leading bytes of Content that repeat a table
	// header instead of coming from doc.Text[Start:End]; usually 0.
	PrefixLen int
	// Tokens is Config.Count(Content).
	Tokens int
	// Sections are the heading paths of the sections the chunk's text (its
	// non-heading blocks) lies in, in order, each once: one for a chunk of
	// one section, several for short sections packed together (FAQ
	// entries, an intro with its first subsections) or a window cut across
	// a section's start. HeadingPath is their common prefix, which names
	// none of them, so neighbour expansion (store.ChunkNeighbourhoods)
	// judges a join at the boundary the two chunks share: the last section
	// of the chunk before, the first of the chunk after. A section's path
	// has no definition terms: one section's definitions are one section
	// (with their terms, sibling definitions no longer joined, and the
	// manual's answer checks fell 56 → 53 of 81).
	Sections []string
	// PageStart and PageEnd are the 1-based pages of a paged document (PDF)
	// holding the chunk's first and last byte (extract.Document.PageAt of
	// Start and End-1); 0 for documents without pages.
	PageStart, PageEnd int
	// Anchor is the fragment identifier (without "#") of the section or
	// definition the chunk starts in, when its page gives one
	// (extract.Block.Anchor): source_uri + "#" + Anchor links to it. ""
	// otherwise.
	Anchor string
	// SectionAnchors are the anchors of Sections, one each ("" for a
	// section whose page gives none): a citation of text in a later
	// section of the chunk links there.
	SectionAnchors []string
	// AnchorMarks are where, inside the chunk, the anchor in effect
	// changes from Anchor: a later section's or definition term's
	// (a Sphinx reference page's entries, dt ids, one after another in a
	// chunk), in document order. A citation of text at offset o links to
	// the last mark at or before o, else to Anchor.
	AnchorMarks []AnchorMark
}

// AnchorMark is an anchor in effect from At (a byte offset into doc.Text)
// on.
type AnchorMark struct {
	At     int
	Anchor string
}

// Split cuts doc into chunks as described in the package comment, in
// document order. A document without blocks yields no chunks.
// Errors: ErrInvalidConfig, ErrInvalidDocument (both wrapped).
func Split(doc *extract.Document, cfg Config) ([]Chunk, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := checkDocument(doc); err != nil {
		return nil, err
	}
	if cfg.Count == nil {
		cfg.Count = WordCount
	}
	s := newSplitter(doc, cfg)
	for _, u := range s.packTail(s.collect(s.sections())) {
		s.emitUnit(u)
	}
	return s.out, nil
}

func checkDocument(doc *extract.Document) error {
	if doc == nil {
		return fmt.Errorf("%w: nil document", ErrInvalidDocument)
	}
	prev := 0
	for i, b := range doc.Blocks {
		if b.Start < prev || b.End <= b.Start || b.End > len(doc.Text) {
			return fmt.Errorf("%w: block %d has range [%d,%d) (previous block ends at %d, text is %d bytes)",
				ErrInvalidDocument, i, b.Start, b.End, prev, len(doc.Text))
		}
		if b.Kind == extract.KindTable {
			if b.HeaderRow != "" && !strings.HasPrefix(doc.Text[b.Start:b.End], b.HeaderRow) {
				return fmt.Errorf("%w: table block %d: HeaderRow is not at the start of the block", ErrInvalidDocument, i)
			}
			rp := b.Start + len(b.HeaderRow)
			for j, r := range b.Rows {
				if r.Start < rp || r.End <= r.Start || r.End > b.End {
					return fmt.Errorf("%w: table block %d: row %d has range [%d,%d)", ErrInvalidDocument, i, j, r.Start, r.End)
				}
				rp = r.End
			}
		}
		prev = b.End
	}
	for i, p := range doc.Pages {
		if p < 0 || p > len(doc.Text) || (i > 0 && p < doc.Pages[i-1]) {
			return fmt.Errorf("%w: page %d starts at %d (text is %d bytes, pages must not go backwards)", ErrInvalidDocument, i+1, p, len(doc.Text))
		}
	}
	return nil
}

// section is a node of the heading tree over block indices [from, to).
type section struct {
	level    int
	from, to int
	children []*section
}

// unit is a contiguous block range [from, to) that becomes one chunk, or is
// windowed when over the limits.
type unit struct {
	from, to int
}

type splitter struct {
	doc    *extract.Document
	cfg    Config
	text   string
	title  string
	blocks []extract.Block
	prefix []int      // prefix[i] = tokens of blocks[:i]
	text0  []int      // text0[i] = blocks of blocks[:i] that are not headings
	paths  [][]string // heading path of each block (its innermost section)
	secs   []string   // each block's section's path, without definition terms
	// anchors are each block's anchor (blockAnchors), computed when the
	// first chunk is emitted.
	anchors    []string
	secAnchors []string // each block's section's anchor, without terms
	out        []Chunk
}

func newSplitter(doc *extract.Document, cfg Config) *splitter {
	s := &splitter{doc: doc, cfg: cfg, text: doc.Text, title: doc.Title, blocks: doc.Blocks}
	s.prefix = make([]int, len(doc.Blocks)+1)
	s.text0 = make([]int, len(doc.Blocks)+1)
	for i, b := range doc.Blocks {
		s.text0[i+1] = s.text0[i]
		if b.Kind != extract.KindHeading {
			s.text0[i+1]++
		}
		s.prefix[i+1] = s.prefix[i] + cfg.Count(doc.Text[b.Start:b.End])
	}
	return s
}

// maxPathElem bounds one heading in a path, so garbage headings cannot bloat
// every chunk's HeadingPath.
const maxPathElem = 200

func pathElem(s string) string {
	// " > " joins a path's elements, so a heading's own (a menu path, "Edit
	// > Find") is written " › ": the path stays readable and splits back into
	// its headings.
	s = strings.ReplaceAll(strings.Join(strings.Fields(s), " "), " > ", " › ")
	if len(s) <= maxPathElem {
		return s
	}
	cut := maxPathElem
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// titleSeparators join a page's own title and its site's name in an HTML
// <title> ("Spider Middleware — Scrapy 2.8.0 documentation", "Install -
// MkDocs", "Docs | Page").
var titleSeparators = []string{" — ", " – ", " - ", " | ", " · ", " :: ", " » ", ": "}

// repeats reports whether heading h says again what the path element above
// it (last) already says: the same words, or, when last is the document's
// title, the title without its site's name. Sphinx, MkDocs and most site
// generators title a page "<h1> — <site>"; the h1 under it repeated the page's
// name in every chunk's heading path ("Spider Middleware — Scrapy 2.8.0
// documentation > Spider Middleware > …") and in the embedded text's first
// tokens. The title keeps the site's name: in a tenant holding several
// products' documentation it says which one a page is about.
func repeats(last, h string, title bool) bool {
	if strings.EqualFold(h, last) {
		return true
	}
	if !title || len(h) >= len(last) {
		return false
	}
	for _, sep := range titleSeparators {
		if n := len(h) + len(sep); n < len(last) && strings.EqualFold(last[:len(h)], h) && last[len(h):n] == sep ||
			n < len(last) && strings.EqualFold(last[len(last)-len(h):], h) && last[len(last)-n:len(last)-len(h)] == sep {
			return true
		}
	}
	return false
}

// namingTerm returns the innermost of the definition terms a block is in
// (outermost first) that names something: a field list's label inside an
// API entry ("Parameters:", "Returns", "Raises:") names no thing, and as a
// chunk's last heading it cited a parameter's description as "General
// Helpers > Parameters:" without the function it belongs to; the entry's
// own term (the function's signature) does. A term is a label when it is
// one of the docstring fields Sphinx, numpydoc and Google style write, or
// ends with ":" in at most three words. All labels: the innermost.
func namingTerm(terms []string) string {
	for i := len(terms) - 1; i >= 0; i-- {
		if !fieldLabel(terms[i]) {
			return terms[i]
		}
	}
	return terms[len(terms)-1]
}

// fieldLabel reports a definition term that labels a field of what the
// definition around it defines (see namingTerm).
func fieldLabel(t string) bool {
	t = strings.TrimSpace(t)
	if strings.HasSuffix(t, ":") && len(strings.Fields(t)) <= 3 {
		return true
	}
	return docstringFields[strings.ToLower(t)]
}

// docstringFields are the field names of Python docstrings as Sphinx
// renders them (reStructuredText field lists, numpydoc and Google style).
var docstringFields = map[string]bool{"parameters": true, "parameter": true, "params": true, "args": true,
	"arguments": true, "keyword arguments": true, "other parameters": true, "returns": true, "return": true,
	"return type": true, "rtype": true, "yields": true, "raises": true, "raise": true, "type": true,
	"variables": true, "attributes": true}

// sections builds the heading tree (the root spans every block) and the
// heading path of every block.
func (s *splitter) sections() *section {
	type open struct {
		sec  *section
		path []string
	}
	root := &section{level: 0, from: 0, to: len(s.blocks)}
	var rootPath []string
	if t := pathElem(s.title); t != "" {
		rootPath = []string{t}
	}
	stack := []open{{root, rootPath}}
	s.paths = make([][]string, len(s.blocks))
	s.secs = make([]string, len(s.blocks))
	// terms are the path elements of the definition terms the blocks are
	// in, outermost first (a list nested in a definition adds one): a term
	// and the blocks of its definition have the innermost at the end of
	// their path, so a chunk of one definition names what it defines
	// (postconf(5)'s parameters, a manual's settings), and a chunk of
	// several definitions their section (the paths' common prefix).
	var terms []string
	for i, b := range s.blocks {
		d := max(b.Definition, 0)
		if b.Kind == extract.KindTerm {
			terms = append(terms[:min(d-1, len(terms)):min(d-1, len(terms))], pathElem(s.text[b.Start:b.End]))
		} else {
			terms = terms[:min(d, len(terms))]
		}
		term := ""
		if len(terms) > 0 && (b.Kind == extract.KindTerm || d > 0) {
			term = namingTerm(terms)
		}
		if b.Kind == extract.KindHeading {
			level := max(b.Level, 1)
			for len(stack) > 1 && stack[len(stack)-1].sec.level >= level {
				stack[len(stack)-1].sec.to = i
				stack = stack[:len(stack)-1]
			}
			parent := stack[len(stack)-1]
			path := parent.path
			if h := pathElem(s.text[b.Start:b.End]); h != "" && (len(path) == 0 || !repeats(path[len(path)-1], h, len(path) == len(rootPath) && parent.sec == root)) {
				path = append(path[:len(path):len(path)], h)
			}
			sec := &section{level: level, from: i, to: len(s.blocks)}
			parent.sec.children = append(parent.sec.children, sec)
			stack = append(stack, open{sec, path})
		}
		s.paths[i] = stack[len(stack)-1].path
		s.secs[i] = strings.Join(s.paths[i], " > ")
		if path := s.paths[i]; term != "" && b.Kind != extract.KindHeading && (len(path) == 0 || !strings.EqualFold(term, path[len(path)-1])) {
			s.paths[i] = append(path[:len(path):len(path)], term)
		}
	}
	return root
}

// pathOf is the heading path of blocks [from, to): the common prefix of the
// paths of its non-heading blocks (a heading does not widen the path of the
// content under it), or the last block's path if all are headings; and
// the paths of the sections those blocks lie in (Chunk.Sections).
func (s *splitter) pathOf(from, to int) (path string, sections, anchors []string) {
	s.ensureAnchors()
	var p []string
	seen := false
	for i := from; i < to; i++ {
		if s.blocks[i].Kind == extract.KindHeading {
			continue
		}
		if !seen {
			p, seen = s.paths[i], true
		} else {
			p = commonPrefix(p, s.paths[i])
		}
		if sec := s.secs[i]; len(sections) == 0 || sections[len(sections)-1] != sec {
			sections = append(sections, sec)
			anchors = append(anchors, s.secAnchors[i])
		}
	}
	if !seen {
		p = s.paths[to-1]
	}
	return strings.Join(p, " > "), sections, anchors
}

func (s *splitter) tokens(from, to int) int { return s.prefix[to] - s.prefix[from] }

func (s *splitter) bytes(from, to int) int { return s.blocks[to-1].End - s.blocks[from].Start }

func (s *splitter) fits(from, to, limit int) bool {
	return s.tokens(from, to) <= limit && s.bytes(from, to) <= s.cfg.MaxChars
}

// small reports whether a unit is too small to stand alone: only headings,
// or under MinTokens. In constant time (text0): pack asks it at every
// merge, and scanning the unit's blocks made a run of empty headings
// quadratic (a 512 KiB upload of "# h" lines took 26 s).
func (s *splitter) small(u unit) bool {
	return s.tokens(u.from, u.to) < s.cfg.MinTokens || s.text0[u.to] == s.text0[u.from]
}

// collect turns a section into packed units (recursion depth ≤ 7: heading
// levels are 1–6 under the root).
func (s *splitter) collect(sec *section) []unit {
	if sec.from >= sec.to {
		return nil
	}
	if s.fits(sec.from, sec.to, s.cfg.TargetTokens) {
		return []unit{{sec.from, sec.to}}
	}
	var units []unit
	intro := sec.to
	if len(sec.children) > 0 {
		intro = sec.children[0].from
	}
	if intro > sec.from {
		units = append(units, unit{sec.from, intro})
	}
	for _, c := range sec.children {
		units = append(units, s.collect(c)...)
	}
	return s.pack(units)
}

// pack merges consecutive units greedily up to TargetTokens; a small unit
// (only headings, or under MinTokens) merges into the next one whatever its
// size, so it is not left as a chunk of its own.
func (s *splitter) pack(units []unit) []unit {
	out := units[:0]
	for _, u := range units {
		if n := len(out); n > 0 {
			last := &out[n-1]
			if s.fits(last.from, u.to, s.cfg.TargetTokens) || s.small(*last) {
				last.to = u.to
				continue
			}
		}
		out = append(out, u)
	}
	return out
}

// packTail merges a small last unit backwards when the result stays within
// the hard limits (nothing follows it to merge into).
func (s *splitter) packTail(units []unit) []unit {
	if n := len(units); n > 1 && s.small(units[n-1]) && s.fits(units[n-2].from, units[n-1].to, s.cfg.MaxTokens) {
		units[n-2].to = units[n-1].to
		units = units[:n-1]
	}
	return units
}

func commonPrefix(a, b []string) []string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n:n]
}

func (s *splitter) emitUnit(u unit) {
	if s.fits(u.from, u.to, s.cfg.MaxTokens) {
		path, sections, anchors := s.pathOf(u.from, u.to)
		s.emit(path, sections, anchors, "", s.blocks[u.from].Start, s.blocks[u.to-1].End)
		return
	}
	s.window(u)
}

// emit appends a chunk for text[start:end] with an optional repeated header.
func (s *splitter) emit(path string, sections, anchors []string, header string, start, end int) {
	body := s.text[start:end]
	if strings.TrimSpace(body) == "" {
		return
	}
	content, prefixLen := body, 0
	if header != "" {
		content = header + "\n" + body
		prefixLen = len(header) + 1
	}
	s.out = append(s.out, Chunk{
		Index:          len(s.out),
		HeadingPath:    path,
		Sections:       sections,
		Content:        content,
		Start:          start,
		End:            end,
		PrefixLen:      prefixLen,
		Tokens:         s.cfg.Count(content),
		PageStart:      s.doc.PageAt(start),
		PageEnd:        s.doc.PageAt(end - 1),
		Anchor:         s.anchorAt(start, end),
		SectionAnchors: anchors,
		AnchorMarks:    s.marksIn(start, end),
	})
}
