package ingest

import (
	"path"
	"slices"
	"strings"
	"testing"
)

// TestTranslationsByName: the Guide for Debian Maintainers names each
// chapter by its language (ch01.en.html, ch01.de.html, …), Beautiful
// Soup's package each translation's directory (html.ru, html.ptbr beside
// html); other packages put a language after an underscore or in a
// directory of its own. Names count as translations only beside the
// original or English: country and department codes are not languages.
// The glob the note offers leaves the example's language out.
func TestTranslationsByName(t *testing.T) {
	files := func(paths ...string) []File {
		var out []File
		for _, p := range paths {
			out = append(out, File{Path: p})
		}
		return out
	}
	for _, c := range []struct {
		paths []string
		want  []string
	}{
		{[]string{"/d/html/ch01.en.html", "/d/html/ch01.de.html", "/d/html/ch01.zh-tw.html", "/d/debmake-doc.ja.pdf", "/d/debmake-doc.en.pdf"}, []string{"de", "en", "ja", "zh-tw"}},
		{[]string{"/d/html/index.html", "/d/html.ru/index.html", "/d/html.ptbr/index.html", "/d/html.zh/index.html"}, []string{"", "ptbr", "ru", "zh"}},
		{[]string{"/d/html/index.html", "/d/html.ja/index.html"}, []string{"", "ja"}},
		{[]string{"/d/manual.pdf", "/d/manual.de.pdf"}, []string{"", "de"}},
		{[]string{"/d/docs/en/guide.md", "/d/docs/de/guide.md", "/d/docs/fr/guide.md"}, []string{"de", "en", "fr"}},
		{[]string{"/d/index.html", "/d/tools.html", "/d/de/index.html", "/d/ja/tools.html"}, []string{"", "de", "ja"}},
		{[]string{"/d/README.md", "/d/README_de.md", "/d/README_fr.md"}, []string{"", "de", "fr"}},
		{[]string{"/d/guide.en.md", "/d/guide.es-419.md"}, []string{"en", "es-419"}},
		// One language by name, or tags with no parallel name: none.
		{[]string{"/d/ch01.en.html", "/d/ch02.en.html"}, nil},
		{[]string{"/d/config.de.html", "/d/intro.fr.html"}, nil},
		// Countries and departments, extensions and words are no languages.
		{[]string{"/d/shipping.ca.md", "/d/shipping.uk.md", "/d/shipping.us.md"}, nil},
		{[]string{"/d/onboarding.hr.md", "/d/onboarding.it.md", "/d/onboarding.ops.md"}, nil},
		{[]string{"/d/Makefile.in", "/d/Makefile.am", "/d/setup.py.in", "/d/setup.py.it"}, nil},
		{[]string{"/d/a.id.html", "/d/a.is.html"}, nil},
	} {
		got, ex, glob := Translations(files(c.paths...))
		if !slices.Equal(got, c.want) {
			t.Errorf("Translations(%q) = %q, want %q", c.paths, got, c.want)
			continue
		}
		if len(got) == 0 {
			continue
		}
		// The glob matches the example (relative to /d) and not the
		// original or English files.
		rel := ex[len("/d/"):]
		if !globMatches(glob, rel) {
			t.Errorf("Translations(%q): glob %q does not match its example %q", c.paths, glob, rel)
		}
		for _, p := range c.paths {
			r := p[len("/d/"):]
			if tagOf(r) == "" || tagOf(r) == "en" {
				if globMatches(glob, r) {
					t.Errorf("Translations(%q): glob %q leaves out %q", c.paths, glob, r)
				}
			}
		}
	}
}

// globMatches applies glob as the walk's --exclude does (match).
func globMatches(glob, rel string) bool {
	for p := rel; p != "." && p != "/" && p != ""; p = path.Dir(p) {
		if match([]string{glob}, p, false) {
			return true
		}
	}
	return false
}

func tagOf(rel string) string {
	_, tag, _ := untagged(strings.Split(rel, "/"))
	return tag
}
