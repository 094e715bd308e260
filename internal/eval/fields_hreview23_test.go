package eval_test

import (
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/eval"
)

// TestHR23AnswerFieldBesideAnswerTerms: an answer-check line that carries
// the author's reference answer, {"question": …, "answer": "Use pg_dump.",
// "answer_terms": ["pg_dump"]}, is refused with `unknown field "answer":
// did you mean "answer_terms"?` because "answer" is a prefix of
// "answer_terms" (misspelling's part rule), although answer_terms itself
// is on the line, so "answer" cannot be its misspelling. Should: the line
// loads and "answer" is listed among the ignored fields, as "kind" is.
func TestHR23AnswerFieldBesideAnswerTerms(t *testing.T) {
	t.Parallel()
	checks := `{"question": "How do I dump a database?", "answer": "Use pg_dump to write a database to a script file.", "answer_terms": ["pg_dump"]}`
	cs, ig, err := eval.ParseAnswerChecksIgnored(strings.NewReader(checks))
	if err != nil || len(cs) != 1 || ig["answer"] != 1 {
		t.Errorf("a reference answer beside answer_terms: checks %+v, ignored %v, err %v; want the line loaded and answer ignored", cs, ig, err)
	}
}

// TestHR23RelevantUnderAnotherNameIsLost: an answer-check line labels its
// sources as "relevant_docs" (a common name in other tools' sets) instead
// of "relevant". The field is neither known nor within two edits of a
// known one, so it is ignored and the check loads with no Relevant at all:
// the labels are lost with only an "ignored fields" line on stderr, the
// very failure fields.go says the misspelling rule exists to prevent
// ("read as an annotation, the misspelt field's labels would be lost
// without a word"). Should: a field whose name starts with a known field's
// name (relevant_docs, relevant_uris, pages_list) is reported as that
// field misspelt, or at least the check is refused.
func TestHR23RelevantUnderAnotherNameIsLost(t *testing.T) {
	t.Parallel()
	checks := `{"question": "How do I dump a database?", "answer_terms": ["pg_dump"], "relevant_docs": ["backup.html"]}`
	cs, ig, err := eval.ParseAnswerChecksIgnored(strings.NewReader(checks))
	if err == nil {
		t.Errorf("relevant_docs accepted as an own field: checks %+v (Relevant %v), ignored %v; want a problem naming \"relevant\"", cs, cs[0].Relevant, ig)
	} else if !strings.Contains(err.Error(), `"relevant"`) {
		t.Errorf("err %v, want it to name \"relevant\"", err)
	}
}
