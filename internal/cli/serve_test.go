package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/cli"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/testdb"
	"github.com/ragd-dev/ragd/internal/vindex"
)

func runCLI(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Run(t.Context(), args, func(k string) string { return env[k] }, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestOpenAPICommand(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, nil, "openapi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		OpenAPI string         `json:"openapi"`
		Paths   map[string]any `json:"paths"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.OpenAPI != "3.1.0" || doc.Paths["/v1/search"] == nil {
		t.Fatalf("openapi: %v %+v", err, doc)
	}
}

// TestConfigCommand: `ragd config` prints the effective settings with
// secrets redacted, and exits non-zero when one is out of range.
func TestConfigCommand(t *testing.T) {
	t.Parallel()
	const secret = "cfg-test-secret-0123456789abcdef0123456789"
	code, out, errOut := runCLI(t, map[string]string{"RAGD_JWT_SECRET": secret, "RAGD_KEYWORD_PER_TERM": "300"}, "config")
	if code != 0 || !strings.Contains(out, "RAGD_KEYWORD_PER_TERM=300") || strings.Contains(out, secret) || strings.Contains(out, "# problems") {
		t.Fatalf("valid settings: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, v := range []string{"5", "20000"} {
		code, out, _ := runCLI(t, map[string]string{"RAGD_KEYWORD_PER_TERM": v}, "config")
		if code == 0 || !strings.Contains(out, "RAGD_KEYWORD_PER_TERM must be in 10..10000, got "+v) {
			t.Errorf("RAGD_KEYWORD_PER_TERM=%s: exit %d, stdout %q; want a non-zero exit naming the problem", v, code, out)
		}
	}
	// Each problem names its own variable, and only that one.
	code, out, _ = runCLI(t, map[string]string{"RAGD_MAX_TOP_K": "0"}, "config")
	if code == 0 || !strings.Contains(out, "RAGD_MAX_TOP_K must be in 1..1000, got 0") || strings.Contains(out, "RAGD_MAX_QUERY_CHARS must") {
		t.Errorf("RAGD_MAX_TOP_K=0: exit %d, stdout %q; want the problem named alone", code, out)
	}
	for msg, vars := range map[string]map[string]string{
		"RAGD_EMBED_TEXT must be heading+content or content":                          {"RAGD_EMBED_TEXT": "title"},
		"RAGD_CHUNK_MAX_TOKENS (100) must be at least RAGD_CHUNK_TARGET_TOKENS (500)": {"RAGD_CHUNK_TARGET_TOKENS": "500", "RAGD_CHUNK_MAX_TOKENS": "100"},
		// A port alone had passed here and failed in serve.
		`RAGD_ADDR must be host:port or :port (e.g. 127.0.0.1:8080, :8080), got "18482"`: {"RAGD_ADDR": "18482"},
	} {
		if code, out, _ := runCLI(t, vars, "config"); code == 0 || !strings.Contains(out, msg) {
			t.Errorf("%v: exit %d, stdout %q; want a non-zero exit saying %q", vars, code, out, msg)
		}
	}
}

func TestTokenIssue(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-token", "")
	const secret = "cli-test-secret-0123456789abcdef0123456789"
	env := map[string]string{"RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(), "RAGD_JWT_SECRET": secret,
		"RAGD_JWT_ISSUER": "ragd-dev", "RAGD_JWT_TENANT_CLAIM": "org"}
	code, out, errOut := runCLI(t, env, "token", "issue", "--tenant", tn.Slug, "--role", "editor", "--ttl", "5m")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	v, err := auth.New(t.Context(), auth.Options{Secret: secret, Issuer: "ragd-dev", TenantClaim: "org"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.Verify(t.Context(), strings.TrimSpace(out))
	if err != nil || p.TenantID != tn.ID || p.Role != auth.RoleEditor {
		t.Fatalf("issued token: %+v %v", p, err)
	}
	if code, _, _ := runCLI(t, env, "token", "issue", "--tenant", tn.Slug, "--role", "root"); code != 2 {
		t.Errorf("bad role: exit %d", code)
	}
	if code, _, errOut := runCLI(t, env, "token", "issue", "--tenant", "no-such-tenant-x"); code != 1 || !strings.Contains(errOut, "no tenant") {
		t.Errorf("unknown tenant: exit %d %s", code, errOut)
	}
	// A slug in capitals: the advice names the tenant as it is written,
	// in lower case, not a create command that would be refused.
	if code, _, errOut := runCLI(t, env, "token", "issue", "--tenant", strings.ToUpper(tn.Slug)); code != 1 ||
		!strings.Contains(errOut, fmt.Sprintf("did you mean %q", tn.Slug)) {
		t.Errorf("upper-case slug: exit %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, env, "token", "issue", "--tenant", "No-Such-Tenant-X"); code != 1 ||
		!strings.Contains(errOut, "--slug no-such-tenant-x ") {
		t.Errorf("upper-case unknown slug: exit %d %s", code, errOut)
	}
	// A tenant's id where its slug goes names the tenant it belongs to; an
	// unknown id gets no advice to create a tenant with it for slug.
	if code, _, errOut := runCLI(t, env, "token", "issue", "--tenant", tn.ID.String()); code != 1 ||
		!strings.Contains(errOut, fmt.Sprintf("the id of tenant %q", tn.Slug)) {
		t.Errorf("tenant id for slug: exit %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, env, "token", "issue", "--tenant", "11111111-2222-3333-4444-555555555555"); code != 1 ||
		strings.Contains(errOut, "tenant create") || !strings.Contains(errOut, "tenant list") {
		t.Errorf("unknown id for slug: exit %d %s", code, errOut)
	}
	delete(env, "RAGD_JWT_SECRET")
	if code, _, errOut := runCLI(t, env, "token", "issue", "--tenant", tn.Slug); code != 1 || !strings.Contains(errOut, "RAGD_JWT_SECRET") {
		t.Errorf("no secret: exit %d %s", code, errOut)
	}
}

func TestServeRefusesWithoutJWTKey(t *testing.T) {
	t.Parallel()
	code, _, errOut := runCLI(t, map[string]string{"RAGD_ADDR": "127.0.0.1:0"}, "serve")
	if code != 1 || !strings.Contains(errOut, "no JWT key") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// TestTenantIndexCommand: `ragd tenant index` builds the dedicated HNSW index
// of a tenant above RAGD_EXACT_THRESHOLD, reports it as JSON, and a second
// run has nothing to do; deleting the tenant drops the index.
func TestTenantIndexCommand(t *testing.T) {
	tt := testdb.NewTenant(t, "cli-index", "")
	testdb.FillVectors(t, tt.ID, 120)
	env := map[string]string{"RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(), "RAGD_DATABASE_URL": testdb.URL(), "RAGD_EXACT_THRESHOLD": "100"}
	name := vindex.Name(tt.ID, 1)
	t.Cleanup(func() { _ = vindex.DropTenant(context.Background(), testdb.Owner(t), tt.ID) })

	for i, want := range []int{1, 0} {
		code, stdout, stderr := runCLI(t, env, "tenant", "index", "--slug", tt.Slug, "--json")
		if code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, code, stderr)
		}
		var changes []vindex.Change
		if err := json.Unmarshal([]byte(stdout), &changes); err != nil {
			t.Fatalf("run %d: %v in %q", i, err, stdout)
		}
		if len(changes) != want {
			t.Fatalf("run %d: %d changes %+v, want %d", i, len(changes), changes, want)
		}
		if want == 1 && (changes[0].Action != "create" || changes[0].Index != name || changes[0].Vectors != 120) {
			t.Errorf("run %d: %+v, want create of %s with 120 vectors", i, changes[0], name)
		}
	}
	var n int
	if err := testdb.Owner(t).QueryRow(context.Background(), "SELECT count(*) FROM pg_class WHERE relname = $1", name).Scan(&n); err != nil || n != 1 {
		t.Fatalf("index %s: %d (%v), want it built", name, n, err)
	}
	if code, _, stderr := runCLI(t, env, "tenant", "delete", "--slug", tt.Slug, "--yes"); code != 0 {
		t.Fatalf("delete: exit %d: %s", code, stderr)
	}
	if err := testdb.Owner(t).QueryRow(context.Background(), "SELECT count(*) FROM pg_class WHERE relname = $1", name).Scan(&n); err != nil || n != 0 {
		t.Errorf("index %s after the tenant's deletion: %d (%v), want it dropped", name, n, err)
	}
}

// TestTenantCreateErrors: `ragd tenant create` says what the database
// refused (the store's ErrConflict and ErrInvalidValue, not SQLSTATEs):
// a taken slug fails (exit 1), a malformed slug is a usage error (exit 2),
// and neither creates a tenant.
func TestTenantCreateErrors(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-create", "")
	env := map[string]string{"RAGD_ADMIN_DATABASE_URL": testdb.AdminURL()}
	code, out, errOut := runCLI(t, env, "tenant", "create", "--slug", tn.Slug, "--name", "again")
	if code != 1 || out != "" || !strings.Contains(errOut, "tenant \""+tn.Slug+"\" already exists") {
		t.Errorf("taken slug: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runCLI(t, env, "tenant", "create", "--slug", "Not_A_Slug", "--name", "x")
	if code != 2 || out != "" || !strings.Contains(errOut, "invalid slug \"Not_A_Slug\"") {
		t.Errorf("malformed slug: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestFilterFlags: search and ask take the same document filters, and
// ingest sets the metadata they select; a --metadata that is not a JSON
// object is a usage error (exit 2, nothing asked or ingested).
func TestFilterFlags(t *testing.T) {
	for _, cmd := range []string{"search", "ask", "ingest"} {
		for _, bad := range []string{"[1]", "{", "null", "3"} {
			code, _, errOut := runCLI(t, nil, cmd, "--tenant", "acme", "--metadata", bad, "question")
			if code != 2 || !strings.Contains(errOut, "--metadata must be a JSON object") {
				t.Errorf("%s --metadata %s: exit %d, stderr %q; want 2 and the reason", cmd, bad, code, errOut)
			}
		}
	}
}

// TestServeWrongPasswordIsNotAMigrationProblem: `ragd serve` with a wrong
// database password reports the authentication failure without the
// "is the database migrated?" hint (kept for a missing schema: the model
// package's TestNewSetHintsMigrateOnlyForAMissingSchema).
func TestServeWrongPasswordIsNotAMigrationProblem(t *testing.T) {
	t.Parallel()
	wrong := strings.Replace(testdb.URL(), "://ragd_app:ragd_app@", "://ragd_app:not-the-password@", 1)
	if wrong == testdb.URL() {
		t.Skip("the test database URL has no ragd_app:ragd_app credentials to alter")
	}
	code, _, errOut := runCLI(t, map[string]string{"RAGD_ADDR": "127.0.0.1:0", "RAGD_DATABASE_URL": wrong,
		"RAGD_JWT_SECRET": strings.Repeat("s", 40), "RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}, "serve")
	if code != 1 || !strings.Contains(errOut, "password authentication failed") || strings.Contains(errOut, "migrate") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}
