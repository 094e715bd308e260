package answer

import (
	"strings"
	"testing"
)

// TestExtractiveCodeCommentOfAnyCase (h-review18, commit 09d723d):
// codeComment takes a "# ..." line over code for the code's comment only
// when its first letter is lower case, so the listings the commit fixed
// are still split from the sentence announcing them when their comment is
// written "# Content of quokka.ini", or names the file by a path that does
// not start with a letter ("# ~/.config/quokka/quokka.ini", "#
// 'quokka.ini'"): both are the first line of a code block as package
// extract writes it (a Markdown fence's or an HTML <pre>'s lines, raw; a
// Markdown heading never keeps its "#" there). Read as a heading, the
// comment puts the code in a section of its own, and the answer to the
// commit's own question is again "It can be tedious to type the same
// series of command line options every time you use quokka." alone.
//
// Expected: a "#" line opening lines of code right under a sentence that
// announces them ("...you can write it into a configuration file:") is the
// code's comment whatever its case or first character, and the answer
// quotes the sentence with the whole listing, comment included.
func TestExtractiveCodeCommentOfAnyCase(t *testing.T) {
	t.Parallel()
	for _, comment := range []string{"# Content of quokka.ini", "# ~/.config/quokka/quokka.ini", "# 'quokka.ini'"} {
		listing := comment + "\n[quokka]\naddopts = -ra -q"
		src := []Source{{Title: "How to change command line options defaults", Content: "How to change command line options defaults\n\n" +
			"It can be tedious to type the same series of command line options every time you use quokka. " +
			"For example, if you always want terser progress output, you can write it into a configuration file:\n\n" +
			listing + "\n\n" +
			"Alternatively, you can set an environment variable while the environment is in use."}}
		r := Extractive("I'm tired of typing the same options every time I run quokka. Can I make them the default?", src, 3)
		if !strings.Contains(r.Answer, "you can write it into a configuration file") || !strings.Contains(r.Answer, listing) {
			t.Errorf("comment %q: Answer = %q, want the sentence announcing the configuration with the whole listing", comment, r.Answer)
		}
	}
}
