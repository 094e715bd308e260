package cli_test

import (
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestHReview32ServeAddrFlagOverridesABadRAGDADDR: `ragd serve --addr`
// is documented as the listen address that replaces RAGD_ADDR, but serve
// validates the environment's RAGD_ADDR, not the address it will listen
// on. What a user sees: with RAGD_ADDR=18482 left in the environment (the
// very mistake the new check is for), `ragd serve --addr 127.0.0.1:9000`
// refuses to start: "configuration: RAGD_ADDR must be host:port or :port
// …, got "18482"" although the address given is valid. (The JWT secret is
// left out so that serve stops at its configuration check; only that
// problem should be named.)
func TestHReview32ServeAddrFlagOverridesABadRAGDADDR(t *testing.T) {
	t.Parallel()
	code, _, errOut := runCLI(t, map[string]string{"RAGD_ADDR": "18482"}, "serve", "--addr", "127.0.0.1:0")
	if code == 0 || strings.Contains(errOut, "RAGD_ADDR") {
		t.Errorf("serve --addr 127.0.0.1:0 with RAGD_ADDR=18482: exit %d, stderr %q; want only the missing JWT key source named", code, errOut)
	}
}

// TestHReview32CommandsThatDoNotListenIgnoreRAGDADDR: the RAGD_ADDR check
// sits among the checks every command runs (Validate(false): openDeps,
// ensureIndexes), not among serve's (Validate(true)). What a user sees:
// `ragd ingest`, `ragd search`, `ragd ask` fail with "configuration:
// RAGD_ADDR must be host:port or :port …" although they never listen on
// it (token issue, which does not validate, works).
func TestHReview32CommandsThatDoNotListenIgnoreRAGDADDR(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-addr32", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(), "RAGD_ADDR": "18482"}
	if code, _, errOut := runCLI(t, env, "search", "--tenant", tn.Slug, "anything at all"); strings.Contains(errOut, "RAGD_ADDR") {
		t.Errorf("search with RAGD_ADDR=18482: exit %d, stderr %q; search does not listen", code, errOut)
	}
}
