// Package migrate applies ragd's embedded goose migrations (db/migrations) as
// the owner role. Source: https://pressly.github.io/goose/.
package migrate

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/database"
	"github.com/pressly/goose/v3/lock"

	"github.com/ragd-dev/ragd/db"
)

// Migrator runs migrations on one database.
type Migrator struct {
	db       *sql.DB
	provider *goose.Provider
}

// Open connects to adminURL (the owner role). appRole is the application role
// that migrations grant data access to; it is passed to the server as the
// ragd.app_role setting read by 00002_grants.sql.
// Errors: an invalid URL or a failure to build the goose provider.
func Open(adminURL, appRole string) (*Migrator, error) {
	u, err := url.Parse(adminURL)
	if err != nil {
		return nil, fmt.Errorf("migrate: parse admin URL: %w", err)
	}
	q := u.Query()
	q.Set("options", "-c ragd.app_role="+appRole)
	u.RawQuery = strings.ReplaceAll(q.Encode(), "+", "%20") // pgx does not decode + as a space
	conn, err := sql.Open("pgx", u.String())
	if err != nil {
		return nil, fmt.Errorf("migrate: open: %w", err)
	}
	sub, err := fs.Sub(db.Migrations, "migrations")
	if err != nil {
		return nil, err
	}
	// A session advisory lock: concurrent `migrate up` runs (several test
	// binaries, several replicas starting) apply each version once.
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		conn.Close()
		return nil, err
	}
	p, err := goose.NewProvider(goose.DialectPostgres, conn, sub, goose.WithSessionLocker(locker))
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("migrate: %w", err)
	}
	return &Migrator{db: conn, provider: p}, nil
}

var _ = stdlib.GetDefaultDriver // registers the "pgx" database/sql driver

// Close releases the connection.
func (m *Migrator) Close() error { return m.db.Close() }

// Up applies every pending migration and writes one line per applied version to w.
func (m *Migrator) Up(ctx context.Context, w io.Writer) error {
	res, err := m.provider.Up(ctx)
	for _, r := range res {
		fmt.Fprintf(w, "applied %s (%s)\n", r.Source.Path, r.Duration.Round(1e6))
	}
	if err != nil {
		return fmt.Errorf("migrate up: %w", err)
	}
	if len(res) == 0 {
		fmt.Fprintln(w, "no pending migrations")
	}
	return nil
}

// Down rolls back the newest applied migration.
func (m *Migrator) Down(ctx context.Context, w io.Writer) error {
	r, err := m.provider.Down(ctx)
	if r != nil {
		fmt.Fprintf(w, "rolled back %s\n", r.Source.Path)
	}
	if err != nil {
		return fmt.Errorf("migrate down: %w", err)
	}
	return nil
}

// Status writes one line per migration: version, state, applied time.
func (m *Migrator) Status(ctx context.Context, w io.Writer) error {
	st, err := m.provider.Status(ctx)
	if err != nil {
		return fmt.Errorf("migrate status: %w", err)
	}
	for _, s := range st {
		at := "-"
		if !s.AppliedAt.IsZero() {
			at = s.AppliedAt.UTC().Format("2006-01-02 15:04:05Z")
		}
		fmt.Fprintf(w, "%05d  %-8s  %s  %s\n", s.Source.Version, s.State, at, s.Source.Path)
	}
	return nil
}

// Versions is a database's migration state against this binary's.
type Versions struct {
	Database int64 // newest version recorded in goose's table; 0 when none is (or the table is absent)
	Binary   int64 // newest version shipped in this binary (Latest)
}

// Pending reports whether this binary ships migrations newer than the
// database's (`ragd migrate up` would apply them). A database newer than
// the binary is not pending: a rolling upgrade migrates before the old
// binaries stop.
func (v Versions) Pending() bool { return v.Database < v.Binary }

// Check reads the migration state of the database pool connects to, with
// goose's own queries on its bookkeeping table (goose_db_version). It writes
// nothing and creates nothing (goose's Provider would create a missing
// table), so any role that can read that table will do: 00002_grants.sql
// grants SELECT on it to the application role, and readiness checks with
// the application-role pool. A database without the table is at version 0.
// Errors: the database's (unreachable, no right to read the table), or
// Latest's.
func Check(ctx context.Context, pool *pgxpool.Pool) (Versions, error) {
	binary, err := Latest()
	if err != nil {
		return Versions{}, err
	}
	conn := stdlib.OpenDBFromPool(pool) // closing it leaves the pool open
	defer conn.Close()
	st, err := database.NewStore(database.DialectPostgres, goose.DefaultTablename)
	if err != nil {
		return Versions{}, fmt.Errorf("migrate: %w", err)
	}
	v := Versions{Binary: binary}
	if ext, ok := st.(database.StoreExtender); ok {
		exists, err := ext.TableExists(ctx, conn)
		if err != nil || !exists {
			return v, wrapCheck(err)
		}
	}
	v.Database, err = st.GetLatestVersion(ctx, conn)
	if errors.Is(err, database.ErrVersionNotFound) {
		return Versions{Binary: binary}, nil // the table exists but holds no version yet
	}
	if err != nil {
		return Versions{Binary: binary}, wrapCheck(err)
	}
	return v, nil
}

func wrapCheck(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("migrate: read the database's version: %w", err)
}

// Latest returns the newest migration version shipped in the binary (the
// numeric prefix of the last db/migrations file).
func Latest() (int64, error) {
	entries, err := fs.ReadDir(db.Migrations, "migrations")
	if err != nil {
		return 0, err
	}
	var latest int64
	for _, e := range entries {
		v, err := goose.NumericComponent(e.Name())
		if err != nil {
			return 0, fmt.Errorf("migrate: %s: %w", e.Name(), err)
		}
		latest = max(latest, v)
	}
	return latest, nil
}
