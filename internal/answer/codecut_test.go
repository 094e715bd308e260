package answer

import (
	"fmt"
	"strings"
	"testing"
)

// listenExample is psycopg2's LISTEN/NOTIFY example: 18 lines whose 12th
// opens the loop that receives the notifications.
const listenExample = `import select
import psycopg2
import psycopg2.extensions

conn = psycopg2.connect(DSN)
conn.set_isolation_level(psycopg2.extensions.ISOLATION_LEVEL_AUTOCOMMIT)

curs = conn.cursor()
curs.execute("LISTEN test;")

print "Waiting for notifications on channel 'test'"
while True:
    if select.select([conn],[],[],5) == ([],[],[]):
        print "Timeout"
    else:
        conn.poll()
        while conn.notifies:
            notify = conn.notifies.pop(0)
            print "Got NOTIFY:", notify.pid, notify.channel, notify.payload`

// TestExampleIsQuotedWhole: the answer to how to receive notifications
// quoted the example up to "while True:" and "…"; an example of up to
// maxWholeCodeLines lines is quoted whole.
func TestExampleIsQuotedWhole(t *testing.T) {
	t.Parallel()
	head := "Asynchronous notifications\n\nA better strategy is to use some I/O completion function such as select() to sleep until awakened by the kernel when there is some data to read on the connection, thereby using no CPU unless there is something to read:\n\n"
	output := "Waiting for notifications on channel 'test'\nTimeout\nTimeout\nGot NOTIFY: 6535 test hello\nTimeout\n..."
	content := head + listenExample + "\n\nRunning the script and executing a command such as NOTIFY test, 'hello' in a separate psql shell, the output may look similar to:\n\n" +
		output + "\n\nNote that the payload is only available from PostgreSQL 9.0: notifications received from a previous version server will have the payload attribute set to the empty string."
	src := Source{N: 1, Title: "More advanced topics", HeadingPath: "More advanced topics > Asynchronous notifications",
		Content: content, Titles: []string{"Asynchronous notifications"},
		Code: []Span{{len(head), len(head) + len(listenExample)}, {strings.Index(content, output), strings.Index(content, output) + len(output)}}}
	r := Extractive("How can my Python program wait for and receive PostgreSQL LISTEN/NOTIFY events?", []Source{src}, 3)
	if !strings.Contains(r.Answer, "A better strategy") || !strings.Contains(r.Answer, "conn.notifies.pop(0)") || strings.Contains(r.Answer, "while True:\n…") {
		t.Errorf("answer %q: want the whole example", r.Answer)
	}
}

// TestLongCodeIsCutBetweenStatements: a block longer than
// maxWholeCodeLines is cut before a line that opens a block, not after it.
func TestLongCodeIsCutBetweenStatements(t *testing.T) {
	t.Parallel()
	var tail []string
	for i := range 10 {
		tail = append(tail, fmt.Sprintf("        handle(notify, %d)", i))
	}
	code := listenExample + "\n" + strings.Join(tail, "\n")
	lines := strings.Split(code, "\n")
	if len(lines) <= maxWholeCodeLines {
		t.Fatalf("the block has %d lines, want more than %d", len(lines), maxWholeCodeLines)
	}
	k := codeCut(lines)
	if last := lines[k-1]; strings.HasSuffix(last, ":") || k > maxCodeLines || k <= maxCodeLines/2 {
		t.Errorf("cut after line %d %q", k, last)
	}
	if k != 11 {
		t.Errorf("cut after %d lines, want 11 (before the loop)", k)
	}
	// A block with no place between statements is cut at maxCodeLines.
	var cols []string
	for i := range 30 {
		cols = append(cols, fmt.Sprintf("    column_%d integer,", i))
	}
	if k := codeCut(append([]string{"CREATE TABLE wide ("}, cols...)); k != maxCodeLines {
		t.Errorf("cut after %d lines, want %d", k, maxCodeLines)
	}
}

// TestCutKeepsPrintedOutput: an example's printed output written as a
// comment under its statement ("# <blockquote …>", Beautiful Soup's manual)
// ends a statement; the cut falls after it, not before it, which showed
// the statement without what it prints.
func TestCutKeepsPrintedOutput(t *testing.T) {
	t.Parallel()
	var lines []string
	for i := range 8 {
		lines = append(lines, fmt.Sprintf("tag['n%d'] = %d", i, i), "tag", fmt.Sprintf("# <b n%d=\"%d\">bold</b>", i, i), "")
	}
	k := codeCut(lines)
	if last := strings.TrimSpace(lines[k-1]); !strings.HasPrefix(last, "# <b") {
		t.Errorf("cut after line %d %q, want after a printed output", k, last)
	}
}
