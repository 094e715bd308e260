package answer

import (
	"strings"
	"testing"
)

// TestHeaderlessTableOfValues: a table whose first row is a value
// ("'silent' | fail silently": Logbook's error behaviours, with no
// header) is rows, each quoted alone; read as a header, its rows were
// quoted as "'silent': 'print'; fail silently: print the stacktrace …".
func TestHeaderlessTableOfValues(t *testing.T) {
	content := "errors\n\nCan be set to override the current error behaviour. This value is used when logging calls fail. " +
		"The default behaviour is spitting out the stacktrace to stderr but this can be overridden:\n\n" +
		"'silent' | fail silently\n'raise' | raise a catchable exception\n'print' | print the stacktrace to stderr (default)"
	r := Extractive("How do I make logging calls fail silently instead of printing the stacktrace?",
		[]Source{{N: 1, Content: content, HeadingPath: "Core Interface > Flags"}}, 3)
	if r.Refused || strings.Contains(r.Answer, "'silent': 'print'") || !strings.Contains(r.Answer, "'silent'; fail silently") {
		t.Errorf("answer:\n%s\nwant the 'silent' row quoted as a row, under no header", r.Answer)
	}
	for _, c := range []struct {
		cells []string
		want  bool
	}{
		{[]string{"Error Code", "Condition Name"}, true},
		{[]string{"'silent'", "fail silently"}, false},
		{[]string{"42", "the answer"}, false},
		{[]string{"--force", "overwrite"}, false},
		{[]string{"work_mem", "4MB"}, false},
	} {
		if got := headerCells(c.cells); got != c.want {
			t.Errorf("headerCells(%q) = %v, want %v", c.cells, got, c.want)
		}
	}
}
