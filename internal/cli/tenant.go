package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/google/uuid"
	"text/tabwriter"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/provision"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/vindex"
)

func runTenant(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		return usagef("tenant create|list|show|enable|disable|delete|apply|index|limits|purge-events|set-model|drop-model-vectors")
	}
	action, args := args[0], args[1:]
	if action == "set-model" || action == "drop-model-vectors" {
		return runTenantModel(ctx, e, action, args)
	}
	fs := newFlags(e, "tenant "+action, "tenant "+action+" [flags]")
	slug := fs.String("slug", "", "tenant slug (lowercase letters, digits, dashes)")
	fs.StringVar(slug, "tenant", "", "tenant slug (alias of --slug)")
	name := fs.String("name", "", "display name (create)")
	lang := fs.String("language", "english", "text-search language: english|simple (create)")
	yes := fs.Bool("yes", false, "confirm deletion of every row of the tenant (delete)")
	asJSON := fs.Bool("json", false, "print JSON")
	dryRun := fs.Bool("dry-run", false, "list the vector index changes without making them (index)")
	switch action {
	case "apply":
		return runTenantApply(ctx, e, args)
	case "limits":
		return runTenantLimits(ctx, e, args)
	case "purge-events":
		return runPurgeEvents(ctx, e, args)
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *slug == "" && len(pos) == 1 {
		*slug = pos[0]
	}
	pool, err := store.Open(ctx, e.cfg.AdminDatabaseURL, store.Options{MaxConns: 2, Logger: e.log})
	if err != nil {
		return err
	}
	defer pool.Close()
	q := store.New()
	switch action {
	case "create":
		if *slug == "" || *name == "" {
			return usagef("tenant create --slug <slug> --name <name> [--language english|simple]")
		}
		if _, ok := provision.TSConfig(*lang); !ok {
			return usagef("unknown --language %q (want english or simple)", *lang)
		}
		t, err := provision.Create(ctx, pool, *slug, *name, *lang)
		switch {
		case errors.Is(err, provision.ErrExists):
			return fmt.Errorf("tenant %q already exists", *slug)
		case errors.Is(err, provision.ErrInvalidSlug):
			return usagef("invalid slug %q or name: the slug is lowercase letters, digits and dashes, 1-63 characters; the name 1-200 characters", *slug)
		case err != nil:
			return err
		}
		fmt.Fprintln(e.stdout, t.ID)
		return nil
	case "list":
		ts, err := q.ListTenants(ctx, pool)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(e.stdout).Encode(ts)
		}
		w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "SLUG\tID\tSTATUS\tLANGUAGE\tNAME")
		for _, t := range ts {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", t.Slug, t.ID, t.Status, t.TsConfig, t.Name)
		}
		return w.Flush()
	case "show":
		t, err := tenantBySlug(ctx, pool, *slug)
		if err != nil {
			return err
		}
		var st store.GetTenantStatsRow
		err = store.InTenant(ctx, pool, t.ID, func(tx pgx.Tx) error {
			st, err = q.GetTenantStats(ctx, tx, t.ID)
			return err
		})
		if err != nil {
			return err
		}
		models, err := tenantModelStatus(ctx, e, pool, t.ID)
		if err != nil {
			return err
		}
		out := map[string]any{"id": t.ID, "slug": t.Slug, "name": t.Name, "status": t.Status, "language": t.TsConfig,
			"settings": json.RawMessage(t.Settings), "created_at": t.CreatedAt, "documents": st.DocumentCount, "chunks": st.ChunkCount,
			"models": models}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case "enable", "disable":
		if *slug == "" {
			return usagef("tenant %s --slug <slug>", action)
		}
		status := map[string]string{"enable": "active", "disable": "disabled"}[action]
		t, err := q.SetTenantStatus(ctx, pool, store.SetTenantStatusParams{Slug: *slug, Status: status})
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no tenant %q", *slug)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s %s\n", t.Slug, t.Status)
		return nil
	case "delete":
		if *slug == "" || !*yes {
			return usagef("tenant delete --slug <slug> --yes (purges every row of the tenant)")
		}
		t, err := tenantBySlug(ctx, pool, *slug)
		if err != nil {
			return err
		}
		if _, err := tenant.Purge(ctx, pool, t.ID); err != nil {
			return err
		}
		if err := vindex.DropTenant(ctx, pool, t.ID); err != nil {
			return fmt.Errorf("tenant deleted; dropping its vector indexes failed (ragd tenant index drops them): %w", err)
		}
		fmt.Fprintf(e.stdout, "deleted tenant %s (%s) and all its data\n", t.Slug, t.ID)
		return nil
	case "index":
		if len(pos) > 1 || (len(pos) == 1 && pos[0] != *slug) {
			return usagef("tenant index [--slug <slug>] [--dry-run] [--json]: unexpected arguments %q", pos)
		}
		var only uuid.UUID
		if *slug != "" {
			t, err := tenantBySlug(ctx, pool, *slug)
			if err != nil {
				return err
			}
			only = t.ID
		}
		changes, err := ensureIndexes(ctx, e, pool, only, *dryRun)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(e.stdout).Encode(changes)
		}
		if len(changes) == 0 {
			fmt.Fprintln(e.stderr, "vector indexes: up to date")
		}
		return nil
	}
	return usagef("unknown tenant action %q", action)
}

// ensureIndexes applies the index policy (vindex.Due) for one tenant, or
// every tenant when only is uuid.Nil, and prints one line per change.
func ensureIndexes(ctx context.Context, e *env, owner *pgxpool.Pool, only uuid.UUID, dryRun bool) ([]vindex.Change, error) {
	if err := e.cfg.Validate(false); err != nil {
		return nil, usagef("configuration: %v", err)
	}
	changes, err := vindex.Due(ctx, owner, e.cfg, only, vindex.Run{DryRun: dryRun, OnWait: func() { indexWait(e) }})
	printIndexChanges(e, changes, dryRun)
	if err != nil {
		return changes, fmt.Errorf("vector indexes: %w", err)
	}
	return changes, nil
}

// indexWait says that an index run waits for another one.
func indexWait(e *env) {
	fmt.Fprintln(e.stderr, "vector indexes: waiting for another run (ragd tenant index, migrate up, ingest or tenant apply) to finish")
}

// printIndexChanges prints one line per index change (made, or planned with
// dryRun) on stderr.
func printIndexChanges(e *env, changes []vindex.Change, dryRun bool) {
	for _, c := range changes {
		verb := map[string]string{"create": "created", "drop": "dropped", "rebuild": "rebuilt"}[c.Action]
		if dryRun {
			verb = "would " + c.Action
		}
		fmt.Fprintf(e.stderr, "vector index %s %s (%d vectors) %.1fs\n", c.Index, verb, c.Vectors, c.Seconds)
	}
}

// tenantBySlug resolves a slug with the owner pool (the operator's view).
func tenantBySlug(ctx context.Context, pool *pgxpool.Pool, slug string) (store.GetTenantBySlugRow, error) {
	if slug == "" {
		return store.GetTenantBySlugRow{}, usagef("--tenant/--slug is required")
	}
	t, err := store.New().GetTenantBySlug(ctx, pool, slug)
	if errors.Is(err, store.ErrNotFound) {
		return t, fmt.Errorf("no tenant %q (create it with `ragd tenant create --slug %s --name ...`)", slug, slug)
	}
	return t, err
}
