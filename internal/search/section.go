package search

import (
	"strconv"
	"strings"
)

// A chunk may pack several short sections or definition entries (a page of
// small class or option entries), or run over pages of a PDF. Its heading
// path and anchor are where its text starts, so a search result whose
// words are further down linked there: "Default extend mode for gradient
// patterns?" found the right chunk first, shown as "Path operation" and
// linked to #path-operation. The result also names and links the place
// the query's words are in (Result.MatchHeadingPath, MatchAnchor), as an
// extractive answer's citation links the place of the sentence it quotes.

// matchedResults bounds how many of a search's results are given their
// matching place: each costs a reading of its text, and a page of results
// shows far fewer.
const matchedResults = 100

// matchSection returns where in c the query's words are: of the stretches
// c's anchor marks cut its text into (each from a mark, where a section,
// a definition entry or a PDF page starts, to the next), the one holding
// the largest share of the query's words (coverage: answer.Coverage; the
// first of equals), when that is not the stretch before the first mark.
// path is the heading path of the section the stretch lies in (its own
// when the mark is a section's, else the section's of the stretch before,
// c's own heading path for the first), anchor the mark's, offset where the
// stretch starts in c's text. All are zero when c has no marks inside its
// text or the best stretch is its first.
func matchSection(coverage func(...string) float64, c chunkContent) (path, anchor string, offset int) {
	type stretch struct {
		start        int
		path, anchor string
	}
	all := []stretch{{0, c.HeadingPath, c.Anchor}}
	// The text may open with a repeated table header that is not the
	// document's (chunk.Chunk.PrefixLen): marks are document offsets.
	prefix := max(0, len(c.Content)-int(c.EndOffset-c.StartOffset))
	for _, m := range c.AnchorMarks {
		at, a, ok := strings.Cut(m, "\t")
		n, err := strconv.Atoi(at)
		if !ok || err != nil || a == "" {
			continue
		}
		n += prefix - int(c.StartOffset)
		if last := all[len(all)-1]; n <= last.start || n >= len(c.Content) {
			continue
		}
		p := all[len(all)-1].path
		for k, sa := range c.SectionAnchors {
			if sa == a && k < len(c.Sections) {
				p = c.Sections[k]
				break
			}
		}
		all = append(all, stretch{n, p, a})
	}
	if len(all) < 2 {
		return "", "", 0
	}
	best, bestShare := 0, -1.0
	for i, s := range all {
		end := len(c.Content)
		if i+1 < len(all) {
			end = all[i+1].start
		}
		if share := coverage(c.Content[s.start:end]); share > bestShare {
			best, bestShare = i, share
		}
	}
	s := all[best]
	if best == 0 || s.anchor == c.Anchor && s.path == c.HeadingPath {
		return "", "", 0
	}
	return s.path, s.anchor, s.start
}
