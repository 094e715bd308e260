package extract

import (
	"fmt"
	"strings"
	"testing"
)

// TestMarkdownSiteMarkupLines: a line that is only Liquid tags (Jekyll's
// "{% raw %}" around a code block) or a kramdown attribute list
// ("{:.warning}" after a note) is the site's build markup, not text, and
// so is a code line of "{% raw %}" or "{% endraw %}" (Jekyll's escape of
// code holding "{{ }}", in a page with YAML front matter, as Jekyll's
// are); other tags inside a sentence or a code block stay.
func TestMarkdownSiteMarkupLines(t *testing.T) {
	src := "---\ntitle: Format\n---\n# Format\n\n{% raw %}\n```console\n$ docker ps --format \"{{.ID}}\"\n{% if x %}\n```\n{% endraw %}\n\n" +
		"> **Note**\n> Use the JSON form.\n{:.warning}\n\n" +
		"Text with {% raw %} inline stays.\n{: #custom .cls}\n\n" +
		"{%- include note.html -%}\n\nThe end.\n\n" +
		"Example response:\n\n    HTTP/1.1 200 OK\n    {% raw %}\n    {{ TAR STREAM }}\n    {% endraw %}\n\nStatus codes follow.\n"
	doc, err := Extract("text/markdown", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"{% raw %}\n", "{% endraw %}", "{:.warning}", "{: #custom", "include note.html"} {
		if strings.Contains(doc.Text, gone) {
			t.Errorf("site markup %q kept:\n%s", gone, doc.Text)
		}
	}
	for _, kept := range []string{"$ docker ps --format \"{{.ID}}\"\n{% if x %}", "Use the JSON form.", "Text with {% raw %} inline stays.", "The end.", "HTTP/1.1 200 OK\n{{ TAR STREAM }}\n\n"} {
		if !strings.Contains(doc.Text, kept) {
			t.Errorf("text %q lost:\n%s", kept, doc.Text)
		}
	}
}

// TestMarkdownRawTagsKeptOutsideJekyll: Liquid's raw tags inside a listing
// stay where they are what the listing shows: a page without YAML front
// matter (a template engine's own documentation), or a listing in a
// template language ("```jinja"), front matter or not.
func TestMarkdownRawTagsKeptOutsideJekyll(t *testing.T) {
	t.Parallel()
	listing := "## Raw Blocks\n\nTo output literal Jinja syntax without it being parsed, wrap it in a raw block:\n\n```%s\n{%% raw %%}\n{{ this will not be parsed }}\n{%% endraw %%}\n```\n"
	for _, src := range []string{
		"+++\ntitle = \"Templates\"\n+++\n# Templates\n\n" + fmt.Sprintf(listing, "jinja"),
		"# Templates\n\n" + fmt.Sprintf(listing, ""),
		"---\ntitle: Templates\n---\n# Templates\n\n" + fmt.Sprintf(listing, "jinja"),
	} {
		doc, err := Extract("text/markdown", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(doc.Text, "{% raw %}\n{{ this will not be parsed }}\n{% endraw %}") {
			t.Errorf("raw tags lost from the listing:\n%s", doc.Text)
		}
	}
}

// TestMarkdownFormatSpecIsNoAttributeList: a format spec in braces
// ("{:.2f}") is text, in a heading's code span or on a line of its own: a
// class name starts with a letter.
func TestMarkdownFormatSpecIsNoAttributeList(t *testing.T) {
	t.Parallel()
	doc, err := Extract("text/markdown", []byte("# Formatting\n\n## Rounding with `{:.2f}`\n\nThe spec goes after the colon:\n\n{:.2f}\n\nText.\n\n## Notes {: .note}\n\nMore.\n"))
	if err != nil {
		t.Fatal(err)
	}
	h := blockTexts(doc, KindHeading)
	if len(h) != 3 || h[1] != "Rounding with {:.2f}" || h[2] != "Notes" {
		t.Errorf("headings = %q", h)
	}
	if !strings.Contains(doc.Text, "The spec goes after the colon:\n{:.2f}") && !strings.Contains(doc.Text, "{:.2f}\n\nText.") {
		t.Errorf("the format spec's line was dropped:\n%s", doc.Text)
	}
}

// TestMarkdownWrittenIDTakesNoSlug: a heading given its id by an
// attribute list does not use up the automatic slug of its text: a later
// heading of the same text gets the slug itself, as kramdown gives it.
func TestMarkdownWrittenIDTakesNoSlug(t *testing.T) {
	t.Parallel()
	doc, err := Extract("text/markdown", []byte("# frob\n\n## Options {#opts}\n\nGlobal options.\n\n## Commands\n\n### Options\n\nCommand options.\n"))
	if err != nil {
		t.Fatal(err)
	}
	var anchors []string
	for _, b := range doc.Blocks {
		if b.Kind == KindHeading {
			anchors = append(anchors, b.Anchor)
		}
	}
	if want := []string{"frob", "opts", "commands", "options"}; strings.Join(anchors, " ") != strings.Join(want, " ") {
		t.Errorf("anchors = %q, want %q", anchors, want)
	}
}
