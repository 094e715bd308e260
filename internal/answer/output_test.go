package answer

import (
	"slices"
	"strings"
	"testing"
)

// Program output that a blank line splits (a page's <pre> keeps its blank
// lines) is still code after the blank line; prose after code is not.
func TestOutputAfterBlankLineStaysCode(t *testing.T) {
	t.Parallel()
	content := "If you run this for the first time you will see two failures:\n\n" +
		"$ pytest -q\n.................F.......F......   [100%]\n\n" +
		"test_50.py:7: Failed\n===== short test summary info =====\nFAILED test_50.py::test_num[17] - Failed: bad luck\nFAILED test_50.py::test_num[25] - Failed: bad luck\n2 failed, 48 passed in 0.12s\n\n" +
		"You have run only the two failing tests from the last run.\n\n" +
		"$ pytest --lf\n\n" +
		"The output lists what ran:\n\n" +
		"collected 2 items\nrun-last-failure: rerun previous 2 failures"
	us := parseUnits(content, "Cache > Rerunning only failures")
	code, sentences := textsByKind(us)
	for _, s := range sentences {
		if strings.Contains(s, "short test summary") || strings.Contains(s, "48 passed") {
			t.Errorf("program output read as a sentence: %q", s)
		}
	}
	if len(code) == 0 || !strings.Contains(code[0], "$ pytest -q") || !strings.Contains(code[0], "2 failed, 48 passed") {
		t.Errorf("the run and its output are not one code unit: %q", code)
	}
	want := "You have run only the two failing tests from the last run."
	found := false
	for _, s := range sentences {
		found = found || s == want
	}
	if !found {
		t.Errorf("the sentence after the output is not a sentence: %q", sentences)
	}
	r := Extractive("How do I rerun the failures of the last run?", []Source{{N: 1, HeadingPath: "Cache > Rerunning only failures", Content: content}}, 3)
	if strings.Contains(r.Answer, "Failed ===== short") {
		t.Errorf("answer quotes program output as prose:\n%s", r.Answer)
	}
}

// A table row of another source is no supporting sentence: it matches
// the question in passing.
func TestSupportIsNoTableRow(t *testing.T) {
	t.Parallel()
	sources := []Source{
		{N: 1, HeadingPath: "Exit codes", Content: "Exit codes\n\nRunning pytest can result in six different exit codes. Exit code 5 means that no tests were collected."},
		{N: 2, HeadingPath: "Plugin list", Content: "name | summary | status\npytest-exit-code | Plugin to set the exit code of a test run | 5 - Production/Stable\npytest-other | Other things | 4 - Beta"},
		{N: 3, HeadingPath: "Usage", Content: "Usage\n\nThe exit code of a test run tells a CI system whether tests were collected and passed."},
	}
	r := Extractive("What does exit code 5 mean?", sources, 3)
	if !strings.Contains(r.Answer, "no tests were collected [1]") {
		t.Fatalf("answer does not quote the exit codes:\n%s", r.Answer)
	}
	if strings.Contains(r.Answer, "Production/Stable") || strings.Contains(r.Answer, "[2]") {
		t.Fatalf("answer adds a plugin list's row:\n%s", r.Answer)
	}
}

// A dump of values is no sentence to quote: "==== sqlca ==== sqlcode:
// -400 … sqlstate: 42P01" holds the question's code and says nothing of
// what it means.
func TestDumpIsNotQuotedAsASentence(t *testing.T) {
	t.Parallel()
	sources := []Source{
		{N: 1, HeadingPath: "Error Handling > sqlca", Content: "sqlca\n\n" +
			"The result could look as follows (here an error due to a misspelled table name):\n\n" +
			"==== sqlca ====\nsqlcode: -400\nsqlerrm.sqlerrml: 49\nsqlerrm.sqlerrmc: relation \"pg_databasep\" does not exist on line 38\n" +
			"sqlerrd: 0 0 0 0 0 0\nsqlwarn: 0 0 0 0 0 0 0 0\nsqlstate: 42P01\n==============="},
		{N: 2, HeadingPath: "Error Handling > SQLSTATE vs. SQLCODE", Content: "SQLSTATE vs. SQLCODE\n\nSQLSTATE is a five-character array that contains error codes."},
		{N: 3, HeadingPath: "Reporting Errors", Content: "Reporting Errors\n\nUse the RAISE statement to report messages and raise errors."},
		{N: 4, HeadingPath: "Appendix A. Error Codes", Content: "Error Code | Condition Name\n42P01 | undefined_table\n42P02 | undefined_parameter"},
	}
	r := Extractive("What does SQLSTATE 42P01 mean?", sources, 3)
	if strings.Contains(r.Answer, "==== sqlca") {
		t.Fatalf("answer quotes a dump:\n%s", r.Answer)
	}
	if !strings.Contains(r.Answer, "undefined_table") {
		t.Fatalf("answer misses the condition name:\n%s", r.Answer)
	}
}

// A server's start-up output under its command, split from it by a blank
// line, stays code: read as a definition it was quoted as "Starting
// gunicorn 20.1.0: Listening at: …". A definition after code stays one.
func TestOutputAfterCommandIsNoDefinition(t *testing.T) {
	t.Parallel()
	content := "Running\n\nIt can also be a function call if you're using the app factory pattern.\n\n" +
		"$ gunicorn -w 4 'hello:app'\n\n" +
		"Starting gunicorn 20.1.0\nListening at: http://127.0.0.1:8000 (x)\nUsing worker: sync\nBooting worker with pid: x\n\n" +
		"The -w option specifies the number of processes to run.\n\n" +
		"$ run --limit\n\n" +
		"max_content_length\nStop reading request data after this number of bytes"
	us := parseUnits(content, "Gunicorn > Running")
	code, sentences := textsByKind(us)
	if len(code) == 0 || !strings.Contains(code[0], "gunicorn -w 4") || !strings.Contains(code[0], "Booting worker") {
		t.Errorf("the command and its output are not one code unit: %q", code)
	}
	for _, s := range sentences {
		if strings.Contains(s, "Starting gunicorn") {
			t.Errorf("server output read as a sentence: %q", s)
		}
	}
	if !slices.Contains(sentences, "max_content_length: Stop reading request data after this number of bytes") {
		t.Errorf("a definition after code is not a definition: %q", sentences)
	}
}

// A numbered step's title ("Step 7: Detail View") is a heading, not a
// field's value: it is not quoted at the end of the step before it.
func TestNumberedStepTitleIsAHeading(t *testing.T) {
	t.Parallel()
	content := "In this case we will raise a NotFound exception by hand, which will be converted into a default 404 response.\n\n" +
		"Step 7: Detail View\n\nThe link detail view is very similar, we just render a template again.\n\n" +
		"Default: 404"
	us := parseUnits(content, "Werkzeug Tutorial")
	for _, u := range us {
		if u.kind == unitSentence && strings.Contains(u.text, "Step 7") {
			t.Fatalf("step title read as a sentence: %q", u.text)
		}
	}
	if !slices.ContainsFunc(us, func(u unit) bool { return u.text == "Default: 404" }) {
		t.Fatalf("a field line is no longer a unit: %+v", us)
	}
	r := Extractive("How do I stop a request with a 404?", []Source{{N: 1, HeadingPath: "Werkzeug Tutorial", Content: content}}, 3)
	if strings.Contains(r.Answer, "Step 7") {
		t.Fatalf("answer quotes the next step's title:\n%s", r.Answer)
	}
}

// A bare version note does not open an answer unless the question asks
// when; then it is what answers.
func TestBareVersionNoteOpensOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	content := "Reloader\n\nChanged in version 0.10.\n\n" +
		"The Werkzeug reloader constantly monitors modules and paths of your web application, and restarts the server if any of the observed files change."
	src := []Source{{N: 1, HeadingPath: "Serving > Reloader", Content: content}}
	r := Extractive("Is there a more efficient way for the reloader to detect file changes?", src, 3)
	if strings.Contains(r.Answer, "Changed in version") || !strings.Contains(r.Answer, "constantly monitors") {
		t.Fatalf("answer opens with the version note:\n%s", r.Answer)
	}
	r = Extractive("In which version did the reloader change?", src, 1)
	if !strings.Contains(r.Answer, "Changed in version 0.10") {
		t.Fatalf("a question about versions does not get the note:\n%s", r.Answer)
	}
}

// textsByKind returns the texts of the code units and of the sentences.
func textsByKind(us []unit) (code, sentences []string) {
	for _, u := range us {
		switch u.kind {
		case unitCode:
			code = append(code, u.text)
		case unitSentence:
			sentences = append(sentences, u.text)
		}
	}
	return code, sentences
}
