package answer

import (
	"strings"
	"testing"
)

// TestHeaderlessTableRowIsNoHeader: a table whose first row is a label and
// a sentence, as the rest are (Erlang's System Limits), has no header row:
// its rows are quoted as themselves, not under the first row's cells
// ("Processes: Atoms; …").
func TestHeaderlessTableRowIsNoHeader(t *testing.T) {
	t.Parallel()
	content := "System Limits\n\nThe Erlang language specification puts no limits on the number of processes, atoms and so on.\n\n" +
		"Processes | The maximum number of simultaneously alive Erlang processes is by default 262,144. This limit can be configured at startup with the +P flag.\n" +
		"Atoms | By default, the maximum number of atoms is 1,048,576. This limit can be raised or lowered with the +t flag."
	r := Extractive("What is the default maximum number of Erlang processes?", []Source{{N: 1, HeadingPath: "Advanced > System Limits", Content: content}}, 3)
	if !strings.Contains(r.Answer, "262,144") || strings.Contains(r.Answer, "Processes: Atoms") {
		t.Errorf("answer %q: want the Processes row as it is", r.Answer)
	}
	// A header of labels still heads its rows.
	content = "Error codes\n\nError Code | Condition Name\n42P01 | undefined_table\n42703 | undefined_column"
	r = Extractive("Which condition name is SQLSTATE 42P01?", []Source{{N: 1, HeadingPath: "Appendix A", Content: content}}, 3)
	if !strings.Contains(r.Answer, "Error Code: 42P01; Condition Name: undefined_table") {
		t.Errorf("answer %q: want the row under its header", r.Answer)
	}
}
