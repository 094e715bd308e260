package search

import (
	"strings"

	"github.com/ragd-dev/ragd/internal/answer"
)

// A chunk may pack several short sections (a page of small class or
// option entries). Its heading path and anchor are those of the section
// its text starts in, so a search result whose words are in a later
// section linked to the first: "Default extend mode for gradient
// patterns?" found the right chunk first, shown as "Path operation" and
// linked to #path-operation. The result also names the section the query's
// words are in (Result.MatchHeadingPath, MatchAnchor), as an extractive
// answer's citation names the section of the sentence it quotes.

// matchSection returns the heading path and anchor of the section of c
// that holds the largest share of the query's words (answer.TermCoverage),
// when c spans sections, each later section's title stands as a line of
// its own in c's text, and that section is neither the one the text
// starts in (it holds strictly more of the words than the text before the
// next title) nor the chunk's own heading path. The anchor is the section's own ("" when the page gives it none);
// both are "" otherwise.
func matchSection(query string, c chunkContent) (path, anchor string) {
	if len(c.Sections) < 2 || c.Content == "" {
		return "", ""
	}
	type seg struct {
		start, section int // section -1: the text before the first title found
	}
	segs := []seg{{0, -1}}
	pos := 0
	for k, p := range c.Sections {
		title := LastHeading(p)
		cut := false
		if t, ok := strings.CutSuffix(title, "…"); ok {
			title, cut = t, true
		}
		if title == "" {
			continue
		}
		i := titleLineAt(c.Content, pos, title, !cut)
		if i < 0 {
			continue
		}
		if i == 0 {
			segs[0].section = k // the text starts with this section's title
		} else {
			segs = append(segs, seg{i, k})
		}
		pos = i + len(title)
	}
	if len(segs) < 2 {
		return "", ""
	}
	best, bestShare := 0, -1.0
	for i, s := range segs {
		end := len(c.Content)
		if i+1 < len(segs) {
			end = segs[i+1].start
		}
		if share := answer.TermCoverage(query, c.Content[s.start:end]); share > bestShare {
			best, bestShare = i, share
		}
	}
	k := segs[best].section
	if best == 0 || k < 0 || c.Sections[k] == c.HeadingPath {
		return "", ""
	}
	if len(c.SectionAnchors) == len(c.Sections) {
		anchor = c.SectionAnchors[k]
	}
	return c.Sections[k], anchor
}

// LastHeading returns the last heading of a heading path (" > " separates
// headings; a heading's own " > " is stored as " › ").
func LastHeading(path string) string {
	if i := strings.LastIndex(path, " > "); i >= 0 {
		path = path[i+3:]
	}
	return strings.TrimSpace(path)
}

// titleLineAt returns the offset of the first line of content from pos on
// that is title (or, when !whole, starts with it), or -1.
func titleLineAt(content string, pos int, title string, whole bool) int {
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
