package answer

import (
	"strings"
	"testing"
)

// A rule line separates prose, but inside an indented code block (a
// NumPy-style docstring in a plain-text reference, a psql result) it is
// part of the code: quoted, the code must keep it. Since 4ec0c9c the
// "----------" under "Parameters" was dropped from the quoted block and a
// blank line put in its place.
func TestIndentedCodeKeepsItsUnderline(t *testing.T) {
	t.Parallel()
	src := []Source{{Title: "numpy.sum", Content: "sum(a, axis=None)\n\n    Sum of array elements over a given axis.\n\n" +
		"    Parameters\n    ----------\n    axis : None or int\n        Axis or axes along which a sum is performed.\n"}}
	r := Extractive("What does the axis parameter of sum do?", src, 3)
	if !strings.Contains(r.Answer, "axis : None or int") {
		t.Skipf("the code block is not quoted: %q", r.Answer)
	}
	if !strings.Contains(r.Answer, "Parameters\n    ----------\n    axis") {
		t.Errorf("Answer =\n%s\nwant the code block as written, its ---------- line included", r.Answer)
	}
}

// "How long", "how many", "how much" ask for a quantity, not a procedure:
// an answer to one that ends a paragraph does not bring the numbered list
// that happens to follow (since de1d053 any question with "how" counted as
// asking for a procedure, and "How long are entries kept in the cache?"
// was answered with three release notes after the ten minutes).
func TestQuantityQuestionDoesNotQuoteTheNextNumberedList(t *testing.T) {
	t.Parallel()
	src := []Source{{Title: "Cache", Content: "Cache. Entries are kept in the cache for ten minutes.\n\n" +
		"1. Alpha release notes.\n2. Beta release notes.\n3. Gamma release notes."}}
	r := Extractive("How long are entries kept in the cache?", src, 3)
	if !strings.Contains(r.Answer, "ten minutes") {
		t.Fatalf("Answer = %q, want the ten minutes", r.Answer)
	}
	if strings.Contains(r.Answer, "release notes") {
		t.Errorf("Answer =\n%s\nwant the sentence without the unrelated numbered list after it", r.Answer)
	}
}
