package extract

import (
	"fmt"
	"strings"
	"testing"
)

// TestLayoutTableLinksCountOnce_hreview45b: fde14d5 counts a table's links
// before w.table, but a one-cell table (the whole page in <table><tr><td>,
// as older sites and generators lay pages out) and an entry table are then
// walked, and the walk counts the same links again. A changelog whose
// entries each link the page they fix (45% of its words are link text,
// well under indexLinkShare) is refused as "a page of links": the user's
// upload fails with ErrLinksOnly and the page is never searchable. The
// same page without the layout table is a document.
func TestLayoutTableLinksCountOnce_hreview45b(t *testing.T) {
	t.Parallel()
	var entries strings.Builder
	for i := range 60 {
		fmt.Fprintf(&entries, "<p>Release %d fixed <a href=\"mod%d.html\">the storage module %d crash</a> on empty input.</p>\n", i, i, i)
	}
	bare := `<html><head><title>Changes</title></head><body><h1>Changes</h1>` + entries.String() + `</body></html>`
	if _, err := Extract(TypeHTML, []byte(bare)); err != nil {
		t.Fatalf("the changelog without a layout table: %v, want a document", err)
	}
	laid := `<html><head><title>Changes</title></head><body><table width="100%"><tr><td><h1>Changes</h1>` + entries.String() + `</td></tr></table></body></html>`
	if _, err := Extract(TypeHTML, []byte(laid)); err != nil {
		t.Errorf("the same changelog in a one-cell layout table: %v, want a document (its links are counted twice)", err)
	}
}
