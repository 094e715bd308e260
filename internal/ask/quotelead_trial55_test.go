package ask

import (
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/answer"
)

// TestCiteQuotedLinksThePassagesEntry: a citation links to the entry of
// the first text the answer quotes from its source, the passage, not to an
// entry quoted beside it that comes earlier in the page (humanfriendly's
// HIGHLIGHT_COLOR answer, a held-out trial, linked to ANSI_COLOR_CODES,
// the entry quoted after it).
func TestCiteQuotedLinksThePassagesEntry(t *testing.T) {
	t.Parallel()
	content := "frob.terminal.ANSI_COLOR_CODES = {'black': 0}\nA dictionary with (name, number) pairs of portable color codes. " +
		"Used by ansi_style() to generate ANSI escape sequences that change font color.\n\n" +
		"frob.terminal.CLEAR_SCREEN = '\\x1b[2J'\nThe ANSI escape sequence that clears the screen.\n\n" +
		"frob.terminal.HIGHLIGHT_COLOR = 'green'\nThe color used to highlight important tokens in formatted text."
	entryMark := func(name string) mark { return mark{at: strings.Index(content, name+" ="), anchor: name} }
	src := answer.Source{N: 1, ChunkID: "c1", HeadingPath: "API > frob.terminal", Content: content, Anchor: "frob.terminal.ANSI_COLOR_CODES"}
	nb := &neighbourhood{start: 0, chunk: 0, parts: []part{{start: 0, end: len(content), heading: src.HeadingPath, id: "c1", anchor: src.Anchor,
		marks: []mark{entryMark("frob.terminal.ANSI_COLOR_CODES"), entryMark("frob.terminal.CLEAR_SCREEN"), entryMark("frob.terminal.HIGHLIGHT_COLOR")}}}}
	cs := []answer.Citation{{N: 1, ChunkID: "c1", HeadingPath: src.HeadingPath, Anchor: src.Anchor}}
	text := "frob.terminal.HIGHLIGHT_COLOR = 'green': The color used to highlight important tokens in formatted text [1].\n\n" +
		"Used by ansi_style() to generate ANSI escape sequences that change font color [1]."
	citeQuoted(text, cs, []answer.Source{src}, []*neighbourhood{nb})
	if cs[0].Anchor != "frob.terminal.HIGHLIGHT_COLOR" {
		t.Errorf("cited with anchor %q, want frob.terminal.HIGHLIGHT_COLOR (the passage's entry)", cs[0].Anchor)
	}
}
