package answer

import (
	"strings"
	"testing"
)

// TestNumberedListOfFactsQuotesTheItem_hreview12: a numbered list is not
// always a procedure: "Known limitations" or "Default ports" numbered one
// fact an item. A question answered by its fifth item ("What port does
// the metrics exporter listen on?") is answered by that item; since
// 3bd494a a passage opening inside any numbered list opens at item 1, so
// the answer leads with four unrelated facts.
func TestNumberedListOfFactsQuotesTheItem_hreview12(t *testing.T) {
	t.Parallel()
	src := []Source{{HeadingPath: "Reference > Default ports", Content: "The services listen on these ports by default.\n\n" +
		"1. The HTTP API listens on port 8080.\n" +
		"2. The admin console listens on port 8443.\n" +
		"3. The gRPC gateway listens on port 9090.\n" +
		"4. The cluster gossip protocol uses port 7946.\n" +
		"5. The metrics exporter listens on port 9100.\n" +
		"6. The debug profiler listens on port 6060.\n"}}
	r := Extractive("What port does the metrics exporter listen on?", src, 1)
	if !strings.Contains(r.Answer, "9100") || strings.Contains(r.Answer, "8080") {
		t.Errorf("Answer =\n%s\nwant the metrics exporter's item, without the HTTP API's", r.Answer)
	}
}
