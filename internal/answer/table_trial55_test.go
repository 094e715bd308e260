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
		lines []string
		want  bool
	}{
		{[]string{"'silent' | fail silently", "'raise' | raise"}, true},
		{[]string{"42 | the answer", "43 | the next"}, true},
		{[]string{"--force | overwrite", "--quiet | say less"}, true},
		// A header naming its first column by a code name (drf's style
		// options) or with words and a code name (the manual's
		// synchronous_commit table) is a header.
		{[]string{"base_template | Valid field types | Additional style options", "checkbox.html | BooleanField | hide_label"}, false},
		{[]string{"synchronous_commit setting | local durable commit", "remote_apply | yes"}, false},
		{[]string{"Error Code | Condition Name", "42P01 | undefined_table"}, false},
	} {
		if got := valueColumn(c.lines); got != c.want {
			t.Errorf("valueColumn(%q) = %v, want %v", c.lines, got, c.want)
		}
	}
}
