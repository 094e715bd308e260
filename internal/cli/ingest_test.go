package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestIngestCommandOutcomes: `ragd ingest` over a tree whose symbolic
// links lead to JavaScript outside it (one dangling) and to a page outside
// it succeeds, reporting the page link as skipped; a file that is not
// UTF-8 fails the run.
func TestIngestCommandOutcomes(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-ingest", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	root, outside := t.TempDir(), t.TempDir()
	for name, text := range map[string]string{"index.html": "<title>Docs</title><p>The documentation index.</p>", "README.txt": "Read me."} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "jquery.js"), []byte("function $(){}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "other.html"), []byte("<p>elsewhere</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"_static/jquery.js": filepath.Join(outside, "jquery.js"),
		"_static/underscore.js": "/nonexistent/underscore.js", "other.html": filepath.Join(outside, "other.html")} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, link)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, root)
	if code != 0 || !strings.Contains(out, "2 added") || !strings.Contains(out, "1 skipped, 0 refused, 0 failed") ||
		!strings.Contains(out, "SKIPPED "+filepath.Join(root, "other.html")) || strings.Contains(out, "jquery") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	// The scripts are not listed one by one, but the run says it passed
	// over them.
	if !strings.Contains(out, "left out 2 files of unsupported types (.js 2)") {
		t.Errorf("the files of unsupported types are not counted:\n%s", out)
	}
	// A UTF-16 mark and an odd byte: damaged (a Latin-1 file is read as
	// Windows-1252 since 2026-12-03).
	if err := os.WriteFile(filepath.Join(root, "damaged.txt"), []byte("\xff\xfeA\x00B"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI(t, env, "ingest", "--tenant", tn.Slug, root)
	if code == 0 || !strings.Contains(out, "2 unchanged") || !strings.Contains(out, "FAILED "+filepath.Join(root, "damaged.txt")) ||
		!strings.Contains(errOut, "1 of 4 files failed") {
		t.Fatalf("with an invalid file: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
}

// TestIngestCommandHeldToQuotas: the operator's `ragd ingest` is held to
// the tenant's storage quotas (here the server's RAGD_QUOTA_DOCUMENTS) like
// every other writer: a file past the quota is reported refused, with the
// reason, and not stored.
func TestIngestCommandHeldToQuotas(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-quota", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv), "RAGD_QUOTA_DOCUMENTS": "1"}
	root := t.TempDir()
	for name, text := range map[string]string{"a.md": "# A\n\nThe first page.", "b.md": "# B\n\nThe second page."} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Both files are written at once (--workers): either may be the one
	// refused.
	code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, root)
	if code != 0 || !strings.Contains(out, "1 added") || !strings.Contains(out, "1 refused") ||
		!strings.Contains(out, "REFUSED "+root+"/") || !strings.Contains(out, "quota exceeded: max_documents 1") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
}

// TestIngestRefusesSourceURICollision: `ragd ingest --base-uri` over two
// directories that both hold index.md fails before writing anything,
// naming both files and the source_uri they share (it used to store one
// and report "1 added, 0 failed").
func TestIngestRefusesSourceURICollision(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-collide", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := os.WriteFile(filepath.Join(dir, "index.md"), []byte("# Index\n\nThe page of "+dir+"."), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, "--base-uri", "https://x.test/", a, b)
	if code != 1 || !strings.Contains(errOut, filepath.Join(a, "index.md")) || !strings.Contains(errOut, filepath.Join(b, "index.md")) ||
		!strings.Contains(errOut, "https://x.test/index.md") || strings.Contains(out, "added") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	var docs int
	err := store.InTenant(context.Background(), testdb.App(t), tn.ID, func(tx pgx.Tx) error {
		return tx.QueryRow(context.Background(), "SELECT count(*) FROM documents").Scan(&docs)
	})
	if err != nil || docs != 0 {
		t.Fatalf("%d documents stored (%v), want none", docs, err)
	}
}

// TestIngestPruneKeepsFilesLeftOutByInclude: `--prune` deletes the
// documents whose file is gone, and names them; a document whose file still
// exists but that this run's --include leaves out is kept (a fresh-user
// trial lost 29 documents this way: prune deleted everything the run had
// not selected).
func TestIngestPruneKeepsFilesLeftOutByInclude(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "cli-prune", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	root := t.TempDir()
	for name, text := range map[string]string{"a.md": "# A\n\nThe first page.", "b.txt": "The notes.", "c.md": "# C\n\nThe third page."} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, "--base-uri", "https://p.test/", root); code != 0 || !strings.Contains(out, "3 added") {
		t.Fatalf("first run: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if err := os.Remove(filepath.Join(root, "c.md")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, "--prune", "--include", "*.md", "--base-uri", "https://p.test/", root)
	if code != 0 || !strings.Contains(out, "1 unchanged, 1 deleted") || !strings.Contains(out, "DELETED https://p.test/c.md") ||
		strings.Contains(out, "b.txt") {
		t.Fatalf("prune run: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	ctx := context.Background()
	var uris []string
	err := store.InTenant(ctx, testdb.App(t), tn.ID, func(tx pgx.Tx) error {
		rows, err := store.New().ListSourceURIs(ctx, tx, store.ListSourceURIsParams{TenantID: tn.ID, Prefix: "https://p.test/"})
		for _, r := range rows {
			uris = append(uris, r.SourceUri)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(uris, " ") != "https://p.test/a.md https://p.test/b.txt" {
		t.Fatalf("documents after prune: %q, want a.md and b.txt", uris)
	}
}
