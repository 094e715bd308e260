package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestCLIDoesNotWriteDocumentControlCharactersToTheTerminal (h-break11):
// document text crosses a trust boundary when the operator reads it: a
// page ingested from a customer's site, or written by any tenant editor
// through the API (a PUT's "title" may hold ESC; so may an evaluation
// set's category, loaded by a tenant admin), is printed by `ragd ask`,
// `ragd search` and `ragd eval run --per-question` straight to the
// operator's terminal. HTML numeric references are decoded into the
// control characters themselves (Markdown and plain text drop them): a page
// whose <title> is "Taro &#27;]0;pwned&#7;" and whose text holds
// "&#27;]52;c;ZWNobyBwd25lZA==&#7;" makes `ragd ask` emit
// ESC ]0;…BEL (sets the window title) and ESC ]52;c;…BEL (xterm-compatible
// terminals write "echo pwned" to the clipboard), ESC [2J clears the
// screen, ESC [8m hides the text that follows.
//
// Expected: control characters of documents (C0 but tab and newline, DEL,
// C1) are not stored as text, or the CLI escapes them before printing
// (the HTTP API's JSON escapes them already).
func TestCLIDoesNotWriteDocumentControlCharactersToTheTerminal(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-terminal", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	root := t.TempDir()
	page := "<html><head><title>Taro &#27;]0;pwned&#7;&#27;[2J</title></head><body><main><h1>Taro</h1>" +
		"<p>The taro harvest &#27;]52;c;ZWNobyBwd25lZA==&#7;starts in &#27;[8mMay, after the rains.</p></main></body></html>"
	if err := os.WriteFile(filepath.Join(root, "taro.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, root); code != 0 {
		t.Fatalf("ingest: exit %d\n%s%s", code, out, errOut)
	}
	for _, args := range [][]string{
		{"ask", "--tenant", tn.Slug, "when does the taro harvest start?"},
		{"search", "--tenant", tn.Slug, "taro harvest"},
	} {
		code, out, errOut := runCLI(t, env, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", args[0], code, out, errOut)
		}
		if i := strings.IndexAny(out, "\x1b\x07"); i >= 0 {
			t.Errorf("`ragd %s` writes the document's control characters to the terminal: %q", args[0], out[max(0, i-20):min(len(out), i+40)])
		}
	}
}
