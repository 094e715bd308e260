package answer

import (
	"strings"
	"testing"
)

// TestExtractiveKeepsAPipelinesFirstLine: a40e37d reads a block whose first
// line is a table row of one non-empty cell, with no table row after it,
// as an admonition laid out as a table (loneCell: the label above the
// note), drops that line and may start a section with it. A shell pipeline
// broken after its pipes has that shape: "cat access.log |" splits on "|"
// into one non-empty cell. Its first command is then cut from the quoted
// code, which becomes "grep ' 404 ' | wc -l": run as quoted it reads the
// terminal and hangs, and the log it was to count is not named anywhere in
// the answer. A quoted command must be the whole command the source prints.
func TestExtractiveKeepsAPipelinesFirstLine(t *testing.T) {
	t.Parallel()
	content := "Counting errors\n\nTo count the requests that failed with 404 in the access log, run this pipeline.\n\n" +
		"    cat /var/log/nginx/access.log |\n      grep ' 404 ' |\n      wc -l\n\nThe number printed is the count of failed requests."
	r := Extractive("How do I count the 404 requests in the access log?", []Source{{Content: content, HeadingPath: "Logs"}}, 3)
	if !strings.Contains(r.Answer, "grep ' 404 '") {
		t.Fatalf("the pipeline is not quoted: %q", r.Answer)
	}
	if !strings.Contains(r.Answer, "cat /var/log/nginx/access.log |") {
		t.Errorf("the pipeline is quoted without its first line:\n%s", r.Answer)
	}
}
