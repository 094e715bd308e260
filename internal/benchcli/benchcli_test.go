package benchcli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func run(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := Run(context.Background(), args, func(string) string { return "" }, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestHelpAndUnknown(t *testing.T) {
	t.Parallel()
	code, out, _ := run("help")
	if code != 0 || !strings.Contains(out, "bench") || !strings.Contains(out, "load") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
	if code, _, errOut := run("serve"); code != 2 || !strings.Contains(errOut, `unknown command "serve"`) {
		t.Errorf("serve: exit %d\n%s", code, errOut)
	}
}

// TestUsageErrors: flags that cannot work exit 2 before anything connects.
func TestUsageErrors(t *testing.T) {
	t.Parallel()
	empty := filepath.Join(t.TempDir(), "empty.txt")
	if err := os.WriteFile(empty, []byte("# nothing\n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, args := range map[string][]string{
		"bench: fewer chunks than tenants": {"bench", "--chunks", "5", "--tenants", "10"},
		"bench: concurrency":               {"bench", "--concurrency", "1,x"},
		"bench: positional argument":       {"bench", "extra"},
		"load: mix":                        {"load", "--token", "t", "--mix", "50,50,50"},
		"load: no token":                   {"load"},
		"load: rate":                       {"load", "--token", "t", "--rate", "0"},
		"load: no questions":               {"load", "--token", "t", "--queries", empty},
	} {
		if code, _, errOut := run(args...); code != 2 {
			t.Errorf("%s: exit %d, want 2\n%s", name, code, errOut)
		}
	}
}
