package extract

import (
	"strings"
	"testing"
)

// TestMarkdownAngleBracketWords: CommonMark parses "<Tab>", "<buffer>",
// "<script>" as inline HTML tags, and the extractor dropped every inline
// tag: "is "<script>" and it is used" was stored as "is "" and it is used",
// and a trial's Vim documentation lost half its <buffer>, <Tab> and
// <Leader>. A tag that is not an HTML element, or an element name written
// without its end tag, is a word the author wrote; real inline markup
// still gives its text content, and a script's or style's content none.
func TestMarkdownAngleBracketWords(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{`The argument is "<script>" and it is used for mappings.`, `The argument is "<script>" and it is used for mappings.`},
		{"Press <Tab> or <C-R> after <Leader>.", "Press <Tab> or <C-R> after <Leader>."},
		{"Use :map <buffer> <expr> here.", "Use :map <buffer> <expr> here."},
		{"Copy <file> to <name>; returns List<String>.", "Copy <file> to <name>; returns List<String>."},
		{"Run cat <input> > <output> now.", "Run cat <input> > <output> now."},
		{"Copy <source file> to <dest file>.", "Copy <source file> to <dest file>."},
		{"<Insert> toggles overstrike.", "<Insert> toggles overstrike."},
		// Real inline HTML: text content only.
		{"Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to <b>stop</b>.", "Press Ctrl+C to stop."},
		{`A <span class="x">styled</span> word and <img src="a.png" alt="pic"> an image.`, "A styled word and an image."},
		{"Line one<br>line two.", "Line one\nline two."},
		{"Before<!-- a comment --> after.", "Before after."},
		{"Say <script>alert(1)</script>hello <style>p{color:red}</style>there.", "Say hello there."},
		{"A stray </b> end tag.", "A stray end tag."},
		{"See <https://example.com/x> for more.", "See https://example.com/x for more."},
		{"# Mapping <Tab> keys", "Mapping <Tab> keys"},
		{"| Key | Meaning |\n|---|---|\n| <Esc> | leave <b>insert</b> mode |", "Key | Meaning\n<Esc> | leave insert mode"},
	}
	for _, c := range cases {
		doc, err := Extract("text/markdown", []byte(c.in))
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := strings.Join(strings.Fields(strings.ReplaceAll(doc.Text, "\n", " \x00 ")), " "); got != strings.Join(strings.Fields(strings.ReplaceAll(c.want, "\n", " \x00 ")), " ") {
			t.Errorf("%q\n got %q\nwant %q", c.in, doc.Text, c.want)
		}
	}
}

// TestMarkdownAngleBracketWordBlocks: a line that is only a tag starts a
// CommonMark HTML block ("<Leader>" above its explanation lost the word),
// and a line opening with "<script>" starts one that runs to "</script>"
// or the end of the document: every heading and paragraph after
// "<script> is a map argument." was swallowed. Such blocks are Markdown;
// real HTML blocks still go through the HTML extractor.
func TestMarkdownAngleBracketWordBlocks(t *testing.T) {
	t.Parallel()
	in := "Intro.\n\n<Leader>\nis the key that starts mappings.\n\n" +
		"<script> is an argument of map.\nIt means local.\n\n# Next\n\nMore text.\n\n" +
		"<script>\nvar hidden = 1;\n</script>\n\n<div align=\"center\">\n<b>Centered</b>\n</div>\n\n" +
		"<details>\n<summary>More</summary>\n\nBody text.\n\n</details>\n"
	doc, err := Extract("text/markdown", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := "Intro.\n\n<Leader> is the key that starts mappings.\n\n<script> is an argument of map. It means local.\n\n" +
		"Next\n\nMore text.\n\nCentered\n\nMore\n\nBody text."
	if doc.Text != want {
		t.Errorf("text\n%q\nwant\n%q", doc.Text, want)
	}
	var heads []string
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			heads = append(heads, doc.Text[b.Start:b.End])
		}
	}
	if strings.Join(heads, "|") != "Next" {
		t.Errorf("headings %q, want [Next]", heads)
	}
}
