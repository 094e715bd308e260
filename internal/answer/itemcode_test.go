package answer

import (
	"slices"
	"strings"
	"testing"
)

// TestItemResumesAfterItsCode: a list item's example interrupts it, and
// its last sentence comes after the code, indented as the item's
// continuation, with the list's next items right under it (flex's
// diagnostics). That sentence is prose of the item and the next items are
// items: read as indented code, a quoted example ran on through five
// other diagnostics.
func TestItemResumesAfterItsCode(t *testing.T) {
	content := "23 Diagnostics\n\nThe following is a list of flex diagnostic messages:\n\n" +
		"- 'warning, rule cannot be matched' indicates that the given rule cannot be matched because it follows other rules that will always match the same text as it. " +
		"For example, in the following 'foo' cannot be matched because it comes after an identifier catch-all rule:\n\n" +
		"    [a-z]+    got_identifier();\n    foo       got_foo();\n\n" +
		"  Using REJECT in a scanner suppresses this warning.\n" +
		"- 'flex scanner jammed'. a scanner compiled with '-s' has encountered an input string which wasn't matched by any of its rules.\n" +
		"- 'token too large, exceeds YYLMAX'. your scanner uses %array and one of its rules matched a string longer than the YYLMAX constant.\n"
	src := []Source{{Content: content, Title: "Diagnostics", HeadingPath: "Diagnostics"}}
	var code []string
	for _, u := range parseUnits(content, "Diagnostics") {
		if u.kind == unitCode {
			code = append(code, u.text)
		}
	}
	if len(code) != 1 || strings.Contains(code[0], "REJECT") || strings.Contains(code[0], "jammed") {
		t.Errorf("code units %q, want the example's two lines alone", code)
	}
	r := Extractive("What does the warning 'rule cannot be matched' mean?", src, 3)
	if strings.Contains(r.Answer, "YYLMAX") || strings.Count(r.Answer, "```") != 2 && strings.Count(r.Answer, "```") != 0 {
		t.Errorf("answer runs into other items or leaves a fence open:\n%s", r.Answer)
	}
}

// TestPassageOpensAtItsItemsFirstSentence: a passage starting at a later
// sentence of a list item starts at the item's first, which names what
// the rest says of (Django: "Call it with the path of the file to attach
// …" had been quoted without "attach_file() creates a new attachment …").
func TestPassageOpensAtItsItemsFirstSentence(t *testing.T) {
	content := "Attachments\n\n" +
		"- recipients() returns a list of all the recipients of the message.\n" +
		"- attach_file() creates a new attachment using a file from your filesystem. Call it with the path of the file to attach and, optionally, the MIME type to use for the attachment.\n" +
		"- send() sends the message.\n"
	d := parseUnits(content, "Sending email > Attachments")
	later := slices.IndexFunc(d, func(u unit) bool { return strings.HasPrefix(u.text, "Call it with the path") })
	if later < 1 || d[later].item == "" {
		t.Fatalf("units %+v: no item sentence to start from", d)
	}
	query := uniq(terms("How do I attach a file by its path?"))
	from, _ := complete(d, later, later+1, 3, query, true, false, false)
	if !strings.HasPrefix(d[from].text, "attach_file() creates a new attachment") {
		t.Errorf("passage opens at %q, want the item's first sentence", d[from].text)
	}
}
