package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestEvalAnswersFailuresCarryTheAnswer: `eval answers --json` reports each
// failed check with the whole answer and the sources it was given, so that
// a reader sees why without asking again.
func TestEvalAnswersFailuresCarryTheAnswer(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-eval-answers", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	dir := t.TempDir()
	doc := filepath.Join(dir, "harvest.md")
	if err := os.WriteFile(doc, []byte("# Taro\n\nThe taro harvest starts in May, after the rains, and lasts six weeks.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, "--base-uri", "https://farm.test/", dir); code != 0 {
		t.Fatalf("ingest: exit %d\n%s%s", code, out, errOut)
	}
	checks := filepath.Join(dir, "checks.jsonl")
	if err := os.WriteFile(checks, []byte(`{"question": "When does the taro harvest start?", "relevant": ["https://farm.test/harvest.md"], "answer_terms": ["October"]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, env, "eval", "answers", "--tenant", tn.Slug, "--checks", checks, "--json")
	if code != 0 {
		t.Fatalf("eval answers: exit %d\n%s%s", code, out, errOut)
	}
	var r struct {
		Failures []struct {
			Check   string   `json:"check"`
			Answer  string   `json:"answer"`
			Sources []string `json:"sources"`
		} `json:"failures"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(r.Failures) != 1 || r.Failures[0].Check != "missing_term" || r.Failures[0].Answer == "" ||
		len(r.Failures[0].Sources) == 0 || r.Failures[0].Sources[0] != "https://farm.test/harvest.md" {
		t.Errorf("failures %+v, want the missing term with the answer and its sources", r.Failures)
	}
}
