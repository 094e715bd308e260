package chunk

import (
	"testing"

	"github.com/ragd-dev/ragd/internal/extract"
)

// TestSplitTableRowOfInvisibleCharacters: a one-column table with a row
// whose only content is a soft hyphen or a zero-width space (an "empty"
// cell as many editors and wiki exports write it) extracts, since
// extraction normalises text (analyze.Normalize), to a table with an empty
// row span; Split refuses the whole document as invalid, so ingest fails
// the file. Before normalisation the row held the invisible character and
// the document was ingested.
func TestSplitTableRowOfInvisibleCharacters(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ typ, in string }{
		{"markdown", "# Limits\n\n| Name |\n|---|\n| alpha |\n| \u200b |\n| beta |\n\nSome text after the table."},
		{"html", "<h1>Limits</h1><table><tr><th>Name</th></tr><tr><td>alpha</td></tr><tr><td>&shy;</td></tr><tr><td>beta</td></tr></table><p>Some text after the table.</p>"},
	} {
		doc, err := extract.Extract(c.typ, []byte(c.in))
		if err != nil {
			t.Fatalf("%s: extract: %v", c.typ, err)
		}
		if _, err := Split(doc, DefaultConfig()); err != nil {
			t.Errorf("%s %q: Split: %v", c.typ, c.in, err)
		}
	}
}
