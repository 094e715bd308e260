package ingest

import (
	"slices"
	"testing"
)

// TestTranslationsByName: the Guide for Debian Maintainers names each
// chapter by its language (ch01.en.html, ch01.de.html, …), Beautiful
// Soup's package each translation's directory (html.ru, html.ptbr beside
// html); a tag counts only where the same name has another tag too.
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
		{[]string{"/d/html/index.html", "/d/html.ru/index.html", "/d/html.ptbr/index.html", "/d/html.zh/index.html"}, []string{"ptbr", "ru", "zh"}},
		// One language by name, or tags with no parallel name: none.
		{[]string{"/d/ch01.en.html", "/d/ch02.en.html"}, nil},
		{[]string{"/d/config.de.html", "/d/intro.fr.html"}, nil},
		// Extensions and words are no tags.
		{[]string{"/d/Makefile.in", "/d/Makefile.am", "/d/setup.py.in", "/d/setup.py.it"}, nil},
		{[]string{"/d/a.id.html", "/d/a.is.html"}, nil},
	} {
		got, ex := Translations(files(c.paths...))
		if !slices.Equal(got, c.want) {
			t.Errorf("Translations(%q) = %q, want %q", c.paths, got, c.want)
		}
		if len(got) > 0 && (ex[0] == "" || ex[1] == "" || ex[0] == ex[1]) {
			t.Errorf("Translations(%q): example %q, want two files", c.paths, ex)
		}
	}
}
