package answer

import (
	"strings"
	"testing"
)

// TestHReview45CalloutNeedsMarksForTheNotes: a code block whose last line
// merely ends in " (1)" (SQL's INSERT … VALUES (1), a call written
// "f (1)") followed by an ordinary numbered list is no callout list:
// only the first item's number is checked against the code, so the
// list's items are taken for notes on that code. What a user sees: asked
// how to move the data directory, the answer opens with the chapter's
// unrelated table setup (a sentence and a CREATE TABLE/INSERT block)
// that the steps never refer to; before a6c0ffa it quoted the steps
// alone. A callout list marks every note's number in the code (<1>, <2>
// … or (1), (2) …), and these four items have one "(1)" between them.
func TestHReview45CalloutNeedsMarksForTheNotes(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("EXAMPLES\n\nThe examples below use a table of items; every query in this chapter reads it.\n\n")
	start := b.Len()
	b.WriteString("CREATE TABLE items (id int, name text, price numeric);\nCREATE INDEX ON items (name);\nINSERT INTO items VALUES (1)")
	code := []Span{{Start: start, End: b.Len()}}
	b.WriteString("\n\n")
	b.WriteString("1. The planner estimates the number of rows from the table statistics that ANALYZE collects.\n" +
		"2. To move the data directory to a new disk, stop the server first.\n" +
		"3. Copy the data directory with rsync to the new disk, keeping its permissions.\n" +
		"4. Point data_directory in postgresql.conf at the new place and start the server.\n")
	r := Extractive("How do I move the data directory to a new disk?",
		[]Source{{N: 1, Title: "Admin", HeadingPath: "Admin > EXAMPLES", Content: b.String(), Code: code}}, 3)
	if !strings.Contains(r.Answer, "stop the server first") {
		t.Fatalf("answer %q lacks the steps", r.Answer)
	}
	if strings.Contains(r.Answer, "INSERT INTO items") || strings.Contains(r.Answer, "every query in this chapter") {
		t.Errorf("answer %q quotes the unrelated code above an ordinary numbered list as its callouts", r.Answer)
	}
}
