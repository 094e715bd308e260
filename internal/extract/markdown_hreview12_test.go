package extract

import (
	"fmt"
	"strings"
	"testing"
)

// TestWellFormedEmphasisListKeepsStructure_hreview12: markdownRisky
// charges min('*', '_') per paragraph squared, whether or not the two
// kinds interleave. A generated options reference, one list of 2,600
// well-formed items "- **optN**: sets the _optN_ value." (every emphasis
// closed on its own line, linear for goldmark), exceeds the budget and the
// whole document is read as plain text: its headings and list items are
// lost. Well-formed Markdown keeps its structure.
func TestWellFormedEmphasisListKeepsStructure_hreview12(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("# Options\n\nEvery option of the daemon.\n\n")
	for i := 0; i < 2600; i++ {
		fmt.Fprintf(&b, "- **opt%d**: sets the _opt%d_ value.\n", i, i)
	}
	doc, err := Extract("text/markdown", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	headings, items := 0, 0
	for _, bl := range doc.Blocks {
		switch bl.Kind {
		case KindHeading:
			headings++
		case KindListItem:
			items++
		}
	}
	if headings != 1 || items != 2600 {
		t.Errorf("%d headings and %d list items, want 1 and 2600 (risky: %v)", headings, items, markdownRisky([]byte(b.String())))
	}
}
