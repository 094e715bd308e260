package answer

import (
	"strings"
	"testing"
)

// TestProgramOutputKeepsItsRuleHReview14 (h-review14): d8f72c1 keeps a
// rule line inside a block ("a table, code, program output") but still
// treats one right under a block's first line as a title's underline,
// whether or not that line is at the margin. psql prints a one-column
// result as " count" over "-------" (the header indented, the rule at the
// margin): quoted, the rule is dropped and a blank line put in its place,
// so the quoted output is not what the document shows.
func TestProgramOutputKeepsItsRuleHReview14(t *testing.T) {
	t.Parallel()
	src := []Source{{Title: "Counting rows", Content: "Count the users:\n\n count\n-------\n    42\n(1 row)\n\nThe users table has 42 rows."}}
	r := Extractive("How many rows does the users table have?", src, 3)
	if !strings.Contains(r.Answer, "42\n(1 row)") {
		t.Skipf("the output is not quoted: %q", r.Answer)
	}
	if !strings.Contains(r.Answer, " count\n-------\n    42") {
		t.Errorf("Answer =\n%s\nwant the psql output as written, its ------- line included", r.Answer)
	}
}
