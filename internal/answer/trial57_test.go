package answer

import (
	"strings"
	"testing"
)

// TestDanglingConditionGoesOn: a passage ending on a condition with no
// main clause ("However, if you need to turn this behavior off for some
// reason.", PLY's manual) goes on to the sentence that says what to do and
// the code it announces, in place of the passage's first sentences (a
// held-out trial quoted the condition alone).
func TestDanglingConditionGoesOn(t *testing.T) {
	t.Parallel()
	src := []Source{{
		N:           1,
		Title:       "PLY (Python Lex-Yacc)",
		HeadingPath: "PLY (Python Lex-Yacc) > 6.8.4 When Do Syntax Errors Get Reported",
		Content: "6.8.4 When Do Syntax Errors Get Reported\n\n" +
			"In most cases, yacc will handle errors as soon as a bad input token is detected on the input. " +
			"However, be aware that yacc may choose to delay error handling until after it has reduced one or more grammar rules first. " +
			"This behavior might be unexpected so some explanation is in order. " +
			"If the next token is bad, yacc will eventually get around to reading it and report a syntax error. " +
			"It's just a little unusual in that you might see some of your grammar rules firing immediately prior to the syntax error. " +
			"Usually, the delayed error reporting with defaulted states is harmless (and there are other reasons for wanting PLY to behave in this way). " +
			"However, if you need to turn this behavior off for some reason. You can clear the defaulted states table like this:\n\n" +
			"```\nparser = yacc.yacc()\nparser.defaulted_states = {}\n```\n\n" +
			"Disabling defaulted states is not recommended if your grammar makes use of embedded actions as described in Section 6.11.",
	}}
	q := "Why do some of my grammar rules run just before a syntax error is reported, and can I turn that off?"
	r := Extractive(q, src, 0)
	if !strings.Contains(r.Answer, "parser.defaulted_states = {}") {
		t.Errorf("%s\nAnswer =\n%s\nwant the code that turns it off", q, r.Answer)
	}
	for s, want := range map[string]bool{
		"However, if you need to turn this behavior off for some reason.": true,
		"If the file is missing.":                      true,
		"When the pool is closed.":                     true,
		"But unless a timeout is given.":               true,
		"If you need to turn it off, clear the table.": false,
		"If the file is missing then the call fails.":  false,
		"When asked, the server replies.":              false,
		"Use the flag if you need it.":                 false,
	} {
		if got := danglingCondition(s); got != want {
			t.Errorf("danglingCondition(%q) = %v, want %v", s, got, want)
		}
	}
}
