package provision

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/app"
	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/vindex"
)

// ApplyWorkers is the number of documents Apply keeps in flight per source.
const ApplyWorkers = 2

// Errors of Apply besides Create's.
var (
	// ErrLanguageChange: the manifest's language differs from the existing
	// tenant's; changing it needs a re-index of every chunk.
	ErrLanguageChange = errors.New("changing a tenant's language needs a re-index (delete and re-apply the tenant)")
	// ErrModelMismatch: the manifest names an embedding model other than the
	// tenant's active one.
	ErrModelMismatch = errors.New("embedding model mismatch")
	// ErrFilesFailed: some files of the sources could not be ingested; the
	// rest of the manifest was applied.
	ErrFilesFailed = errors.New("files failed")
)

// SetError is an evaluation set that could not be read or loaded: Path is
// the file, Err the cause (an *eval.ValidationError for bad questions).
type SetError struct {
	Path string
	Err  error
}

func (e *SetError) Error() string { return fmt.Sprintf("evaluation set %s: %v", e.Path, e.Err) }
func (e *SetError) Unwrap() error { return e.Err }

// Hooks report Apply's progress as it goes (each may be nil); Apply runs for
// minutes on a large source, so nothing waits for the end.
type Hooks struct {
	// Tenant: the tenant row was created or found (and renamed if the
	// manifest's name changed).
	Tenant func(id uuid.UUID, slug string, created bool)
	// Progress returns the ingestion progress callback of a source of total
	// files (nil: none).
	Progress func(total int) ingest.Progress
	// Source: one source was ingested: files were read, walked were left
	// out by the walk (also in sum).
	Source func(src Source, files int, walked []ingest.Failure, sum ingest.Summary)
	// IndexWait: another index run holds the lock and Apply waits for it.
	IndexWait func()
	// Indexes: the index policy ran (the changes made, possibly none; err
	// non-nil when it failed after making them).
	Indexes func(changes []vindex.Change, err error)
	// SetLoaded, Tuned, Ran: the evaluation set was loaded, tuned, run.
	SetLoaded func(eval.SetInfo)
	Tuned     func(eval.TuneResult)
	Ran       func(eval.Report)
}

// Apply makes the tenant what its manifest m (ReadManifest(dir)) says; the
// tenant's slug is dir's base name. In this order:
//  1. the tenant row, as the owner role: created when missing (Create),
//     renamed when the manifest's name changed; a different language is
//     ErrLanguageChange;
//  2. the manifest's embedding model, if named, must be the tenant's active
//     model (ErrModelMismatch);
//  3. each source ingested through a's pipeline (unchanged documents are
//     skipped; with prune, documents under base_uri whose file is gone are
//     deleted);
//  4. the index policy (vindex.Due with cfg) for this tenant, before the
//     evaluation, which measures the production path;
//  5. the evaluation set loaded (a new version only when it changed), tuned
//     when the manifest says so, and run through the production path.
//
// Files that fail do not stop the rest: Apply then returns ErrFilesFailed
// (wrapped with the count) after step 5. owner is the owner pool; a is the
// request path on the application role. Errors: Create's,
// ErrLanguageChange, ErrModelMismatch, tenant.ErrDisabled, *SetError,
// ErrFilesFailed, walk, store, index and evaluation errors.
//
// Apply is operator work: it reads and writes every document of the tenant
// (store.AllDocuments), whatever ctx says, so that it can replace
// documents under any access list and its evaluation measures the whole
// corpus.
func Apply(ctx context.Context, owner *pgxpool.Pool, a *app.App, cfg config.Config, dir string, m Manifest, h Hooks) error {
	ctx = store.WithVisibility(ctx, store.AllDocuments())
	dir = filepath.Clean(dir)
	slug := filepath.Base(dir)
	id, err := ensureTenant(ctx, owner, slug, m, h)
	if err != nil {
		return err
	}
	t, err := tenant.Load(ctx, a.Pool, id)
	if err != nil {
		return fmt.Errorf("tenant %q: %w", slug, err)
	}
	if m.EmbeddingModel != "" {
		active, _, err := a.Models.Get(ctx, t.ModelID)
		if err != nil {
			return fmt.Errorf("tenant %q: %w", slug, err)
		}
		if m.EmbeddingModel != active.Name {
			return fmt.Errorf("%w: tenant.yaml wants embedding model %q but the tenant's active model is %q "+
				"(`ragd tenant set-model --tenant %s --model %s --wait` switches it)", ErrModelMismatch, m.EmbeddingModel, active.Name, slug, m.EmbeddingModel)
		}
	}
	failed := 0
	for _, src := range m.Sources {
		n, err := ingestSource(ctx, a, t, dir, src, h)
		if err != nil {
			return err
		}
		failed += n
	}
	changes, err := vindex.Due(ctx, owner, cfg, t.ID, vindex.Run{OnWait: h.IndexWait})
	if h.Indexes != nil {
		h.Indexes(changes, err)
	}
	if err != nil {
		return fmt.Errorf("vector indexes: %w", err)
	}
	if m.Eval != nil {
		if err := applyEval(ctx, a, t, dir, *m.Eval, h); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d %w", failed, ErrFilesFailed)
	}
	return nil
}

// ensureTenant creates or updates the tenant row of the manifest and
// returns its id.
func ensureTenant(ctx context.Context, owner *pgxpool.Pool, slug string, m Manifest, h Hooks) (id uuid.UUID, err error) {
	q := store.New()
	cfgName, _ := TSConfig(m.Language)
	row, err := q.GetTenantBySlug(ctx, owner, slug)
	switch {
	case errors.Is(err, store.ErrNotFound):
		t, err := Create(ctx, owner, slug, m.Name, m.Language)
		if err != nil {
			return id, fmt.Errorf("create tenant %s: %w", slug, err)
		}
		if h.Tenant != nil {
			h.Tenant(t.ID, slug, true)
		}
		return t.ID, nil
	case err != nil:
		return id, err
	}
	if row.TsConfig != cfgName {
		return id, fmt.Errorf("tenant %s uses language %s: %w", slug, row.TsConfig, ErrLanguageChange)
	}
	if row.Name != m.Name {
		err := store.InTenant(ctx, owner, row.ID, func(tx pgx.Tx) error {
			return q.UpdateTenantName(ctx, tx, store.UpdateTenantNameParams{ID: row.ID, Name: m.Name, TsConfig: cfgName})
		})
		if err != nil {
			return id, err
		}
	}
	if h.Tenant != nil {
		h.Tenant(row.ID, slug, false)
	}
	return row.ID, nil
}

// ingestSource ingests one source of the manifest in dir and returns the
// number of files that failed (walk failures included; skipped and refused
// files are not failures).
func ingestSource(ctx context.Context, a *app.App, t tenant.Tenant, dir string, src Source, h Hooks) (int, error) {
	path := src.Path
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	files, walkFails, err := ingest.Walk([]string{path}, ingest.WalkOptions{Include: src.Include, Exclude: src.Exclude, BaseURI: src.BaseURI, Metadata: src.Metadata})
	if err != nil {
		return 0, fmt.Errorf("source %s: %w", src.Path, err)
	}
	for i := range files {
		rel := filepath.Base(files[i].Path)
		if r, err := filepath.Rel(path, files[i].Path); err == nil {
			rel = filepath.ToSlash(r)
		}
		files[i].Access, files[i].SetAccess = src.accessFor(rel)
	}
	var prune ingest.Prune
	if src.Prune {
		root, err := ingest.Root(path)
		if err != nil {
			return 0, fmt.Errorf("source %s: %w", src.Path, err)
		}
		prune = ingest.Prune{Prefix: strings.TrimRight(src.BaseURI, "/") + "/", Roots: []string{root}, Force: src.PruneForce}
	}
	var progress ingest.Progress
	if h.Progress != nil {
		progress = h.Progress(len(files))
	}
	sum, err := a.Pipeline.IngestFiles(ctx, t, files, ApplyWorkers, prune, progress)
	if err != nil {
		return 0, err
	}
	sum.Add(walkFails...)
	if h.Source != nil {
		h.Source(src, len(files), walkFails, sum)
	}
	return sum.Failed, nil
}

// applyEval loads the manifest's evaluation set (a new version only when it
// changed), calibrates fusion and the refusal threshold on it when e.Tune is
// set (every time: whether the set or the corpus changed since the last
// calibration is not tracked, and tuning is cheap, a few seconds per hundred
// questions), and runs it through the production path.
func applyEval(ctx context.Context, a *app.App, t tenant.Tenant, dir string, e Eval, h Hooks) error {
	path := e.Path
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	svc := a.Evaluator
	f, err := os.Open(path)
	if err != nil {
		return &SetError{Path: path, Err: err}
	}
	defer f.Close()
	qs, err := eval.ParseJSONL(f)
	if err != nil {
		return &SetError{Path: path, Err: err}
	}
	info, err := svc.LoadSet(ctx, t, e.Set, qs, eval.LoadOptions{})
	if err != nil {
		return &SetError{Path: path, Err: err}
	}
	if h.SetLoaded != nil {
		h.SetLoaded(info)
	}
	if e.Tune {
		res, err := svc.Tune(ctx, t, eval.TuneOptions{Set: e.Set})
		if err != nil {
			return fmt.Errorf("eval tune: %w", err)
		}
		if h.Tuned != nil {
			h.Tuned(res)
		}
		// The run measures the settings the tuning stored.
		if t, err = tenant.Load(ctx, a.Pool, t.ID); err != nil {
			return err
		}
	}
	r, err := svc.Run(ctx, t, eval.RunOptions{Set: e.Set})
	if err != nil {
		return fmt.Errorf("eval run: %w", err)
	}
	if h.Ran != nil {
		h.Ran(r)
	}
	return nil
}
