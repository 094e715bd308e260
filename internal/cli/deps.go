package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/app"
	"github.com/ragd-dev/ragd/internal/ask"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// deps are the long-lived pieces shared by serve, ingest, search, ask and eval,
// wired by app.New (the fields below are app's, named for the commands).
type deps struct {
	app      *app.App
	pool     *pgxpool.Pool
	embedder embed.Embedder
	modelID  int16
	pipeline *ingest.Pipeline
	searcher *search.Searcher
	asker    *ask.Service
}

// openDeps connects the application-role pool and wires the request path on
// it from the configuration (app.New).
func openDeps(ctx context.Context, e *env) (*deps, error) {
	if err := e.cfg.Validate(false); err != nil {
		return nil, usagef("configuration: %v", err)
	}
	pool, err := store.Open(ctx, e.cfg.DatabaseURL, store.Options{MaxConns: int32(e.cfg.MaxConns), Logger: e.log})
	if err != nil {
		return nil, err
	}
	d := &deps{pool: pool}
	if err := d.init(ctx, e); err != nil {
		pool.Close()
		return nil, err
	}
	return d, nil
}

func (d *deps) init(ctx context.Context, e *env) error {
	a, err := app.New(ctx, e.cfg, d.pool, app.WithLogger(e.log))
	if err != nil {
		return err
	}
	d.app = a
	d.embedder, d.modelID, d.pipeline, d.searcher, d.asker = a.Embedder, a.ModelID, a.Pipeline, a.Searcher, a.Asker
	return nil
}

func (d *deps) close() { d.pool.Close() }

// tenantFor resolves a slug to the tenant (owner pool for the slug lookup,
// then the tenant's own transaction through the application pool).
func (d *deps) tenantFor(ctx context.Context, e *env, slug string) (tenant.Tenant, error) {
	admin, err := store.Open(ctx, e.cfg.AdminDatabaseURL, store.Options{MaxConns: 1, Logger: e.log})
	if err != nil {
		return tenant.Tenant{}, err
	}
	defer admin.Close()
	row, err := tenantBySlug(ctx, admin, slug)
	if err != nil {
		return tenant.Tenant{}, err
	}
	t, err := tenant.Load(ctx, d.pool, row.ID)
	if errors.Is(err, tenant.ErrDisabled) {
		return t, fmt.Errorf("tenant %q is disabled (ragd tenant enable --slug %s)", slug, slug)
	}
	return t, err
}
