package cli

import (
	"testing"

	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/traffic"
)

// TestCandidateExportLoadsAsASet: eval sets now compare questions by
// questionKey (case, spacing and Unicode normal form C), so "café" typed
// precomposed and with a combining accent is one question and a set
// holding both is refused (duplicate_question). candidateQuestions, which
// writes `ragd eval candidates --export`, still dedupes with the old key
// (case and spacing only): traffic recorded before questions were
// normalised, or from two keyboards, exports both forms, and the exported
// file — meant to be labelled and loaded — is refused by eval.Validate.
func TestCandidateExportLoadsAsASet(t *testing.T) {
	t.Parallel()
	cs := []traffic.Candidate{
		{Question: "Where is the caf\u00e9?", RightSources: []string{"doc://cafe"}, Reason: "unhelpful"},
		{Question: "Where is the cafe\u0301?", RightSources: []string{"doc://cafe"}, Reason: "unhelpful"},
	}
	qs, _ := candidateQuestions(cs, true)
	if err := eval.Validate(qs); err != nil {
		t.Errorf("the exported candidates (%d questions) are not a loadable set: %v", len(qs), err)
	}
}
