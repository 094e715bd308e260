package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretAndItsFileBothSet: a secret given both as a value and as a
// file is refused (which one the operator meant is unknown, and a file
// meant to rotate a key was silently ignored); either alone is read.
func TestSecretAndItsFileBothSet(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(file, []byte("from-the-file-0123456789abcdef0123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	both := env(map[string]string{"RAGD_JWT_SECRET": "from-the-value-0123456789abcdef012", "RAGD_JWT_SECRET_FILE": file})
	if _, err := Load(both); err == nil || !strings.Contains(err.Error(), "RAGD_JWT_SECRET and RAGD_JWT_SECRET_FILE are both set") {
		t.Errorf("both set: %v, want the conflict named", err)
	}
	c, err := Load(env(map[string]string{"RAGD_JWT_SECRET_FILE": file}))
	if err != nil || c.JWTSecret != "from-the-file-0123456789abcdef0123" {
		t.Errorf("file alone: %q, %v", c.JWTSecret, err)
	}
	c, err = Load(env(map[string]string{"RAGD_JWT_SECRET": "from-the-value-0123456789abcdef012"}))
	if err != nil || c.JWTSecret != "from-the-value-0123456789abcdef012" {
		t.Errorf("value alone: %q, %v", c.JWTSecret, err)
	}
}
