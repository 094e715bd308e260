package ask

import (
	"testing"

	"github.com/ragd-dev/ragd/internal/answer"
)

// TestCiteQuotedOpensThePageTheTextIsOn: a PDF chunk over a page break
// carries a page mark where the next page's text begins; a sentence quoted
// from after it is cited with that page and its link, one from before it
// with the chunk's first page (a sentence on page 86 was linked to 85);
// each names the page it lies on alone.
func TestCiteQuotedOpensThePageTheTextIsOn(t *testing.T) {
	t.Parallel()
	first, second := "Shell variables hold the values the shell uses.", "BASH_COMPAT sets the shell's compatibility level."
	content := first + "\n\n" + second
	p := func(i int) *int { return &i }
	src := answer.Source{N: 1, HeadingPath: "5 Shell Variables", Content: content, StartOffset: 500, PageStart: p(85), PageEnd: p(86)}
	page86 := 500 + len(first) + 2
	nb := &neighbourhood{start: 500, chunk: 0, parts: []part{{start: 500, end: 500 + len(content), pageStart: 85, pageEnd: 86,
		heading: "5 Shell Variables", id: "c1", marks: []mark{{at: page86, anchor: "page=86"}}}}}
	for _, tc := range []struct{ answer, anchor, page string }{
		{"BASH_COMPAT sets the shell's compatibility level [1].", "page=86", "page 86"},
		{"Shell variables hold the values the shell uses [1].", "page=85", "page 85"},
	} {
		cs := []answer.Citation{{N: 1, HeadingPath: src.HeadingPath, Page: src.Pages(), PageStart: src.PageStart, PageEnd: src.PageEnd}}
		citeQuoted(tc.answer, cs, []answer.Source{src}, []*neighbourhood{nb})
		if cs[0].Anchor != tc.anchor || cs[0].Page != tc.page {
			t.Errorf("%q: cited %q, %q; want %q, %q", tc.answer, cs[0].Anchor, cs[0].Page, tc.anchor, tc.page)
		}
	}
}
