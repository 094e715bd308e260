package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// hr24MessageCorpus is a small Flask-like corpus: it writes "error" (the
// debugger page) but never "Kafka", and never "warn…".
var hr24MessageCorpus = map[string]string{
	"debug.md": "# Debug mode\n\nRun flask run --debug to enable debug mode. The interactive debugger shows the traceback of an error in the browser, " +
		"and the reloader restarts the server when the code changes. Never enable debug mode in a production deployment.",
	"config.md": "# Configuration handling\n\nThe config attribute of the Flask object holds the settings of the application. " +
		"Load them with app.config.from_object or from_prefixed_env, and read them anywhere through current_app.config.",
	"errors.md": "# Handling application errors\n\nRegister an error handler with app.errorhandler to return a custom page when a view raises an exception. " +
		"Unhandled errors are logged and answered with 500 Internal Server Error.",
}

// TestHR24GenericErrorHeadExcusesMissingNames: "Error: how do I connect
// Flask to Kafka?" asked of a Flask corpus that writes "error" but never
// Kafka. Since 49c4ad2 messageHead takes "Error" for an exception class
// (className accepts any capitalised word ending in "Error", so the bare
// "Error" too), namesOf probes it although it opens the question, the
// corpus writes it, and messageParams then treats every word after the
// colon as the asker's own values: Kafka is no missing name (MissingNames
// 0). The same question opened "Note:" counts Kafka missing (control).
// Should: Kafka counts as a missing name under the generic "Error:" head
// too (the doc comment of messageParams says a generic head names no
// exception the documents could explain).
func TestHR24GenericErrorHeadExcusesMissingNames(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "hr24errhead", "english", hr24MessageCorpus)
	ctx := context.Background()
	ctrl, err := s.Search(ctx, tt, search.Request{Query: "Note: how do I connect Flask to Kafka?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if ctrl.Signals.MissingNames == 0 {
		t.Fatalf("control: Kafka is not missing under \"Note:\" (missing_terms %q)", ctrl.MissingTerms)
	}
	for _, head := range []string{"Error", "Exception"} {
		q := head + ": how do I connect Flask to Kafka?"
		resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Signals.MissingNames == 0 {
			t.Errorf("%q: Kafka is excused as a message value: missing names 0 (under \"Note:\" %d), confidence %.3f (under \"Note:\" %.3f), missing_terms %q",
				q, ctrl.Signals.MissingNames, resp.Confidence, ctrl.Confidence, resp.MissingTerms)
		}
	}
}

// TestHR24GenericWarningHeadIsAMissingName: "Warning: newbie question -
// how do I enable debug mode in Flask?" asked of the same corpus, which
// never writes "warn…". Since 49c4ad2 the opening "Warning" passes
// messageHead (className accepts a bare "Warning"), so it is probed as a
// name although it only opens the sentence, and, absent from the tenant,
// counts as a missing name: the question's confidence drops below that of
// the same question opened "Note:". Should: the same missing names (0) as
// the "Note:" question.
func TestHR24GenericWarningHeadIsAMissingName(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "hr24warnhead", "english", hr24MessageCorpus)
	ctx := context.Background()
	ctrl, err := s.Search(ctx, tt, search.Request{Query: "Note: newbie question - how do I enable debug mode in Flask?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := s.Search(ctx, tt, search.Request{Query: "Warning: newbie question - how do I enable debug mode in Flask?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Signals.MissingNames != ctrl.Signals.MissingNames {
		t.Errorf("\"Warning:\" head: missing names %d (under \"Note:\" %d), confidence %.3f (%.3f), missing_terms %q",
			resp.Signals.MissingNames, ctrl.Signals.MissingNames, resp.Confidence, ctrl.Confidence, resp.MissingTerms)
	}
}
