package answer

import (
	"strings"
	"testing"
)

// TestExtractiveKeepsTheFirstLineOfHangingCode: ff708c7 reads an
// unindented line of at most eight words, without a sentence's end, above
// indented code as the code's caption (a listing's title), starts a section
// with it and quotes the code without it. Code written with hanging
// indentation has that shape: a statement's or a command's first line at
// the margin, its continuation lines indented ("SELECT name, email" above
// "    FROM users"; "docker compose run report" above "    --since …").
// The first line is then cut from the quoted code, so the answer quotes
// "FROM users WHERE …" and "--since 2026-01-01" alone: neither runs. Before
// the change the whole statement was quoted.
func TestExtractiveKeepsTheFirstLineOfHangingCode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ code, first string }{
		{"SELECT name, email\n    FROM users\n    WHERE last_login < '2026-01-01';", "SELECT name, email"},
		{"docker compose run report\n    --since 2026-01-01\n    --format csv", "docker compose run report"},
	} {
		content := "Inactive users\n\nTo list the users who have not logged in this year, run this.\n\n" + tc.code +
			"\n\nThe result lists one user per row."
		r := Extractive("How do I list users who have not logged in this year?", []Source{{Content: content, HeadingPath: "Users"}}, 3)
		if !strings.Contains(r.Answer, "--since") && !strings.Contains(r.Answer, "FROM users") {
			t.Errorf("the code is not quoted: %q", r.Answer)
			continue
		}
		if !strings.Contains(r.Answer, "```\n"+tc.first+"\n") {
			t.Errorf("the code is quoted without its first line %q:\n%s", tc.first, r.Answer)
		}
	}
}
