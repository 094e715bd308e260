package extract

import (
	"strings"
	"testing"
	"time"
)

const sampleMarkdown = "---\n" +
	"title: \"Front Title\"\n" +
	"tags: [a, b]\n" +
	"---\n" +
	"Intro with *emphasis*, `code`, a [link](http://example.com) &amp; \\*escaped\\* text.\n" +
	"\n" +
	"Setext Heading\n" +
	"==============\n" +
	"\n" +
	"## Install\n" +
	"\n" +
	"1. First step\n" +
	"2. Second step\n" +
	"   wraps here\n" +
	"   - nested a\n" +
	"   - nested b\n" +
	"\n" +
	"```go\n" +
	"func main() {\n" +
	"\tfmt.Println(\"hi\")  \n" +
	"\n" +
	"    // indented\n" +
	"}\n" +
	"```\n" +
	"\n" +
	"### Table\n" +
	"\n" +
	"| Name | Value |\n" +
	"|------|------:|\n" +
	"| a    | `1`   |\n" +
	"| b    | **2** |\n" +
	"\n" +
	"> ## Quoted heading\n" +
	"> quoted text\n" +
	"\n" +
	"- [x] done\n" +
	"- [ ] open\n" +
	"\n" +
	"Hard  \n" +
	"break and ![alt text](img.png) image.\n" +
	"\n" +
	"    indented code\n" +
	"      keeps indent\n" +
	"\n" +
	"<div align=\"center\"><h1>Raw HTML heading</h1><p>raw para</p></div>\n"

func TestMarkdown(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "text/markdown", sampleMarkdown)
	if doc.Title != "Front Title" {
		t.Errorf("Title = %q, want front-matter title", doc.Title)
	}
	type kb struct {
		k     Kind
		level int
		text  string
	}
	var got []kb
	for _, b := range doc.Blocks {
		got = append(got, kb{b.Kind, b.Level, doc.Text[b.Start:b.End]})
	}
	want := []kb{
		{KindParagraph, 0, "Intro with emphasis, code, a link & *escaped* text."},
		{KindHeading, 1, "Setext Heading"},
		{KindHeading, 2, "Install"},
		{KindListItem, 1, "1. First step"},
		{KindListItem, 1, "2. Second step wraps here"},
		{KindListItem, 2, "  - nested a"},
		{KindListItem, 2, "  - nested b"},
		{KindCode, 0, "func main() {\n\tfmt.Println(\"hi\")  \n\n    // indented\n}"},
		{KindHeading, 3, "Table"},
		{KindTable, 0, "Name | Value\na | 1\nb | 2"},
		{KindParagraph, 0, "Quoted heading"},
		{KindParagraph, 0, "quoted text"},
		{KindListItem, 1, "- [x] done"},
		{KindListItem, 1, "- [ ] open"},
		{KindParagraph, 0, "Hard\nbreak and image."},
		{KindCode, 0, "indented code\n  keeps indent"},
		{KindHeading, 1, "Raw HTML heading"},
		{KindParagraph, 0, "raw para"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d blocks, want %d:\n%+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("block %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	for _, b := range doc.Blocks {
		if b.Kind == KindTable && (b.HeaderRow != "Name | Value" || len(b.Rows) != 2) {
			t.Errorf("table header %q rows %d", b.HeaderRow, len(b.Rows))
		}
	}
}

func TestMarkdownTitleIsFirstH1(t *testing.T) {
	t.Parallel()
	doc := mustExtract(t, "markdown", "## Not this\n\n# This one\n\ntext\n\n# Not the second\n")
	if doc.Title != "This one" {
		t.Errorf("Title = %q", doc.Title)
	}
	doc = mustExtract(t, "markdown", "just text, no heading")
	if doc.Title != "" {
		t.Errorf("Title = %q, want empty", doc.Title)
	}
	// An unterminated front matter block is content, not metadata.
	doc = mustExtract(t, "markdown", "---\ntitle: x\n\nbody")
	if doc.Title != "" || !strings.Contains(doc.Text, "body") {
		t.Errorf("Title = %q Text = %q", doc.Title, doc.Text)
	}
}

func TestMarkdownFencedCodeVerbatim(t *testing.T) {
	t.Parallel()
	code := "SELECT *\n  FROM t\n\tWHERE a < b && c > d;   \n\n# not a heading\n| not | a | table |"
	doc := mustExtract(t, "markdown", "Before.\n\n~~~sql\n"+code+"\n~~~\n\nAfter.")
	if got := blockTexts(doc, KindCode); len(got) != 1 || got[0] != code {
		t.Fatalf("code = %q, want %q", got, code)
	}
}

// TestMarkdownPathological feeds inputs that make goldmark quadratic; they
// must come back fast (as plain text).
func TestMarkdownPathological(t *testing.T) {
	t.Parallel()
	var deepList strings.Builder
	for i := range 2000 {
		deepList.WriteString(strings.Repeat("  ", i) + "- item\n")
	}
	for name, in := range map[string]string{
		"links":      strings.Repeat("[a](", 100_000),
		"links-b":    strings.Repeat("[a](<b", 50_000),
		"backticks":  strings.Repeat("``\\", 100_000),
		"list marks": strings.Repeat("* ", 100_000) + "a",
		"quotes":     strings.Repeat(">", 100_000) + " x",
		"deep list":  deepList.String(),
		"many paras": strings.Repeat(strings.Repeat("[a](", 500)+"\n\n", 500),
	} {
		start := time.Now()
		doc := mustExtract(t, "markdown", in)
		if el := time.Since(start); el > 20*time.Second { // unguarded, "links" alone takes ~45 s
			t.Errorf("%s: took %v", name, el)
		}
		_ = doc
	}
	// Ordinary documents with rules and many links are not caught.
	in := "# T\n\n" + strings.Repeat("-", 80) + "\n\n" + strings.Repeat("See [x](http://x) and ", 300) + "\n"
	if markdownRisky([]byte(in)) {
		t.Errorf("ordinary document flagged risky")
	}
}
