package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/model"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/vindex"
)

// runTenantModel is `ragd tenant set-model` and `ragd tenant
// drop-model-vectors`, as the owner role.
//
// set-model records the target model; with --wait the command itself
// re-embeds the tenant's stored chunks (resuming whatever an earlier run or
// the server did), builds the tenant's HNSW index of the target when the
// tenant is past RAGD_EXACT_THRESHOLD, and flips. Without --wait a running
// `ragd serve` does the re-embed and the flip in the background from the
// tenant's next request on (it cannot build an index: for a tenant past
// the threshold, `ragd tenant index` builds it and the flip follows).
func runTenantModel(ctx context.Context, e *env, action string, args []string) error {
	usage := tenantUsage(action)
	fs := newFlags(e, "tenant "+action, usage)
	slug := fs.String("tenant", "", "tenant slug")
	fs.StringVar(slug, "slug", "", "tenant slug (alias of --tenant)")
	var name *string
	wait := new(bool)
	if action == "set-model" {
		name = fs.String("model", "", "registered model name to switch to")
		wait = fs.Bool("wait", false, "re-embed, build the index and flip in this command")
	} else {
		name = fs.String("model", "", "the model whose vectors to drop (default: the model the last switch replaced)")
	}
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *slug == "" || (action == "set-model" && *name == "") {
		return usagef("%s", usage)
	}
	if err := e.cfg.Validate(false); err != nil {
		return usagef("configuration: %v", err)
	}
	pool, err := store.Open(ctx, e.cfg.AdminDatabaseURL, store.Options{MaxConns: 4, Logger: e.log})
	if err != nil {
		return err
	}
	defer pool.Close()
	row, err := tenantBySlug(ctx, pool, *slug)
	if err != nil {
		return err
	}
	set, err := model.NewSet(ctx, pool, e.cfg, nil, e.log)
	if err != nil {
		return err
	}
	if action == "drop-model-vectors" {
		return dropModelVectors(ctx, e, pool, set, row.ID, *slug, *name)
	}
	m, switching, was, err := set.SetTargetCancelling(ctx, pool, row.ID, *name)
	if err != nil {
		return err
	}
	if !switching {
		if was != 0 {
			prev, err := model.ByID(ctx, pool, was)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "tenant %s: switch to %s cancelled; %s stays its active model (the partial %s vectors are dropped by the next background run)\n",
				*slug, prev.Name, m.Name, prev.Name)
			return nil
		}
		fmt.Fprintf(e.stderr, "tenant %s: %s is its active model already (no switch in progress)\n", *slug, m.Name)
		return nil
	}
	if !*wait {
		fmt.Fprintf(e.stderr, "tenant %s: switching to %s; a running `ragd serve` re-embeds from the tenant's next request on, "+
			"or run this command with --wait; `ragd tenant show --tenant %s` shows the progress\n", *slug, m.Name, *slug)
		return nil
	}
	opts := model.OptionsFromConfig(e.cfg)
	opts.Logger = e.log
	opts.IndexReady = func(ctx context.Context, tenantID uuid.UUID, modelID int16, vectors int64) (bool, error) {
		if vectors <= e.cfg.ExactThreshold {
			return true, nil
		}
		if _, err := ensureIndexes(ctx, e, pool, tenantID, false); err != nil {
			return false, err
		}
		return vindex.Built(ctx, pool, tenantID, modelID)
	}
	var last time.Time
	flipped, err := model.NewSwitcher(set, pool, opts).Run(ctx, row.ID, func(p model.Progress) {
		if time.Since(last) >= time.Second || p.Embedded == p.Chunks {
			last = time.Now()
			fmt.Fprintf(e.stderr, "re-embed %s: %d of %d chunks\n", p.Target, p.Embedded, p.Chunks)
		}
	})
	if err != nil {
		return fmt.Errorf("tenant %s: switch to %s: %w (run the command again to continue)", *slug, m.Name, err)
	}
	fmt.Fprintf(e.stdout, "tenant %s now searches with %s; the previous model's vectors are kept for %s "+
		"(`ragd tenant drop-model-vectors --tenant %s` drops them now)\n", *slug, flipped.Name, e.cfg.ModelGrace, *slug)
	return nil
}

// dropModelVectors deletes the tenant's vectors of a model that is neither
// its active nor its target model (default: the one the last switch
// replaced), then drops the tenant's HNSW index of it.
func dropModelVectors(ctx context.Context, e *env, pool *pgxpool.Pool, set *model.Set, tenantID uuid.UUID, slug, name string) error {
	var id int16
	if name == "" {
		t, err := tenant.Load(ctx, pool, tenantID)
		if err != nil && !errors.Is(err, tenant.ErrDisabled) {
			return err
		}
		if t.PreviousModelID == 0 {
			return fmt.Errorf("tenant %s keeps no replaced model's vectors; name one with --model", slug)
		}
		id = t.PreviousModelID
	} else {
		m, err := model.ByName(ctx, pool, name)
		if err != nil {
			return err
		}
		id = m.ID
	}
	n, err := set.DropVectors(ctx, pool, tenantID, id)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "tenant %s: %d vectors of model %d dropped\n", slug, n, id)
	_, err = ensureIndexes(ctx, e, pool, tenantID, false)
	return err
}

// tenantModelStatus is the "models" part of `ragd tenant show`.
func tenantModelStatus(ctx context.Context, e *env, pool *pgxpool.Pool, id uuid.UUID) (any, error) {
	set, err := model.NewSet(ctx, pool, e.cfg, nil, e.log)
	if err != nil {
		return nil, err
	}
	t, err := tenant.Load(ctx, pool, id)
	if err != nil && !errors.Is(err, tenant.ErrDisabled) {
		return nil, err
	}
	st, err := set.StatusOf(ctx, pool, t, e.cfg.ModelGrace)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(mustJSON(st)), nil
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
