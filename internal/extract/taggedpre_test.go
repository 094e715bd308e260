package extract

import (
	"strings"
	"testing"
)

// TestTaggedDefinitionsInPre: in a <pre> of a text document's prose, a
// paragraph laid out as a tag, blanks, then a description whose lines hang
// at its column (HAProxy's termination states) is the tag's definition:
// a term above its paragraph. Read as code, the list was one block and
// no line of it defined "sH". Code whose comments are aligned and a table
// of columns stay code.
func TestTaggedDefinitionsInPre(t *testing.T) {
	t.Parallel()
	pre := `The termination state is made of two characters. On the first character,
a code reports the first event which caused the session to terminate.

     SH   The server aborted before sending its full HTTP response headers, or
          it crashed while processing the request.

     sH   The "timeout server" stroke before the server could return its
          response headers. This is the most common anomaly, indicating too
          long transactions.

     PC   The proxy refused to establish a connection to the server because the
          process's socket limit has been reached.

- wurfl_isdevroot             Tells if the matched device is a root device.
                              Possible values are "TRUE" or "FALSE".`
	doc, err := Extract(TypeHTML, []byte("<html><body><h1>Session state</h1><pre class=\"text\">"+pre+"</pre></body></html>"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range doc.Blocks {
		got = append(got, map[Kind]string{KindHeading: "h", KindParagraph: "p", KindCode: "code", KindTerm: "term"}[b.Kind]+":"+strings.Fields(doc.Text[b.Start:b.End])[0])
	}
	if want := "h:Session p:The term:SH p:The term:sH p:The term:PC p:The term:wurfl_isdevroot p:Tells"; strings.Join(got, " ") != want {
		t.Errorf("blocks %q\nwant %q\n%s", strings.Join(got, " "), want, doc.Text)
	}
	if !strings.Contains(doc.Text, "sH\n") || !strings.Contains(doc.Text, "The \"timeout server\" stroke before the server could return its response headers. This is the most common anomaly") {
		t.Errorf("the description is not one paragraph under its tag:\n%s", doc.Text)
	}

	intro := "This page describes the protocol in some detail, which is long enough to read as prose.\nIt goes on for a second line and then it ends here.\n\n"
	for name, para := range map[string]string{
		"two blanks after a full stop": "   It is deprecated.  Clients should use the new option instead of this one.",
		"a message":                    "HINT:  No function matches the given name and argument types. You might need to add explicit type casts.",
		"a time stamp":                 "    2024-01-01 12:00:00  Server started and is listening on the configured port.",
		"a log line":                   "    Jan 12 10:00:01  haproxy started and is now listening on the port.",
		"a diagram":                    "   +--------+   the client sends a request to the proxy which then\n                forwards it to the server and waits for its answer.",
		"a footnote":                   "[1]  The original paper describes the algorithm in more detail than\n     this page does, with its proofs.",
		"a label":                      "Note:   The server must be restarted after the change, or it keeps\n        the old value until the next reload.",
		"an answer":                    "   A.  Because the protocol requires it, and the servers that do not\n       follow it are broken.",
	} {
		doc, err := Extract(TypeHTML, []byte("<html><body><pre>"+intro+para+"</pre></body></html>"))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range doc.Blocks {
			if b.Kind == KindTerm {
				t.Errorf("%s: a term %q:\n%s", name, doc.Text[b.Start:b.End], doc.Text)
			}
		}
	}

	for name, code := range map[string]string{
		"aligned comments": "Some prose to start the block, which is long enough to read as prose.\nIt goes on for a second line and then it ends here.\n\n    x = compute(a, b)   # the sum of the two inputs, which are checked first\n                        # and then added together as the caller expects.",
		"columns":          "Some prose to start the block, which is long enough to read as prose.\nIt goes on for a second line and then it ends here.\n\n    name      type      default\n    timeout   integer   30",
	} {
		doc, err := Extract(TypeHTML, []byte("<html><body><pre>"+code+"</pre></body></html>"))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range doc.Blocks {
			if b.Kind == KindTerm {
				t.Errorf("%s: a term %q:\n%s", name, doc.Text[b.Start:b.End], doc.Text)
			}
		}
	}
}
