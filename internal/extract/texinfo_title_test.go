package extract

import (
	"strings"
	"testing"
)

// TestTexinfoPageTitles: makeinfo titles each page of a split manual
// "Node (Manual)"; the manual's name, on every page, is left out of the
// title (it stood in every heading path), and the Top node is titled by
// the manual's name. Other generators' titles with parentheses stay.
func TestTexinfoPageTitles(t *testing.T) {
	page := func(gen, title string) string {
		return `<html><head><title>` + title + `</title><meta name="Generator" content="` + gen + `"></head><body><h3>8 Actions</h3><p>Each pattern in a rule has a corresponding action.</p></body></html>`
	}
	for _, c := range []struct{ gen, title, want string }{
		{"makeinfo", "Actions (Lexical Analysis With Flex, for Flex 2.6.4)", "Actions"},
		{"makeinfo", "Top (Lexical Analysis With Flex, for Flex 2.6.4)", "Lexical Analysis With Flex, for Flex 2.6.4"},
		{"texi2any", "Answers (GNU M4 1.4.19 macro processor)", "Answers"},
		{"Sphinx", "Installing (Linux) — Docs", "Installing (Linux) — Docs"},
		{"makeinfo", "Plain title", "Plain title"},
	} {
		doc, err := Extract(TypeHTML, []byte(page(c.gen, c.title)))
		if err != nil {
			t.Fatal(err)
		}
		if doc.Title != c.want {
			t.Errorf("%s %q: title %q, want %q", c.gen, c.title, doc.Title, c.want)
		}
	}
}

// TestTexinfoSectionTOC: a Texinfo node's list of its sections
// (ul.section-toc, ul.mini-toc) is navigation, not content.
func TestTexinfoSectionTOC(t *testing.T) {
	for _, class := range []string{"section-toc", "mini-toc"} {
		page := `<html><head><title>Comparison (Comparing and Merging Files)</title><meta name="Generator" content="makeinfo"></head><body>` +
			`<h2>1 What Comparison Means</h2><p>There are several ways to think about the differences between two files.</p>` +
			`<ul class="` + class + `"><li><a href="#Hunks">Hunks</a></li><li><a href="#White-Space">Suppressing Differences in Blank and Tab Spacing</a></li></ul>` +
			`<h3 id="Hunks">1.1 Hunks</h3><p>A hunk is a group of lines that differ.</p></body></html>`
		doc, err := Extract(TypeHTML, []byte(page))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(doc.Text, "Suppressing Differences") || !strings.Contains(doc.Text, "A hunk is a group of lines") {
			t.Errorf("%s kept or content lost:\n%s", class, doc.Text)
		}
	}
}
