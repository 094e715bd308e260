package ask

import (
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/answer"
)

// The list items an extractive answer quotes are found in the source: the
// answerer now writes each item as "- item [n]", and quotedSentences kept
// the "- " that the source's numbered (or "*") list does not have, so
// locate found none of them; the citation then named only the chunk of the
// sentence announcing the list (page 15), not the chunk the quoted steps
// come from (page 16).
func TestCiteQuotedFindsListItems_hreview8(t *testing.T) {
	t.Parallel()
	intro := "Adding replicas\n\nTo add replicas to the cluster, do the following:"
	list := "1. Take a base backup of the primary.\n2. Start the replica from the backup.\n3. Check the replication lag on the primary."
	content := intro + "\n\n" + list
	p := func(i int) *int { return &i }
	src := answer.Source{N: 1, ChunkID: "c2", HeadingPath: "Adding replicas", Content: content, StartOffset: 0, PageStart: p(15), PageEnd: p(16)}
	r := answer.Extractive("How do I add replicas to the cluster?", []answer.Source{src}, 3)
	if !strings.Contains(r.Answer, "Start the replica from the backup") || !strings.Contains(r.Answer, "do the following") {
		t.Fatalf("Answer = %q, want the sentence and its list (the premise of this test)", r.Answer)
	}
	s1 := len(intro) + 2
	nb := &neighbourhood{start: 0, chunk: 1, parts: []part{
		{start: 0, end: len(intro), pageStart: 15, pageEnd: 15, heading: "Adding replicas", id: "c1"},
		{start: s1, end: s1 + len(list), pageStart: 16, pageEnd: 16, heading: "Adding replicas", id: "c2"}}}
	cs := []answer.Citation{{N: 1, ChunkID: "c2", HeadingPath: src.HeadingPath, Page: src.Pages(), PageStart: src.PageStart, PageEnd: src.PageEnd}}
	citeQuoted(r.Answer, cs, []answer.Source{src}, []*neighbourhood{nb})
	if cs[0].Page != "pages 15-16" {
		t.Errorf("answer %q cited %q, want pages 15-16 (the steps quoted are on page 16)", r.Answer, cs[0].Page)
	}
	for _, q := range quotedSentences(r.Answer, 1) {
		if _, _, ok := locate(content, q); !ok && len(q) >= 12 {
			t.Errorf("quoted %q is not found in the source", q)
		}
	}
}
