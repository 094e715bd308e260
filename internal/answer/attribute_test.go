package answer

import (
	"fmt"
	"strings"
	"testing"
)

// TestAssignedAttributeIsQuoted: an API reference's attribute without a
// description is a line of code ("visibility_timeout = 3600"); a question
// naming it is answered with that line, not with the sentences around it
// that share its other words, and a long block of such lines is quoted
// around it.
func TestAssignedAttributeIsQuoted(t *testing.T) {
	t.Parallel()
	var attrs []string
	for i := range 20 {
		attrs = append(attrs, fmt.Sprintf("unacked_key_%d = 'unacked'", i))
	}
	attrs = append(attrs, "visibility_timeout = 3600")
	content := "fanout_patterns = True\nIf enabled the fanout exchange will support patterns in routing and binding keys.\n\n" +
		"Enabled by default since Kombu 4.x. Disable for backwards compatibility with Kombu 3.x.\n\n" +
		"```\n" + strings.Join(attrs, "\n") + "\n```\n"
	src := []Source{{N: 1, Title: "Redis Transport", HeadingPath: "Redis Transport > Channel", Content: content}}
	r := Extractive("redis visibility_timeout default", src, 3)
	if !strings.Contains(r.Answer, "visibility_timeout = 3600") {
		t.Errorf("the attribute's line is not quoted:\n%s", r.Answer)
	}
	if strings.Contains(r.Answer, "backwards compatibility") {
		t.Errorf("the sentences around the attribute are quoted instead of it:\n%s", r.Answer)
	}
	// A name the question does not write is no reason to quote the block.
	r = Extractive("redis fanout patterns default", src, 3)
	if strings.Contains(r.Answer, "visibility_timeout") {
		t.Errorf("an attribute the question does not name is quoted:\n%s", r.Answer)
	}
	if assignedName("x == 3") != "" || assignedName("self.limit = 10") != "limit" || assignedName("timeout: 30") != "timeout" {
		t.Error("assignedName: a comparison assigns nothing; self.limit = 10 assigns limit; timeout: 30 assigns timeout")
	}
}
