package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/jackc/pgx/v5"
	"go.yaml.in/yaml/v3"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
)

// manifest is tenants/<slug>/tenant.yaml.
type manifest struct {
	Name           string `yaml:"name"`
	Language       string `yaml:"language"`
	EmbeddingModel string `yaml:"embedding_model"`
	Sources        []struct {
		Path    string   `yaml:"path"`
		Include []string `yaml:"include"`
		Exclude []string `yaml:"exclude"`
		BaseURI string   `yaml:"base_uri"`
		Prune   bool     `yaml:"prune"`
	} `yaml:"sources"`
	Eval *struct {
		Set  string `yaml:"set"`
		Path string `yaml:"path"`
		Tune bool   `yaml:"tune"`
	} `yaml:"eval"`
}

func readManifest(dir string) (manifest, error) {
	var m manifest
	raw, err := os.ReadFile(filepath.Join(dir, "tenant.yaml"))
	if err != nil {
		return m, err
	}
	dec := yaml.NewDecoder(strings.NewReader(string(raw)))
	dec.KnownFields(true)
	if err := dec.Decode(&m); err != nil {
		return m, fmt.Errorf("%s/tenant.yaml: %w", dir, err)
	}
	if m.Name == "" {
		return m, fmt.Errorf("%s/tenant.yaml: name is required", dir)
	}
	if m.Language == "" {
		m.Language = "english"
	}
	if _, ok := languages[m.Language]; !ok {
		return m, fmt.Errorf("%s/tenant.yaml: language %q (want english or simple)", dir, m.Language)
	}
	for i, s := range m.Sources {
		if s.Path == "" {
			return m, fmt.Errorf("%s/tenant.yaml: sources[%d].path is required", dir, i)
		}
		if s.Prune && s.BaseURI == "" {
			return m, fmt.Errorf("%s/tenant.yaml: sources[%d]: prune needs base_uri", dir, i)
		}
	}
	if m.Eval != nil && m.Eval.Set == "" {
		m.Eval.Set = "default"
	}
	return m, nil
}

// runTenantApply: `ragd tenant apply tenants/<slug>` creates or updates the
// tenant from its manifest, ingests its sources idempotently, loads its
// evaluation set and prints the evaluation summary.
func runTenantApply(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "tenant apply", "tenant apply tenants/<slug>")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("tenant apply tenants/<slug>")
	}
	dir := filepath.Clean(pos[0])
	slug := filepath.Base(dir)
	m, err := readManifest(dir)
	if err != nil {
		return err
	}
	admin, err := store.Open(ctx, e.cfg.AdminDatabaseURL, store.Options{MaxConns: 2, Logger: e.log})
	if err != nil {
		return err
	}
	defer admin.Close()
	q := store.New()
	cfgName := languages[m.Language]
	row, err := q.GetTenantBySlug(ctx, admin, slug)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		t, err := q.CreateTenant(ctx, admin, store.CreateTenantParams{Slug: slug, Name: m.Name, TsConfig: cfgName})
		if err != nil {
			return fmt.Errorf("create tenant %s: %w", slug, err)
		}
		fmt.Fprintf(e.stdout, "tenant %s created (%s)\n", slug, t.ID)
	case err != nil:
		return err
	default:
		if row.TsConfig != cfgName {
			return fmt.Errorf("tenant %s uses language %s; changing it needs a re-index (delete and re-apply the tenant)", slug, row.TsConfig)
		}
		if row.Name != m.Name {
			err := store.InTenant(ctx, admin, row.ID, func(tx pgx.Tx) error {
				return q.UpdateTenantName(ctx, tx, store.UpdateTenantNameParams{ID: row.ID, Name: m.Name, TsConfig: cfgName})
			})
			if err != nil {
				return err
			}
		}
		fmt.Fprintf(e.stdout, "tenant %s exists (%s)\n", slug, row.ID)
	}
	d, err := openDeps(ctx, e)
	if err != nil {
		return err
	}
	defer d.close()
	if m.EmbeddingModel != "" && m.EmbeddingModel != d.embedder.Model() {
		return fmt.Errorf("tenant.yaml wants embedding model %q but ragd is configured with %q", m.EmbeddingModel, d.embedder.Model())
	}
	t, err := d.tenantFor(ctx, e, slug)
	if err != nil {
		return err
	}
	failed := 0
	for _, src := range m.Sources {
		path := src.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		files, walkFails, err := ingest.Walk([]string{path}, ingest.WalkOptions{Include: src.Include, Exclude: src.Exclude, BaseURI: src.BaseURI})
		if err != nil {
			return fmt.Errorf("source %s: %w", src.Path, err)
		}
		prefix := ""
		if src.Prune {
			prefix = strings.TrimRight(src.BaseURI, "/") + "/"
		}
		sum, err := d.pipeline.IngestFiles(ctx, t, files, 2, prefix, progressFor(e, len(files)))
		if err != nil {
			return err
		}
		sum.Failures = append(walkFails, sum.Failures...)
		sum.Failed += len(walkFails)
		failed += sum.Failed
		fmt.Fprintf(e.stdout, "source %s: %d files: %d added, %d updated, %d unchanged, %d deleted, %d failed; %d chunks (%d embedded) in %s\n",
			src.Path, len(files), sum.Added, sum.Updated, sum.Unchanged, sum.Deleted, sum.Failed, sum.Chunks, sum.Embedded, sum.Elapsed.Round(1e6))
		for _, f := range sum.Failures {
			fmt.Fprintf(e.stdout, "  FAILED %s: %s\n", f.Path, f.Reason)
		}
	}
	// Before the evaluation, which measures the production path: a tenant that
	// grew past the exact threshold gets its dedicated HNSW index here.
	if _, err := ensureIndexes(ctx, e, admin, t.ID, false); err != nil {
		return err
	}
	if m.Eval != nil {
		if err := applyEval(ctx, e, d, t, dir, m.Eval.Set, m.Eval.Path, m.Eval.Tune); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d files failed", failed)
	}
	return nil
}
