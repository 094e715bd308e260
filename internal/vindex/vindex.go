package vindex

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/store"
)

// indexPrefix starts every dedicated index's name. legacyPrefix started
// the names of the indexes over 32-bit vectors that the halfvec ones
// replace (internal/store/indexes.go): Ensure builds the replacement and
// then drops the legacy index, and DropTenant drops both.
const (
	indexPrefix  = "ce_halfvec_"
	legacyPrefix = "ce_hnsw_"
)

// indexLockKey is the session advisory lock (pg_try_advisory_lock) that one
// Ensure run holds from planning to its last build, so that two
// runs never build, or "rebuild", the same index (an index under a concurrent
// build is invalid until it finishes). An arbitrary constant: "ragdVI".
const indexLockKey = 0x72616764_5649

// ErrBusy: with Options.NoWait, another Ensure run
// (another `ragd tenant index`, `migrate up`, `ingest` or `tenant apply`)
// holds the lock.
var ErrBusy = errors.New("another vector-index run is in progress")

// Name is the dedicated HNSW index of tenant's vectors of model (49
// characters at most, under PostgreSQL's 63).
func Name(tenantID uuid.UUID, modelID int16) string {
	return indexPrefix + strconv.Itoa(int(modelID)) + "_" + strings.ReplaceAll(tenantID.String(), "-", "")
}

// legacyName is the name the index over 32-bit vectors had.
func legacyName(tenantID uuid.UUID, modelID int16) string {
	return legacyPrefix + strconv.Itoa(int(modelID)) + "_" + strings.ReplaceAll(tenantID.String(), "-", "")
}

// parseName inverts Name (or legacyName, with prefix legacyPrefix).
func parseName(name, prefix string) (uuid.UUID, int16, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return uuid.Nil, 0, false
	}
	m, t, ok := strings.Cut(rest, "_")
	if !ok {
		return uuid.Nil, 0, false
	}
	model, err := strconv.ParseInt(m, 10, 16)
	if err != nil {
		return uuid.Nil, 0, false
	}
	id, err := uuid.Parse(t)
	if err != nil || len(t) != 32 {
		return uuid.Nil, 0, false
	}
	return id, int16(model), true
}

// Options tune Ensure.
type Options struct {
	// Threshold: a tenant gets a dedicated index for a model when it holds
	// more than Threshold of that model's vectors (the Searcher's
	// ExactThreshold; default config.DefaultExactThreshold). An existing
	// index is dropped only when the tenant falls to Threshold/2 or below,
	// so a tenant near the line is not rebuilt back and forth.
	Threshold int64
	// Concurrently builds with CREATE INDEX CONCURRENTLY (no write lock on
	// chunk_embeddings during the build; two table scans). Off: a plain
	// CREATE INDEX, for bulk loads with no concurrent writers.
	Concurrently bool
	// MaxMemoryMB caps maintenance_work_mem for one build (default 1024): an
	// HNSW build is fast while the graph fits in it.
	MaxMemoryMB int
	// DryRun reports the changes without making them.
	DryRun bool
	// Tenant, when set, limits the work to that tenant's indexes.
	Tenant uuid.UUID
	// NoWait: when another run holds the lock, return ErrBusy at once
	// instead of waiting for it (OnWait is called before waiting).
	NoWait bool
	OnWait func()
	Logger *slog.Logger
}

// Change is one index created or dropped by Ensure.
type Change struct {
	TenantID uuid.UUID `json:"tenant_id"`
	ModelID  int16     `json:"model_id"`
	Index    string    `json:"index"`
	// Action: "create", "drop" (tenant below Threshold/2 or gone),
	// "rebuild" (an invalid index left by an interrupted concurrent build)
	// or "retire" (a legacy index over 32-bit vectors, dropped after its
	// halfvec replacement is built, or at once when the tenant no longer
	// needs one).
	Action  string  `json:"action"`
	Vectors int64   `json:"vectors"`
	Seconds float64 `json:"seconds"`
}

type indexKey struct {
	tenant uuid.UUID
	model  int16
}

// Ensure makes the dedicated HNSW indexes match the tenants'
// sizes: it creates the missing ones, rebuilds invalid ones and drops those of
// tenants that shrank or no longer exist. owner is the owner pool (the role
// that owns chunk_embeddings; it counts each tenant's vectors inside that
// tenant's transaction, as row-level security requires). It returns the
// changes made (or, with DryRun, to be made), in order. It runs on one
// connection of owner and holds a session advisory lock for the whole run.
// Another run holding the lock is waited for (polling once a second, outside
// any transaction; the wait ends with ctx), or,
// with NoWait, ErrBusy is returned and nothing is done. Errors: store
// errors, after which the changes made before stay made.
func Ensure(ctx context.Context, owner *pgxpool.Pool, opts Options) ([]Change, error) {
	if opts.Threshold <= 0 {
		opts.Threshold = config.DefaultExactThreshold
	}
	if opts.MaxMemoryMB <= 0 {
		opts.MaxMemoryMB = 1024
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	// One connection for the whole run, taken out of the pool and closed at
	// the end, never returned: it holds the session advisory lock, which no
	// other user of the pool may inherit, whatever way the run ends.
	pc, err := owner.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	conn := pc.Hijack()
	defer conn.Close(context.WithoutCancel(ctx)) //nolint:errcheck // closing ends the session and its settings
	q := store.New()
	if !opts.DryRun {
		if err := lockIndexes(ctx, conn, opts.NoWait, opts.OnWait, time.Second); err != nil {
			return nil, err
		}
		defer q.VectorIndexUnlock(context.WithoutCancel(ctx), conn, indexLockKey) //nolint:errcheck // released with the session anyway
	}
	models, err := q.ListEmbeddingModels(ctx, conn)
	if err != nil {
		return nil, err
	}
	dims := make(map[int16]int, len(models))
	for _, m := range models {
		dims[m.ID] = int(m.Dims)
	}

	// Vectors per (tenant, model).
	tenants, err := q.ListTenants(ctx, conn)
	if err != nil {
		return nil, err
	}
	counts := map[indexKey]int64{}
	for _, t := range tenants {
		if opts.Tenant != uuid.Nil && t.ID != opts.Tenant {
			continue
		}
		// Every vector counts, whatever its document's access list: the
		// index holds them all.
		all := store.WithVisibility(ctx, store.AllDocuments())
		err := store.InTenant(all, conn, t.ID, func(tx pgx.Tx) error {
			rows, err := q.CountTenantVectors(all, tx, t.ID)
			if err != nil {
				return err
			}
			for _, r := range rows {
				counts[indexKey{t.ID, r.ModelID}] = r.Count
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("count vectors of tenant %s: %w", t.Slug, err)
		}
	}

	// The dedicated indexes that exist, and whether each is valid; an index
	// that a build still works on (one whose client went away: the server
	// goes on) counts as valid here, so it is not rebuilt under that build.
	existing := map[indexKey]bool{}
	names := map[indexKey]string{}
	indexes, err := store.ListVectorIndexes(ctx, conn, indexPrefix)
	if err != nil {
		return nil, err
	}
	for _, ix := range indexes {
		if t, m, ok := parseName(ix.Name, indexPrefix); ok && (opts.Tenant == uuid.Nil || t == opts.Tenant) {
			existing[indexKey{t, m}] = ix.Valid
			names[indexKey{t, m}] = ix.Name
		}
	}
	legacy, err := store.ListVectorIndexes(ctx, conn, legacyPrefix)
	if err != nil {
		return nil, err
	}

	plan := []Change{}
	for k, valid := range existing {
		n := counts[k]
		switch {
		case n <= opts.Threshold/2:
			plan = append(plan, Change{TenantID: k.tenant, ModelID: k.model, Index: names[k], Action: "drop", Vectors: n})
		case !valid:
			plan = append(plan, Change{TenantID: k.tenant, ModelID: k.model, Index: names[k], Action: "rebuild", Vectors: n})
		}
	}
	for k, n := range counts {
		if _, ok := existing[k]; !ok && n > opts.Threshold {
			switch d, known := dims[k.model]; {
			case !known:
			case d > store.MaxIndexDims:
				opts.Logger.Warn("vector index: the model has more dimensions than an HNSW index can hold; the tenant's vectors are scanned exactly",
					"model_id", k.model, "dims", d, "max", store.MaxIndexDims, "tenant_id", k.tenant)
			default:
				plan = append(plan, Change{TenantID: k.tenant, ModelID: k.model, Index: Name(k.tenant, k.model), Action: "create", Vectors: n})
			}
		}
	}
	// Every legacy index goes, after the replacement (if any) is built: a
	// failed build stops the run before it, and searches until then walk
	// neither (they order by the halfvec expression), which costs an exact
	// scan, not an answer.
	for _, ix := range legacy {
		if t, m, ok := parseName(ix.Name, legacyPrefix); ok && (opts.Tenant == uuid.Nil || t == opts.Tenant) {
			plan = append(plan, Change{TenantID: t, ModelID: m, Index: ix.Name, Action: "retire", Vectors: counts[indexKey{t, m}]})
		}
	}
	// Drops first, then the largest tenants first, retirements last.
	order := map[string]int{"drop": 0, "rebuild": 1, "create": 1, "retire": 2}
	slices.SortFunc(plan, func(a, b Change) int {
		return cmp.Or(cmp.Compare(order[a.Action], order[b.Action]), cmp.Compare(b.Vectors, a.Vectors), strings.Compare(a.Index, b.Index))
	})
	if opts.DryRun {
		return plan, nil
	}

	done := make([]Change, 0, len(plan))
	for _, c := range plan {
		start := time.Now()
		var err error
		switch c.Action {
		case "drop", "retire":
			err = store.DropIndex(ctx, conn, c.Index, opts.Concurrently)
		case "rebuild":
			if err = store.DropIndex(ctx, conn, c.Index, opts.Concurrently); err == nil {
				err = createIndex(ctx, owner, c, dims[c.ModelID], opts)
			}
		case "create":
			err = createIndex(ctx, owner, c, dims[c.ModelID], opts)
		}
		if err != nil {
			return done, fmt.Errorf("%s index %s: %w", c.Action, c.Index, err)
		}
		c.Seconds = time.Since(start).Seconds()
		opts.Logger.Info("vector index", "action", c.Action, "index", c.Index, "vectors", c.Vectors, "seconds", c.Seconds)
		done = append(done, c)
	}
	return done, nil
}

// createIndex builds c's index on a connection of its own, opened from
// owner's configuration with maintenance_work_mem sized for the graph —
// about (dims·4 + 200) bytes per vector, doubled, capped — as a startup
// parameter, and closed after the build. CREATE INDEX CONCURRENTLY cannot
// run inside a transaction, so the memory cannot be a transaction-local
// setting; as a session setting on a pooled connection it would outlive the
// build. The build's connection is never pooled and never SETs anything.
func createIndex(ctx context.Context, owner *pgxpool.Pool, c Change, dims int, opts Options) error {
	if dims <= 0 {
		return errors.New("unknown model")
	}
	mb := min(int64(opts.MaxMemoryMB), max(64, 2*c.Vectors*int64(dims*4+200)>>20))
	cfg := owner.Config().ConnConfig.Copy()
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	cfg.RuntimeParams["maintenance_work_mem"] = fmt.Sprintf("%dMB", mb)
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return store.Translate(fmt.Errorf("build connection: %w", err))
	}
	defer conn.Close(context.WithoutCancel(ctx)) //nolint:errcheck // the build is done or failed either way
	return store.CreateVectorIndex(ctx, conn, c.Index, dims, c.ModelID, c.TenantID, opts.Concurrently)
}

// DropTenant drops tenant's dedicated indexes (every model), after the
// tenant is deleted, with DROP INDEX CONCURRENTLY (other tenants' searches and
// writes are not blocked), under the lock that Ensure holds: a DROP INDEX
// CONCURRENTLY and another session's CREATE INDEX CONCURRENTLY on
// chunk_embeddings wait for each other (each waits for the other's
// transaction) and one of them fails with a deadlock. owner is the owner
// pool. Errors: ctx's, store errors.
func DropTenant(ctx context.Context, owner *pgxpool.Pool, tenantID uuid.UUID) error {
	pc, err := owner.Acquire(ctx)
	if err != nil {
		return err
	}
	// Never returned to the pool: it holds the session advisory lock.
	conn := pc.Hijack()
	defer conn.Close(context.WithoutCancel(ctx)) //nolint:errcheck // closing ends the session and its lock
	if err := lockIndexes(ctx, conn, false, nil, 100*time.Millisecond); err != nil {
		return err
	}
	models, err := store.New().ListEmbeddingModels(ctx, conn)
	if err != nil {
		return err
	}
	for _, m := range models {
		for _, name := range []string{Name(tenantID, m.ID), legacyName(tenantID, m.ID)} {
			if err := store.DropIndex(ctx, conn, name, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// lockIndexes takes the session advisory lock that serialises ragd's index
// DDL on chunk_embeddings (Ensure, DropTenant) on conn, polling every poll:
// a session blocked in pg_advisory_lock is a running transaction, which the
// lock holder's CREATE INDEX CONCURRENTLY waits for — a deadlock (seen with
// two `ragd tenant index` at once). With noWait it returns ErrBusy instead
// of waiting; onWait, if set, is called once before the first wait.
// Errors: ErrBusy, ctx's, store errors.
func lockIndexes(ctx context.Context, conn *pgx.Conn, noWait bool, onWait func(), poll time.Duration) error {
	q := store.New()
	locked, err := q.TryVectorIndexLock(ctx, conn, indexLockKey)
	if err != nil || locked {
		return err
	}
	if noWait {
		return ErrBusy
	}
	if onWait != nil {
		onWait()
	}
	for !locked {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
		if locked, err = q.TryVectorIndexLock(ctx, conn, indexLockKey); err != nil {
			return err
		}
	}
	return nil
}

// Run is how one Due run reports and whether it changes anything.
type Run struct {
	// DryRun plans without building or dropping.
	DryRun bool
	// OnWait is called once when another run holds the lock and this one
	// waits for it.
	OnWait func()
	Logger *slog.Logger
}

// Due applies the deployment's index policy: a tenant holding more than
// cfg.ExactThreshold vectors of a model (RAGD_EXACT_THRESHOLD, the same
// threshold by which the searcher picks the HNSW plan) gets its dedicated
// index, one that fell to half of it loses it. It runs Ensure for tenant
// (every tenant when uuid.Nil) with that threshold and concurrent builds: a
// server may be writing meanwhile. Every operator path that can push a
// tenant past the threshold runs it (`ragd tenant index`, `migrate up`,
// `ingest`, `tenant apply`). owner is the owner pool. Returns the changes
// made (planned, with DryRun). Errors: those of Ensure.
func Due(ctx context.Context, owner *pgxpool.Pool, cfg config.Config, tenant uuid.UUID, r Run) ([]Change, error) {
	return Ensure(ctx, owner, Options{Threshold: cfg.ExactThreshold, Concurrently: true, DryRun: r.DryRun, Tenant: tenant,
		OnWait: r.OnWait, Logger: r.Logger})
}

// Built reports whether tenant's dedicated HNSW index of model exists and
// is valid (any role can read the catalog).
func Built(ctx context.Context, db store.DBTX, tenantID uuid.UUID, modelID int16) (bool, error) {
	name := Name(tenantID, modelID)
	indexes, err := store.ListVectorIndexes(ctx, db, name)
	if err != nil {
		return false, err
	}
	for _, ix := range indexes {
		if ix.Name == name && ix.Valid {
			return true, nil
		}
	}
	return false, nil
}
