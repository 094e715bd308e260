package extract

import "testing"

// TestNormalizedBlocksKeepInvariants: the builder now removes soft hyphens,
// zero-width spaces, word joiners and U+FEFF from every block's text
// (analyze.Normalize) after the extractors have trimmed and dropped empty
// lines and rows, so a line or a table row holding only such a character
// becomes empty: a block then ends (or starts) with a newline, a code block
// keeps a trailing blank line, and a table gets an empty row — all of which
// Block's documented invariants rule out ("never begins or ends with a
// newline", rows "one line each" with End > Start).
func TestNormalizedBlocksKeepInvariants(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ typ, in string }{
		{"text", "Intro line\n\u200b\n\nSecond paragraph."},
		{"text", "\u00ad\nIntro line\n\nSecond paragraph."},
		{"markdown", "```\ncode\n\u00ad\n```\n\ntext"},
		{"html", "<pre>code\n\u200b</pre><p>text</p>"},
		{"markdown", "| Name |\n|---|\n| a |\n| \u200b |\n| b |\n\ntext"},
		{"html", "<table><tr><th>Name</th></tr><tr><td>a</td></tr><tr><td>&shy;</td></tr><tr><td>b</td></tr></table><p>text</p>"},
	} {
		t.Run("", func(t *testing.T) {
			doc, err := Extract(c.typ, []byte(c.in))
			if err != nil {
				t.Fatalf("%s %q: %v", c.typ, c.in, err)
			}
			t.Logf("%s %q -> %q", c.typ, c.in, doc.Text)
			checkDocument(t, doc)
		})
	}
}
