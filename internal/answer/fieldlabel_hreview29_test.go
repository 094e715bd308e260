package answer

import (
	"strings"
	"testing"
)

// TestHReview29OptionsLabelIsNoDocstringField: fieldListLabel drops a
// list's label when it is one of fieldLists, meant for docstring field
// lists ("Parameters:", "Returns:", "Raises:" as Sphinx, numpydoc and
// Google style write them). But fieldLists also holds "options", which
// none of those conventions uses as a field list's label, and "Options:"
// above a bulleted list is how READMEs and CLI pages list a command's
// options. The label is the only unit that says what the list lists;
// dropped, the items share no word with "What options does the sync
// command take?", and the answer is the section's first sentence without
// the list. Before d55a986 (and with
// any other label, "Supported flags:") the answer quotes the labelled
// list — the failure 67e8f41 fixed for "Supported databases:".
//
// A correct implementation keeps a label that is not a docstring field
// list's ("Options:") and answers with the list.
func TestHReview29OptionsLabelIsNoDocstringField(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		question, content string
		want              []string
	}{
		{"What options does the sync command take?",
			"sync\n\nThe sync command copies the local folder to the bucket and deletes nothing unless told to.\n\n" +
				"Options:\n- --delete: remove files from the bucket that are not in the folder\n- --dry-run: print what would be copied without copying\n" +
				"- --exclude PATTERN: skip files matching PATTERN\n\nRun it from the folder's parent.",
			[]string{"--delete", "--dry-run", "--exclude"}},
	} {
		src := []Source{{N: 1, Title: "Reference", HeadingPath: "Reference", Content: c.content}}
		got := Extractive(c.question, src, 3).Answer
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%q:\n%s\nwant the labelled list (%q)", c.question, got, w)
			}
		}
	}
}
