package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// helpActions reads `ragd help`: each command and the actions it lists.
func helpActions(t *testing.T) map[string][]string {
	t.Helper()
	code, out, errOut := runCLI(t, nil, "help")
	if code != 0 {
		t.Fatalf("help: exit %d: %s", code, errOut)
	}
	cmds := map[string][]string{}
	line := regexp.MustCompile(`^  (\S+)\s`)
	acts := regexp.MustCompile(`^\s+(\S+) (\S+\|\S+|\S+)$`)
	last := ""
	for _, l := range strings.Split(out, "\n") {
		if m := acts.FindStringSubmatch(l); m != nil && m[1] == last {
			cmds[last] = strings.Split(m[2], "|")
			continue
		}
		if m := line.FindStringSubmatch(l); m != nil {
			last = m[1]
			cmds[last] = nil
		}
	}
	return cmds
}

// TestHelpListsEveryAction: `ragd help` lists every action of the commands
// that have them, read from the tables that dispatch them, and every one
// of them dispatches: `ragd <command> <action> --help` prints that
// action's usage (never "unknown action"). Every `ragd <command> <action>`
// that README.md uses is listed (tenant limits and purge-events, eval
// candidates, followups, signals and fit-answerability were missing).
func TestHelpListsEveryAction(t *testing.T) {
	t.Parallel()
	cmds := helpActions(t)
	for _, cmd := range []string{"tenant", "eval", "model", "migrate", "token"} {
		if len(cmds[cmd]) == 0 {
			t.Errorf("help lists no actions of %s: %v", cmd, cmds)
		}
	}
	for _, cmd := range []string{"tenant", "eval", "model", "token"} {
		for _, a := range cmds[cmd] {
			code, _, errOut := runCLI(t, nil, cmd, a, "--help")
			if code != 0 || !strings.HasPrefix(errOut, "Usage: ragd "+cmd) || strings.Contains(errOut, "unknown "+cmd+" action") {
				t.Errorf("ragd %s %s --help: exit %d\n%s", cmd, a, code, errOut)
			}
		}
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	used := regexp.MustCompile(`\bragd (tenant|eval|model|migrate|token) ([a-z][a-z-]*)`)
	seen := 0
	for _, m := range used.FindAllStringSubmatch(string(readme), -1) {
		seen++
		found := false
		for _, a := range cmds[m[1]] {
			found = found || a == m[2]
		}
		if !found {
			t.Errorf("README.md uses `ragd %s %s`, which `ragd help` does not list (%v)", m[1], m[2], cmds[m[1]])
		}
	}
	if seen < 10 {
		t.Fatalf("found only %d `ragd <command> <action>` uses in README.md: the pattern no longer matches it", seen)
	}
}

// TestTenantActionFlags: each tenant action's --help shows its own flags
// only (create used to show delete's --yes and index's --dry-run), and
// another action's flag is a usage error.
func TestTenantActionFlags(t *testing.T) {
	t.Parallel()
	code, _, errOut := runCLI(t, nil, "tenant", "create", "--help")
	if code != 0 || !strings.Contains(errOut, "-name") || !strings.Contains(errOut, "-language") ||
		strings.Contains(errOut, "-yes") || strings.Contains(errOut, "-dry-run") || strings.Contains(errOut, "-json") {
		t.Fatalf("tenant create --help: exit %d\n%s", code, errOut)
	}
	if code, _, errOut := runCLI(t, nil, "tenant", "create", "--slug", "x", "--name", "X", "--yes"); code != 2 || !strings.Contains(errOut, "-yes") {
		t.Fatalf("tenant create with delete's --yes: exit %d\n%s", code, errOut)
	}
	if code, _, errOut := runCLI(t, nil, "tenant", "nonsense"); code != 2 || !strings.Contains(errOut, "limits|purge-events") {
		t.Fatalf("an unknown tenant action: exit %d\n%s", code, errOut)
	}
}

// TestTenantApplyTakesTheManifestFile: `ragd tenant apply` accepts the
// manifest's path as well as its directory (it used to look for
// tenant.yaml/tenant.yaml), and says what it expects of another file.
func TestTenantApplyTakesTheManifestFile(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "acme")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// A manifest the reader refuses (no name): the error shows which file
	// it read, before any database is opened.
	if err := os.WriteFile(filepath.Join(dir, "tenant.yaml"), []byte("language: english\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "other.yaml"), []byte("name: Acme\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{dir, filepath.Join(dir, "tenant.yaml")} {
		code, _, errOut := runCLI(t, nil, "tenant", "apply", arg)
		if code != 1 || !strings.Contains(errOut, dir+"/tenant.yaml: name is required") {
			t.Errorf("tenant apply %s: exit %d\n%s", arg, code, errOut)
		}
	}
	code, _, errOut := runCLI(t, nil, "tenant", "apply", filepath.Join(dir, "other.yaml"))
	if code != 2 || !strings.Contains(errOut, "want a tenant directory") {
		t.Errorf("tenant apply other.yaml: exit %d\n%s", code, errOut)
	}
}
