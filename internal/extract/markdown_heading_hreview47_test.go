package extract

import "testing"

func headingAnchors(t *testing.T, src string) []string {
	_, anchors := markdownHeadings(t, src)
	return anchors
}

// TestHReview47HeadingWhitespace: a slug is made from the heading's text as
// a renderer's HTML holds it, its own blanks kept, a line break and a
// no-break space dropped (slugs computed with github-slugger 2.0.0), and
// an attribute list ending the heading gives its anchor.
func TestHReview47HeadingWhitespace(t *testing.T) {
	for _, c := range [][2]string{
		{"## a  b\n\nx\n", "a--b"},                  // two spaces
		{"Foo\nbar\n===\n\nx\n", "foobar"},          // setext heading over two lines
		{"## Foo&nbsp;Bar\n\nx\n", "foobar"},        // no-break space is a separator, removed
		{"## Foo\u00a0Bar\n\nx\n", "foobar"},        // literal NBSP
		{"## Install {#install}\n\nx\n", "install"}, // kramdown / attr_list written id
	} {
		got := headingAnchors(t, c[0])
		if len(got) != 1 || got[0] != c[1] {
			t.Errorf("%q: anchor %q, want %q", c[0], got, c[1])
		}
	}
}

// TestHReview47KramdownHeadingID: kramdown writes a heading's id as a block
// attribute list on the next line, or at the heading's end.
func TestHReview47KramdownHeadingID(t *testing.T) {
	for _, c := range [][2]string{
		{"## Install the tool\n{: #install}\n\nx\n", "install"},
		{"## Install the tool {#install}\n\nx\n", "install"},
	} {
		got := headingAnchors(t, c[0])
		if len(got) != 1 || got[0] != c[1] {
			t.Errorf("%q: anchor %q, want %q", c[0], got, c[1])
		}
	}
}
