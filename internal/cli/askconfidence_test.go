package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestAskPrintsTheAnswersConfidence: `ragd ask` says how sure it is of an
// answer, as it does of a refusal and as the demo does ("(confidence 0.62,
// threshold 0.34)"): a fresh user could not tell an answer at 0.35 from
// one at 0.95.
func TestAskPrintsTheAnswersConfidence(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-confidence", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	root := t.TempDir()
	page := "# Harvest\n\nThe taro harvest starts in May, after the rains, and lasts until the end of July.\n"
	if err := os.WriteFile(filepath.Join(root, "taro.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, root); code != 0 {
		t.Fatalf("ingest: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := runCLI(t, env, "ask", "--tenant", tn.Slug, "When does the taro harvest start?")
	if code != 0 {
		t.Fatalf("ask: exit %d\n%s%s", code, out, errOut)
	}
	if !regexp.MustCompile(`(?m)^\(confidence 0\.\d{2,6}, threshold 0\.\d{2,6}(: close to the threshold, the sources may not answer this)?\)$`).MatchString(out) {
		t.Errorf("ask prints no confidence line:\n%s", out)
	}
}
