package ask

import (
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/answer"
)

// TestCiteQuotedFindsShortListItems_hreview9: quotedSentences now strips
// the "- " before a quoted list item, and locate ignores a quote under 12
// bytes. A short item ("- Pin the CA", "- Use mTLS") was found in a source
// that writes it with "- " before the change (12 bytes and more with the
// marker); without the marker it is under 12 bytes and found nowhere, so
// the citation names only the page of the announcing sentence (15), not
// the page the quoted items are on (16). Expected: pages 15-16.
func TestCiteQuotedFindsShortListItems_hreview9(t *testing.T) {
	t.Parallel()
	intro := "Securing connections\n\nTo secure the connections of the cluster, do the following:"
	list := "- Pin the CA\n- Use mTLS\n- Rotate keys"
	content := intro + "\n\n" + list
	p := func(i int) *int { return &i }
	src := answer.Source{N: 1, ChunkID: "c2", HeadingPath: "Securing connections", Content: content, StartOffset: 0, PageStart: p(15), PageEnd: p(16)}
	r := answer.Extractive("How do I secure the connections of the cluster?", []answer.Source{src}, 3)
	if !strings.Contains(r.Answer, "Pin the CA") || !strings.Contains(r.Answer, "do the following") {
		t.Fatalf("Answer = %q, want the sentence and its list (the premise of this test)", r.Answer)
	}
	s1 := len(intro) + 2
	nb := &neighbourhood{start: 0, chunk: 1, parts: []part{
		{start: 0, end: len(intro), pageStart: 15, pageEnd: 15, heading: "Securing connections", id: "c1"},
		{start: s1, end: s1 + len(list), pageStart: 16, pageEnd: 16, heading: "Securing connections", id: "c2"}}}
	cs := []answer.Citation{{N: 1, ChunkID: "c2", HeadingPath: src.HeadingPath, Page: src.Pages(), PageStart: src.PageStart, PageEnd: src.PageEnd}}
	citeQuoted(r.Answer, cs, []answer.Source{src}, []*neighbourhood{nb})
	if cs[0].Page != "pages 15-16" {
		t.Errorf("answer %q cited %q, want pages 15-16 (the items quoted are on page 16)", r.Answer, cs[0].Page)
	}
}
