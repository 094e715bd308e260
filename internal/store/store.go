// Package store is ragd's data layer: the sqlc-generated queries (*.gen.go, from
// queries/*.sql), the statements sqlc cannot type or parameterise (the
// search's retrieval batch in retrieve.go, the vector-index DDL in indexes.go,
// filled by the injection-proof templates of template.go), and the one way
// tenant data is touched, InTenant (SendTenantBatch for one-round-trip reads).
// Runtime SQL belongs here (and the schema in db/migrations).
//
// Isolation design (docs/ARCHITECTURE.md): every tenant table is under FORCE ROW
// LEVEL SECURITY with policies on current_tenant(), which reads the
// transaction-local setting app.tenant_id. InTenant sets it with
// set_config('app.tenant_id', id, true) as the first statement of a
// transaction, so it vanishes at COMMIT or ROLLBACK and never reaches the next
// user of a pooled connection. A pool hook discards any connection that still
// carries a tenant after release.
package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	pgxvec "github.com/pgvector/pgvector-go/pgx"
)

// ErrNoTenant is returned by InTenant for the zero tenant id.
var ErrNoTenant = errors.New("store: no tenant id")

// ErrUnavailable wraps errors that mean the database cannot be reached (connect
// failures, admin shutdown, a connection broken mid-query): Open's connect
// error, and any error InTenant, SendTenantBatch or Translate return for
// such a failure. The API maps it to 503.
var ErrUnavailable = errors.New("store: database unavailable")

// Options tune Open.
type Options struct {
	// MaxConns caps the pool (0 = pgx default, max(4, cores)).
	MaxConns int32
	// Logger receives pool warnings (a connection released with a tenant still set).
	Logger *slog.Logger
}

// Open connects a pool for databaseURL with ragd's settings:
//   - the pgvector types registered on every connection;
//   - plan_cache_mode = force_custom_plan, so no prepared statement ever reuses a
//     generic plan built for another tenant (measured: a generic plan made after
//     six searches as a large tenant gave a small tenant 0 of 20 rows);
//   - an AfterRelease check that destroys a connection still carrying
//     app.tenant_id (it cannot, by construction; the check is a tripwire).
//
// Errors: a parse error of the URL, or ErrUnavailable wrapping the connect error.
func Open(ctx context.Context, databaseURL string, opts Options) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("store: parse database URL: %w", err)
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.Default()
	}
	cfg.ConnConfig.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	cfg.ConnConfig.RuntimeParams["application_name"] = "ragd"
	cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
		return pgxvec.RegisterTypes(ctx, c)
	}
	cfg.AfterRelease = func(c *pgx.Conn) bool {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		var v string
		if err := c.QueryRow(ctx, "SELECT coalesce(current_setting('app.tenant_id', true), '') || coalesce(current_setting('app.principals', true), '')").Scan(&v); err != nil {
			return false
		}
		if v != "" {
			logger.Error("store: connection released with a tenant still set; destroying it", "tenant", v)
			return false
		}
		return true
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return pool, nil
}

// Beginner is what InTenant needs: a pool, a connection, or a test transaction.
type Beginner interface {
	Begin(ctx context.Context) (pgx.Tx, error)
}

// InTenant runs fn inside one transaction scoped to tenant: BEGIN →
// set_config('app.tenant_id', tenant, true) and set_config('app.principals',
// …, true) from ctx's Visibility (VisibilityOf: tenant-wide documents only
// unless the caller said otherwise) → fn → COMMIT (ROLLBACK if fn or the
// commit fails). With SendTenantBatch (its one-round-trip form for
// reads), it is the only way ragd touches tenant data.
//
// Errors: ErrNoTenant for uuid.Nil; fn's error, a PostgreSQL error in it
// wrapped with ErrConflict, ErrInvalidValue or ErrInvalidText (ErrNotFound
// and fn's own errors pass as they are); begin/commit errors wrapped and
// translated (Translate: ErrUnavailable when the server cannot be reached).
func InTenant(ctx context.Context, db Beginner, tenant uuid.UUID, fn func(tx pgx.Tx) error) error {
	if tenant == uuid.Nil {
		return ErrNoTenant
	}
	tx, err := db.Begin(ctx)
	if err != nil {
		return Translate(fmt.Errorf("store: begin: %w", err))
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // no-op after commit
	v := VisibilityOf(ctx)
	if _, err := tx.Exec(ctx, setTenantSQL, tenant.String(), v.principals, v.all); err != nil {
		return Translate(fmt.Errorf("store: set tenant: %w", err))
	}
	if err := fn(tx); err != nil {
		// Only the server's errors: fn may also fail on a provider (an
		// embedding API's network error is not the database's outage).
		return translateCode(err)
	}
	if err := tx.Commit(ctx); err != nil {
		return Translate(fmt.Errorf("store: commit: %w", err))
	}
	return nil
}

// SendTenantBatch sends b's statements in one round trip as one REPEATABLE
// READ transaction scoped to tenant and ctx's Visibility: BEGIN and the
// tenant's and principals' set_config (as InTenant's) are queued first and COMMIT last, so every statement of the
// batch reads the same snapshot (at READ COMMITTED each statement took its
// own, and a document re-ingested between the two retrieval legs could
// answer with its old and its new chunks at once) and the tenant setting is
// gone when the batch ends, like InTenant's. When a statement fails, the
// server skips the rest to the batch's Sync and the transaction is rolled
// back with one more round trip, on the same connection; a connection that
// cannot roll back is closed (and the pool's release hook destroys any
// connection that still carries a tenant). b must hold no transaction
// control; rows reach b's callbacks before SendTenantBatch returns, and the
// callbacks must not panic (the connection would stay checked out). A
// callback's error is returned, but the server has run the batch to its end
// by then: for read paths where round trips dominate (search); writes use
// InTenant. One round trip on a warm connection; a connection's first use
// of a statement (and the next batch after a failed one, which clears pgx's
// statement cache) adds one to prepare.
//
// With GenericPlans, the batch's statements run on generic plans.
//
// Errors: ErrNoTenant for uuid.Nil; the first failing statement's error,
// translated as InTenant's (ErrUnavailable when the server cannot be
// reached; the context's error if ctx ends, and the connection is then
// discarded).
func SendTenantBatch(ctx context.Context, pool *pgxpool.Pool, tenant uuid.UUID, b *pgx.Batch, opts ...BatchOption) error {
	if tenant == uuid.Nil {
		return ErrNoTenant
	}
	var cfg batchConfig
	for _, o := range opts {
		o(&cfg)
	}
	setTenant := setTenantFor(cfg.generic)
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return Translate(fmt.Errorf("store: tenant batch: %w", err))
	}
	defer conn.Release()
	full := &pgx.Batch{QueuedQueries: make([]*pgx.QueuedQuery, 0, len(b.QueuedQueries)+3)}
	full.Queue("BEGIN ISOLATION LEVEL REPEATABLE READ")
	v := VisibilityOf(ctx)
	full.Queue(setTenant, tenant.String(), v.principals, v.all)
	full.QueuedQueries = append(full.QueuedQueries, b.QueuedQueries...)
	full.Queue("COMMIT")
	if err := conn.SendBatch(ctx, full).Close(); err != nil {
		abandon(ctx, conn)
		return Translate(fmt.Errorf("store: tenant batch: %w", err))
	}
	return nil
}

// BatchOption changes how SendTenantBatch runs a batch.
type BatchOption func(*batchConfig)

type batchConfig struct{ generic bool }

// GenericPlans runs the batch's statements on generic plans: the statement
// that sets the tenant also sets plan_cache_mode = force_generic_plan for
// the rest of the transaction, so each statement is planned once per pooled
// connection (pgx keeps it prepared) instead of at every execution, as the
// pool's force_custom_plan does. Re-planning cost 0.2-0.7 ms a statement
// on the manual's tenant (bind times under log_min_duration_statement: the
// keyword leg 0.43, the missing-terms probe 0.66, KeywordTerms 0.27,
// GetTenant 0.21 ms), about 1.3 ms of a search's 13 ms in PostgreSQL.
//
// Only for statements that read the same rows under any plan (no
// approximate index scan: an HNSW walk may not) and whose plan does not
// turn on the tenant's size, such as lookups by key and the functions that
// plan their own statements (keyword_search sets force_custom_plan on
// itself). A statement that needs a custom plan must switch back first:
// the HNSW walk, whose dedicated partial index is provable only from the
// tenant id as a constant (a generic plan scans exactly instead), and the
// exact scan, whose best access path depends on the tenant's share of the
// table; QueueVectorLeg does it (VectorLegParams.AfterGenericPlans).
func GenericPlans() BatchOption { return func(c *batchConfig) { c.generic = true } }

// IsUnavailable reports whether err means the database is unreachable or
// shutting down (connection refused, admin shutdown, cannot connect now).
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrUnavailable) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "57P01", "57P02", "57P03", "08000", "08003", "08006", "08001", "08004":
			return true
		}
		return false
	}
	var connErr *pgconn.ConnectError
	if errors.As(err, &connErr) {
		return true
	}
	// The connection broke mid-query (server restart, network cut).
	var netErr *net.OpError
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.As(err, &netErr) || strings.Contains(err.Error(), "conn closed") {
		return true
	}
	return pgconn.SafeToRetry(err)
}

// ErrUnsafeRole is returned by CheckAppRole when the connected role could
// bypass row-level security.
var ErrUnsafeRole = errors.New("store: database role can bypass row-level security")

// CheckAppRole verifies that the pool's role is safe to serve tenants with: not
// superuser, no BYPASSRLS, and owner of no table in the current database
// (an owner could disable or drop policies). `ragd serve` refuses to start
// otherwise. Errors: ErrUnsafeRole with the reason, or a query error.
func CheckAppRole(ctx context.Context, pool *pgxpool.Pool) error {
	var (
		role          string
		super, bypass bool
		owned         []string
	)
	err := pool.QueryRow(ctx, `
		SELECT r.rolname, r.rolsuper, r.rolbypassrls,
		       coalesce((SELECT array_agg(c.relname::text ORDER BY c.relname) FROM pg_class c
		                 JOIN pg_namespace n ON n.oid = c.relnamespace
		                 WHERE c.relowner = r.oid AND c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')), '{}')
		FROM pg_roles r WHERE r.rolname = current_user`).Scan(&role, &super, &bypass, &owned)
	if err != nil {
		return Translate(fmt.Errorf("store: check role: %w", err))
	}
	switch {
	case super:
		return fmt.Errorf("%w: role %q is a superuser; connect RAGD_DATABASE_URL as the application role (ragd_app)", ErrUnsafeRole, role)
	case bypass:
		return fmt.Errorf("%w: role %q has BYPASSRLS; use a role without it", ErrUnsafeRole, role)
	case len(owned) > 0:
		return fmt.Errorf("%w: role %q owns tables %v; table owners can disable row-level security — use the application role, not the owner", ErrUnsafeRole, role, owned)
	}
	return nil
}
