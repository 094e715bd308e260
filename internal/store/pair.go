package store

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/sync/errgroup"
)

// SendTenantBatchPair runs batches a and b at once, on two connections, as
// two REPEATABLE READ transactions scoped to tenant and ctx's Visibility
// that read one snapshot: a's transaction exports its snapshot
// (pg_export_snapshot) and b's imports it (SET TRANSACTION SNAPSHOT) before
// either reads a row, so what one sees the other sees, as in one
// SendTenantBatch (a document re-ingested meanwhile is old in both or new in
// both, never both at once). a's transaction commits only after b's has
// ended: an exported snapshot can be imported only while its transaction
// is open. It costs one round trip more than SendTenantBatch on a's
// connection before b can start, and one after (a's COMMIT).
//
// genericA and genericB run the batch on generic plans (GenericPlans). Both
// batches follow SendTenantBatch's rules (no transaction control; rows
// reach the callbacks before this returns; callbacks must not panic, and
// those of a and b run concurrently, so they must write disjoint state). On
// an error both transactions are rolled back (a connection that cannot roll
// back is closed) and the first error is returned, translated as
// SendTenantBatch's.
func SendTenantBatchPair(ctx context.Context, pool *pgxpool.Pool, tenant uuid.UUID, a *pgx.Batch, genericA bool, b *pgx.Batch, genericB bool) error {
	if tenant == uuid.Nil {
		return ErrNoTenant
	}
	v := VisibilityOf(ctx)
	connA, err := pool.Acquire(ctx)
	if err != nil {
		return Translate(fmt.Errorf("store: tenant batch pair: %w", err))
	}
	defer connA.Release()
	var snapshot string
	start := &pgx.Batch{}
	start.Queue("BEGIN ISOLATION LEVEL REPEATABLE READ")
	start.Queue(setTenantFor(genericA), tenant.String(), v.principals, v.all)
	start.Queue("SELECT pg_export_snapshot()").QueryRow(func(r pgx.Row) error { return r.Scan(&snapshot) })
	if err := connA.SendBatch(ctx, start).Close(); err != nil {
		abandon(ctx, connA)
		return Translate(fmt.Errorf("store: tenant batch pair: %w", err))
	}
	if !snapshotID.MatchString(snapshot) {
		abandon(ctx, connA)
		return fmt.Errorf("store: tenant batch pair: unexpected snapshot id %q", snapshot)
	}
	if h, ok := ctx.Value(pairHookKey{}).(func()); ok {
		h()
	}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		if err := connA.SendBatch(gctx, a).Close(); err != nil {
			return Translate(fmt.Errorf("store: tenant batch pair: %w", err))
		}
		return nil
	})
	g.Go(func() error {
		connB, err := pool.Acquire(gctx)
		if err != nil {
			return Translate(fmt.Errorf("store: tenant batch pair: %w", err))
		}
		defer connB.Release()
		full := &pgx.Batch{QueuedQueries: make([]*pgx.QueuedQuery, 0, len(b.QueuedQueries)+4)}
		full.Queue("BEGIN ISOLATION LEVEL REPEATABLE READ")
		// A utility statement takes no parameters; the id was checked
		// against snapshotID above.
		full.Queue("SET TRANSACTION SNAPSHOT '" + snapshot + "'")
		full.Queue(setTenantFor(genericB), tenant.String(), v.principals, v.all)
		full.QueuedQueries = append(full.QueuedQueries, b.QueuedQueries...)
		full.Queue("COMMIT")
		if err := connB.SendBatch(gctx, full).Close(); err != nil {
			abandon(ctx, connB)
			return Translate(fmt.Errorf("store: tenant batch pair: %w", err))
		}
		return nil
	})
	if err := g.Wait(); err != nil {
		abandon(ctx, connA)
		return err
	}
	if _, err := connA.Exec(ctx, "COMMIT"); err != nil {
		abandon(ctx, connA)
		return Translate(fmt.Errorf("store: tenant batch pair: commit: %w", err))
	}
	return nil
}

// snapshotID is the form of pg_export_snapshot's ids ("00000003-0000001B-1").
var snapshotID = regexp.MustCompile(`^[0-9A-F]+(-[0-9A-F]+)+$`)

// setTenantFor is the statement that sets the tenant, switching the
// transaction to generic plans when generic (GenericPlans).
func setTenantFor(generic bool) string {
	if generic {
		return setTenantGenericSQL
	}
	return setTenantSQL
}

// abandon ends whatever transaction conn is in: ROLLBACK on the same
// connection, which is closed if that fails (the pool's release hook
// destroys a connection that still carries a tenant).
func abandon(ctx context.Context, conn *pgxpool.Conn) {
	pc := conn.Conn().PgConn()
	if pc.IsClosed() || pc.TxStatus() == 'I' {
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if _, err := conn.Exec(rctx, "ROLLBACK"); err != nil {
		_ = pc.Close(rctx)
	}
}

// pairHookKey carries a function SendTenantBatchPair calls between the
// export of a's snapshot and the start of b (tests only: export_test.go).
type pairHookKey struct{}
