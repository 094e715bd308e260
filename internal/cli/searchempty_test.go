package cli_test

import (
	"os"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// A search that finds nothing says so, with the reason, instead of
// printing nothing (a fresh user took the silence for a failure).
func TestSearchWithoutResultsSaysWhy(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-empty", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	code, out, errOut := runCLI(t, env, "search", "--tenant", tn.Slug, "how do I rotate the quokka keys")
	if code != 0 || !strings.HasPrefix(out, "(no results: ") {
		t.Errorf("search of an empty tenant: exit %d, stdout %q, stderr %q; want a line saying there are no results and why", code, out, errOut)
	}
}
