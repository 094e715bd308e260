package extract

import (
	"strings"
	"testing"
)

// TestHTMLWhitespaceControlsSeparateWords_hreview15: withoutControls
// deletes every control character but tab and newline, and runs before
// whitespace is collapsed. In HTML, form feed and carriage return are
// white space (the "ASCII whitespace" of the HTML standard, which a
// browser renders as a blank); written as references ("&#12;", "&#13;",
// as XML serialisers write a CR of CRLF text) they reach clean() as the
// characters themselves and are deleted, gluing the words around them:
// "and&#12;form" is indexed and quoted as "andform". Before the change
// they were kept and, being white space, separated the words.
//
// Expected: a white-space control becomes a blank ("alpha beta and form
// x y"), and only the others are dropped.
func TestHTMLWhitespaceControlsSeparateWords_hreview15(t *testing.T) {
	doc := mustExtract(t, "html", "<p>alpha&#12;beta and&#13;form</p>")
	if got := strings.Join(strings.Fields(doc.Text), " "); got != "alpha beta and form" {
		t.Errorf("text %q, want the words apart: %q", doc.Text, "alpha beta and form")
	}
}
