package answer

import (
	"strings"
	"testing"
)

// continuesOutput reads any block of three or more lines without a
// sentence's end, right after code, as more program output. But package
// extract writes prose that way too, and code is exactly where it sits:
//
//   - an API entry's field list as Sphinx (before its ":" span) and most
//     doc generators render it, <dl><dt>Parameters</dt><dd><ul>…, comes out
//     as "Parameters\n- hostname (str) – …\n- port (int) – …", and a
//     docstring puts it right under its ">>>" example;
//   - a Markdown note written with hard line breaks ("> **Note**  ")
//     comes out as "Note\nRestart …\nthe configuration file";
//   - plain text keeps its hard-wrapped lines, and a paragraph may end in
//     a URL or a parenthesised example without a period.
//
// Before this change each was read as a definition or a sentence and was
// quotable; now it is glued to the code above it, is never quoted as
// prose, and the answer falls back to an unrelated sentence ("Start a
// development server …" for "Which parameter sets the port?").
func TestProseAfterCodeIsNotOutput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, heading, content, question, want string
	}{
		{"field list after a docstring example", "Serving > run_simple",
			"run_simple\n\nStart a development server for a WSGI application.\n\n" +
				">>> run_simple('localhost', 4000, app)\n\n" +
				"Parameters\n- hostname (str) – the host to bind to, for example localhost\n" +
				"- port (int) – the port to bind to, for example 8080\n" +
				"- use_reloader (bool) – restart the server when files change",
			"Which parameter sets the port of run_simple?", "port (int) – the port to bind to"},
		{"Markdown note with hard line breaks", "Configuration",
			"Configuration\n\nEdit the configuration file, then start the server:\n\n" +
				"$ quokka serve\n\n" +
				"Note\nYou must restart the server after every change\nto the configuration file",
			"Do I need to restart the server after changing the configuration file?", "restart the server after every change"},
		{"plain-text paragraph ending in a URL", "README",
			"README\n\nBuild and install with make.\n\n" +
				"    $ make && sudo make install\n\n" +
				"The full list of configuration options, with their\ndefaults and examples, is in the online manual at\n" +
				"https://quokka.example.org/manual/configuration",
			"Where is the full list of configuration options?", "full list of configuration options"},
		{"term over values, as a <dl> or plain text writes it", "Installation",
			"Installation\n\nInstall the package with pip.\n\n" +
				"    $ pip install quokka\n\n" +
				"Supported databases\nPostgreSQL 12 and newer\nMySQL 8.0 and newer\nSQLite 3.35 and newer",
			"Which databases are supported?", "PostgreSQL 12 and newer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, u := range parseUnits(tc.content, tc.heading) {
				if u.kind == unitCode && strings.Contains(u.text, tc.want) {
					t.Errorf("prose after code read as its output: %q", u.text)
				}
			}
			r := Extractive(tc.question, []Source{{N: 1, HeadingPath: tc.heading, Content: tc.content}}, 3)
			if !strings.Contains(r.Answer, tc.want) {
				t.Errorf("answer to %q does not quote %q:\n%s", tc.question, tc.want, r.Answer)
			}
		})
	}
}
