package extract

import (
	"reflect"
	"testing"
)

// TestMarkdownHeadingAnchors: a Markdown heading carries the fragment a
// renderer (GitHub's slugs) gives it, so a citation into a Markdown
// document links to its section: punctuation dropped, "_" and letters of
// any script kept, a repeated heading numbered in document order (nested
// headings, which are not sections here, counted too).
func TestMarkdownHeadingAnchors(t *testing.T) {
	src := "# The `pg_dump` Tool\n\nIntro.\n\n" +
		"## Options: -f, --file!\n\nText.\n\n" +
		"## Examples\n\nOne.\n\n" +
		"> ## Examples\n\nQuoted heading above.\n\n" +
		"## Examples\n\nTwo.\n\n" +
		"## Examples-1\n\nThree.\n\n" +
		"## Übersicht & Café\n\nVier.\n\n" +
		"## 日本語 の 見出し\n\n本文。\n"
	texts, anchors := markdownHeadings(t, src)
	var got []string
	for i := range texts {
		got = append(got, texts[i]+" #"+anchors[i])
	}
	want := []string{
		"The pg_dump Tool #the-pg_dump-tool",
		"Options: -f, --file! #options--f---file",
		"Examples #examples",
		"Examples #examples-2",
		"Examples-1 #examples-1-1",
		"Übersicht & Café #%C3%BCbersicht--caf%C3%A9",
		"日本語 の 見出し #%E6%97%A5%E6%9C%AC%E8%AA%9E-%E3%81%AE-%E8%A6%8B%E5%87%BA%E3%81%97",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("headings and anchors:\n got %q\nwant %q", got, want)
	}
}

// TestMarkdownWrittenAnchors: an anchor the author wrote for a heading,
// inside it (`### <a name="publish"></a> Publish …`, as Docker's
// reference pages do) or as an empty element on the line before it, is
// the heading's anchor: the documents' own links use it, and the slug of
// such a heading is not what the renderer gives. A named element before
// a paragraph is not carried to a later heading.
func TestMarkdownWrittenAnchors(t *testing.T) {
	src := "# run\n\n## Examples\n\n" +
		"### <a name=\"publish\"></a> Publish or expose port (-p, --expose)\n\nText.\n\n" +
		"### <span id='cidfile'></span>Capture container ID (--cidfile)\n\nText.\n\n" +
		"<a id=\"tmpfs\"></a>\n\n### Mount tmpfs (--tmpfs)\n\nText.\n\n" +
		"<a name=\"stray\"></a>\n\nA paragraph.\n\n### Set working directory\n\nText.\n\n" +
		"### <a href=\"#x\">Linked</a> title\n\nText.\n"
	texts, anchors := markdownHeadings(t, src)
	var got []string
	for i := range texts {
		got = append(got, texts[i]+" #"+anchors[i])
	}
	want := []string{
		"run #run",
		"Examples #examples",
		"Publish or expose port (-p, --expose) #publish",
		"Capture container ID (--cidfile) #cidfile",
		"Mount tmpfs (--tmpfs) #tmpfs",
		"Set working directory #set-working-directory",
		"Linked title #linked-title",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("headings and anchors:\n got %q\nwant %q", got, want)
	}
}

// markdownHeadings returns the text and the anchor of each heading block
// of the Markdown document src.
func markdownHeadings(t *testing.T, src string) (texts, anchors []string) {
	t.Helper()
	doc, err := Extract("text/markdown", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			texts = append(texts, doc.Text[b.Start:b.End])
			anchors = append(anchors, b.Anchor)
		}
	}
	return texts, anchors
}
