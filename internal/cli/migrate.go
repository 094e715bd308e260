package cli

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/migrate"
	"github.com/ragd-dev/ragd/internal/store"
)

// migrateActions are runMigrate's actions (the switch below handles each).
var migrateActions = []string{"up", "down", "status"}

func runMigrate(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "migrate", "migrate up|down|status")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || !slices.Contains(migrateActions, pos[0]) {
		return usagef("want one of up, down, status")
	}
	m, err := migrate.Open(e.cfg.AdminDatabaseURL, e.cfg.AppRole)
	if err != nil {
		return err
	}
	defer m.Close()
	switch pos[0] {
	case "up":
		// The settings the index builds use are checked before the schema
		// changes, not after.
		if err := e.cfg.Validate(false); err != nil {
			return usagef("configuration: %v", err)
		}
		if err := m.Up(ctx, e.stdout); err != nil {
			return err
		}
		// Dedicated HNSW indexes of the tenants above the exact threshold. The
		// schema is migrated whatever happens here: a failure is a warning
		// that names the command to finish the job.
		owner, err := store.Open(ctx, e.cfg.AdminDatabaseURL, store.Options{MaxConns: 1, Logger: e.log})
		if err == nil {
			defer owner.Close()
			_, err = ensureIndexes(ctx, e, owner, uuid.Nil, false)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "warning: migrated, but the vector indexes are not built (%v); run `ragd tenant index`\n", err)
		}
		return nil
	case "down":
		return m.Down(ctx, e.stdout)
	case "status":
		return m.Status(ctx, e.stdout)
	}
	return usagef("unknown migrate action %q (want up, down, status)", pos[0])
}
