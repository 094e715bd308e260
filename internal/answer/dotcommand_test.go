package answer

import (
	"strings"
	"testing"
)

// TestExtractiveDotCommandsAreCode: a sentence leaning on the one before
// it and naming dot-commands (".output", ".once") continues the passage
// as one naming any other command would: "By default, sqlite3 sends query
// results to standard output." was quoted alone, without the sentence
// saying how to change it.
func TestExtractiveDotCommandsAreCode(t *testing.T) {
	t.Parallel()
	src := []Source{{
		N:           1,
		HeadingPath: "Command Line Shell For SQLite > 8. Redirecting I/O > 8.1. Writing results to a file",
		Content: "8.1. Writing results to a file\n\n" +
			"By default, sqlite3 sends query results to standard output. You can change this using the \".output\" and \".once\" commands. " +
			"Just put the name of an output file as an argument to .output and all subsequent query results will be written to that file.",
	}}
	r := Extractive("How can I save the results of a query to a file from the sqlite3 shell?", src, 0)
	if !strings.Contains(r.Answer, `You can change this using the ".output" and ".once" commands [1]`) {
		t.Errorf("Answer =\n%s\nwant the sentence naming .output and .once", r.Answer)
	}
	for s, want := range map[string]bool{`Use the ".once" command.`: true, "Edit your .zshrc file.": true, "It costs .5 dollars.": false, "Wait... and see.": false} {
		if got := namesDotted(s); got != want {
			t.Errorf("namesDotted(%q) = %v, want %v", s, got, want)
		}
	}
}
