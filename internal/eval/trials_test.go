package eval_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/eval"
)

// TestTrialSetsLoad: the held-out trials' sets kept in testdata/trials
// (docs/EVAL.md reports figures on them) load as `ragd eval load` and
// `ragd eval answers --checks` read them: 30 answerable and 12
// unanswerable questions, the author's own fields ignored, and an answer
// check for each answerable question, the same question text in both
// files.
func TestTrialSetsLoad(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob("testdata/trials/*/eval.jsonl")
	if err != nil || len(dirs) < 7 {
		t.Fatalf("trial sets %v, %v; want the seven kept", dirs, err)
	}
	for _, path := range dirs {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		qs, _, err := eval.ParseJSONLIgnored(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		var answerable []string
		for _, q := range qs {
			if q.Answerable() {
				answerable = append(answerable, q.Question)
			}
		}
		if len(qs) != 42 || len(answerable) != 30 {
			t.Errorf("%s: %d questions, %d answerable; want 42 and 30", path, len(qs), len(answerable))
		}
		g, err := os.Open(filepath.Join(filepath.Dir(path), "answers.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		checks, _, err := eval.ParseAnswerChecksIgnored(g)
		g.Close()
		if err != nil {
			t.Errorf("%s: answers.jsonl: %v", path, err)
			continue
		}
		var checked []string
		for _, c := range checks {
			checked = append(checked, c.Question)
		}
		slices.Sort(answerable)
		slices.Sort(checked)
		if !slices.Equal(answerable, checked) {
			t.Errorf("%s: the answer checks' questions are not the set's answerable ones", path)
		}
	}
}
