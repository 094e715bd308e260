package chunk

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragd-dev/ragd/internal/extract"
)

// atom is the smallest piece a window is made of: a trimmed, non-empty byte
// range of the text that fits the limits on its own.
type atom struct {
	start, end int
	tok        int
	block      int  // block index
	first      int  // index of the first atom of the same block
	last       int  // index one past the last atom of the same block
	glue       bool // heading, term or table header: never end a window after it
	soft       bool // a good place to cut after (code line before a blank line)
	row        bool // table body row (or piece of one)
}

type tableInfo struct {
	header    string
	headerTok int
}

// window cuts a unit that is over the limits into overlapping windows.
func (s *splitter) window(u unit) {
	atoms, tables := s.atoms(u)
	n := len(atoms)
	// prefix sums of atom tokens
	ps := make([]int, n+1)
	for i, a := range atoms {
		ps[i+1] = ps[i] + a.tok
	}
	sum := func(i, j int) int { return ps[j] - ps[i] }
	target, maxTok, maxChars := s.cfg.TargetTokens, s.cfg.MaxTokens, s.cfg.MaxChars

	for i := 0; i < n; {
		header, headerTok := "", 0
		if atoms[i].row {
			if t, ok := tables[atoms[i].block]; ok {
				header, headerTok = t.header, t.headerTok
			}
		}
		pre := 0
		if header != "" {
			pre = len(header) + 1
		}
		fitsBytes := func(j int) bool { return pre+atoms[j-1].end-atoms[i].start <= maxChars }

		// Greedy fill up to the target; the first atom always goes in (atoms
		// fit the hard limits on their own, with their table's header).
		fitsMax := func(j int) bool { return headerTok+sum(i, j) <= maxTok && fitsBytes(j) }
		j := i + 1
		for j < n && headerTok+sum(i, j+1) <= target && fitsBytes(j+1) {
			j++
		}
		for j < n && atoms[j-1].glue && fitsMax(j+1) {
			j++ // a heading, term or caption takes the atom after it along
		}
		if j < n && atoms[j].block == atoms[j-1].block {
			// Cutting inside a block. Complete it instead if it started in
			// this window and the whole stays within the hard limits.
			if end := atoms[j].last; atoms[j].first >= i && fitsMax(end) {
				j = end
			}
		}
		if j < n && atoms[j].block == atoms[j-1].block {
			// Still inside a block: back off to a block boundary, else to a
			// soft boundary, if that keeps at least half a target.
			j = s.backOff(atoms, i, j, (target+1)/2-headerTok, sum)
		}
		if j < n && sum(j, n) < s.cfg.MinTokens && fitsMax(n) {
			j = n // do not leave a tiny last window
		}
		if j < n && atoms[j-1].glue {
			// Do not end on a heading or term: move it (and any glued run
			// before it) to the next window, unless that empties this one
			// below half a target (a run of terms, as in an index).
			k := j - 1
			for k > i && atoms[k-1].glue {
				k--
			}
			if k > i && sum(i, k)+headerTok >= (target+1)/2 {
				j = k
			} else if j-1 > i && !atoms[j-2].glue {
				j--
			}
		}
		path, sections, anchors := s.pathOf(atoms[i].block, atoms[j-1].block+1)
		s.emit(path, sections, anchors, header, atoms[i].start, atoms[j-1].end)

		next := j
		if j < n && atoms[j].block == atoms[j-1].block && !atoms[j].row && s.cfg.OverlapTokens > 0 {
			ov := 0
			for next-1 > i && atoms[next-1].block == atoms[j].block && ov+atoms[next-1].tok <= s.cfg.OverlapTokens {
				next--
				ov += atoms[next].tok
			}
		}
		i = next
	}
}

// backOff returns a cut index in (i, j] at a block boundary, else at a soft
// boundary, such that the window keeps at least minTok tokens; j if none.
func (s *splitter) backOff(atoms []atom, i, j, minTok int, sum func(int, int) int) int {
	for pass := 0; pass < 2; pass++ {
		for k := j - 1; k > i && sum(i, k) >= minTok; k-- {
			if atoms[k].block != atoms[k-1].block || (pass == 1 && atoms[k-1].soft) {
				return k
			}
		}
	}
	return j
}

// atoms breaks the blocks of u into atoms; tables maps a table's block index
// to its repeatable header.
func (s *splitter) atoms(u unit) ([]atom, map[int]tableInfo) {
	var atoms []atom
	tables := map[int]tableInfo{}
	maxTok, maxChars := s.cfg.MaxTokens, s.cfg.MaxChars
	for k := u.from; k < u.to; k++ {
		b := s.blocks[k]
		first := len(atoms)
		switch {
		case b.Kind == extract.KindHeading || b.Kind == extract.KindTerm || b.Kind == extract.KindCaption:
			atoms = s.textAtoms(atoms, b.Start, b.End, maxTok, maxChars, atom{block: k, glue: true})
		case b.Kind == extract.KindTable && len(b.Rows) > 0:
			rowTok, rowChars := maxTok, maxChars
			if h := b.HeaderRow; h != "" {
				ht := s.cfg.Count(h)
				atoms = s.textAtoms(atoms, b.Start, b.Start+len(h), maxTok, maxChars, atom{block: k, glue: true})
				// Repeat the header only while it leaves room for rows.
				if ht <= maxTok/4 && len(h)+1 <= maxChars/4 {
					tables[k] = tableInfo{header: h, headerTok: ht}
					rowTok, rowChars = maxTok-ht, maxChars-len(h)-1
				}
			}
			for _, r := range b.Rows {
				atoms = s.textAtoms(atoms, r.Start, r.End, rowTok, rowChars, atom{block: k, row: true})
			}
		case b.Kind == extract.KindCode:
			atoms = s.codeAtoms(atoms, b, k)
		default:
			atoms = s.sentenceAtoms(atoms, b.Start, b.End, maxTok, maxChars, atom{block: k})
		}
		for i := first; i < len(atoms); i++ {
			atoms[i].first, atoms[i].last = first, len(atoms)
		}
	}
	return atoms, tables
}

// codeAtoms keeps a code block whole when it fits, else one atom per
// non-blank line (a line over the limits is cut between words).
func (s *splitter) codeAtoms(atoms []atom, b extract.Block, k int) []atom {
	maxTok, maxChars := s.cfg.MaxTokens, s.cfg.MaxChars
	proto := atom{block: k}
	if t := s.tokens(k, k+1); t <= maxTok && b.End-b.Start <= maxChars {
		proto.start, proto.end, proto.tok = b.Start, b.End, t
		return append(atoms, proto)
	}
	for ls := b.Start; ls < b.End; {
		le := strings.IndexByte(s.text[ls:b.End], '\n')
		if le < 0 {
			le = b.End
		} else {
			le += ls
		}
		if strings.TrimSpace(s.text[ls:le]) == "" {
			if len(atoms) > 0 && atoms[len(atoms)-1].block == k {
				atoms[len(atoms)-1].soft = true
			}
		} else {
			// Keep the line's indentation, drop trailing spaces.
			end := ls + len(strings.TrimRight(s.text[ls:le], " \t"))
			atoms = s.textAtomsLine(atoms, ls, end, maxTok, maxChars, proto)
		}
		ls = le + 1
	}
	return atoms
}

// textAtoms appends [start, end) trimmed as one atom if it fits, else cut
// into sentences, lines, words and finally runes.
func (s *splitter) textAtoms(atoms []atom, start, end, maxTok, maxChars int, proto atom) []atom {
	start, end = s.trim(start, end)
	if start >= end {
		return atoms
	}
	if t := s.cfg.Count(s.text[start:end]); t <= maxTok && end-start <= maxChars {
		proto.start, proto.end, proto.tok = start, end, t
		return append(atoms, proto)
	}
	return s.sentenceAtoms(atoms, start, end, maxTok, maxChars, proto)
}

// sentenceAtoms appends one atom per sentence of [start, end).
func (s *splitter) sentenceAtoms(atoms []atom, start, end, maxTok, maxChars int, proto atom) []atom {
	for a := start; a < end; {
		b := nextSentence(s.text, a, end)
		atoms = s.linesAtoms(atoms, a, b, maxTok, maxChars, proto)
		a = b
	}
	return atoms
}

// linesAtoms appends [start, end) as one atom if it fits, else one per line.
func (s *splitter) linesAtoms(atoms []atom, start, end, maxTok, maxChars int, proto atom) []atom {
	start, end = s.trim(start, end)
	if start >= end {
		return atoms
	}
	if t := s.cfg.Count(s.text[start:end]); t <= maxTok && end-start <= maxChars {
		proto.start, proto.end, proto.tok = start, end, t
		return append(atoms, proto)
	}
	for ls := start; ls < end; {
		le := strings.IndexByte(s.text[ls:end], '\n')
		if le < 0 {
			le = end
		} else {
			le += ls
		}
		a, b := s.trim(ls, le)
		if a < b {
			atoms = s.textAtomsLine(atoms, a, b, maxTok, maxChars, proto)
		}
		ls = le + 1
	}
	return atoms
}

// textAtomsLine appends one line as an atom if it fits, else groups of
// words of about an eighth of TargetTokens (small enough for windows to
// overlap by whole groups), within maxTok and maxChars.
func (s *splitter) textAtomsLine(atoms []atom, start, end, maxTok, maxChars int, proto atom) []atom {
	if t := s.cfg.Count(s.text[start:end]); t <= maxTok && end-start <= maxChars {
		proto.start, proto.end, proto.tok = start, end, t
		return append(atoms, proto)
	}
	limit := max(1, min(s.cfg.TargetTokens/8, maxTok))
	gs, gt := -1, 0 // current group start and tokens
	ge := 0
	flush := func() {
		if gs >= 0 {
			p := proto
			p.start, p.end, p.tok = gs, ge, gt
			atoms = append(atoms, p)
			gs, gt = -1, 0
		}
	}
	for ws := start; ws < end; {
		r, n := utf8.DecodeRuneInString(s.text[ws:])
		if unicode.IsSpace(r) {
			ws += n
			continue
		}
		we := ws
		for we < end {
			r, n := utf8.DecodeRuneInString(s.text[we:])
			if unicode.IsSpace(r) {
				break
			}
			we += n
		}
		wt := s.cfg.Count(s.text[ws:we])
		if wt > limit || we-ws > maxChars {
			flush()
			atoms = s.runeAtoms(atoms, ws, we, limit, maxChars, proto)
			ws = we
			continue
		}
		if gs >= 0 && (gt+wt > limit || we-gs > maxChars) {
			flush()
		}
		if gs < 0 {
			gs = ws
		}
		gt += wt
		ge = we
		ws = we
	}
	flush()
	return atoms
}

// runeAtoms cuts one oversized word between runes into pieces within the
// limits. The count of each piece is measured; a single rune always fits.
func (s *splitter) runeAtoms(atoms []atom, start, end, maxTok, maxChars int, proto atom) []atom {
	ps, pt := start, 0
	for i := start; i < end; {
		_, n := utf8.DecodeRuneInString(s.text[i:])
		rt := s.cfg.Count(s.text[i : i+n])
		if i > ps && (pt+rt > maxTok || i+n-ps > maxChars) {
			p := proto
			p.start, p.end, p.tok = ps, i, s.cfg.Count(s.text[ps:i])
			atoms = append(atoms, p)
			ps, pt = i, 0
		}
		pt += rt
		i += n
	}
	if ps < end {
		p := proto
		p.start, p.end, p.tok = ps, end, s.cfg.Count(s.text[ps:end])
		atoms = append(atoms, p)
	}
	return atoms
}

// trim narrows [start, end) to exclude leading and trailing whitespace.
func (s *splitter) trim(start, end int) (int, int) {
	for start < end {
		r, n := utf8.DecodeRuneInString(s.text[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		start += n
	}
	for end > start {
		r, n := utf8.DecodeLastRuneInString(s.text[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		end -= n
	}
	return start, end
}

// nextSentence returns the end of the sentence starting at from (the start
// of the next one, after the whitespace), or end. A sentence ends after
// ".", "!" or "?" (plus closing quotes or brackets) followed by whitespace
// and a character that is not a lower-case letter, or after "。", "！", "？".
func nextSentence(text string, from, end int) int {
	for i := from; i < end; {
		c := text[i]
		switch {
		case c == '.' || c == '!' || c == '?':
			j := i + 1
			for j < end {
				if k := closer(text[j:end]); k > 0 {
					j += k
					continue
				}
				break
			}
			if j < end && isSpaceByte(text[j]) {
				k := j
				for k < end && isSpaceByte(text[k]) {
					k++
				}
				if k == end {
					return end
				}
				if r, _ := utf8.DecodeRuneInString(text[k:end]); !unicode.IsLower(r) {
					return k
				}
			}
			i = j
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(text[i:end])
			i += n
			if r == '。' || r == '！' || r == '？' {
				for i < end && isSpaceByte(text[i]) {
					i++
				}
				return i
			}
		default:
			i++
		}
	}
	return end
}

// closer returns the byte length of a closing quote or bracket at the start
// of s, or 0.
func closer(s string) int {
	switch s[0] {
	case ')', ']', '"', '\'':
		return 1
	}
	if strings.HasPrefix(s, "”") || strings.HasPrefix(s, "’") || strings.HasPrefix(s, "»") {
		_, n := utf8.DecodeRuneInString(s)
		return n
	}
	return 0
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\n' || c == '\t' }
