package api_test

import (
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestExtractiveCitationOfAPassageAcrossChunks (h-break11): h-break4's
// TestExtractiveCitationNamesTheQuotedChunk (fixed) has the quotation in
// the chunk after the retrieved one; here it spans the boundary. The
// manual's ALTER TABLE page, Description section (sliced from
// /usr/share/doc/postgresql-doc-15/html/sql-altertable.html, 42 KB), has
// under DETACH PARTITION two paragraphs that fall into two chunks:
// "CONCURRENTLY cannot be run in a transaction block …" ends one chunk and
// "If FINALIZE is specified, a previous DETACH CONCURRENTLY invocation …"
// starts the next. "Can I run DETACH PARTITION CONCURRENTLY inside a
// transaction block, and what does FINALIZE do?" is answered with three
// sentences, each marked [1], and citation 1 names by chunk_id the first
// chunk, which does not hold the FINALIZE sentence. A client that shows or
// highlights the cited chunk shows the answer's last sentence nowhere.
// (Live on 100 manual pages: "How do I attach an existing table as a new
// partition while minimizing locking?" likewise.)
//
// Expected: every sentence marked [n] is in the chunk that citation n names
// (a passage across a chunk boundary is cited to both chunks, or ends at
// the boundary). Resolved: a citation's chunk_ids name every chunk its
// quotation comes from, chunk_id the first.
func TestExtractiveCitationOfAPassageAcrossChunks(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("/usr/share/doc/postgresql-doc-15/html/sql-altertable.html")
	if err != nil {
		t.Fatalf("the PostgreSQL manual is missing (%v): run `make setup` (installs postgresql-doc-15)", err)
	}
	page := string(raw)
	desc := strings.Index(page, "<h2>Description</h2>")
	fin := strings.Index(page, `If <code class="literal">FINALIZE</code>`)
	if desc < 0 || fin < 0 {
		t.Fatal("the manual page has changed: Description or FINALIZE not found")
	}
	start := strings.LastIndex(page[:desc], `<div class="refsect1"`)
	end := fin + strings.Index(page[fin:], "</dl>") + len("</dl>")
	doc := `<html><head><title>ALTER TABLE</title></head><body><div class="refentry"><div class="refnamediv"><h2>ALTER TABLE</h2></div>` +
		page[start:end] + "</div></div></body></html>"

	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: editor,
		body: map[string]any{"source_uri": "sql-altertable.html", "content_type": "html", "content": doc}}), http.StatusOK)
	ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: editor,
		body: map[string]any{"question": "Can I run DETACH PARTITION CONCURRENTLY inside a transaction block, and what does FINALIZE do?"}}), http.StatusOK)
	if ar.Refused || !strings.Contains(ar.Answer, "If FINALIZE is specified") {
		t.Fatalf("premise: the answer quotes the FINALIZE sentence; got refused=%v %q", ar.Refused, ar.Answer)
	}
	// The document's chunks, by id.
	sr := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: editor,
		body: map[string]any{"query": "DETACH PARTITION CONCURRENTLY FINALIZE transaction block default partition", "top_k": 20}}), http.StatusOK)
	chunks := map[string]string{}
	for _, r := range sr.Results {
		chunks[r.ChunkID.String()] = strings.Join(strings.Fields(r.Content), " ")
	}
	marker := regexp.MustCompile(`\[(\d+)\]`)
	prev := 0
	for _, m := range marker.FindAllStringSubmatchIndex(ar.Answer, -1) {
		quote := strings.TrimSuffix(strings.TrimLeft(strings.Join(strings.Fields(ar.Answer[prev:m[0]]), " "), ". "), ".")
		prev = m[1]
		for _, c := range ar.Citations {
			if n, _ := strconv.Atoi(ar.Answer[m[2]:m[3]]); c.N != n {
				continue
			}
			// The sentence is in one of the chunks the citation names
			// (chunk_ids: a passage across a chunk boundary names each).
			held := false
			for _, id := range c.ChunkIDs {
				content, ok := chunks[id]
				if !ok {
					t.Errorf("citation [%d] names chunk %s, which the search for the passage did not return", c.N, id)
				}
				held = held || strings.Contains(content, quote)
			}
			if !held || len(c.ChunkIDs) == 0 || c.ChunkIDs[0] != c.ChunkID {
				t.Errorf("citation [%d] names chunks %v (chunk_id %s), none of which holds the sentence it marks: %q", c.N, c.ChunkIDs, c.ChunkID, quote)
			}
		}
	}
}
