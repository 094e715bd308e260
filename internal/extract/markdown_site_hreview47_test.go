package extract

import (
	"strings"
	"testing"
)

// TestHReview47SiteMarkupKeepsProse: prose lines that only look like
// Liquid tags or kramdown attribute lists stay: an Elixir tuple, a format
// spec, a Ruby hash, a Django template's tag, and a raw section's content.
func TestHReview47SiteMarkupKeepsProse(t *testing.T) {
	for _, c := range [][2]string{
		{"On success it returns\n{:ok, pid}\nand the caller links to pid.\n", "{:ok, pid}"},
		{"Right-align a field of ten with\n{:>10}\nin the format string.\n", "{:>10}"},
		{"A Ruby 1.8 hash:\n{:a => 1, :b => 2}\nis still accepted.\n", "{:a => 1, :b => 2}"},
		{"Write the tag\n{% csrf_token %}\ninside every POST form.\n", "{% csrf_token %}"},
		{"To print a literal tag write\n{% raw %}{% if %}{% endraw %}\nin the page.\n", "{% if %}"},
	} {
		doc, err := Extract("text/markdown", []byte(c[0]))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(doc.Text, c[1]) {
			t.Errorf("%q lost: text %q", c[1], doc.Text)
		}
	}
}
