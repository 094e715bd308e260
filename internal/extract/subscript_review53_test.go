package extract

import (
	"strings"
	"testing"
)

// TestInlineCodeKeepsItsSubscripts: an inline code element holding a
// bracketed number keeps its backticks in the document's text, in Markdown
// and HTML alike, so that answers (which remove citation-like markers
// outside code spans) quote "heads[2]", not "heads". Other inline code is
// stored as its text, as before.
func TestInlineCodeKeepsItsSubscripts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ typ, in, want string }{
		{TypeMarkdown, "To get the head, use `heads[2]` in the template.", "To get the head, use `heads[2]` in the template."},
		{TypeMarkdown, "The cell is `grid[1][2]` and the array `${arr[1]}`.", "The cell is `grid[1][2]` and the array `${arr[1]}`."},
		{TypeMarkdown, "Run `make test` first.", "Run make test first."},
		{TypeHTML, "<p>Read the host from <code>env[0]</code> and the port from <tt>argv[2]</tt>.</p>",
			"Read the host from `env[0]` and the port from `argv[2]`."},
		{TypeHTML, "<p>Call <code>run()</code> then <code>stop()</code>.</p>", "Call run() then stop()."},
		{TypeHTML, "<p>The first argument is <var>argv[1]</var>.</p>", "The first argument is `argv[1]`."},
		{TypeHTML, "<table><tr><th>Key</th><th>Value</th></tr><tr><td>first</td><td><code>items[0]</code></td></tr></table>", "`items[0]`"},
	} {
		doc, err := Extract(c.typ, []byte(c.in))
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if !strings.Contains(strings.Join(strings.Fields(doc.Text), " "), c.want) {
			t.Errorf("%s %q\n got %q\nwant it to hold %q", c.typ, c.in, doc.Text, c.want)
		}
	}
}
