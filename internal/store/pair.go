package store

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// SendTenantBatchPair runs batches a and b at once, on two connections, as
// two REPEATABLE READ transactions scoped to tenant and ctx's Visibility
// that read one snapshot: a's transaction exports its snapshot
// (pg_export_snapshot) and b's imports it (SET TRANSACTION SNAPSHOT) before
// either reads a row, so what one sees the other sees, as in one
// SendTenantBatch (a document re-ingested meanwhile is old in both or new in
// both, never both at once). a's transaction commits only after b's has
// ended: an exported snapshot can be imported only while its transaction
// is open. It costs two round trips more than SendTenantBatch: the export
// on a's connection before b can start (b's import is its own round trip,
// in the simple protocol, so that no statement is prepared for each
// snapshot's id), and a's COMMIT after b.
//
// It never waits for a second connection while it holds the first (which
// could deadlock a pool whose connections all hold a first one): when no
// second connection is to be had at once (spareConn), b runs after a in a's
// one transaction, as SendTenantBatch would run them.
//
// genericA and genericB run the batch on generic plans (GenericPlans). Both
// batches follow SendTenantBatch's rules (no transaction control; rows
// reach the callbacks before this returns; callbacks must not panic, and
// those of a and b may run concurrently, so they must write disjoint
// state). A failing batch does not interrupt the other, which runs to its
// end (the server would anyway): then both transactions are rolled back on
// their connections (one that cannot roll back is closed), and the first
// error is returned, translated as SendTenantBatch's.
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
	connB, err := spareConn(ctx, pool)
	if err != nil {
		return Translate(fmt.Errorf("store: tenant batch pair: %w", err))
	}
	if connB == nil {
		return sendOne(ctx, connA, tenant, v, a, genericA, b, genericB)
	}
	defer connB.Release()
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
	var errA, errB error
	imported := true
	var wg sync.WaitGroup
	// A callback's panic is raised again in the caller's goroutine (where
	// the server's recovery turns a request's panic into its 500) once
	// both connections are closed: their batches' state is unknown.
	var panicked sync.Once
	var panicValue any
	catch := func() {
		if v := recover(); v != nil {
			panicked.Do(func() { panicValue = v })
		}
	}
	wg.Go(func() {
		defer catch()
		errA = connA.SendBatch(ctx, a).Close()
	})
	wg.Go(func() {
		defer catch()
		// A utility statement takes no parameters; the id was checked
		// against snapshotID above.
		if _, err := connB.Conn().PgConn().Exec(ctx, "BEGIN ISOLATION LEVEL REPEATABLE READ; SET TRANSACTION SNAPSHOT '"+snapshot+"'").ReadAll(); err != nil {
			errB, imported = err, false
			return
		}
		full := &pgx.Batch{QueuedQueries: make([]*pgx.QueuedQuery, 0, len(b.QueuedQueries)+2)}
		full.Queue(setTenantFor(genericB), tenant.String(), v.principals, v.all)
		full.QueuedQueries = append(full.QueuedQueries, b.QueuedQueries...)
		full.Queue("COMMIT")
		errB = connB.SendBatch(ctx, full).Close()
	})
	wg.Wait()
	if panicValue != nil {
		for _, c := range []*pgxpool.Conn{connA, connB} {
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			_ = c.Conn().PgConn().Close(rctx)
			cancel()
		}
		panic(panicValue)
	}
	if errA == nil && errB != nil && !imported {
		// The import fails when the exporting transaction has ended,
		// its backend gone (terminated, crashed): say what happened
		// to it, as SendTenantBatch would.
		if _, err := connA.Exec(ctx, "SELECT 1"); err != nil {
			errA = err
		}
	}
	if err := cmp.Or(errA, errB); err != nil {
		abandon(ctx, connB)
		abandon(ctx, connA)
		return Translate(fmt.Errorf("store: tenant batch pair: %w", err))
	}
	if _, err := connA.Exec(ctx, "COMMIT"); err != nil {
		abandon(ctx, connA)
		return Translate(fmt.Errorf("store: tenant batch pair: commit: %w", err))
	}
	return nil
}

// sendOne runs a, then b, in one tenant transaction on conn (the form
// SendTenantBatchPair takes without a second connection); b switches back
// to custom plans when a ran on generic ones and b must not.
func sendOne(ctx context.Context, conn *pgxpool.Conn, tenant uuid.UUID, v Visibility, a *pgx.Batch, genericA bool, b *pgx.Batch, genericB bool) error {
	full := &pgx.Batch{QueuedQueries: make([]*pgx.QueuedQuery, 0, len(a.QueuedQueries)+len(b.QueuedQueries)+4)}
	full.Queue("BEGIN ISOLATION LEVEL REPEATABLE READ")
	full.Queue(setTenantFor(genericA), tenant.String(), v.principals, v.all)
	full.QueuedQueries = append(full.QueuedQueries, a.QueuedQueries...)
	if genericA != genericB {
		if genericB {
			full.Queue(genericPlansSQL)
		} else {
			full.Queue(customPlansSQL)
		}
	}
	full.QueuedQueries = append(full.QueuedQueries, b.QueuedQueries...)
	full.Queue("COMMIT")
	if err := conn.SendBatch(ctx, full).Close(); err != nil {
		abandon(ctx, conn)
		return Translate(fmt.Errorf("store: tenant batch pair: %w", err))
	}
	return nil
}

// spareConn returns a second connection of pool when one is to be had at
// once: an idle one, or a new one while the pool is below its size (dialled
// within spareWait). nil when the pool is at its size with none idle, or
// none came in time: the caller holds a connection, and waiting for another
// while every connection is so held would never end.
func spareConn(ctx context.Context, pool *pgxpool.Pool) (*pgxpool.Conn, error) {
	if st := pool.Stat(); st.IdleConns() == 0 && st.TotalConns() >= st.MaxConns() {
		return nil, nil
	}
	wait := spareWait
	if w, ok := ctx.Value(pairWaitKey{}).(time.Duration); ok {
		wait = w
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	c, err := pool.Acquire(wctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, nil
	}
	return c, nil
}

// spareWait bounds how long SendTenantBatchPair waits for its second
// connection (a local connection is dialled and authenticated in 2–5 ms).
const spareWait = 20 * time.Millisecond

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

// pairWaitKey carries a bound in place of spareWait (tests only: a test
// that must see the pair run as a pair cannot depend on a dial's time).
type pairWaitKey struct{}
