package answer

import (
	"strings"
	"testing"
)

// TestExtractiveLowercaseHeadingsAreNotRootCommands: rootCommand (cb0c228)
// takes "#", a blank and a lowercase first word holding - . _ / or +, or
// followed by an argument holding . / = $ ~ *, for a command at a root
// prompt. Markdown headings written in lower case fit that shape: "#
// pre-requisites", "# e-mail notifications", "# upgrading to v2.0",
// "# read-only replicas", "# node.js". They are then quoted as code blocks
// in the answer, as if the reader should type them at a root prompt.
func TestExtractiveLowercaseHeadingsAreNotRootCommands(t *testing.T) {
	t.Parallel()
	content := "# pre-requisites\n\nYou need Go 1.22 and PostgreSQL 15 installed before you build the server.\n\n" +
		"# upgrading to v2.0\n\nStop the server, run the migrations, then start the new binary.\n\n" +
		"# e-mail notifications\n\nSet SMTP_HOST to your mail relay to receive alerts."
	r := Extractive("How do I upgrade to v2.0?", []Source{{Content: content, HeadingPath: "Guide"}}, 3)
	for _, heading := range []string{"# pre-requisites", "# upgrading to v2.0", "# e-mail notifications"} {
		if strings.Contains(r.Answer, "```\n"+heading+"\n```") {
			t.Errorf("the heading %q is quoted as a command:\n%s", heading, r.Answer)
		}
	}
	for _, line := range []string{"# pre-requisites", "# e-mail notifications", "# upgrading to v2.0", "# read-only replicas", "# node.js"} {
		if !isHeading(line) {
			t.Errorf("isHeading(%q) = false: a Markdown heading taken for a root command", line)
		}
	}
}
