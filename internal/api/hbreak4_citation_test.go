package api_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestExtractiveCitationNamesTheQuotedChunk: an extractive answer quotes a
// source widened to its neighbouring chunks, and citeQuoted then points
// the citation's heading_path and page at the chunk the quotation comes
// from — but leaves chunk_id at the retrieved chunk. Here the best sentence
// ("On a cluster, zorbling frobnicators requires draining each node
// first.") sits in the chunk after the retrieved one: the citation says
// heading_path "Zorbling guide > Zorbling on a cluster" and names by
// chunk_id the "Zorbling basics" chunk, which does not hold the sentence.
// A client that highlights or fetches the cited chunk shows text without
// the quotation.
func TestExtractiveCitationNamesTheQuotedChunk(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	for i := range 12 {
		b.upsert(editor, fmt.Sprintf("noise/%d.md", i), fmt.Sprintf("# Note %d\n\nThe cluster of servers number %d hosts the billing cluster and a cluster cache.\n", i, i))
	}
	var doc strings.Builder
	doc.WriteString("# Zorbling guide\n\n## Zorbling basics\n\n")
	for i := range 25 {
		fmt.Fprintf(&doc, "Zorbling frobnicators is routine work and frobnicators need zorbling often, step %d. ", i)
	}
	doc.WriteString("\n\n## Zorbling on a cluster\n\nOn a cluster, zorbling frobnicators requires draining each node first.\n\n")
	for i := range 30 {
		fmt.Fprintf(&doc, "Unrelated remark %d about lunch breaks and the weather outside. ", i)
	}
	b.upsert(editor, "zorb.md", doc.String())

	const question = "how do I zorble frobnicators on a cluster?"
	ans := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: editor,
		body: map[string]any{"question": question}}), http.StatusOK)
	if ans.Refused || len(ans.Citations) == 0 {
		t.Fatalf("refused or uncited: %+v", ans)
	}
	// Every chunk of zorb.md, by id (the document has a handful).
	sr := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: editor,
		body: map[string]any{"query": "zorbling frobnicators cluster lunch weather", "top_k": 20, "source_uri_prefix": "zorb.md"}}), http.StatusOK)
	chunks := map[string]api.SearchResult{}
	for _, r := range sr.Results {
		chunks[r.ChunkID.String()] = r
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	marker := regexp.MustCompile(`\[(\d+)\]`)
	prev := 0
	for _, m := range marker.FindAllStringSubmatchIndex(ans.Answer, -1) {
		quote := strings.TrimLeft(norm(ans.Answer[prev:m[0]]), ". ")
		prev = m[1]
		n := ans.Answer[m[2]:m[3]]
		for _, c := range ans.Citations {
			if fmt.Sprint(c.N) != n {
				continue
			}
			ch, ok := chunks[c.ChunkID]
			if !ok {
				t.Errorf("citation [%s] names chunk %s, not a chunk of %s", n, c.ChunkID, c.SourceURI)
				continue
			}
			if !strings.Contains(norm(ch.Content), strings.TrimSuffix(quote, ".")) {
				t.Errorf("citation [%s]: chunk_id %s (heading %q) does not hold the quotation %q; the citation's heading_path is %q",
					n, c.ChunkID, ch.HeadingPath, quote, c.HeadingPath)
			}
		}
	}
}
