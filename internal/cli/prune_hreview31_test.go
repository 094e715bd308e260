package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestPruneReplacesUnescapedSpellingUnderSpacedRoot_hreview31: a tenant
// ingested "/home/ann/My Docs" before source_uris were escaped, so its
// documents are "file:///home/ann/My Docs/a.md". After the upgrade,
// `ragd ingest --prune "/home/ann/My Docs"` stores the escaped
// "file:///home/ann/My%20Docs/a.md" and, by the commit's promise ("--prune
// replaces the unescaped spelling"), should delete the old one. What the
// user sees: the prune prefix is the escaped root ("…/My%20Docs/"), the old
// documents are not under it, nothing is deleted, and every page is now in
// the tenant twice (duplicate sources in every answer). With --base-uri,
// or a root without a space, the old spelling is deleted.
func TestPruneReplacesUnescapedSpellingUnderSpacedRoot_hreview31(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tn := testdb.NewTenant(t, "hr31-prune-space", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "My Docs")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	text := "# A\n\nThe first page of the handbook."
	if err := os.WriteFile(filepath.Join(root, "a.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	// The document as the previous release stored it: the path unescaped.
	p, tt := localPipeline(t, tn.ID)
	pool := testdb.App(t)
	old := "file://" + filepath.ToSlash(filepath.Join(root, "a.md"))
	if _, err := p.Upsert(ctx, tt, ingest.Document{SourceURI: old, ContentType: "text/markdown", Content: []byte(text), FromFiles: true}); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, "--prune", root)
	if code != 0 {
		t.Fatalf("prune run: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	var uris []string
	err = store.InTenant(ctx, pool, tn.ID, func(tx pgx.Tx) error {
		rows, err := store.New().ListSourceURIs(ctx, tx, store.ListSourceURIsParams{TenantID: tn.ID, Prefix: "file://"})
		for _, r := range rows {
			uris = append(uris, r.SourceUri)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := ingest.FileURI(filepath.Join(root, "a.md"))
	if strings.Join(uris, " ") != want {
		t.Fatalf("documents after `ingest --prune %q`: %q, want only %q (the unescaped spelling replaced)\nstdout: %s", root, uris, want, out)
	}
}
