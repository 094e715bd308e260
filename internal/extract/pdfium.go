package extract

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/klippa-app/go-pdfium"
	pdferrors "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/responses"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// PDF reading runs PDFium compiled to WebAssembly (go-pdfium's bundled
// module, executed by wazero): no cgo, no shared library to install, and a
// parser bug in hostile input stays inside the sandbox. The module gets no
// file system (the default configuration mounts "/"), at most pdfMemoryPages
// of memory, and pdfTimeout of time per document.
const (
	// pdfMemoryPages bounds one PDFium instance's linear memory: 8192
	// WebAssembly pages of 64 KiB = 128 MiB.
	pdfMemoryPages = 2048
	// pdfTimeout bounds the reading of one document; past it the instance is
	// killed and Extract returns ErrUnreadable.
	pdfTimeout = 2 * time.Minute
	// pdfMaxPages bounds the pages read from one document.
	pdfMaxPages = 5000
)

var (
	pdfPoolOnce sync.Once
	pdfPool     pdfium.Pool
	errPDFPool  error
)

// pdfiumPool loads the WebAssembly module once per process (compiling it
// takes 5–25 s on a 2-core machine, 70 s under the race detector; loading it
// from the compilation cache 0.5 s) and hands out at most GOMAXPROCS
// instances.
func pdfiumPool() (pdfium.Pool, error) {
	pdfPoolOnce.Do(func() {
		rc := wazero.NewRuntimeConfig().
			WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling).
			WithMemoryLimitPages(pdfMemoryPages).
			WithCloseOnContextDone(true)
		// Compiled machine code is kept in the user's cache directory, so
		// only the first process on a machine pays the compilation. wazero
		// checks cached code against its own version, which it reads from
		// the binary's build information; test binaries have none, so the
		// directory is also named after the version (wazeroModule there).
		if dir, err := os.UserCacheDir(); err == nil {
			if c, err := wazero.NewCompilationCacheWithDir(filepath.Join(dir, "ragd", "wazero-"+wazeroVersion())); err == nil {
				rc = rc.WithCompilationCache(c)
			}
		}
		pdfPool, errPDFPool = webassembly.Init(webassembly.Config{
			Context:       experimental.WithMemoryAllocator(context.Background(), pdfMemory()),
			MinIdle:       0,
			MaxIdle:       1,
			MaxTotal:      max(1, runtime.GOMAXPROCS(0)),
			RuntimeConfig: rc,
			FSConfig:      wazero.NewFSConfig(),
			Stdout:        io.Discard,
			Stderr:        io.Discard,
		})
	})
	return pdfPool, errPDFPool
}

// monoFont matches the names of common monospaced fonts: TeX's typewriter
// faces (CMTT10, SFTT1000, LMMono), Courier, DejaVu/Liberation/Noto Mono,
// Consolas, Menlo, Inconsolata, Source Code Pro.
var monoFont = regexp.MustCompile(`(?i)(^|\+)(cmtt|cmsltt|sftt|lmmono|courier|consola|menlo|inconsolata|sourcecode)|mono`)

// monoAt reports whether character i is set in a monospaced font: the font
// descriptor's FixedPitch flag, or a monospaced font name.
func monoAt(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, i int) bool {
	fi, err := inst.FPDFText_GetFontInfo(&requests.FPDFText_GetFontInfo{TextPage: tp, Index: i})
	if err != nil {
		return false
	}
	return fi.Flags&1 != 0 || monoFont.MatchString(fi.FontName)
}

// engineFailure is what a refusal says of an error of the PDF engine: its
// own message, or, for a trap inside the WebAssembly module (a stack trace
// of numbered functions: internals no customer can act on), what it means.
func engineFailure(msg string) string {
	if strings.Contains(msg, "wasm error") || strings.Contains(msg, "wasm stack trace") {
		if strings.Contains(msg, "unreachable") || strings.Contains(msg, "out of memory") {
			return fmt.Sprintf("the PDF engine stopped on it (it needs more than the %d MiB a document may use, or its structure is damaged)", pdfMemoryPages>>4)
		}
		return "the PDF engine stopped on it (a damaged structure)"
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return msg
}

// wazeroModule is the wazero version go.mod requires (TestWazeroModulePinned
// fails when they differ): the compilation cache's name where the binary
// records no dependency versions (test binaries).
const wazeroModule = "v1.12.0"

// wazeroVersion is the wazero module version recorded in the binary, else
// wazeroModule.
func wazeroVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/tetratelabs/wazero" && strings.HasPrefix(d.Version, "v") {
				return d.Version
			}
		}
	}
	return wazeroModule
}

// PreparePDF loads the PDF engine now instead of on the first PDF, so that
// the first upload is not slowed by compiling it: `ragd serve` calls it in
// the background at start-up. Safe for concurrent use; later calls return
// the first call's result. Errors: the engine could not be loaded (every PDF
// would then fail).
func PreparePDF() error {
	_, err := pdfiumPool()
	return err
}

// pdfLine is one text line of a page in PDFium's reading order.
type pdfLine struct {
	text string
	// y is the baseline of the line's first visible character, in points from
	// the bottom of the page; x its left edge.
	y, x float64
	// size is that character's font size in points; 0 when unknown.
	size float64
	// mono is set when the line's first and last visible characters are in
	// a monospaced font: a line of code or terminal output.
	mono bool
}

// pdfPage is one page's lines, top to bottom in reading order.
type pdfPage struct {
	lines []pdfLine
}

// pdfMark is one outline entry (bookmark): a heading candidate.
type pdfMark struct {
	title string
	level int // 1 for top-level entries
	page  int // 0-based; -1 when the entry has no destination in the file
}

// pdfRaw is what PDFium reads from a file, before layout analysis.
type pdfRaw struct {
	title   string
	pages   []pdfPage
	outline []pdfMark
}

// readPDF opens data with PDFium and reads every page's text lines with their
// position and font size, the outline and the Title metadata.
// Errors: ErrUnreadable (wrapped) for a damaged, encrypted or too slow file.
func readPDF(ctx context.Context, data []byte) (raw *pdfRaw, err error) {
	pool, err := pdfiumPool()
	if err != nil {
		return nil, fmt.Errorf("extract: PDF engine: %w", err)
	}
	// Waiting for an instance ends with the request too.
	wait := pdfTimeout
	if dl, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(dl))
	}
	if err := ctx.Err(); err != nil || wait <= 0 {
		return nil, fmt.Errorf("extract: reading the PDF: %w", context.Cause(ctx))
	}
	inst, err := pool.GetInstance(wait)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("extract: reading the PDF: %w", context.Cause(ctx))
		}
		return nil, fmt.Errorf("extract: PDF engine busy: %w", err)
	}
	var killed sync.Mutex
	timedOut, cancelled, done := false, false, false
	kill := func(reason *bool) func() {
		return func() {
			killed.Lock()
			defer killed.Unlock()
			if done {
				return
			}
			*reason, done = true, true
			_ = inst.Kill()
		}
	}
	timer := time.AfterFunc(pdfTimeout, kill(&timedOut))
	stopCtx := context.AfterFunc(ctx, kill(&cancelled))
	defer func() {
		if r := recover(); r != nil {
			raw, err = nil, fmt.Errorf("%w: %s", ErrUnreadable, engineFailure(fmt.Sprint(r)))
		}
		timer.Stop()
		stopCtx()
		killed.Lock()
		defer killed.Unlock()
		if !done {
			done = true
			_ = inst.Close()
		}
		switch {
		case timedOut:
			raw, err = nil, fmt.Errorf("%w: reading took longer than %s", ErrUnreadable, pdfTimeout)
		case cancelled:
			raw, err = nil, fmt.Errorf("extract: reading the PDF: %w", context.Cause(ctx))
		}
	}()
	doc, err := inst.OpenDocument(&requests.OpenDocument{File: &data})
	if err != nil {
		switch {
		case errors.Is(err, pdferrors.ErrPassword):
			return nil, fmt.Errorf("%w: the PDF is encrypted with a password", ErrUnreadable)
		default:
			return nil, fmt.Errorf("%w: not a readable PDF (%s)", ErrUnreadable, engineFailure(err.Error()))
		}
	}
	defer func() { _, _ = inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document}) }()
	n, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc.Document})
	if err != nil {
		return nil, fmt.Errorf("%w: page count: %s", ErrUnreadable, engineFailure(err.Error()))
	}
	if n.PageCount > pdfMaxPages {
		return nil, fmt.Errorf("%w: %d pages, the limit is %d", ErrUnreadable, n.PageCount, pdfMaxPages)
	}
	raw = &pdfRaw{pages: make([]pdfPage, n.PageCount)}
	if t, err := inst.FPDF_GetMetaText(&requests.FPDF_GetMetaText{Document: doc.Document, Tag: "Title"}); err == nil {
		raw.title = collapse(strings.ToValidUTF8(t.Value, ""))
	}
	if bm, err := inst.GetBookmarks(&requests.GetBookmarks{Document: doc.Document}); err == nil {
		raw.outline = flattenOutline(bm.Bookmarks, 1, nil)
	}
	// Looking for word gaps PDFium did not turn into spaces (wordGaps)
	// costs an engine call per character, more than the rest of the page's
	// reading; documents that have them (Ghostscript's justified text) have
	// them on every page of prose. So the first gapProbePages pages and
	// every gapProbeEvery-th page after them are checked; once one of them
	// has such a gap between two letters or digits, every page is, the ones
	// read unchecked before again.
	probing := true
	var unchecked []int
	for i := range raw.pages {
		check := !probing || i < gapProbePages || i%gapProbeEvery == 0
		lines, found, err := readPDFPage(inst, doc.Document, i, check)
		if err != nil {
			return nil, fmt.Errorf("%w: page %d: %s", ErrUnreadable, i+1, engineFailure(err.Error()))
		}
		raw.pages[i].lines = lines
		if !check {
			unchecked = append(unchecked, i)
		}
		if found && probing {
			probing = false
			for _, j := range unchecked {
				lines, _, err := readPDFPage(inst, doc.Document, j, true)
				if err != nil {
					return nil, fmt.Errorf("%w: page %d: %s", ErrUnreadable, j+1, engineFailure(err.Error()))
				}
				raw.pages[j].lines = lines
			}
			unchecked = nil
		}
	}
	return raw, nil
}

// gapProbePages and gapProbeEvery choose the pages checked for missing word
// spaces in a document where none was found yet (readPDF).
const (
	gapProbePages = 4
	gapProbeEvery = 16
)

// maxOutline bounds the outline entries kept (a hostile file may have
// millions).
const maxOutline = 20000

func flattenOutline(bms []responses.GetBookmarksBookmark, level int, out []pdfMark) []pdfMark {
	for _, b := range bms {
		if len(out) >= maxOutline || level > 32 {
			return out
		}
		page := -1
		switch {
		case b.DestInfo != nil:
			page = b.DestInfo.PageIndex
		case b.ActionInfo != nil && b.ActionInfo.DestInfo != nil:
			page = b.ActionInfo.DestInfo.PageIndex
		}
		out = append(out, pdfMark{title: collapse(strings.ToValidUTF8(b.Title, "")), level: level, page: page})
		out = flattenOutline(b.Children, level+1, out)
	}
	return out
}

// readPDFPage returns page i's lines: PDFium's text in its reading order,
// split at the line breaks it generates, each line with the baseline, left
// edge and font size of its first visible character. With gaps, spaces
// PDFium missed are inserted (wordGaps) and found reports whether one went
// between two letters or digits.
func readPDFPage(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, i int, gaps bool) (lines []pdfLine, found bool, err error) {
	pg, err := inst.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: doc, Index: i})
	if err != nil {
		return nil, false, err
	}
	defer func() { _, _ = inst.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: pg.Page}) }()
	tp, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: requests.Page{ByReference: &pg.Page}})
	if err != nil {
		return nil, false, err
	}
	defer func() { _, _ = inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage}) }()
	cnt, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
	if err != nil || cnt.Count <= 0 {
		return nil, false, err
	}
	txt, err := inst.FPDFText_GetText(&requests.FPDFText_GetText{TextPage: tp.TextPage, StartIndex: 0, Count: cnt.Count})
	if err != nil {
		return nil, false, err
	}
	text := strings.ToValidUTF8(txt.Text, "\uFFFD")
	// ci is the PDFium character index of text[pos]: one per rune (generated
	// spaces and line breaks included). A character outside the Basic
	// Multilingual Plane may shift it; then the geometry of later lines on
	// the page is read from the wrong character, which only weakens the
	// layout heuristics (the text itself is unaffected). When the text has
	// exactly one rune per character index nothing can shift; otherwise each
	// line's character is checked against FPDFText_GetUnicode and a line
	// that does not match gets no geometry.
	aligned := utf8.RuneCountInString(text) == cnt.Count
	ci := 0
	for len(text) > 0 {
		line := text
		if j := strings.IndexByte(text, '\n'); j >= 0 {
			line, text = text[:j], text[j+1:]
		} else {
			text = ""
		}
		start := ci
		ci += utf8.RuneCountInString(line) + 1
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		l := pdfLine{text: line}
		// The first visible character carries the line's geometry.
		k := start
		for _, r := range line {
			if r != ' ' && r != '\t' {
				if aligned {
					break
				}
				if u, err := inst.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: tp.TextPage, Index: k}); err != nil || rune(u.Unicode) != r {
					k = -1
				}
				break
			}
			k++
		}
		if k >= 0 && k < cnt.Count {
			if o, err := inst.FPDFText_GetCharOrigin(&requests.FPDFText_GetCharOrigin{TextPage: tp.TextPage, Index: k}); err == nil {
				l.x, l.y = o.X, o.Y
			}
			if fs, err := inst.FPDFText_GetFontSize(&requests.FPDFText_GetFontSize{TextPage: tp.TextPage, Index: k}); err == nil {
				l.size = fs.FontSize
			}
			// The last visible character: the line's rune count minus its
			// trailing spaces, counted from its start.
			last := start + utf8.RuneCountInString(strings.TrimRight(line, " \t")) - 1
			l.mono = monoAt(inst, tp.TextPage, k) && (last == k || monoAt(inst, tp.TextPage, last))
		}
		if gaps && aligned {
			var inner bool
			l.text, inner = wordGaps(inst, tp.TextPage, line, start)
			found = found || inner
		}
		lines = append(lines, l)
	}
	return lines, found, nil
}

// pdfWordGap is the horizontal gap between two characters of a line, as a
// fraction of their loose boxes' height (the font's bounding box: 1.1–1.3
// times the font size for common text faces), from which on they belong to
// two words. pdftotext breaks words from 0.1 of the font size; the word
// spaces of justified groff text are 0.2 of the box height and more, while
// kerning inside a word stays under 0.05 and the letter-spacing of the
// manuals measured under 0.15 (a table of contents' dot leaders aside).
const pdfWordGap = 0.15

// wordGaps returns line (PDFium's text, whose first rune is character
// start) with a space inserted between two consecutive visible characters
// that PDFium put side by side although a gap of more than pdfWordGap
// separates them (inner reports one between two letters or digits), and a
// space between two letters that takes no room dropped (abutting). PDFium
// generates spaces from the gaps between text objects and from TJ
// adjustments, but not from a gap inside a string made by character
// spacing (Tc): Ghostscript (ps2pdf, pdfroff, groff -Tps documents) writes
// some of the stretched spaces of justified lines so, "(ar)Tj 4.41 Tc
// (en)Tj 0 Tc (ot)Tj" for "are not", which PDFium read as "arenot". Gaps
// are measured between the characters' loose boxes (origin to advance
// width); characters on different baselines (a line PDFium joined at a
// hyphen, sub- and superscripts) and pairs with a CJK character (written
// without spaces, and justification spreads them) are left alone.
func wordGaps(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, line string, start int) (string, bool) {
	rs := []rune(line)
	cand := func(j int) bool { return j >= 0 && j < len(rs) && gapChar(rs[j]) }
	across := func(j, d int) bool { return j+d >= 0 && j+d < len(rs) && rs[j+d] == ' ' && cand(j+2*d) }
	// A candidate needs its box only next to another candidate, or one
	// space away from one.
	boxes := make([]gapBox, len(rs))
	ok := make([]bool, len(rs))
	for j := range rs {
		if cand(j) && (cand(j-1) || cand(j+1) || across(j, -1) || across(j, 1)) {
			boxes[j], ok[j] = looseBox(inst, tp, start+j)
		}
	}
	// Text set with letter spacing (a heading's tracking, a Chinese or
	// Japanese line spread to its width, one word in small capitals) has
	// the same gap between all its letters: only a gap that much wider
	// than the usual one is a word's. The usual gap is the larger of the
	// line's median gap between adjacent letters and, for each pair, the
	// smaller gap of the pairs beside it (a tracked word in a line of
	// ordinary text: "S P E C I A L" was split).
	gap := make([]float64, len(rs))
	has := make([]bool, len(rs))
	var gaps []float64
	for j := 1; j < len(rs); j++ {
		if ok[j-1] && ok[j] && isWordChar(rs[j-1]) && isWordChar(rs[j]) && sameLine(boxes[j-1], boxes[j]) {
			gap[j] = (boxes[j].left - boxes[j-1].right) / max(boxes[j-1].top-boxes[j-1].bottom, boxes[j].top-boxes[j].bottom)
			has[j] = true
			gaps = append(gaps, gap[j])
		}
	}
	median := 0.0
	if len(gaps) > 0 {
		slices.Sort(gaps)
		median = max(0, gaps[len(gaps)/2])
	}
	tracking := func(j int) float64 {
		side := -1.0
		switch {
		case j > 1 && has[j-1] && j+1 < len(rs) && has[j+1]:
			side = min(gap[j-1], gap[j+1])
		case j > 1 && has[j-1]:
			side = gap[j-1]
		case j+1 < len(rs) && has[j+1]:
			side = gap[j+1]
		}
		return max(median, side)
	}
	out := make([]rune, 0, len(rs)+8)
	changed, inner := false, false
	for j, r := range rs {
		switch {
		case j > 0 && ok[j-1] && ok[j] && wordBreak(boxes[j-1], boxes[j], tracking(j)) &&
			metricBox(inst, tp, start+j-1, boxes[j-1]) && metricBox(inst, tp, start+j, boxes[j]):
			out = append(out, ' ', r)
			changed = true
			inner = inner || isWordChar(rs[j-1]) && isWordChar(r)
			continue
		case r == ' ' && j > 0 && j+1 < len(rs) && ok[j-1] && ok[j+1] && isWordChar(rs[j-1]) && isWordChar(rs[j+1]) &&
			abutting(boxes[j-1], boxes[j+1]) && !generated(inst, tp, start+j):
			changed = true
			continue
		}
		out = append(out, r)
	}
	if !changed {
		return line, false
	}
	return string(out), inner
}

// abutting reports whether next, the box after prev and a space, is on its
// line and starts where prev ends (within pdfJoinGap of the larger box
// height either way): a space character of the PDF's that takes no room
// separates no words.
// Ghostscript writes a kerned pair that groff set as two strings as a space
// shrunk by negative word spacing ("(ev e)Tj" with -2.15 Tw for "every"),
// which PDFium keeps as a space and pdftotext ignores.
func abutting(prev, next gapBox) bool {
	h := max(prev.top-prev.bottom, next.top-next.bottom)
	overlap := min(prev.top, next.top) - max(prev.bottom, next.bottom)
	gap := next.left - prev.right
	return overlap > 0.5*min(prev.top-prev.bottom, next.top-next.bottom) && gap < pdfJoinGap*h && gap > -pdfJoinGap*h
}

// generated reports whether character i is one PDFium generated (a space
// it inferred from a gap: where the loose boxes of italic letters overlap
// it, the gap is a tight word space all the same).
func generated(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, i int) bool {
	g, err := inst.FPDFText_IsGenerated(&requests.FPDFText_IsGenerated{TextPage: tp, Index: i})
	return err != nil || g.IsGenerated
}

// pdfJoinGap bounds the room a space between two letters takes, as a
// fraction of the box height, for abutting to drop it.
const pdfJoinGap = 0.05

// isWordChar reports a letter or digit.
func isWordChar(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// gapBox is a character's loose box in points.
type gapBox struct{ left, right, bottom, top float64 }

// gapChar reports whether r is a character between which and its
// neighbour a gap may be a missing space: not a space, control character,
// hyphen marker, accent or mark, nor a CJK character.
func gapChar(r rune) bool {
	switch {
	case r <= 0x20 || r == 0x7f || r >= 0x80 && r <= 0xa0 || r == 0xad || r == 0xfffe || r == 0xffff || r == 0xfffd:
		return false
	case unicode.IsSpace(r) || unicode.Is(unicode.Mn, r):
		return false
	}
	if _, ok := spacingAccents[r]; ok {
		return false
	}
	return !cjk(r)
}

// cjk reports a Chinese, Japanese or Korean character or punctuation mark.
func cjk(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Bopomofo) ||
		r >= 0x2e80 && r <= 0x33ff || r >= 0xfe30 && r <= 0xfe4f || r >= 0xff00 && r <= 0xffef
}

// looseBox returns character i's loose box.
func looseBox(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, i int) (gapBox, bool) {
	b, err := inst.FPDFText_GetLooseCharBox(&requests.FPDFText_GetLooseCharBox{TextPage: tp, Index: i})
	if err != nil {
		return gapBox{}, false
	}
	g := gapBox{float64(b.Rect.Left), float64(b.Rect.Right), float64(b.Rect.Bottom), float64(b.Rect.Top)}
	return g, g.top > g.bottom && g.right >= g.left
}

// wordBreak reports whether cur, the box after prev, is on its line
// (sameLine) and more than pdfWordGap of the larger box height right of it
// beyond the line's letter spacing (tracking, in box heights).
func wordBreak(prev, cur gapBox, tracking float64) bool {
	h := max(prev.top-prev.bottom, cur.top-cur.bottom)
	return sameLine(prev, cur) && cur.left-prev.right > (pdfWordGap+tracking)*h
}

// sameLine reports whether two boxes overlap vertically by half the
// smaller height.
func sameLine(prev, cur gapBox) bool {
	overlap := min(prev.top, cur.top) - max(prev.bottom, cur.bottom)
	return overlap > 0.5*min(prev.top-prev.bottom, cur.top-cur.bottom)
}

// metricBox reports whether box b of character i is a loose box drawn from
// the font's metrics: from the character's origin to its advance width,
// united with the glyph's ink (so it starts at the origin or left of it).
// PDFium falls back to the ink box alone for a font without a usable
// bounding box; the gaps between inks are no word spacing.
func metricBox(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, i int, b gapBox) bool {
	o, err := inst.FPDFText_GetCharOrigin(&requests.FPDFText_GetCharOrigin{TextPage: tp, Index: i})
	return err == nil && b.left <= o.X+0.01
}
