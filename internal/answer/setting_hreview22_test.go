package answer

import (
	"strings"
	"testing"
)

// TestHR22SettingLabelAboveUnpunctuatedDefaultIsKept: Celery's reference
// writes many defaults without a full stop ("Default: False", "Default:
// 10000", "Default: Inf": result_backend_always_retry, result_extended,
// result_backend_max_retries …). Such a line is a caption to parseUnits,
// so the pending label is not joined to it, and since the label line was
// skipped (continue) the setting's name is in no unit at all: before the
// label rule it was at least a code unit. Questions asking which setting
// does something can then never be answered with its name.
func TestHR22SettingLabelAboveUnpunctuatedDefaultIsKept(t *testing.T) {
	t.Parallel()
	content := "result_backend_max_retries\n\nDefault: Inf\n\nThis is the maximum of retries in case of recoverable exceptions.\n\n" +
		"result_backend_thread_safe\n\nDefault: False\n\nIf True, then the backend object is shared across threads. " +
		"This may be useful for using a shared connection pool instead of creating a connection for every thread."
	var texts []string
	for _, u := range parseUnits(content, "Configuration > Task result backend settings") {
		texts = append(texts, u.text)
	}
	all := strings.Join(texts, "\n")
	for _, name := range []string{"result_backend_max_retries", "result_backend_thread_safe"} {
		if !strings.Contains(all, name) {
			t.Errorf("no unit holds the setting name %q; units:\n%s", name, all)
		}
	}
}

// TestHR22SettingLabelAboveVersionNote: a setting whose description opens
// with a version note (Sphinx's ".. versionadded:: 5.5.0" under
// database_create_tables_at_setup) gets the label joined to the note
// ("database_create_tables_at_setup: New in version 5.5.0.") and defining
// the name; the description after it is unlabelled, so "What does X do?"
// is answered with the version note alone. Before the label rule the
// answer quoted the description. A definition term above a version note
// ("--fresh") is carried on to the next paragraph; a label is not.
func TestHR22SettingLabelAboveVersionNote(t *testing.T) {
	t.Parallel()
	content := "database_create_tables_at_setup\n\nNew in version 5.5.0.\n\nDefault: True by default.\n\n" +
		"If True, Celery will create the tables in the database during setup. If False, Celery will create the tables lazily.\n\n" +
		"database_engine_options\n\nDefault: {} (empty mapping).\n\n" +
		"To specify additional SQLAlchemy database engine options you can use the database_engine_options setting."
	src := []Source{{N: 1, HeadingPath: "Configuration > Database backend settings", Content: content}}
	r := Extractive("What does database_create_tables_at_setup do?", src, 0)
	if !strings.Contains(r.Answer, "create the tables in the database during setup") {
		t.Errorf("Answer =\n%s\nwant what the setting does, not only its version note", r.Answer)
	}
}
