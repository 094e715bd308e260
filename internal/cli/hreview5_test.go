package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestIngestJSONCountsIgnoredFiles: ingest now counts the files of
// unsupported types it leaves out ("left out 2 files of unsupported types
// (.png 2)"), so that a run says it passed over them; the line is printed
// only in the text summary. With --json (the form scripts read) the
// summary has no trace of them: a tree of images and a page reports one
// file and nothing left out.
func TestIngestJSONCountsIgnoredFiles(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-ingest-json", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	root := t.TempDir()
	for name, text := range map[string]string{"index.html": "<title>Docs</title><p>The documentation index.</p>",
		"logo.png": "\x89PNG\r\n\x1a\n", "banner.png": "\x89PNG\r\n\x1a\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCLI(t, env, "ingest", "--json", "--tenant", tn.Slug, root)
	if code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if !strings.Contains(out, ".png") {
		t.Errorf("--json summary does not count the 2 .png files left out:\n%s", out)
	}
	// It lists each stored file with the source_uri an evaluation set
	// names, and the job the run was recorded as.
	var sum struct {
		JobID     string `json:"job_id"`
		Documents []struct {
			Path      string `json:"path"`
			SourceURI string `json:"source_uri"`
			Status    string `json:"status"`
		} `json:"documents"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.Documents) != 1 || sum.Documents[0].Path != filepath.Join(root, "index.html") || !strings.HasSuffix(sum.Documents[0].SourceURI, "index.html") ||
		sum.Documents[0].Status != "added" || sum.JobID == "" {
		t.Errorf("--json documents %+v, job %q: want index.html added, and the job id", sum.Documents, sum.JobID)
	}
}
