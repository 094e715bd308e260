package reliability

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/benchcli"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestLoadCommand runs `ragd-bench load` (in-process) briefly against a test
// server: it seeds, drives all three operations and reports percentiles,
// errors and the server's RSS (scraped from /metrics); a usage error exits 2.
func TestLoadCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the database")
	}
	t.Parallel()
	s := newServer(t, options{})
	tn := testdb.NewTenant(t, "load", "")
	ed := token(t, tn.ID, auth.RoleEditor)
	run := func(args ...string) (int, string) {
		var out bytes.Buffer
		code := benchcli.Run(context.Background(), args, func(string) string { return "" }, &out, &out)
		return code, out.String()
	}
	code, out := run("load", "--url", s.URL, "--token", ed, "--rate", "25", "--duration", "1500ms", "--report", "1s",
		"--seed-docs", "4", "--mix", "60,20,20", "--markdown")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{"seeded 4 documents", "| search |", "| answer |", "| ingest |", "| all |", "server RSS:", "p99: search "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code, out := run("load", "--url", s.URL, "--token", ed, "--mix", "50,50,50"); code != 2 {
		t.Errorf("bad --mix: exit %d\n%s", code, out)
	}
	if c := countRows(t, tn.ID); c.Docs < 4 {
		t.Errorf("%d documents after seeding 4", c.Docs)
	}
	consistency(t, tn.ID)
}
