package answer

import (
	"strings"
	"testing"
)

// TestHReview11NumberedTitleLineStaysTitle: a plain-text section title
// ("2.1. Installation") above its prose is a title, as before the change
// for terms named by the heading path; it is not quoted as a definition
// term ("2.1. Installation: Run make…").
func TestHReview11NumberedTitleLineStaysTitle(t *testing.T) {
	t.Parallel()
	src := []Source{{HeadingPath: "manual.txt",
		Content: "2.1. Installation\nRun make install to build the server and copy it to the system directory."}}
	r := Extractive("How do I install the server?", src, 1)
	if strings.Contains(r.Answer, "Installation:") {
		t.Errorf("Answer =\n%s", r.Answer)
	}
}
