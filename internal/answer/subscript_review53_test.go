package answer

import (
	"strings"
	"testing"
)

// TestQuotedCodeKeepsItsSubscripts: a subscript inside a code span (the
// extractor keeps an inline code element's backticks when it holds one)
// and one glued to a path are quoted as written; before, "use `heads[2]`"
// lost its markup at extraction and was quoted "use heads", the subscript
// removed as a citation marker. A footnote after a plain word is still
// removed.
func TestQuotedCodeKeepsItsSubscripts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ content, question, want, not string }{
		{"Quolm indexing\n\nTo get the quolm head, use `heads[2]` in the template.", "How do I get the quolm head?", "`heads[2]`", ""},
		{"Quolm grid\n\nTo get the quolm matrix cell, use `grid[1][2]` in the template.", "How do I get the quolm matrix cell?", "`grid[1][2]`", ""},
		{"Vault paths\n\nThe cold key is stored at secret/data/cold[0] in the vault.", "Where is the cold key stored?", "secret/data/cold[0]", ""},
		{"Capitals\n\nThe capital of the Frobnian republic is Paris[1] since the treaty.", "What is the capital of the Frobnian republic?", "Paris since the treaty", "[1] since"},
		{"Stacks\n\nThe Frobnian TCP/IP[3] stack keeps a read/write[4] buffer per socket.", "What does the Frobnian stack keep per socket?", "TCP/IP stack keeps a read/write buffer", "IP[3]"},
	} {
		r := Extractive(c.question, []Source{{N: 1, Title: "Doc", Content: c.content}}, 3)
		if !strings.Contains(r.Answer, c.want) {
			t.Errorf("%q: answer %q, want it to hold %q", c.question, r.Answer, c.want)
		}
		if c.not != "" && strings.Contains(r.Answer, c.not) {
			t.Errorf("%q: answer %q holds %q", c.question, r.Answer, c.not)
		}
	}
}
