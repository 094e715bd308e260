package ask

import (
	"testing"

	"github.com/ragd-dev/ragd/internal/answer"
)

// TestHR44QuotedPageRangeIsTheQuotesPages: 339643d makes a PDF citation
// open the page its quoted text starts on (the chunk's page marks), but
// the page range it names still runs to the chunk's last page. A chunk
// over pages 85-87 whose quoted sentence is wholly on page 86 is cited as
// "pages 86-87": the reader is sent to a page range that includes a page
// the text is not on, the very fault the change set out to fix ("a PDF
// citation said pages 62-63 for a sentence on page 62"). The end of the
// range is where the quoted text ends (the next page mark after it).
func TestHR44QuotedPageRangeIsTheQuotesPages(t *testing.T) {
	t.Parallel()
	p85 := "Shell variables hold the values the shell uses."
	p86 := "BASH_COMPAT sets the shell's compatibility level."
	p87 := "HISTCONTROL lists how commands are saved in the history."
	content := p85 + "\n\n" + p86 + "\n\n" + p87
	p := func(i int) *int { return &i }
	src := answer.Source{N: 1, HeadingPath: "5 Shell Variables", Content: content, StartOffset: 500, PageStart: p(85), PageEnd: p(87)}
	at86 := 500 + len(p85) + 2
	at87 := at86 + len(p86) + 2
	nb := &neighbourhood{start: 500, chunk: 0, parts: []part{{start: 500, end: 500 + len(content), pageStart: 85, pageEnd: 87,
		heading: "5 Shell Variables", id: "c1", marks: []mark{{at: at86, anchor: "page=86"}, {at: at87, anchor: "page=87"}}}}}
	cs := []answer.Citation{{N: 1, HeadingPath: src.HeadingPath, Page: src.Pages(), PageStart: src.PageStart, PageEnd: src.PageEnd}}
	citeQuoted("BASH_COMPAT sets the shell's compatibility level [1].", cs, []answer.Source{src}, []*neighbourhood{nb})
	if cs[0].Anchor != "page=86" || cs[0].Page != "page 86" || cs[0].PageEnd == nil || *cs[0].PageEnd != 86 {
		end := 0
		if cs[0].PageEnd != nil {
			end = *cs[0].PageEnd
		}
		t.Errorf("cited %q, %q (page end %d); want page=86, \"page 86\" (the sentence is on page 86 alone)", cs[0].Anchor, cs[0].Page, end)
	}
}
