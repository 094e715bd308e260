package answer

import "strings"

// maxFilterWork bounds the bytes the stream filter re-scans over one reply.
// Each push re-scans only the current line, so ordinary replies use a small
// part of it (a 4 KiB single-paragraph reply in 4-byte pieces: 2 MiB); a
// pathological one (a huge line in tiny pieces) stops streaming once it is
// spent, and the Result carries the answer.
const maxFilterWork = 16 << 20

// streamFilter passes a streamed reply on with Verify's rewriting applied. It
// holds back what may still change (scanMarkers' hold, trailing blanks) and
// everything until the first valid citation, so that the pieces it delivers
// concatenate to a prefix of Verify's clean text.
//
// Lines before scanMarkers' safe offset are verified once and committed;
// each push re-verifies only the uncommitted tail.
type streamFilter struct {
	nSources int
	out      func(string) error

	raw       strings.Builder
	started   bool            // raw has a non-blank byte; base skips the leading blanks
	base      int             // raw[:base] is committed
	committed strings.Builder // verifyRaw of the committed lines, concatenated
	citedAny  bool            // the committed lines cite a valid source
	work      int             // bytes re-scanned so far

	open     bool            // a valid citation was seen: text may flow
	emitted  strings.Builder // what out has received, concatenated
	skip     int             // leading blanks of the candidate text, not delivered
	checked  int             // committed[skip:checked] is known to equal its part of emitted
	outErr   error           // out's error, which ends the stream
	diverged bool            // streaming stopped: work budget spent or a rewrite touched emitted text
}

// push adds a delta of the reply and delivers what became final.
func (f *streamFilter) push(delta string) error {
	f.raw.WriteString(delta)
	if f.diverged || !f.start() {
		return nil
	}
	tail := f.raw.String()[f.base:]
	if f.work += len(tail); f.work > maxFilterWork {
		f.diverged = true
		return nil
	}
	_, hold, safe := scanMarkers(tail, false)
	if safe > 0 {
		seg, cited, _ := verifyRaw(tail[:safe], f.nSources)
		f.committed.WriteString(seg)
		f.citedAny = f.citedAny || len(cited) > 0
		f.base += safe
		tail, hold = tail[safe:], hold-safe
	}
	seg, cited, _ := verifyRaw(strings.TrimRight(tail[:hold], blanks), f.nSources)
	// Removing a marker can leave an earlier '[' that now opens an
	// incomplete marker at the end ("[1, [9] 2" becomes "[1, 2"): hold the
	// rewritten text back from there too.
	_, hold, _ = scanMarkers(seg, false)
	return f.emit(seg[:hold], f.citedAny || len(cited) > 0)
}

// flush delivers the rest of a reply that is complete and stands.
func (f *streamFilter) flush() error {
	if f.diverged || !f.start() {
		return nil
	}
	seg, _, _ := verifyRaw(f.raw.String()[f.base:], f.nSources)
	return f.emit(seg, true)
}

// start skips the reply's leading blanks, as Verify trims its input; it
// reports false while the reply is all blank.
func (f *streamFilter) start() bool {
	if !f.started {
		raw := f.raw.String()
		i := len(raw) - len(strings.TrimLeft(raw, blanks))
		if i == len(raw) {
			return false
		}
		f.base, f.started = i, true
	}
	return true
}

// emit delivers what the candidate text adds to what was delivered, once a
// citation was seen. The candidate is the committed lines followed by seg,
// with trailing blanks held back and, as Verify trims, leading blanks
// skipped; it must extend what was delivered.
func (f *streamFilter) emit(seg string, cited bool) error {
	if !f.open {
		if !cited {
			return nil
		}
		f.open = true
	}
	committed := f.committed.String()
	seg = strings.TrimRight(seg, blanks)
	if seg == "" {
		committed = strings.TrimRight(committed, blanks)
	}
	c := len(committed)
	sub := func(i, j int) string { // candidate[i:j]
		switch {
		case j <= c:
			return committed[i:j]
		case i >= c:
			return seg[i-c : j-c]
		}
		return committed[i:] + seg[:j-c]
	}
	if f.emitted.Len() == 0 {
		f.skip = c - len(strings.TrimLeft(committed, blanks))
		if f.skip == c {
			f.skip += len(seg) - len(strings.TrimLeft(seg, blanks))
		}
	}
	emitted := f.emitted.String()
	end, total := f.skip+len(emitted), c+len(seg) // delivered = candidate[skip:end]
	// Committed text only grows, so what was compared before (checked) need
	// not be compared again.
	lo := max(f.skip, min(f.checked, c))
	if end > total || (lo < end && sub(lo, end) != emitted[lo-f.skip:]) {
		f.diverged = true
		return nil
	}
	f.checked = min(end, c)
	if end == total {
		return nil
	}
	piece := sub(end, total)
	f.emitted.WriteString(piece)
	if err := f.out(piece); err != nil {
		f.outErr = err
		return err
	}
	return nil
}
