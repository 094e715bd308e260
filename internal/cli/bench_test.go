package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestBenchCommandsMoved: `ragd bench` and `ragd load` say where the
// commands went, with the arguments the user typed, and exit 2.
func TestBenchCommandsMoved(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"bench", "--chunks", "1000"}, {"load", "--rate", "5"}} {
		var stdout, stderr bytes.Buffer
		code := Run(context.Background(), args, func(string) string { return "" }, strings.NewReader(""), &stdout, &stderr)
		want := "ragd-bench " + strings.Join(args, " ")
		if code != 2 || !strings.Contains(stderr.String(), want) || strings.Contains(stderr.String(), "unknown command") {
			t.Errorf("ragd %v: exit %d, stderr %q; want 2 and a pointer to `%s`", args, code, stderr.String(), want)
		}
	}
}
