package extract

import (
	"strings"
	"testing"
)

// TestMarkdownSiteMarkupLines: a line that is only Liquid tags (Jekyll's
// "{% raw %}" around a code block) or a kramdown attribute list
// ("{:.warning}" after a note) is the site's build markup, not text, and
// so is a code line of "{% raw %}" or "{% endraw %}" (Jekyll's escape of
// code holding "{{ }}"); other tags inside a sentence or a code block
// stay.
func TestMarkdownSiteMarkupLines(t *testing.T) {
	src := "# Format\n\n{% raw %}\n```console\n$ docker ps --format \"{{.ID}}\"\n{% if x %}\n```\n{% endraw %}\n\n" +
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
