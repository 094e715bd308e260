package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestEmptyAsSubjectFailsClosed: `ragd search` and `ragd ask` with an
// explicit but empty --as-subject (a script's --as-subject "$SUB" with SUB
// unset) read as a person without a usable principal: tenant-wide
// documents only, as --as-subject ' ' does and docs/SECURITY.md's "fail
// closed" says. Found by a breaker helper: the empty flag was taken as "not
// given", the operator's every-document view, and returned a group:hr
// document.
func TestEmptyAsSubjectFailsClosed(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-assubject", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "salaries.md"), []byte("# Compensation\n\nThe zqhiddencanary layoff plan is confidential.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, "--access", "group:hr", "--base-uri", "https://hr.test/", root); code != 0 {
		t.Fatalf("ingest: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, args := range [][]string{
		{"search", "--tenant", tn.Slug, "--json", "--as-subject", " ", "zqhiddencanary layoff"}, // control: fails closed
		{"search", "--tenant", tn.Slug, "--json", "--as-subject", "", "zqhiddencanary layoff"},
		{"ask", "--tenant", tn.Slug, "--json", "--as-subject", "", "what is the zqhiddencanary layoff plan?"},
	} {
		code, out, errOut := runCLI(t, env, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d\n%s\n%s", args, code, out, errOut)
		}
		if strings.Contains(out, "zqhiddencanary") && strings.Contains(out, "hr.test/salaries.md") {
			t.Errorf("%q returned the group:hr document; want tenant-wide documents only (no usable principal)", args)
		}
	}
}
