// Package migrate applies ragd's embedded goose migrations (db/migrations) as
// the owner role. Source: https://pressly.github.io/goose/.
package migrate

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
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

// Pending reports whether migrations remain to be applied (readiness check).
func (m *Migrator) Pending(ctx context.Context) (bool, error) {
	return m.provider.HasPending(ctx)
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
