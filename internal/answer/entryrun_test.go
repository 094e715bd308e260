package answer

import (
	"strings"
	"testing"
)

// TestRunOfShortLinesIsAList: a page listing entries one short line each
// ("Python PycURL by Kjetil Jacobsen") reads them as entries, not as
// titles each heading the next: "Is there a Python binding?" was answered
// with the line after Python's ("Q The libcurl module is part of the
// default install"), which sat under it as under a heading.
func TestRunOfShortLinesIsAList(t *testing.T) {
	t.Parallel()
	content := "Bindings\n\n" +
		"Perl WWW::Curl by Cris Bailiff\n\n" +
		"PHP Originally written by Sterling Hughes\n\n" +
		"PureBasic uses the library in its native HTTP subsystem\n\n" +
		"Python PycURL by Kjetil Jacobsen\n\n" +
		"Q The module is part of the default install\n\n" +
		"Rexx Written by Mark Hessling\n\n" +
		"Ruby curb written by Ross Bamford\n"
	r := Extractive("Is there a Python binding?", []Source{{N: 1, Title: "Library bindings", HeadingPath: "Library bindings", Content: content}}, 3)
	if !strings.Contains(r.Answer, "PycURL") || strings.Contains(r.Answer, "default install") {
		t.Errorf("answer %q: want Python's entry, not the next one", r.Answer)
	}
}
