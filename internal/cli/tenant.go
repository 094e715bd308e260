package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/provision"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/vindex"
)

// action is one subcommand of a command with several (tenant): its name,
// its usage line and what runs it with the arguments after the name. Each
// action defines its own flags, so `--help` shows only the flags it reads
// and another action's flag is a usage error.
type action struct {
	name, usage string
	run         func(ctx context.Context, e *env, args []string) error
}

// actionNames are the names of actions, in their order.
func actionNames(actions []action) []string {
	names := make([]string, len(actions))
	for i, a := range actions {
		names[i] = a.name
	}
	return names
}

// runAction runs the action of actions that args[0] names: the one table
// that both dispatches cmd and lists its actions in `ragd help`.
func runAction(ctx context.Context, e *env, cmd string, actions []action, args []string) error {
	list := cmd + " " + strings.Join(actionNames(actions), "|")
	if len(args) == 0 {
		return usagef("%s", list)
	}
	for _, a := range actions {
		if a.name == args[0] {
			return a.run(ctx, e, args[1:])
		}
	}
	return usagef("unknown %s action %q (%s)", cmd, args[0], list)
}

// tenantActions are the `ragd tenant` subcommands, in the order of the help
// (a function: the actions' own code reads their usage lines from it).
func tenantActions() []action {
	return []action{
		{"create", "tenant create --slug <slug> --name <name> [--language english|simple]", runTenantCreate},
		{"list", "tenant list [--json]", runTenantList},
		{"show", "tenant show --slug <slug>", runTenantShow},
		{"enable", "tenant enable --slug <slug>", func(ctx context.Context, e *env, args []string) error {
			return runTenantStatus(ctx, e, "enable", args)
		}},
		{"disable", "tenant disable --slug <slug>", func(ctx context.Context, e *env, args []string) error {
			return runTenantStatus(ctx, e, "disable", args)
		}},
		{"delete", "tenant delete --slug <slug> --yes  (purges every row of the tenant)", runTenantDelete},
		{"apply", "tenant apply tenants/<slug> | tenants/<slug>/tenant.yaml", runTenantApply},
		{"index", "tenant index [--slug <slug>] [--dry-run] [--json]", runTenantIndex},
		{"limits", tenantLimitsUsage, runTenantLimits},
		{"purge-events", "tenant purge-events [--slug <slug>]  (every tenant when no slug)", runPurgeEvents},
		{"set-model", "tenant set-model --tenant <slug> --model <name> [--wait]", func(ctx context.Context, e *env, args []string) error {
			return runTenantModel(ctx, e, "set-model", args)
		}},
		{"drop-model-vectors", "tenant drop-model-vectors --tenant <slug> [--model <name>]", func(ctx context.Context, e *env, args []string) error {
			return runTenantModel(ctx, e, "drop-model-vectors", args)
		}},
	}
}

func runTenant(ctx context.Context, e *env, args []string) error {
	return runAction(ctx, e, "tenant", tenantActions(), args)
}

// tenantUsage is the usage line of tenant action name.
func tenantUsage(name string) string {
	for _, a := range tenantActions() {
		if a.name == name {
			return a.usage
		}
	}
	return "tenant " + name
}

// tenantFlags is the FlagSet of tenant action name with its --slug (alias
// --tenant), which a lone positional argument also sets (parseTenant).
func tenantFlags(e *env, name string) (*flag.FlagSet, *string) {
	fs := newFlags(e, "tenant "+name, tenantUsage(name))
	slug := fs.String("slug", "", "tenant slug (lowercase letters, digits, dashes)")
	fs.StringVar(slug, "tenant", "", "tenant slug (alias of --slug)")
	return fs, slug
}

// parseTenant parses args into fs; a lone positional argument is the slug
// when --slug is not given. It returns the positional arguments.
func parseTenant(fs *flag.FlagSet, slug *string, args []string) ([]string, error) {
	pos, err := parse(fs, args)
	if err != nil {
		return nil, err
	}
	if *slug == "" && len(pos) == 1 {
		*slug = pos[0]
	}
	return pos, nil
}

// openOwner opens a small pool as the owner role (the operator's commands).
func openOwner(ctx context.Context, e *env) (*pgxpool.Pool, error) {
	return store.Open(ctx, e.cfg.AdminDatabaseURL, store.Options{MaxConns: 2, Logger: e.log})
}

func runTenantCreate(ctx context.Context, e *env, args []string) error {
	fs, slug := tenantFlags(e, "create")
	name := fs.String("name", "", "display name")
	lang := fs.String("language", "english", "text-search language: english|simple")
	if _, err := parseTenant(fs, slug, args); err != nil {
		return err
	}
	if *slug == "" || *name == "" {
		return usagef("%s", tenantUsage("create"))
	}
	if _, ok := provision.TSConfig(*lang); !ok {
		return usagef("unknown --language %q (want english or simple)", *lang)
	}
	pool, err := openOwner(ctx, e)
	if err != nil {
		return err
	}
	defer pool.Close()
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
	// The id alone on stdout (scripts read it); what to do next on stderr.
	fmt.Fprintf(e.stderr, "tenant %s created; next: ragd ingest --tenant %s PATH..., then ragd ask --tenant %s \"a question\" (for the HTTP API: ragd token issue --tenant %s --role reader)\n",
		*slug, *slug, *slug, *slug)
	return nil
}

func runTenantList(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "tenant list", tenantUsage("list"))
	asJSON := fs.Bool("json", false, "print JSON")
	if pos, err := parse(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return usagef("%s: unexpected arguments %q", tenantUsage("list"), pos)
	}
	pool, err := openOwner(ctx, e)
	if err != nil {
		return err
	}
	defer pool.Close()
	ts, err := store.New().ListTenants(ctx, pool)
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
}

func runTenantShow(ctx context.Context, e *env, args []string) error {
	fs, slug := tenantFlags(e, "show")
	if _, err := parseTenant(fs, slug, args); err != nil {
		return err
	}
	pool, err := openOwner(ctx, e)
	if err != nil {
		return err
	}
	defer pool.Close()
	q := store.New()
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
}

// runTenantStatus is `tenant enable` and `tenant disable` (action).
func runTenantStatus(ctx context.Context, e *env, action string, args []string) error {
	fs, slug := tenantFlags(e, action)
	if _, err := parseTenant(fs, slug, args); err != nil {
		return err
	}
	if *slug == "" {
		return usagef("%s", tenantUsage(action))
	}
	pool, err := openOwner(ctx, e)
	if err != nil {
		return err
	}
	defer pool.Close()
	status := map[string]string{"enable": "active", "disable": "disabled"}[action]
	t, err := store.New().SetTenantStatus(ctx, pool, store.SetTenantStatusParams{Slug: *slug, Status: status})
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no tenant %q", *slug)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s %s\n", t.Slug, t.Status)
	return nil
}

func runTenantDelete(ctx context.Context, e *env, args []string) error {
	fs, slug := tenantFlags(e, "delete")
	yes := fs.Bool("yes", false, "confirm deletion of every row of the tenant")
	if _, err := parseTenant(fs, slug, args); err != nil {
		return err
	}
	if *slug == "" || !*yes {
		return usagef("%s", tenantUsage("delete"))
	}
	pool, err := openOwner(ctx, e)
	if err != nil {
		return err
	}
	defer pool.Close()
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
}

func runTenantIndex(ctx context.Context, e *env, args []string) error {
	fs, slug := tenantFlags(e, "index")
	asJSON := fs.Bool("json", false, "print JSON")
	dryRun := fs.Bool("dry-run", false, "list the vector index changes without making them")
	pos, err := parseTenant(fs, slug, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 || (len(pos) == 1 && pos[0] != *slug) {
		return usagef("%s: unexpected arguments %q", tenantUsage("index"), pos)
	}
	pool, err := openOwner(ctx, e)
	if err != nil {
		return err
	}
	defer pool.Close()
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
		if id, e := uuid.Parse(slug); e == nil {
			// An id where a slug goes: advising to create a tenant with
			// the id for slug led the operator astray.
			if byID, e := store.New().GetTenant(ctx, pool, id); e == nil {
				return t, fmt.Errorf("no tenant with slug %q: that is the id of tenant %q; --tenant takes the slug", slug, byID.Slug)
			}
			return t, fmt.Errorf("no tenant %q: --tenant takes a tenant's slug, not an id (`ragd tenant list` shows them)", slug)
		}
		if lower := strings.ToLower(slug); lower != slug {
			// Slugs are lower case: the advice to create it as written
			// would be refused.
			if _, e := store.New().GetTenantBySlug(ctx, pool, lower); e == nil {
				return t, fmt.Errorf("no tenant %q: slugs are lower case, did you mean %q?", slug, lower)
			}
			return t, fmt.Errorf("no tenant %q: slugs are lower case (create it with `ragd tenant create --slug %s --name ...`)", slug, lower)
		}
		return t, fmt.Errorf("no tenant %q (create it with `ragd tenant create --slug %s --name ...`)", slug, slug)
	}
	return t, err
}
