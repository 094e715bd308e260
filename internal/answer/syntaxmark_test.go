package answer

import (
	"slices"
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
