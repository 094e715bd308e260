package extract

import (
	"strings"
	"testing"
)

// TestProseInPreIsText: a <pre> that holds a text document's wrapped prose
// (haproxy-dconv's pre.text, git's technical notes) is read as
// paragraphs, its indented examples as code; a <pre> of code, SQL, a
// program's messages or a short line stays one code block.
func TestProseInPreIsText(t *testing.T) {
	t.Parallel()
	prose := `Set the maximum inactivity time on the server side. The inactivity
timeout applies when the server is expected to acknowledge or send data,
and it is counted in milliseconds unless a unit is given.

Example :
    defaults http
        timeout server 30s

It is a good practice to cover one or several TCP packet losses by
specifying timeouts that are slightly above multiples of 3 seconds.`
	doc, err := Extract(TypeHTML, []byte("<html><body><h1>Timeouts</h1><pre class=\"text\">"+prose+"</pre></body></html>"))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, b := range doc.Blocks {
		kinds = append(kinds, map[Kind]string{KindHeading: "h", KindParagraph: "p", KindCode: "code"}[b.Kind])
	}
	if got := strings.Join(kinds, " "); got != "h p code p" {
		t.Errorf("blocks %q, want h p code p:\n%s", got, doc.Text)
	}
	for name, code := range map[string]string{
		"sql":      "SELECT * FROM my_table AS a CROSS JOIN my_table AS b ...\nSELECT * FROM (my_table AS a CROSS JOIN my_table) AS b ...",
		"messages": "WARNING:  database \"mydb\" must be vacuumed within 39985967 transactions\nHINT:  To avoid a database shutdown, execute a database-wide VACUUM in that database.",
		"python":   "def setup(set_prefix=True):\n    \"\"\"\n    Configure the settings (this happens as a side effect of accessing the\n    first setting), configure logging and populate the app registry.\n    \"\"\"\n    from django.apps import apps",
		"one line": "Enable a maintenance mode upon HTTP/404 response to health-checks.",
		"session":  "$ git switch --detach v2.6.17\nNote: checking out 'v2.6.17'.\n\nYou are in 'detached HEAD' state. You can look around, make experimental\nchanges and commit them, and you can discard any commits you make in this\nstate without impacting any branches by performing another switch.",
	} {
		doc, err := Extract(TypeHTML, []byte("<html><body><p>Intro words here.</p><pre>"+code+"</pre></body></html>"))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(doc.Blocks); n != 2 || doc.Blocks[1].Kind != KindCode {
			t.Errorf("%s: %d blocks, last %v; want the pre as one code block", name, n, doc.Blocks[n-1].Kind)
		}
	}
}
