package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestIngestCountsRedirectPages: a run lists the first pages that only
// redirect to another and counts the rest in one line, so the lines of
// what was really skipped, refused or failed stay readable; --json lists
// every one.
func TestIngestCountsRedirectPages(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-redirects", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	root := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Aliasing.html", "<html><head><title>Aliasing</title></head><body><h1>Aliasing</h1><p>Aliases are expanded before anything else on the line.</p></body></html>")
	for i := range 5 {
		write(fmt.Sprintf("redirect-%d.html", i), fmt.Sprintf(`<html><head><meta http-equiv="Refresh" content="0; url=Aliasing.html#node-%d"><title>moved</title></head>`+
			`<body><p>The node you are looking for is at <a href="Aliasing.html#node-%d">node %d</a>.</p></body></html>`, i, i, i))
	}
	code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, root)
	if code != 0 {
		t.Fatalf("ingest: exit %d\n%s%s", code, out, errOut)
	}
	if n := strings.Count(out, "only redirects to"); n != 3 {
		t.Errorf("%d redirect pages listed by name, want 3:\n%s", n, out)
	}
	if !strings.Contains(out, "SKIPPED 2 more pages that only redirect to another page") {
		t.Errorf("no count of the other redirect pages:\n%s", out)
	}
	code, out, errOut = runCLI(t, env, "ingest", "--tenant", tn.Slug, "--json", root)
	if code != 0 {
		t.Fatalf("ingest --json: exit %d\n%s%s", code, out, errOut)
	}
	if n := strings.Count(out, `"redirect": true`); n != 5 {
		t.Errorf("--json marks %d redirect pages, want 5:\n%s", n, out)
	}
}
