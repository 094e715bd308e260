package extract

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// nodeLikePage is shaped as the Node.js API documentation's pages: a
// template placeholder left in the head (the parser moves it into the
// body), a menu of every module in a column outside the content, then the
// content in a div of its own.
func nodeLikePage() string {
	var menu strings.Builder
	for _, m := range []string{"Assertion testing", "Buffer", "Child processes", "Cluster", "Crypto", "DNS", "Events", "File system"} {
		fmt.Fprintf(&menu, "<li><a href=\"%s.html\" class=\"nav-x\">%s</a></li>\n", strings.ToLower(strings.Fields(m)[0]), m)
	}
	return "<!DOCTYPE html><html><head><title>OS | Docs</title>\n__JS_FLAVORED_DYNAMIC_CSS__\n</head><body>" +
		"<div id=\"content\"><div id=\"column2\"><ul>" + menu.String() + "</ul></div>" +
		"<div id=\"column1\"><h1>OS</h1><p>The os module provides operating system-related utility methods.</p>" +
		"<h2>os.cpus()</h2><p>Returns an array of objects containing information about each logical CPU core.</p>" +
		"<p>See also:</p><ul><li><a href=\"process.html\">process</a></li><li><a href=\"v8.html\">v8</a></li></ul></div></div></body></html>"
}

// A site's menu outside the content (a list whose items are links alone,
// five or more) and a template's unfilled placeholder are left out; the
// content's own short list of links stays.
func TestSiteMenuAndPlaceholderAreLeftOut(t *testing.T) {
	t.Parallel()
	d, err := extractHTML([]byte(nodeLikePage()))
	if err != nil {
		t.Fatal(err)
	}
	for _, chrome := range []string{"__JS_FLAVORED_DYNAMIC_CSS__", "Assertion testing", "Child processes"} {
		if strings.Contains(d.Text, chrome) {
			t.Errorf("text holds %q:\n%s", chrome, d.Text)
		}
	}
	for _, kept := range []string{"The os module provides", "each logical CPU core", "process", "v8"} {
		if !strings.Contains(d.Text, kept) {
			t.Errorf("text lost %q:\n%s", kept, d.Text)
		}
	}
	// Inside the page's own content (main, article, section) the same list
	// is the page's: kept.
	inMain := strings.Replace(strings.Replace(nodeLikePage(), "<div id=\"column2\">", "<main><div id=\"column2\">", 1), "</div></div></body>", "</div></main></div></body>", 1)
	if d, err = extractHTML([]byte(inMain)); err != nil || !strings.Contains(d.Text, "Assertion testing") {
		t.Errorf("a list of links inside main was left out: %v\n%v", err, d)
	}
}

// texinfoIndex is shaped as texi2any's Options-Index.html: a navigation
// table, the title, a bar of letters, a table of entries (each a link to
// its section) and a footer.
func texinfoIndex(entries int) string {
	var rows strings.Builder
	for i := range entries {
		fmt.Fprintf(&rows, "<tr><td></td><td><a href=\"Options.html#index-OPT%d\">OPTION_NUMBER_%d</a>:</td><td>&nbsp;</td><td><a href=\"Description-of-Options.html\">Description of Options</a></td></tr>\n", i, i)
	}
	return "<html><head><title>Options Index</title></head><body><div class=\"unnumbered\">" +
		"<table class=\"header\"><tr><td>[<a href=\"a.html\"> &lt; </a>]</td><td>[<a href=\"b.html\"> Up </a>]</td></tr></table>" +
		"<h1>Options Index</h1><table><tr><th>Jump to: </th><td><a href=\"#A\">A</a> <a href=\"#B\">B</a></td></tr></table>" +
		"<table class=\"index-pg\"><tr><th>Index Entry</th><th>Section</th></tr>" + rows.String() + "</table>" +
		"<p>Zsh version 5.9, released on May 14, 2022.</p></div></body></html>"
}

// A page that is an index or a table of contents is no document
// (ErrLinksOnly, an ErrEmpty that a directory's ingest skips); a page with
// text of its own beside such a table keeps its text, without the table.
func TestIndexPageIsNoDocument(t *testing.T) {
	t.Parallel()
	if _, err := extractHTML([]byte(texinfoIndex(60))); !errors.Is(err, ErrLinksOnly) || !errors.Is(err, ErrEmpty) {
		t.Errorf("index page: %v, want ErrLinksOnly", err)
	}
	prose := strings.Repeat("The options below change how the shell reads its startup files and expands words. ", 30)
	page := strings.Replace(texinfoIndex(60), "<h1>Options Index</h1>", "<h1>Options Index</h1><p>"+prose+"</p>", 1)
	d, err := extractHTML([]byte(page))
	if err != nil || !strings.Contains(d.Text, "startup files") || strings.Contains(d.Text, "OPTION_NUMBER_7") {
		t.Errorf("page with prose: %v; text %q…", err, d.Text[:min(len(d.Text), 200)])
	}
	// A short table of links is no index: kept.
	if d, err := extractHTML([]byte(texinfoIndex(3))); err != nil || !strings.Contains(d.Text, "OPTION_NUMBER_2") {
		t.Errorf("three entries: %v, want them kept", err)
	}
}
