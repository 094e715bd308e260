package extract

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// DOCX is read with archive/zip and encoding/xml over the parts that carry
// the text and its structure (WordprocessingML, ECMA-376 part 1): the main
// document (word/document.xml, or wherever _rels/.rels points), styles.xml
// for heading styles and outline levels, numbering.xml for list markers, and
// docProps/core.xml for the title. The Go DOCX libraries the module proxy
// serves either need a paid licence or are writers; reading these four parts
// is a few hundred lines.

// docxMaxPart bounds the decompressed size of one part, so a zip bomb costs
// at most this much memory and time. The styles and numbering parts, read
// whole into Go values (every style and list of a document), have a bound
// of their own, well above any real document's (a large corporate
// template's styles are about 1 MiB): three 60 MiB ones took 1 GB. The
// core properties are a title and a few dates.
const (
	docxMaxPart     = 64 << 20
	docxMaxAuxPart  = 8 << 20
	docxMaxCorePart = 1 << 20
	// docxMaxDepth bounds the nesting of document.xml's elements (real
	// documents nest a few dozen deep): a million nested tables in a
	// 100 KB file took 800 MB.
	docxMaxDepth = 1000
)

// wNS is the WordprocessingML main namespace.
const wNS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"

// extractDOCX reads a DOCX file: headings (Heading N styles, Title, outline
// levels) as KindHeading, numbered and bulleted paragraphs as KindListItem
// ("- " or "N. " by the list's number format, indented by level), tables as
// KindTable with their header row(s) (rows marked as repeating headers,
// else the first row of a table of two or more rows). Errors: ErrUnreadable
// (wrapped) for a file that is not a readable DOCX, ErrEmpty.
func extractDOCX(data []byte) (*Document, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%w: not a DOCX (zip) file: %v", ErrUnreadable, err)
	}
	parts := map[string]*zip.File{}
	for _, f := range zr.File {
		parts[strings.TrimPrefix(f.Name, "/")] = f
	}
	readPart := func(name string, limit int) ([]byte, error) {
		f, ok := parts[name]
		if !ok {
			return nil, nil
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%w: part %s: %v", ErrUnreadable, name, err)
		}
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, int64(limit)+1))
		if err != nil {
			return nil, fmt.Errorf("%w: part %s: %v", ErrUnreadable, name, err)
		}
		if len(b) > limit {
			return nil, fmt.Errorf("%w: part %s is over %d MiB uncompressed", ErrUnreadable, name, limit>>20)
		}
		return b, nil
	}
	read := func(name string) ([]byte, error) { return readPart(name, docxMaxPart) }
	main := "word/document.xml"
	if rels, err := read("_rels/.rels"); err != nil {
		return nil, err
	} else if t := officeDocumentTarget(rels); t != "" {
		main = t
	}
	body, err := read(main)
	if err != nil {
		return nil, err
	}
	if body == nil {
		return nil, fmt.Errorf("%w: no main document part (%s): not a word-processing file", ErrUnreadable, main)
	}
	dir := path.Dir(main)
	stylesXML, err := readPart(path.Join(dir, "styles.xml"), docxMaxAuxPart)
	if err != nil {
		return nil, err
	}
	numberingXML, err := readPart(path.Join(dir, "numbering.xml"), docxMaxAuxPart)
	if err != nil {
		return nil, err
	}
	coreXML, err := readPart("docProps/core.xml", docxMaxCorePart)
	if err != nil {
		return nil, err
	}
	notes := map[string]string{}
	for _, part := range []struct{ name, kind string }{{"footnotes.xml", "footnote"}, {"endnotes.xml", "endnote"}} {
		b, err := read(path.Join(dir, part.name))
		if err != nil {
			return nil, err
		}
		for id, text := range parseDocxNotes(b, part.kind) {
			notes[part.kind+":"+id] = text
		}
	}
	w := &docxWalker{styles: parseDocxStyles(stylesXML), numbering: parseDocxNumbering(numberingXML), counters: map[string][]int{}, notes: notes}
	if err := w.walk(body); err != nil {
		return nil, err
	}
	w.flushCode()
	title := coreTitle(coreXML)
	if title == "" {
		title = w.title
	}
	if title == "" {
		// As for Markdown: the first level-1 heading (pandoc writes no
		// Title paragraph and no core title without a title in its input).
		title = w.firstH1
	}
	doc := w.b.document(title)
	if strings.TrimSpace(doc.Text) == "" {
		return nil, ErrEmpty
	}
	return doc, nil
}

// parseDocxNotes returns the text of each footnote (kind "footnote") or
// endnote ("endnote") of a notes part by its id, paragraphs joined by a
// space; the separator notes Word keeps there have no text and are left
// out.
func parseDocxNotes(b []byte, kind string) map[string]string {
	out := map[string]string{}
	if b == nil {
		return out
	}
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = false
	id, inT := "", false
	var text strings.Builder
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Space != wNS {
				continue
			}
			switch t.Name.Local {
			case kind:
				id, inT = xattr(t, "id"), false
				text.Reset()
			case "t":
				inT = id != ""
			case "p", "tab", "br":
				text.WriteByte(' ')
			}
		case xml.EndElement:
			if t.Name.Space != wNS {
				continue
			}
			switch t.Name.Local {
			case "t":
				inT = false
			case kind:
				if s := strings.Join(strings.Fields(text.String()), " "); id != "" && s != "" {
					out[id] = s
				}
				id = ""
			}
		case xml.CharData:
			if inT {
				text.Write(t)
			}
		}
	}
}

// officeDocumentTarget returns the main part named by the package
// relationships, or "".
func officeDocumentTarget(rels []byte) string {
	var r struct {
		Rels []struct {
			Type   string `xml:"Type,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	if xml.Unmarshal(rels, &r) != nil {
		return ""
	}
	for _, x := range r.Rels {
		if strings.HasSuffix(x.Type, "/officeDocument") {
			return strings.TrimPrefix(path.Clean("/"+x.Target), "/")
		}
	}
	return ""
}

func coreTitle(core []byte) string {
	var c struct {
		Title string `xml:"http://purl.org/dc/elements/1.1/ title"`
	}
	if core == nil || xml.Unmarshal(core, &c) != nil {
		return ""
	}
	return collapse(c.Title)
}

// docxStyle is what a paragraph style says about structure.
type docxStyle struct {
	name    string // lower case, e.g. "heading 1"
	basedOn string
	outline int // outline level 0–8 + 1; 0 = none
	list    bool
}

type docxStyles map[string]docxStyle

func parseDocxStyles(b []byte) docxStyles {
	var s struct {
		Styles []struct {
			ID      string `xml:"styleId,attr"`
			Name    val    `xml:"name"`
			BasedOn val    `xml:"basedOn"`
			PPr     struct {
				Outline *val `xml:"outlineLvl"`
				NumPr   *struct {
					NumID val `xml:"numId"`
				} `xml:"numPr"`
			} `xml:"pPr"`
		} `xml:"style"`
	}
	out := docxStyles{}
	if b == nil || xml.Unmarshal(b, &s) != nil {
		return out
	}
	for _, st := range s.Styles {
		ds := docxStyle{name: strings.ToLower(st.Name.Val), basedOn: st.BasedOn.Val}
		if st.PPr.Outline != nil {
			if n, err := strconv.Atoi(st.PPr.Outline.Val); err == nil && n >= 0 && n < 9 {
				ds.outline = n + 1
			}
		}
		ds.list = st.PPr.NumPr != nil && st.PPr.NumPr.NumID.Val != "0"
		out[st.ID] = ds
	}
	return out
}

// val is a WordprocessingML element whose value is its w:val attribute.
type val struct {
	Val string `xml:"val,attr"`
}

var headingStyle = regexp.MustCompile(`^heading ?([1-9])$`)

// level returns the heading level of a paragraph style (Heading N → N,
// Title → 1, else the outline level, following basedOn), capped at 6, or 0;
// and whether the style is Title.
func (s docxStyles) level(id string) (level int, title bool) {
	for range 10 {
		st, ok := s[id]
		if !ok {
			return 0, false
		}
		if m := headingStyle.FindStringSubmatch(st.name); m != nil {
			n, _ := strconv.Atoi(m[1])
			return min(n, 6), false
		}
		if st.name == "title" {
			return 1, true
		}
		if st.outline > 0 {
			return min(st.outline, 6), false
		}
		id = st.basedOn
	}
	return 0, false
}

// codeStyles are the (lower-case) names of paragraph styles that hold
// code or preformatted text: Word's own (HTML Preformatted, Macro Text) and
// those of converters and templates (pandoc's Source Code). Not Plain Text:
// Word gives it to every paragraph of a text file it opens, prose included.
var codeStyles = map[string]bool{"source code": true, "html preformatted": true, "macro text": true,
	"code": true, "code block": true, "verbatim": true, "preformatted text": true, "preformatted": true}

// code reports whether a paragraph style is for code, following basedOn.
func (s docxStyles) code(id string) bool {
	return s.inherits(id, func(st docxStyle) bool { return codeStyles[st.name] })
}

// has reports whether a paragraph style is named name (lower case) or is
// based on one that is.
func (s docxStyles) has(id, name string) bool {
	return s.inherits(id, func(st docxStyle) bool { return st.name == name })
}

// list reports whether a paragraph style carries list numbering.
func (s docxStyles) list(id string) bool {
	return s.inherits(id, func(st docxStyle) bool { return st.list })
}

// inherits reports whether style id or a style it is based on (at most ten
// deep: a cycle ends there) has the property.
func (s docxStyles) inherits(id string, has func(docxStyle) bool) bool {
	for range 10 {
		st, ok := s[id]
		if !ok {
			return false
		}
		if has(st) {
			return true
		}
		id = st.basedOn
	}
	return false
}

// docxNumbering maps a list (numId) and level to its number format
// ("decimal", "bullet", ...).
type docxNumbering map[string]map[int]string

func parseDocxNumbering(b []byte) docxNumbering {
	var n struct {
		Abstract []struct {
			ID  string `xml:"abstractNumId,attr"`
			Lvl []struct {
				Ilvl    int  `xml:"ilvl,attr"`
				NumFmt  val  `xml:"numFmt"`
				LvlText *val `xml:"lvlText"`
			} `xml:"lvl"`
		} `xml:"abstractNum"`
		Num []struct {
			ID       string `xml:"numId,attr"`
			Abstract val    `xml:"abstractNumId"`
		} `xml:"num"`
	}
	out := docxNumbering{}
	if b == nil || xml.Unmarshal(b, &n) != nil {
		return out
	}
	abs := map[string]map[int]string{}
	for _, a := range n.Abstract {
		m := map[int]string{}
		for _, l := range a.Lvl {
			m[l.Ilvl] = l.NumFmt.Val
			if l.NumFmt.Val == "bullet" && l.LvlText != nil && strings.TrimSpace(l.LvlText.Val) == "" {
				// A bullet with no text (pandoc's numbering for a code
				// block or a paragraph inside a list item) continues the
				// item: it is not a new one.
				m[l.Ilvl] = "blank"
			}
		}
		abs[a.ID] = m
	}
	for _, x := range n.Num {
		out[x.ID] = abs[x.Abstract.Val]
	}
	return out
}

// docxWalker streams document.xml into a builder.
type docxWalker struct {
	styles    docxStyles
	numbering docxNumbering
	b         builder
	title     string
	// counters are the running item numbers of each list, per level.
	counters map[string][]int
	// code holds the lines of consecutive code paragraphs, one block.
	code []string
	// firstH1 is the text of the first level-1 heading.
	firstH1 string
	// notes are the footnotes' and endnotes' text by "footnote:id" and
	// "endnote:id"; noteNumber numbers them in the order they are
	// referenced, as Word shows them; pendingNotes are those referenced in
	// a table, added after it.
	notes        map[string]string
	noteNumber   int
	pendingNotes []string
}

// docxPara is the paragraph being read.
type docxPara struct {
	style    string
	outline  int // paragraph outline level + 1, 0 = none
	numID    string
	ilvl     int
	numbered bool
	in       inline
	depth    int // nesting of w:p (text boxes hold paragraphs inside a run)
	inT      bool
	// raw is the paragraph's text as written (spaces, tabs and line
	// breaks kept), for code paragraphs.
	raw strings.Builder
	// notes are the footnotes and endnotes the paragraph references.
	notes []string
}

// docxTable is a table being read: rows of cells of text.
type docxTable struct {
	rows   [][]string
	header int // leading rows marked as repeating header rows
	cell   *inline
	row    []string
	isHead bool
}

func (w *docxWalker) walk(body []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.Strict = false
	var p *docxPara
	var tables []*docxTable
	skip := 0 // >0 inside content not to read (mc:Fallback, deleted text)
	// boxed counts the open tables inside a paragraph (a text box's): their
	// text joins the paragraph, and their rows and cells are not the rows
	// and cells of the table around the paragraph.
	boxed := 0
	depth := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("%w: document.xml: %v", ErrUnreadable, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > docxMaxDepth {
				return fmt.Errorf("%w: document.xml nests elements more than %d deep", ErrUnreadable, docxMaxDepth)
			}
			if skip > 0 {
				skip++
				continue
			}
			if t.Name.Local == "Fallback" || (t.Name.Space == wNS && (t.Name.Local == "del" || t.Name.Local == "instrText" || t.Name.Local == "delText")) {
				skip = 1
				continue
			}
			if t.Name.Space != wNS {
				continue
			}
			switch t.Name.Local {
			case "tbl":
				if p != nil { // a table inside a text box: its text joins the paragraph
					p.in.softSpace()
					boxed++
					continue
				}
				w.flushCode()
				tables = append(tables, &docxTable{})
			case "tr":
				if boxed == 0 && len(tables) == 1 {
					tables[0].row, tables[0].isHead = nil, false
				}
			case "tblHeader":
				if boxed == 0 && len(tables) == 1 {
					tables[0].isHead = xattr(t, "val") != "false" && xattr(t, "val") != "0"
				}
			case "tc":
				if boxed == 0 && len(tables) == 1 {
					tables[0].cell = &inline{}
				}
			case "p":
				if p != nil {
					p.depth++
					p.in.softSpace()
					p.raw.WriteByte('\n') // a text box's paragraph: a line of its own
					continue
				}
				p = &docxPara{depth: 1}
			case "pStyle":
				if p != nil && p.depth == 1 {
					p.style = xattr(t, "val")
				}
			case "outlineLvl":
				if p != nil && p.depth == 1 {
					if n, err := strconv.Atoi(xattr(t, "val")); err == nil && n >= 0 && n < 9 {
						p.outline = n + 1
					}
				}
			case "numId":
				if p != nil && p.depth == 1 {
					p.numID, p.numbered = xattr(t, "val"), xattr(t, "val") != "0"
				}
			case "ilvl":
				if p != nil && p.depth == 1 {
					p.ilvl, _ = strconv.Atoi(xattr(t, "val"))
					p.ilvl = min(max(p.ilvl, 0), 8)
				}
			case "t":
				if p != nil {
					p.inT = true
				}
			case "tab", "ptab":
				// A tab stop of the paragraph's formatting (w:pPr/w:tabs)
				// has a position; a tab in a run has none.
				if p != nil && xattr(t, "pos") == "" {
					p.in.softSpace()
					p.raw.WriteByte('\t')
				}
			case "br", "cr":
				if p != nil {
					if xattr(t, "type") == "page" || xattr(t, "type") == "column" {
						p.in.softSpace()
					} else {
						p.in.breakLine()
					}
					p.raw.WriteByte('\n')
				}
			case "footnoteReference", "endnoteReference":
				if p != nil {
					p.notes = append(p.notes, strings.TrimSuffix(t.Name.Local, "Reference")+":"+xattr(t, "id"))
				}
			case "noBreakHyphen":
				if p != nil {
					p.in.put("-")
					p.raw.WriteByte('-')
				}
			}
		case xml.EndElement:
			depth--
			if skip > 0 {
				skip--
				continue
			}
			if t.Name.Space != wNS {
				continue
			}
			switch t.Name.Local {
			case "t":
				if p != nil {
					p.inT = false
				}
			case "p":
				if p == nil {
					continue
				}
				if p.depth > 1 {
					p.depth--
					continue
				}
				if len(tables) > 0 {
					if tb := tables[0]; tb.cell != nil {
						tb.cell.softSpace()
						tb.cell.text(p.in.take(true))
					}
					w.pendingNotes = append(w.pendingNotes, p.notes...)
				} else {
					w.paragraph(p)
					w.addNotes(p.notes)
				}
				p, boxed = nil, 0 // a text box's tables end with their paragraph, even if malformed
			case "tc":
				if boxed > 0 {
					if p != nil {
						p.in.softSpace()
					}
					continue
				}
				if len(tables) == 1 && tables[0].cell != nil {
					tables[0].row = append(tables[0].row, tables[0].cell.take(true))
					tables[0].cell = nil
				}
			case "tr":
				if boxed == 0 && len(tables) == 1 {
					tb := tables[0]
					if strings.Trim(strings.Join(tb.row, ""), " ") != "" {
						if tb.isHead && tb.header == len(tb.rows) {
							tb.header++
						}
						tb.rows = append(tb.rows, tb.row)
					}
					tb.row = nil
				}
			case "tbl":
				if boxed > 0 {
					boxed--
					continue
				}
				if len(tables) == 0 {
					continue
				}
				if len(tables) == 1 {
					w.table(tables[0])
					w.addNotes(w.pendingNotes)
					w.pendingNotes = nil
				}
				tables = tables[:len(tables)-1]
			}
		case xml.CharData:
			if skip == 0 && p != nil && p.inT {
				p.in.text(string(t))
				p.raw.Write(t)
			}
		}
	}
	return nil
}

func xattr(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// addNotes adds the text of the footnotes and endnotes refs names, each a
// paragraph "Footnote N: …" after the paragraph (or table) referencing it,
// numbered in the order of reference. Policy manuals and contracts keep
// rules in their notes: left out, a question about one was refused.
func (w *docxWalker) addNotes(refs []string) {
	for _, ref := range refs {
		text, ok := w.notes[ref]
		if !ok {
			continue
		}
		// Once, at its first reference: a note referenced again adds
		// nothing (a thousand references to one long note were a thousand
		// copies of it).
		delete(w.notes, ref)
		w.flushCode()
		w.noteNumber++
		label := "Footnote"
		if strings.HasPrefix(ref, "endnote:") {
			label = "Endnote"
		}
		w.b.add(KindParagraph, 0, fmt.Sprintf("%s %d: %s", label, w.noteNumber, text))
	}
}

// flushCode adds the pending code paragraphs as one code block.
func (w *docxWalker) flushCode() {
	if len(w.code) > 0 {
		w.b.addCode(strings.Join(w.code, "\n"))
		w.code = nil
	}
}

// paragraph adds a body paragraph as a heading, list item, paragraph or a
// line of code. A code paragraph (its style is for code) keeps its text as
// written — indentation, tabs, line breaks — and consecutive ones are one
// block: read as flowing text, a shell script's lines ran into one line and
// pasted, everything after its first comment was a comment.
func (w *docxWalker) paragraph(p *docxPara) {
	if w.styles.code(p.style) {
		w.code = append(w.code, strings.TrimRight(strings.ReplaceAll(p.raw.String(), "\r", ""), " \t"))
		return
	}
	w.flushCode()
	level, isTitle := w.styles.level(p.style)
	if level == 0 && p.outline > 0 {
		level = min(p.outline, 6)
	}
	if level > 0 {
		s := p.in.take(true)
		if s == "" {
			return
		}
		if isTitle && w.title == "" {
			w.title = s
		}
		if level == 1 && w.firstH1 == "" {
			w.firstH1 = s
		}
		w.b.add(KindHeading, level, s)
		return
	}
	s := p.in.take(false)
	if s == "" {
		return
	}
	switch {
	case w.styles.has(p.style, "definition term"):
		// pandoc's definition lists (and glossaries styled alike): the
		// term, then its definition, as an HTML dl's dt and dd.
		w.b.add(KindTerm, 0, s)
		return
	case w.styles.has(p.style, "definition"):
		w.b.inDefinition++
		w.b.add(KindParagraph, 0, s)
		w.b.inDefinition--
		return
	}
	if w.numbering[p.numID][p.ilvl] == "blank" {
		// A paragraph continuing a list item (its bullet has no text).
		w.b.add(KindParagraph, 0, s)
		return
	}
	if p.numbered || (p.numID == "" && w.styles.list(p.style)) {
		depth := p.ilvl + 1
		marker := "- "
		if fmtName := w.numbering[p.numID][p.ilvl]; fmtName != "" && fmtName != "bullet" && fmtName != "none" {
			c := w.counters[p.numID]
			for len(c) < depth {
				c = append(c, 0)
			}
			c = c[:depth]
			c[depth-1]++
			w.counters[p.numID] = c
			marker = listNumber(fmtName, c[depth-1]) + ". "
		} else if c := w.counters[p.numID]; len(c) > depth {
			w.counters[p.numID] = c[:depth]
		}
		indent := strings.Repeat("  ", depth-1)
		s = indent + marker + strings.ReplaceAll(s, "\n", "\n"+indent+"  ")
		w.b.add(KindListItem, depth, s)
		return
	}
	w.b.add(KindParagraph, 0, s)
}

// listNumber writes item n of a list in its number format: letters
// (a, b, … z, aa) and Roman numerals as Word shows them, else decimal.
func listNumber(format string, n int) string {
	switch format {
	case "lowerLetter", "upperLetter":
		if n < 1 || n > 3*26 {
			// Word writes the 27th item "aa" and the 53rd "aaa"; past
			// "zzz" the letters would grow with the list (40,000 items
			// were 31 MB of markers), so long lists are numbered.
			break
		}
		s := strings.Repeat(string(rune('a'+(n-1)%26)), (n-1)/26+1)
		if format == "upperLetter" {
			s = strings.ToUpper(s)
		}
		return s
	case "lowerRoman", "upperRoman":
		if n < 1 || n > 3999 {
			break
		}
		var b strings.Builder
		for _, r := range []struct {
			v int
			s string
		}{{1000, "m"}, {900, "cm"}, {500, "d"}, {400, "cd"}, {100, "c"}, {90, "xc"}, {50, "l"}, {40, "xl"}, {10, "x"}, {9, "ix"}, {5, "v"}, {4, "iv"}, {1, "i"}} {
			for ; n >= r.v; n -= r.v {
				b.WriteString(r.s)
			}
		}
		if format == "upperRoman" {
			return strings.ToUpper(b.String())
		}
		return b.String()
	}
	return strconv.Itoa(n)
}

// table adds a table block; its header is the rows marked as repeating
// headers, else the first row when there are at least two.
func (w *docxWalker) table(tb *docxTable) {
	header := tb.header
	if header == 0 && len(tb.rows) >= 2 {
		header = 1
	}
	rows := make([]string, len(tb.rows))
	for i, r := range tb.rows {
		rows[i] = strings.Join(r, " | ")
	}
	w.b.addTable(rows[:header], rows[header:])
}
