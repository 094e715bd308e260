package eval_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/eval"
)

// TestSetsKeepTheirAuthorsFields: a set whose lines carry fields of the
// author's own (the kind of an unanswerable question, an id) loads, and
// the parse says which fields it ignored; two trials' sets were refused
// whole for a "kind" field. A known field misspelt is still a problem
// naming the field it resembles, in sets and answer-check sets alike.
func TestSetsKeepTheirAuthorsFields(t *testing.T) {
	t.Parallel()
	set := `{"question": "How do I dump a database?", "relevant": ["a.html"], "question_id": 7}
{"question": "What is the capital of France?", "relevant": [], "kind": "off-topic", "question_id": 8}
`
	qs, ignored, err := eval.ParseJSONLIgnored(strings.NewReader(set))
	if err != nil || len(qs) != 2 || qs[0].Relevant[0] != "a.html" || qs[1].Answerable() {
		t.Fatalf("ParseJSONLIgnored = %+v, %v", qs, err)
	}
	if ignored["kind"] != 1 || ignored["question_id"] != 2 || ignored.String() != "kind (1 line), question_id (2 lines)" {
		t.Errorf("ignored = %v (%s)", ignored, ignored)
	}
	for line, want := range map[string]string{
		`{"question": "How do I dump a database?", "relevent": ["a.html"]}`:                        `"relevant"`,
		`{"question": "How do I dump a database?", "relevant": ["a.html"], "catgory": "howto"}`:    `"category"`,
		`{"question": "How do I dump a database?", "Relevant_": ["b"]}`:                            `"relevant"`,
		`{"question": "How do I dump a database?", "relevant": ["a.html"], "answer_terms": ["x"]}`: "--checks",
	} {
		_, err := eval.ParseJSONL(strings.NewReader(line))
		var ve *eval.ValidationError
		if !errors.As(err, &ve) || len(ve.Problems) == 0 || !strings.Contains(ve.Problems[0].Message, want) {
			t.Errorf("%s: err %v, want a problem naming %s", line, err, want)
		}
	}
	checks := `{"question": "How do I dump a database?", "answer_terms": ["pg_dump"], "kind": "howto"}`
	cs, ig, err := eval.ParseAnswerChecksIgnored(strings.NewReader(checks))
	if err != nil || len(cs) != 1 || ig["kind"] != 1 {
		t.Errorf("answer checks with an own field: %+v, %v, %v", cs, ig, err)
	}
	_, err = eval.ParseAnswerChecks(strings.NewReader(`{"question": "How do I dump a database?", "answer_term": ["pg_dump"]}`))
	if err == nil || !strings.Contains(err.Error(), `did you mean "answer_terms"`) {
		t.Errorf("answer_term: err %v, want a misspelling of answer_terms", err)
	}
}
