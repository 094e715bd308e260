package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// `ragd ingest --prune` keeps a document the API stored under its prefix
// and says so (KEPT, naming the API), where it used to delete it as "its
// file is gone"; a page whose file is gone is still deleted.
func TestIngestPruneKeepsAPIDocuments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tn := testdb.NewTenant(t, "prune-kept", "")
	env := map[string]string{"RAGD_DATABASE_URL": testdb.URL(), "RAGD_ADMIN_DATABASE_URL": testdb.AdminURL(),
		"RAGD_MODEL_DIR": embed.DefaultModelDir(os.Getenv)}
	root := t.TempDir()
	for name, text := range map[string]string{"a.md": "# A\n\nThe first page.", "b.md": "# B\n\nThe second page."} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const base = "https://kept.test/handbook"
	if code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, "--base-uri", base, "--prune", root); code != 0 {
		t.Fatalf("first run: exit %d\n%s\n%s", code, out, errOut)
	}
	p, tt := localPipeline(t, tn.ID)
	upload := base + "/faq/uploaded.md"
	if _, err := p.Upsert(ctx, tt, ingest.Document{SourceURI: upload, ContentType: "text/markdown", Content: []byte("# FAQ\n\nUploaded through the API.")}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "b.md")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, env, "ingest", "--tenant", tn.Slug, "--base-uri", base, "--prune", root)
	if code != 0 {
		t.Fatalf("prune run: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"1 deleted", "DELETED " + base + "/b.md", "KEPT " + upload + ": ", "the API"} {
		if !strings.Contains(out, want) {
			t.Errorf("prune run's output lacks %q:\n%s", want, out)
		}
	}
	stored, err := p.ListSourceURIs(ctx, tt, base+"/")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := stored[upload]; !ok || len(stored) != 2 {
		t.Errorf("documents after the prune: %v, want a.md and the upload", stored)
	}
}

// localPipeline is an ingest pipeline with the local model over the test
// database as the application role, and tenant id loaded: the writes an
// API server would make.
func localPipeline(t *testing.T, id uuid.UUID) (*ingest.Pipeline, tenant.Tenant) {
	t.Helper()
	ctx := context.Background()
	emb, err := embed.NewLocal(embed.DefaultModelDir(os.Getenv))
	if err != nil {
		t.Fatal(err)
	}
	pool := testdb.App(t)
	m, err := store.New().GetEmbeddingModel(ctx, pool, emb.Model())
	if err != nil {
		t.Fatal(err)
	}
	p, err := ingest.New(pool, emb, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	tt, err := tenant.Load(ctx, pool, id)
	if err != nil {
		t.Fatal(err)
	}
	return p, tt
}
