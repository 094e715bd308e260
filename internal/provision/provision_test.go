package provision_test

import (
	"context"
	"encoding/json"
	"errors"
	"hash/fnv"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/app"
	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/provision"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
	"github.com/ragd-dev/ragd/internal/vindex"
)

// embedServer is an OpenAI-compatible embeddings API in process: each text
// gets a reproducible 512-dimension vector drawn from its hash, under the
// registered model name use-lite.
func embedServer(t *testing.T) embed.Embedder {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		out := struct {
			Data []item `json:"data"`
		}{}
		for i, text := range req.Input {
			h := fnv.New64a()
			h.Write([]byte(text))
			rng := rand.New(rand.NewPCG(h.Sum64(), 1))
			v := make([]float32, 512)
			for j := range v {
				v[j] = float32(rng.Float64() - 0.5)
			}
			out.Data = append(out.Data, item{Index: i, Embedding: v})
		}
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	emb, err := embed.NewOpenAI(srv.URL+"/v1", embed.LocalModelName, 512)
	if err != nil {
		t.Fatal(err)
	}
	return emb
}

func newApp(t *testing.T) (*app.App, config.Config) {
	t.Helper()
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	// Two documents of a few chunks each: past a threshold of 1, the tenant
	// is due its dedicated index.
	cfg.ExactThreshold = 1
	a, err := app.New(context.Background(), cfg, testdb.App(t), app.WithEmbedder(embedServer(t)), app.WithLLM(nil), app.WithReranker(nil))
	if err != nil {
		t.Fatal(err)
	}
	return a, cfg
}

// deleteOnCleanup deletes tenant slug (if it exists) and its indexes when
// the test ends.
func deleteOnCleanup(t *testing.T, slug string) {
	t.Cleanup(func() {
		ctx := context.Background()
		owner := testdb.Owner(t)
		row, err := store.New().GetTenantBySlug(ctx, owner, slug)
		if err != nil {
			return
		}
		if _, err := store.New().DeleteTenant(ctx, owner, row.ID); err != nil {
			t.Errorf("delete %s: %v", slug, err)
		}
		if err := vindex.DropTenant(ctx, owner, row.ID); err != nil {
			t.Errorf("drop indexes of %s: %v", slug, err)
		}
	})
}

func TestCreate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	owner := testdb.Owner(t)
	slug := "prov-create-" + uuid.NewString()[:8]
	deleteOnCleanup(t, slug)
	row, err := provision.Create(ctx, owner, slug, "Created", "simple")
	if err != nil || row.Slug != slug || row.TsConfig != "simple" {
		t.Fatalf("Create: %+v, %v", row, err)
	}
	if _, err := provision.Create(ctx, owner, slug, "Again", "english"); !errors.Is(err, provision.ErrExists) {
		t.Errorf("second Create: %v, want ErrExists", err)
	}
	if _, err := provision.Create(ctx, owner, "Not A Slug", "x", "english"); !errors.Is(err, provision.ErrInvalidSlug) {
		t.Errorf("Create with an invalid slug: %v, want ErrInvalidSlug", err)
	}
	if _, err := provision.Create(ctx, owner, slug+"-x", "x", "klingon"); !errors.Is(err, provision.ErrLanguage) {
		t.Errorf("Create with an unknown language: %v, want ErrLanguage", err)
	}
}

func TestReadManifest(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ yaml, err string }{
		{"name: x\nsurprise: 1\n", "surprise"},
		{"language: english\n", "name is required"},
		{"name: x\nlanguage: klingon\n", "language \"klingon\""},
		{"name: x\nsources:\n  - include: ['*.md']\n", "sources[0].path is required"},
		{"name: x\nsources:\n  - path: d\n    prune: true\n", "prune needs base_uri"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "tenant.yaml"), []byte(c.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := provision.ReadManifest(dir); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %v, want an error naming %q", c.yaml, err, c.err)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tenant.yaml"), []byte("name: x\neval:\n  path: e.jsonl\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := provision.ReadManifest(dir)
	if err != nil || m.Language != "english" || m.Eval == nil || m.Eval.Set != "default" {
		t.Errorf("defaults: %+v, %v; want language english and set default", m, err)
	}
	// A source's metadata (a JSON-able object) goes with its documents.
	if err := os.WriteFile(filepath.Join(dir, "tenant.yaml"),
		[]byte("name: x\nsources:\n  - path: d\n    metadata:\n      product: console\n      tier: [pro, team]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err = provision.ReadManifest(dir)
	if err != nil || len(m.Sources) != 1 {
		t.Fatalf("metadata manifest: %+v, %v", m, err)
	}
	if raw, err := json.Marshal(m.Sources[0].Metadata); err != nil || string(raw) != `{"product":"console","tier":["pro","team"]}` {
		t.Errorf("source metadata %s, %v", raw, err)
	}
}

// applied is what one Apply reported through its hooks.
type applied struct {
	created  *bool
	sources  []ingest.Summary
	changes  []vindex.Change
	set      *eval.SetInfo
	ran      *eval.Report
	indexRan bool
}

func hooks(got *applied) provision.Hooks {
	return provision.Hooks{
		Tenant: func(_ uuid.UUID, _ string, created bool) { got.created = &created },
		Source: func(_ provision.Source, _ int, _ []ingest.Failure, sum ingest.Summary) {
			got.sources = append(got.sources, sum)
		},
		Indexes:   func(c []vindex.Change, _ error) { got.changes, got.indexRan = c, true },
		SetLoaded: func(info eval.SetInfo) { got.set = &info },
		Ran:       func(r eval.Report) { got.ran = &r },
	}
}

// TestApply: a manifest creates the tenant, ingests its source, builds the
// index the policy makes due, loads and runs the evaluation set; applied
// again it changes nothing; a failing file fails the apply after the rest
// ran; a changed language or another embedding model is refused.
func TestApply(t *testing.T) {
	ctx := context.Background()
	owner := testdb.Owner(t)
	a, cfg := newApp(t)
	slug := "prov-apply-" + uuid.NewString()[:8]
	deleteOnCleanup(t, slug)
	dir := filepath.Join(t.TempDir(), slug)
	docs := filepath.Join(dir, "docs")
	if err := os.MkdirAll(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(docs, "vacuum.md"), "# Vacuum\n\nVACUUM reclaims storage occupied by dead tuples.\n\n## Autovacuum\n\nThe autovacuum daemon runs VACUUM automatically.\n")
	write(filepath.Join(docs, "index.md"), "# Indexes\n\nA B-tree index speeds up equality and range queries.\n\n## GIN\n\nGIN indexes serve full-text search.\n")
	write(filepath.Join(dir, "eval.jsonl"), `{"question": "What reclaims storage of dead tuples?", "relevant": ["https://t.example/vacuum.md"]}
{"question": "Which index serves full-text search?", "relevant": ["https://t.example/index.md"]}
`)
	manifest := "name: Apply test\nlanguage: english\nembedding_model: use-lite\nsources:\n  - path: docs\n    include: ['*.md']\n    base_uri: https://t.example/\n    prune: true\neval:\n  path: eval.jsonl\n"
	write(filepath.Join(dir, "tenant.yaml"), manifest)
	m, err := provision.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}

	var first applied
	if err := provision.Apply(ctx, owner, a, cfg, dir, m, hooks(&first)); err != nil {
		t.Fatal(err)
	}
	row, err := store.New().GetTenantBySlug(ctx, owner, slug)
	if err != nil || row.Name != "Apply test" {
		t.Fatalf("tenant row: %+v, %v", row, err)
	}
	if first.created == nil || !*first.created || len(first.sources) != 1 || first.sources[0].Added != 2 {
		t.Errorf("first apply: created %v, sources %+v; want created and 2 added", first.created, first.sources)
	}
	if len(first.changes) != 1 || first.changes[0].Action != "create" || first.changes[0].Index != vindex.Name(row.ID, a.ModelID) {
		t.Errorf("first apply: index changes %+v, want the create of %s", first.changes, vindex.Name(row.ID, a.ModelID))
	}
	if first.set == nil || first.set.Questions != 2 || first.ran == nil || first.ran.Questions != 2 {
		t.Errorf("first apply: set %+v, run %+v; want 2 questions loaded and run", first.set, first.ran)
	}

	var second applied
	if err := provision.Apply(ctx, owner, a, cfg, dir, m, hooks(&second)); err != nil {
		t.Fatal(err)
	}
	if second.created == nil || *second.created || len(second.sources) != 1 || second.sources[0].Unchanged != 2 || second.sources[0].Added != 0 {
		t.Errorf("second apply: created %v, sources %+v; want existing and 2 unchanged", second.created, second.sources)
	}
	if !second.indexRan || len(second.changes) != 0 || second.set == nil || second.set.Version != first.set.Version {
		t.Errorf("second apply: index ran %v changes %+v, set %+v; want no change and the same set version %d", second.indexRan, second.changes, second.set, first.set.Version)
	}

	// An empty file fails; the evaluation still runs.
	write(filepath.Join(docs, "empty.md"), "")
	var third applied
	err = provision.Apply(ctx, owner, a, cfg, dir, m, hooks(&third))
	if !errors.Is(err, provision.ErrFilesFailed) || third.ran == nil {
		t.Errorf("apply with an empty file: %v, run %v; want ErrFilesFailed after the run", err, third.ran != nil)
	}

	m.Language = "simple"
	if err := provision.Apply(ctx, owner, a, cfg, dir, m, provision.Hooks{}); !errors.Is(err, provision.ErrLanguageChange) {
		t.Errorf("changed language: %v, want ErrLanguageChange", err)
	}
	m.Language, m.EmbeddingModel = "english", "text-embedding-3-small"
	if err := provision.Apply(ctx, owner, a, cfg, dir, m, provision.Hooks{}); !errors.Is(err, provision.ErrModelMismatch) {
		t.Errorf("another embedding model: %v, want ErrModelMismatch", err)
	}
}

// TestApplyAccessRules: a source's access list and its per-glob rules give
// the documents their lists; a re-apply whose manifest no longer states a
// list keeps the stored ones; one that states another list changes it.
func TestApplyAccessRules(t *testing.T) {
	ctx := context.Background()
	owner := testdb.Owner(t)
	a, cfg := newApp(t)
	slug := "prov-acl-" + uuid.NewString()[:8]
	deleteOnCleanup(t, slug)
	dir := filepath.Join(t.TempDir(), slug)
	for _, d := range []string{"docs/hr", "docs/eng"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("docs/hr/pay.md", "# Pay\n\nSalaries are paid monthly.\n")
	write("docs/eng/deploy.md", "# Deploy\n\nDeploys run on Tuesdays.\n")
	write("docs/index.md", "# Index\n\nWelcome.\n")
	apply := func(manifest string) map[string][]string {
		t.Helper()
		write("tenant.yaml", manifest)
		m, err := provision.ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := provision.Apply(ctx, owner, a, cfg, dir, m, provision.Hooks{}); err != nil {
			t.Fatal(err)
		}
		row, err := store.New().GetTenantBySlug(ctx, owner, slug)
		if err != nil {
			t.Fatal(err)
		}
		all := store.WithVisibility(ctx, store.AllDocuments())
		out := map[string][]string{}
		err = store.InTenant(all, testdb.App(t), row.ID, func(tx pgx.Tx) error {
			docs, err := store.New().ListSourceURIs(all, tx, store.ListSourceURIsParams{TenantID: row.ID, Prefix: ""})
			if err != nil {
				return err
			}
			ids := make([]uuid.UUID, len(docs))
			for i, d := range docs {
				ids[i] = d.ID
			}
			acl, err := store.DocumentAccess(all, tx, row.ID, ids)
			for _, d := range docs {
				out[strings.TrimPrefix(d.SourceUri, "https://t.example/")] = acl[d.ID]
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	src := "name: ACL\nsources:\n  - path: docs\n    base_uri: https://t.example/\n"
	check := func(label string, got map[string][]string, want map[string]string) {
		t.Helper()
		for uri, w := range want {
			if g := strings.Join(got[uri], ","); g != w {
				t.Errorf("%s: %s has access %q, want %q", label, uri, g, w)
			}
		}
	}
	got := apply(src + "    access: ['group:staff']\n    access_rules:\n      - glob: 'hr/**'\n        access: ['group:hr', 'user:boss']\n      - glob: 'eng/*.md'\n        access: []\n")
	check("first apply", got, map[string]string{"hr/pay.md": "group:hr,user:boss", "eng/deploy.md": "", "index.md": "group:staff"})
	// The manifest no longer states any list: unchanged files keep theirs.
	got = apply(src)
	check("re-apply without access", got, map[string]string{"hr/pay.md": "group:hr,user:boss", "eng/deploy.md": "", "index.md": "group:staff"})
	// A changed file without a stated list keeps its list too.
	write("docs/hr/pay.md", "# Pay\n\nSalaries are paid on the last day of the month.\n")
	got = apply(src)
	check("changed file without access", got, map[string]string{"hr/pay.md": "group:hr,user:boss"})
	// A stated list replaces the stored one.
	got = apply(src + "    access: []\n")
	check("access: []", got, map[string]string{"hr/pay.md": "", "eng/deploy.md": "", "index.md": ""})

	// An invalid principal is refused when the manifest is read.
	write("tenant.yaml", src+"    access: ['hr']\n")
	if _, err := provision.ReadManifest(dir); err == nil || !strings.Contains(err.Error(), "sources[0].access") {
		t.Errorf("manifest with access ['hr']: %v, want an error naming sources[0].access", err)
	}
}
