package answer

import (
	"strings"
	"testing"
)

// TestExtractiveQuotedTermIsNotAPastedMessage (h-review17, commit 3928349):
// messageMark counts any word in single or double quotes as the mark of a
// pasted message, so a question that quotes a setting or command name the
// way people delimit a term ("How do I set 'max_connections' in
// postgresql.conf?") makes every run around that word a "message", and the
// page's sentence that answers it ("Set max_connections in
// postgresql.conf.") is taken for the asker's copy of an error and is no
// evidence: the answer quotes "The default is typically 100 connections"
// instead. Without the quotes the same question is answered by that
// sentence.
//
// Expected: a quoted term in the asker's own sentence is not a pasted
// message; the question with or without quotes is answered by the
// sentence that tells how to set it.
func TestExtractiveQuotedTermIsNotAPastedMessage(t *testing.T) {
	src := []Source{{N: 1, Content: "Configuration.\n\nSet max_connections in postgresql.conf. The server must be restarted for the change to take effect. The default is typically 100 connections."}}
	for _, q := range []string{
		"How do I set max_connections in postgresql.conf?",
		"How do I set 'max_connections' in postgresql.conf?",
		"How do I set \"max_connections\" in postgresql.conf?",
	} {
		res := Extractive(q, src, 0)
		if !strings.Contains(res.Answer, "Set max_connections in postgresql.conf") {
			t.Errorf("%q: answer %q does not quote the sentence that answers it", q, res.Answer)
		}
	}
}
