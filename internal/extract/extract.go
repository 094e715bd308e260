package extract

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragd-dev/ragd/internal/analyze"
)

// Canonical content types returned by TypeFromPath and accepted by Extract.
const (
	TypeMarkdown = "text/markdown"
	TypeHTML     = "text/html"
	TypePlain    = "text/plain"
	// TypePDF is a PDF file: its text layer, page by page.
	TypePDF = "application/pdf"
	// TypeDOCX is an Office Open XML word-processing document (.docx).
	TypeDOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
)

// Version names what extraction produces from a given input. It is part of
// the ingest pipeline's fingerprint, so a change that alters the text of
// documents already stored (an exponent now written 2^31, a form's content
// now read) re-extracts them on their next ingest instead of skipping them
// as unchanged; raise it with every such change, and with every change to
// what package chunk stores for the same text (a heading path's form, a
// chunk's flags).
const Version = "2026-12-08.101"

// ErrUnsupportedType is returned (wrapped, with the offending type and the
// supported list in the message) by Extract for a content type it cannot
// read and by TypeFromPath for an unknown file extension.
var ErrUnsupportedType = errors.New("extract: unsupported content type")

// ErrInvalidUTF8 is returned by Extract when the input is not valid UTF-8.
// Callers must transcode other charsets to UTF-8 before extracting.
var ErrInvalidUTF8 = errors.New("extract: input is not valid UTF-8")

// ErrBinary is returned by Extract when the input contains a NUL byte or
// control characters (other than tab, newline, CR, VT, FF) making up more
// than 1% of it (and more than four): it is a binary file, not a document.
var ErrBinary = errors.New("extract: input looks binary")

// ErrEmpty is returned by Extract when the input is empty or yields only
// whitespace after extraction (for example an HTML page that is all
// navigation, or a Markdown file that is only front matter).
var ErrEmpty = errors.New("extract: no text to extract")

// ErrRedirect is returned (wrapped, with the target) for an HTML page that
// only redirects elsewhere (a meta refresh and a line pointing there); it
// is an ErrEmpty.
var ErrRedirect = fmt.Errorf("%w: the page only redirects", ErrEmpty)

// ErrChromeOnly is returned for an HTML page whose only text is the site's
// chrome (navigation, a version banner: Debian's copy of Kombu's change
// log keeps the theme and drops the log). It is an ErrEmpty; a directory's
// ingest skips such a page as it skips a redirect, where a page with no
// text at all fails.
var ErrChromeOnly = fmt.Errorf("%w: the page's only text is the site's navigation and banners", ErrEmpty)

// ErrTitleOnly is returned for an HTML page whose only text is one
// heading: an API reference page whose autodoc found nothing to document
// (15 of cmd2's 16 api/*.html pages in Debian's build hold "cmd2.Cmd" and
// no more), a placeholder. Stored, a one-line chunk matched questions by
// its title and was cited for them. Like ErrChromeOnly, it is an ErrEmpty,
// and a directory's ingest skips the page.
var ErrTitleOnly = fmt.Errorf("%w: the page's only text is its title", ErrEmpty)

// ErrLinksOnly is returned for an HTML page that is an index or a table
// of contents: once its lists and tables of links outside the content are
// left out as such (texi2any's Options-Index.html and zsh_toc.html, a
// site's contents page), a title and a footer remain; or the text kept is
// mostly links to the site's pages (Exim's concept index: terms each
// followed by their links). Like ErrChromeOnly,
// it is an ErrEmpty, and a directory's ingest skips the page.
var ErrLinksOnly = fmt.Errorf("%w: the page is an index or a table of contents (lists and tables of links)", ErrEmpty)

// ErrNoTextLayer is returned by Extract for a PDF none of whose pages has
// extractable text: a scan or an image-only file. ragd does no OCR; such a
// file must be run through an OCR tool before it is ingested.
var ErrNoTextLayer = errors.New("extract: the PDF has no text layer (a scanned or image-only file; OCR is not supported)")

// ErrNoPages is returned by Extract for a PDF that has no pages at all: no
// scan either, so "no text layer" would send its owner to an OCR tool for
// nothing. It is an ErrEmpty.
var ErrNoPages = fmt.Errorf("%w: the PDF has no pages", ErrEmpty)

// ErrUnreadable is returned (wrapped, with the reason) by Extract for a PDF
// or DOCX file that cannot be read: damaged, encrypted with a password, not
// the declared format, over the size limits of its parts, or taking too long.
var ErrUnreadable = errors.New("extract: document cannot be read")

// Kind says what a Block is. The zero Kind is invalid.
type Kind uint8

// Block kinds.
const (
	// KindParagraph is flowing text with collapsed whitespace; it may hold
	// "\n" line breaks where the source had explicit ones (<br>, hard breaks).
	KindParagraph Kind = iota + 1
	// KindHeading is one line of heading text; Block.Level is 1–6.
	KindHeading
	// KindCode is preformatted text kept verbatim (HTML pre, Markdown code).
	KindCode
	// KindTable is a table, one line per row, cells joined by " | ";
	// Block.HeaderRow and Block.Rows describe its rows.
	KindTable
	// KindListItem is one paragraph of a list item, prefixed "- " or "N. "
	// (continuation paragraphs of the same item are only indented);
	// Block.Level is the list nesting depth, 1 for a top-level list.
	KindListItem
	// KindTerm is the term of a definition list (HTML dt), one line; its
	// definition follows as ordinary blocks.
	KindTerm
	// KindCaption is the one-line title of the table, example or figure that
	// follows it (HTML <caption>, DocBook p.title). Chunkers keep it with the
	// next block.
	KindCaption
)

var kindNames = [...]string{"invalid", "paragraph", "heading", "code", "table", "list-item", "term", "caption"}

// String returns a lower-case name such as "heading" or "list-item".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Span is a half-open byte range [Start, End) of Document.Text.
type Span struct {
	Start, End int
}

// Block is one structural unit of a Document: a byte range of Document.Text
// plus what it is. Text[Start:End] never begins or ends with a newline and
// is never empty.
type Block struct {
	// Kind says what the block is.
	Kind Kind
	// Level is the heading level (1–6) for KindHeading, the list nesting
	// depth (≥ 1) for KindListItem, and 0 otherwise.
	Level int
	// Start and End are byte offsets into Document.Text, 0 ≤ Start < End.
	Start, End int
	// HeaderRow is, for KindTable, the header row(s) as they appear at the
	// top of the table, several rows joined by "\n"; empty when the table has
	// no header. When non-empty, Text[Start:Start+len(HeaderRow)] == HeaderRow.
	HeaderRow string
	// Rows are, for KindTable, the byte ranges of the body rows (header rows
	// excluded) in order, one line each; cutting between two rows is safe.
	// Nil for other kinds.
	Rows []Span
	// Definition is how many definitions the block is inside (an HTML dd's
	// paragraphs, lists, code and tables; the description of a manual
	// page's option): 0 outside any, 2 inside a definition list nested in a
	// definition. For KindTerm it is the term's own depth: 1 for a term of
	// a top-level list. A block at depth d defines the last term of depth d
	// before it.
	Definition int
	// Anchor is, for KindHeading and KindTerm blocks of HTML, the fragment
	// identifier (without "#") that links to the heading or term on its
	// page, when the page gives one; "" otherwise.
	Anchor string
}

// Document is the result of Extract.
type Document struct {
	// Title is the document title: HTML <title> (else the first h1),
	// Markdown front-matter title (else the first level-1 heading), DOCX
	// core title (else its Title paragraph, else its first level-1
	// heading), a PDF's Title metadata, and empty for plain text.
	// Whitespace is collapsed; it may be empty.
	Title string
	// Text is the extracted plain text that citations point into; see the
	// package comment for its layout. Never empty or whitespace-only.
	Text string
	// Blocks cover Text in order; ranges are ascending and do not overlap.
	Blocks []Block
	// Pages is, for a paged format (PDF), the byte offset in Text where each
	// page's text begins: Pages[i] for page i+1, non-decreasing, a page
	// without text taking the offset of the next page's text (len(Text) at
	// the end). Nil for formats without pages. PageAt maps an offset to a
	// page number.
	Pages []int
}

// PageAt returns the 1-based number of the page holding byte offset off of
// Text: the last page whose text starts at or before off. It returns 0 for a
// document without pages.
func (d *Document) PageAt(off int) int {
	if len(d.Pages) == 0 {
		return 0
	}
	// The first page whose start is past off, minus one.
	lo, hi := 0, len(d.Pages)
	for lo < hi {
		m := (lo + hi) / 2
		if d.Pages[m] <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return max(lo, 1)
}

// Extract reads data of the given content type and returns its text and
// structure.
//
// contentType is a MIME type ("text/markdown", "text/html", "text/plain",
// TypePDF, TypeDOCX; also "text/x-markdown" and "application/xhtml+xml";
// parameters such as "; charset=utf-8" are ignored) or a short name
// ("markdown", "html", "text", "pdf", "docx"), case-insensitive. Text
// formats must be UTF-8.
//
// Errors: ErrUnsupportedType (wrapped) for any other content type,
// ErrInvalidUTF8, ErrBinary, ErrEmpty; for PDF and DOCX ErrUnreadable
// (wrapped) and, for PDF, ErrNoTextLayer. Extract never panics on any input
// and runs in time roughly linear in len(data) (a PDF is bounded by a
// timeout instead).
func Extract(contentType string, data []byte) (*Document, error) {
	return ExtractContext(context.Background(), contentType, data)
}

// ExtractContext is Extract for a request: reading a PDF also ends when ctx
// does (its PDF engine instance is killed and released), with ctx's error.
// A hostile PDF can take the engine minutes, and the engine has one
// instance per core: without this, a few uploads held every instance past
// their requests' deadlines and other tenants' PDFs waited.
//
// The other formats are read in linear time (Markdown that would drive the
// parser into super-linear time is read as text: markdownRisky), but a
// large document still takes its time: when ctx ends first, ExtractContext
// returns ctx's error at once, and the reading, bounded, finishes on its own.
func ExtractContext(ctx context.Context, contentType string, data []byte) (*Document, error) {
	typ, err := CanonicalType(contentType)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if typ == TypePDF {
		return extractPDF(ctx, data)
	}
	if ctx.Done() == nil {
		return extractTyped(typ, data)
	}
	type result struct {
		doc *Document
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			// Extraction never panics (fuzzed); if it did, the server
			// must not go down with this goroutine.
			if r := recover(); r != nil {
				done <- result{nil, fmt.Errorf("%w: extraction failed: %v", ErrUnreadable, r)}
			}
		}()
		doc, err := extractTyped(typ, data)
		done <- result{doc, err}
	}()
	select {
	case r := <-done:
		return r.doc, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// extractTyped reads data of canonical type typ, PDF excepted.
func extractTyped(typ string, data []byte) (*Document, error) {
	if typ == TypeDOCX {
		return extractDOCX(data)
	}
	var err error
	if !utf8.Valid(data) {
		return nil, ErrInvalidUTF8
	}
	src, err := sanitize(data)
	if err != nil {
		return nil, err
	}
	var doc *Document
	switch typ {
	case TypeHTML:
		doc, err = extractHTML(src)
	case TypeMarkdown:
		doc, err = extractMarkdown(src)
	default:
		doc = extractPlain(src)
	}
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(doc.Text) == "" {
		return nil, ErrEmpty
	}
	return doc, nil
}

// Gzipped reports whether path names a gzip-compressed file (".gz"), whose
// type is its name's without the suffix (TypeFromPath).
func Gzipped(path string) bool { return strings.EqualFold(filepath.Ext(path), ".gz") }

// TypeFromPath maps a file name's extension (case-insensitive) to the
// canonical content type: .md and .markdown → TypeMarkdown, .html and .htm →
// TypeHTML, .txt and .text → TypePlain, .pdf → TypePDF, .docx → TypeDOCX.
// Errors: ErrUnsupportedType (wrapped) for any other extension, including
// none.
func TypeFromPath(path string) (string, error) {
	if Gzipped(path) {
		// "manual.pdf.gz", "NEWS.txt.gz": Debian ships documentation
		// compressed; the file is read decompressed as its inner type.
		return TypeFromPath(path[:len(path)-len(".gz")])
	}
	ext := strings.ToLower(filepath.Ext(path))
	if lang := strings.TrimPrefix(ext, "."); languageTag(lang) {
		// A content-negotiated page names its language after its type
		// ("auth.html.en", "index.html.pt-br": the Apache manual's layout).
		if inner := strings.ToLower(filepath.Ext(strings.TrimSuffix(path, filepath.Ext(path)))); inner != "" {
			ext = inner
		}
	}
	switch ext {
	case ".md", ".markdown":
		return TypeMarkdown, nil
	case ".html", ".htm":
		return TypeHTML, nil
	case ".txt", ".text":
		return TypePlain, nil
	case ".pdf":
		return TypePDF, nil
	case ".docx":
		return TypeDOCX, nil
	default:
		return "", fmt.Errorf("%w: file extension %q of %q (supported: .md, .markdown, .html, .htm, .txt, .text, .pdf, .docx)",
			ErrUnsupportedType, ext, filepath.Base(path))
	}
}

// languageTags are the ISO 639-1 codes of the languages documentation is
// most often translated into.
var languageTags = map[string]bool{
	"ar": true, "bg": true, "ca": true, "cs": true, "da": true, "de": true, "el": true, "en": true, "es": true, "et": true,
	"fa": true, "fi": true, "fr": true, "he": true, "hi": true, "hr": true, "hu": true, "id": true, "it": true, "ja": true,
	"ko": true, "lt": true, "lv": true, "nb": true, "nl": true, "nn": true, "no": true, "pl": true, "pt": true, "ro": true,
	"ru": true, "sk": true, "sl": true, "sr": true, "sv": true, "th": true, "tr": true, "uk": true, "vi": true, "zh": true,
}

// languageTag reports a language tag used as a file extension: an ISO 639-1
// code, optionally with a region ("pt-br", "zh-cn").
func languageTag(s string) bool {
	lang, region, hasRegion := strings.Cut(s, "-")
	if !languageTags[lang] {
		return false
	}
	return !hasRegion || len(region) == 2 || len(region) == 4
}

// CanonicalType maps a content type (MIME type with optional parameters, or a
// short name: markdown, md, html, text, plain, pdf, docx; any case) to
// TypeMarkdown, TypeHTML, TypePlain, TypePDF or TypeDOCX. Errors:
// ErrUnsupportedType naming the input.
func CanonicalType(contentType string) (string, error) {
	t := strings.ToLower(strings.TrimSpace(contentType))
	if mt, _, err := mime.ParseMediaType(t); err == nil {
		t = mt
	}
	switch t {
	case TypeMarkdown, "text/x-markdown", "markdown", "md":
		return TypeMarkdown, nil
	case TypeHTML, "application/xhtml+xml", "html":
		return TypeHTML, nil
	case TypePlain, "text", "plain":
		return TypePlain, nil
	case TypePDF, "application/x-pdf", "pdf":
		return TypePDF, nil
	case TypeDOCX, "docx":
		return TypeDOCX, nil
	}
	return "", fmt.Errorf("%w %q (supported: markdown, html, plain text, pdf, docx)", ErrUnsupportedType, contentType)
}

// sanitize drops a leading byte-order mark, turns CRLF, CR, VT and FF into
// "\n" and removes the other C0 control characters and DEL. It reports
// ErrBinary for a NUL byte or when control characters exceed 1% of the input
// (ignoring up to four strays).
func sanitize(data []byte) ([]byte, error) {
	data = trimBOM(data)
	controls := 0
	for _, c := range data {
		switch {
		case c == 0:
			return nil, ErrBinary
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f', c == 0x7f:
			controls++
		}
	}
	if controls > 4 && controls*100 > len(data) {
		return nil, ErrBinary
	}
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\r':
			out = append(out, '\n')
			if i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
		case c == '\v' || c == '\f':
			out = append(out, '\n')
		case c == '\t' || c == '\n':
			out = append(out, c)
		case c < 0x20 || c == 0x7f:
			// dropped
		default:
			out = append(out, c)
		}
	}
	return out, nil
}

func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// builder accumulates Document.Text and its Blocks, every text in Unicode
// normal form C without invisible word-splitting characters
// (analyze.Normalize), as questions are: the keyword leg compares code
// points.
type builder struct {
	buf    strings.Builder
	blocks []Block
	// inDefinition > 0 while the blocks added define the last term.
	inDefinition int
}

// sep writes the separator that goes before a block of kind k.
func (b *builder) sep(k Kind) {
	if len(b.blocks) == 0 {
		return
	}
	prev := b.blocks[len(b.blocks)-1].Kind
	if (prev == KindTerm && k != KindHeading) || (prev == KindListItem && k == KindListItem) {
		b.buf.WriteByte('\n')
		return
	}
	b.buf.WriteString("\n\n")
}

// add appends a block whose text s is already normalised; empty s is ignored.
func (b *builder) add(k Kind, level int, s string) {
	s = clean(s, k == KindCode)
	if s == "" {
		return
	}
	b.sep(k)
	start := b.buf.Len()
	b.buf.WriteString(s)
	depth := b.inDefinition
	switch k {
	case KindTerm:
		depth++
	case KindHeading:
		depth = 0
	}
	b.blocks = append(b.blocks, Block{Kind: k, Level: level, Start: start, End: b.buf.Len(), Definition: depth})
}

// addCode appends a verbatim code block after trimming blank leading lines
// and trailing whitespace; an all-whitespace block is ignored.
func (b *builder) addCode(s string) {
	s = trimCode(s)
	if s == "" {
		return
	}
	b.add(KindCode, 0, s)
}

// addTable appends a table from already normalised row texts. header rows
// come first; empty rows must already be dropped. A table without rows is
// ignored.
func (b *builder) addTable(header, rows []string) {
	if len(header) == 0 && len(rows) == 0 {
		return
	}
	if len(rows) == 0 { // header only: it is the content
		rows, header = header, nil
	}
	header, rows = cleanRows(header), cleanRows(rows)
	if len(header) == 0 && len(rows) == 0 {
		return
	}
	if len(rows) == 0 {
		rows, header = header, nil
	}
	b.sep(KindTable)
	start := b.buf.Len()
	blk := Block{Kind: KindTable, Start: start, Rows: make([]Span, 0, len(rows)), Definition: b.inDefinition}
	for i, h := range header {
		if i > 0 {
			b.buf.WriteByte('\n')
		}
		b.buf.WriteString(h)
	}
	if len(header) > 0 {
		blk.HeaderRow = b.buf.String()[start:]
		b.buf.WriteByte('\n')
	}
	for i, r := range rows {
		if i > 0 {
			b.buf.WriteByte('\n')
		}
		rs := b.buf.Len()
		b.buf.WriteString(r)
		blk.Rows = append(blk.Rows, Span{rs, b.buf.Len()})
	}
	blk.End = b.buf.Len()
	b.blocks = append(b.blocks, blk)
}

// extendLast appends s to the last block's text; the last block must be
// the last thing written.
func (b *builder) extendLast(s string) {
	b.buf.WriteString(strings.TrimRight(analyze.Normalize(s), " \t\n"))
	b.blocks[len(b.blocks)-1].End = b.buf.Len()
}

func (b *builder) document(title string) *Document {
	return &Document{Title: strings.TrimSpace(analyze.Normalize(withoutControls(title))), Text: b.buf.String(), Blocks: b.blocks}
}

// clean puts an extractor's block text in the form questions are compared
// in (analyze.Normalize) and restores what the extractor had ensured before
// it: a line that held only an invisible character is gone, and the text
// neither begins nor ends with a blank (code keeps its indentation).
func clean(s string, code bool) string {
	norm := analyze.Normalize
	if code {
		norm = analyze.NormalizeCode // code keeps its minus signs
	}
	n := norm(withoutControls(s))
	if n == s {
		return s
	}
	if code {
		return trimCode(n)
	}
	lines := strings.Split(n, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			kept = append(kept, strings.TrimRight(l, " \t"))
		}
	}
	return strings.TrimSpace(strings.Join(kept, "\n"))
}

// cleanRows cleans table rows, dropping those left empty.
func cleanRows(rows []string) []string {
	out := rows[:0]
	for _, r := range rows {
		if r = clean(r, false); r != "" {
			out = append(out, r)
		}
	}
	return out
}

// trimCode drops leading blank lines and trailing whitespace of a code block
// while keeping the indentation of its first non-blank line.
func trimCode(s string) string {
	s = strings.TrimRight(withoutControls(s), " \t\n")
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 || strings.TrimSpace(s[:i]) != "" {
			break
		}
		s = s[i+1:]
	}
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return s
}

// hardBreak marks an explicit line break (<br>, Markdown hard break) in an
// inline buffer. NUL never survives sanitize, so it cannot clash with text.
const hardBreak = '\x00'

// inline accumulates flowing text, collapsing whitespace as it goes.
type inline struct {
	b     []byte
	space bool // a whitespace run is pending
}

func (in *inline) text(s string) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == ' ' || c == '\t' || c == '\n' {
				in.space = true
			} else {
				in.put(s[i : i+1])
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case isSpaceRune(r):
			in.space = true
		default:
			in.put(s[i : i+n])
		}
		i += n
	}
}

// privateUse reports a character of Unicode's private use areas: an icon
// font's glyph most often (a form label made of them is chrome), a
// custom character of old CJK documents sometimes, so text keeps them.
func privateUse(r rune) bool {
	return r >= 0xE000 && r <= 0xF8FF || r >= 0xF0000 && r <= 0xFFFFD || r >= 0x100000 && r <= 0x10FFFD
}

func (in *inline) put(s string) {
	if in.space {
		if len(in.b) > 0 && in.b[len(in.b)-1] != hardBreak {
			in.b = append(in.b, ' ')
		}
		in.space = false
	}
	in.b = append(in.b, s...)
}

// breakLine records a hard line break.
func (in *inline) breakLine() {
	in.space = false
	if len(in.b) > 0 && in.b[len(in.b)-1] != hardBreak {
		in.b = append(in.b, hardBreak)
	}
}

// softSpace records a word boundary (e.g. between table cells or blocks
// inside an inline context).
func (in *inline) softSpace() { in.space = true }

func (in *inline) empty() bool { return len(in.b) == 0 }

// take returns the normalised text (hard breaks become "\n", or " " when
// oneLine) and resets the buffer.
func (in *inline) take(oneLine bool) string {
	b := in.b
	for len(b) > 0 && (b[len(b)-1] == hardBreak || b[len(b)-1] == ' ') {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && (b[0] == hardBreak || b[0] == ' ') {
		b = b[1:]
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != hardBreak {
			out = append(out, c)
			continue
		}
		for len(out) > 0 && out[len(out)-1] == ' ' {
			out = out[:len(out)-1]
		}
		if oneLine {
			out = append(out, ' ')
		} else {
			out = append(out, '\n')
		}
		for i+1 < len(b) && b[i+1] == ' ' {
			i++
		}
	}
	in.b = in.b[:0]
	in.space = false
	return string(out)
}

func isSpaceRune(r rune) bool {
	switch r {
	case 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// collapse normalises s as one line of flowing text.
func collapse(s string) string {
	var in inline
	in.text(s)
	return in.take(true)
}

// withoutControls returns s without control characters (C0 but tab and
// newline, DEL, C1; carriage return, form feed and vertical tab become
// spaces): they are no text a reader sees, and printed they act
// on a terminal (an HTML page's "&#27;]0;…&#7;" set the window title of
// whoever ran `ragd ask`).
func withoutControls(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\r' || r == '\f' || r == '\v':
			// Whitespace to HTML and to text alike ("alpha&#12;beta"
			// is two words).
			return ' '
		case isControl(r):
			return -1
		}
		return r
	}, s)
}

func isControl(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }

// keptCode is the text of an inline code element as the document's text
// holds it: as written, or between backticks when it holds a bracketed
// number ("heads[2]", "grid[1][2]", "${arr[1]}"). Answers quote a
// document's text with its citation-like markers removed, outside code
// spans; without its markup, the subscript of "use `heads[2]`" read as a
// footnote, and the answer said "use heads".
func keptCode(s string) string {
	if !bracketedNumber.MatchString(s) || strings.Contains(s, "`") {
		return s
	}
	return "`" + s + "`"
}

// bracketedNumber is a number in square brackets: a subscript in code, a
// citation marker in prose.
var bracketedNumber = regexp.MustCompile(`\[\d+\]`)
