package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestIngestMissingPathNamesIt: a path that does not exist is reported as
// the path given, not as the first missing directory above it ("lstat
// /nonexistent"), before anything connects to a database.
func TestIngestMissingPathNamesIt(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "nonexistent", "dir")
	code, _, stderr := runCLI(t, map[string]string{}, "ingest", "--tenant", "x", missing)
	if code != 2 || !strings.Contains(stderr, missing+": no such file or directory") || strings.Contains(stderr, "lstat") {
		t.Errorf("exit %d, stderr %q: want 2 and %q", code, stderr, missing+": no such file or directory")
	}
}
