package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestEndToEnd builds the real binary, starts `ragd serve` against the test
// database as the application role on a free port, and drives it over HTTP
// the way a customer app would.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	t.Parallel()
	a := testdb.NewTenant(t, "e2e-a", "")
	b := testdb.NewTenant(t, "e2e-b", "")
	bin := filepath.Join(t.TempDir(), "ragd")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"),
		"RAGD_DATABASE_URL=" + testdb.URL(), "RAGD_ADMIN_DATABASE_URL=" + testdb.AdminURL(),
		"RAGD_ADDR=127.0.0.1:0", "RAGD_JWT_SECRET=e2e-secret-0123456789abcdef0123456789abcdef",
		"RAGD_MODEL_DIR=" + embed.DefaultModelDir(os.Getenv), "RAGD_LOG_LEVEL=info",
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("ragd %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return strings.TrimSpace(string(out))
	}
	edA := run("token", "issue", "--tenant", a.Slug, "--role", "editor", "--ttl", "10m")
	rdB := run("token", "issue", "--tenant", b.Slug, "--role", "reader")

	// The server refuses to run as a role that could bypass row-level security.
	unsafe := exec.Command(bin, "serve")
	unsafe.Env = append(append([]string{}, env...), "RAGD_DATABASE_URL="+testdb.AdminURL())
	if out, err := unsafe.CombinedOutput(); err == nil || !strings.Contains(string(out), "refusing to serve") {
		t.Fatalf("serve as the owner role: %v\n%s", err, out)
	}

	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	srv := exec.CommandContext(ctx, bin, "serve")
	srv.Env = env
	var logs bytes.Buffer
	srv.Stderr = &logs
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	t.Cleanup(func() {
		srv.Process.Kill()
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	base := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "ragd: listening on "); ok {
				base <- u
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	var url string
	select {
	case url = <-base:
	case err := <-exited:
		t.Fatalf("server exited: %v\n%s", err, logs.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("server did not start\n%s", logs.String())
	}

	call := func(method, path, token string, body any, want int) map[string]any {
		t.Helper()
		var rd io.Reader
		if body != nil {
			raw, _ := json.Marshal(body)
			rd = bytes.NewReader(raw)
		}
		req, _ := http.NewRequestWithContext(ctx, method, url+path, rd)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != want {
			t.Fatalf("%s %s: %d, want %d: %s", method, path, resp.StatusCode, want, raw)
		}
		var v map[string]any
		if len(raw) > 0 && raw[0] == '{' {
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Fatalf("%s %s: %v: %s", method, path, err, raw)
			}
		}
		return v
	}

	call("GET", "/healthz", "", nil, 200)
	if r := call("GET", "/readyz", "", nil, 200); r["status"] != "ready" {
		t.Fatalf("readyz: %v", r)
	}
	call("GET", "/v1/documents", "", nil, 401)
	doc := call("PUT", "/v1/documents", edA, map[string]any{"source_uri": "guide/vacuum.md", "content_type": "markdown",
		"content": "# Vacuum\n\nVACUUM reclaims storage occupied by dead tuples. Run VACUUM ANALYZE after bulk loads.\n"}, 200)
	if doc["status"] != "added" {
		t.Fatalf("upsert: %v", doc)
	}
	id := doc["id"].(string)
	sr := call("POST", "/v1/search", edA, map[string]any{"query": "reclaim storage from dead tuples"}, 200)
	results := sr["results"].([]any)
	if len(results) == 0 || results[0].(map[string]any)["source_uri"] != "guide/vacuum.md" {
		t.Fatalf("search: %v", sr)
	}
	ans := call("POST", "/v1/answer", edA, map[string]any{"question": "What does VACUUM reclaim?"}, 200)
	if _, ok := ans["citations"]; !ok {
		t.Fatalf("answer: %v", ans)
	}

	// Tenant B sees none of it.
	call("GET", "/v1/documents/"+id, rdB, nil, 404)
	if sr := call("POST", "/v1/search", rdB, map[string]any{"query": "reclaim storage from dead tuples"}, 200); len(sr["results"].([]any)) != 0 {
		t.Fatalf("B's search: %v", sr)
	}
	call("DELETE", "/v1/documents/"+id, rdB, nil, 403) // a reader may not delete
	call("GET", "/v1/documents/"+id, edA, nil, 200)

	// The served OpenAPI document is the committed one.
	served := call("GET", "/openapi.json", "", nil, 200)
	committed := map[string]any{}
	if raw, err := api.OpenAPIJSON(); err != nil || json.Unmarshal(raw, &committed) != nil {
		t.Fatal(err)
	}
	s1, _ := json.Marshal(served)
	s2, _ := json.Marshal(committed)
	if !bytes.Equal(s1, s2) {
		t.Error("the served OpenAPI document differs from `ragd openapi`")
	}

	// Graceful stop on SIGINT.
	if err := srv.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("server exit: %v\n%s", err, logs.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("server did not stop on SIGINT")
	}
}
