package answer

import (
	"slices"
	"strings"
	"testing"
)

// TestSplitUnitKeepsSyntaxMarks (h-trial35): a "!" or "?" right after a
// mark of a template's or a shell's syntax is part of it ("<%!", "#!",
// "$?"), not a sentence's end: Mako's "Python code is denoted by <%! %>
// tags" was quoted as "… denoted by <% [3]!". A "!" after a word still ends
// its sentence.
func TestSplitUnitKeepsSyntaxMarks(t *testing.T) {
	t.Parallel()
	got := splitUnit(`Module-level code is denoted by <%! %> tags. A script starts with #! /bin/sh as its first line. Read $? After each command. It works! Then more.`)
	want := []string{"Module-level code is denoted by <%! %> tags.", "A script starts with #! /bin/sh as its first line.", "Read $? After each command.", "It works!", "Then more."}
	if !slices.Equal(got, want) {
		t.Errorf("splitUnit =\n%q\nwant\n%q", got, want)
	}
}

// TestCodeShapedTitlesAreTitles (h-trial35): Mako's syntax page heads its
// sections with the tags they describe ("<%include>"); packed into one
// chunk, such a heading was quoted as a code block between the passages of
// an answer. A recorded title shaped like code starts a section; the same
// line without the record is still code, and a setting's name keeps
// naming the description under it.
func TestCodeShapedTitlesAreTitles(t *testing.T) {
	t.Parallel()
	content := "<%page>\n\nThis tag defines general characteristics of the template.\n\n<%include>\n\nThis tag accepts a filename argument and includes that file's rendered result.\n\n<%include file=\"header.html\"/>"
	for _, titles := range [][]string{nil, {"Syntax > Tags > <%page>", "Syntax > Tags > <%include>"}} {
		var codes []string
		for _, u := range parseTitledUnits(content, "Syntax > Tags", lastHeadings(titles)) {
			if u.kind == unitCode {
				codes = append(codes, u.text)
			}
		}
		want := []string{"<%page>", "<%include>", `<%include file="header.html"/>`}
		if titles != nil {
			want = []string{`<%include file="header.html"/>`}
		}
		if strings.Join(codes, "|") != strings.Join(want, "|") {
			t.Errorf("titles %q: code units %q, want %q", titles, codes, want)
		}
	}
}

func lastHeadings(paths []string) []string {
	var out []string
	for _, p := range paths {
		hs := strings.Split(p, " > ")
		out = append(out, hs[len(hs)-1])
	}
	return out
}

// TestSplitUnitKeepsAnAsideGoing (h-trial37): a "!" or "?" that ends an
// aside between dashes ends no sentence; one before a sentence that
// opens with a capital still does.
func TestSplitUnitKeepsAnAsideGoing(t *testing.T) {
	t.Parallel()
	got := splitUnit("The decorator works if – and only if! – the attribute has a field(). Does it? – No, not alone. It works! Then more.")
	want := []string{"The decorator works if – and only if! – the attribute has a field().", "Does it? – No, not alone.", "It works!", "Then more."}
	if !slices.Equal(got, want) {
		t.Errorf("splitUnit =\n%q\nwant\n%q", got, want)
	}
}
