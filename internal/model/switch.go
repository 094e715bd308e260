package model

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"
	"golang.org/x/time/rate"

	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// A switch moves a tenant from its active model to a target, blue/green:
//
//  1. SetTarget records the target (tenants.target_model_id). From then on
//     every document write embeds with both models (ingest.Models), under
//     a lock a flip cannot pass (LockTenantModels).
//  2. Run re-embeds the stored chunks that have no vector of the target
//     (no re-extraction), in batches, rate-limited per model. The work is
//     derived from the database each batch, so a run that stopped (a
//     restart, a provider outage) continues where it was.
//  3. When the target covers every chunk, the tenant's HNSW index for it is
//     built if the tenant is past the exact threshold (Options.IndexReady).
//  4. The flip: one transaction locks the tenant row (waiting for writes in
//     flight), counts the target's coverage and, only at 100 %, makes the
//     target the active model in one UPDATE. Searches read the old model's
//     vectors until that commit and the new model's after it.
//  5. The replaced model's vectors stay for the grace period (a rollback
//     in it is another switch with nothing to embed), then DropVectors
//     removes them.

// ErrNoSwitch: the tenant has no switch in progress.
var ErrNoSwitch = errors.New("no model switch in progress")

// ErrIndexPending: the target covers every chunk but the tenant's HNSW
// index for it is not built yet; the flip waits for it.
var ErrIndexPending = errors.New("waiting for the tenant's vector index of the target model")

// Status is a tenant's models and the progress of its switch.
type Status struct {
	// Active is the model the tenant's searches use.
	Active string `json:"active_model"`
	// ActiveCoverage is the share of the tenant's chunks with a vector of
	// Active (1 = all).
	ActiveCoverage float64 `json:"active_coverage"`
	Chunks         int64   `json:"chunks"`
	// Target is the model a switch in progress goes to ("" none), with how
	// many chunks it covers so far.
	Target         string  `json:"target_model,omitempty"`
	TargetEmbedded int64   `json:"target_embedded,omitempty"`
	TargetCoverage float64 `json:"target_coverage,omitempty"`
	// Previous is the model the last switch replaced, whose vectors are kept
	// until DropAfter ("" none or dropped).
	Previous   string     `json:"previous_model,omitempty"`
	SwitchedAt *time.Time `json:"switched_at,omitempty"`
	DropAfter  *time.Time `json:"previous_dropped_after,omitempty"`
	// Error is the switch's last error ("" none).
	Error string `json:"switch_error,omitempty"`
}

func share(n, of int64) float64 {
	if of == 0 {
		return 1
	}
	return float64(n) / float64(of)
}

// StatusOf reads t's models and coverage (db: any pool; tenant
// transactions). grace is RAGD_MODEL_GRACE.
func (s *Set) StatusOf(ctx context.Context, db store.Beginner, t tenant.Tenant, grace time.Duration) (Status, error) {
	active, err := s.row(ctx, t.ModelID)
	if err != nil {
		return Status{}, err
	}
	st := Status{Active: active.Name, Error: t.ModelSwitchError}
	var embedded int64
	if st.Chunks, embedded, err = Coverage(ctx, db, t.ID, active.ID); err != nil {
		return Status{}, err
	}
	st.ActiveCoverage = share(embedded, st.Chunks)
	if t.TargetModelID != 0 {
		target, err := s.row(ctx, t.TargetModelID)
		if err != nil {
			return Status{}, err
		}
		st.Target = target.Name
		if _, st.TargetEmbedded, err = Coverage(ctx, db, t.ID, target.ID); err != nil {
			return Status{}, err
		}
		st.TargetCoverage = share(st.TargetEmbedded, st.Chunks)
	}
	if !t.ModelSwitchedAt.IsZero() {
		at := t.ModelSwitchedAt
		st.SwitchedAt = &at
	}
	if t.PreviousModelID != 0 {
		prev, err := s.row(ctx, t.PreviousModelID)
		if err != nil {
			return Status{}, err
		}
		st.Previous = prev.Name
		after := t.ModelSwitchedAt.Add(grace)
		if t.ModelSwitchedAt.IsZero() {
			// A cancelled switch's model on a tenant that never switched:
			// its partial vectors are due for the next background drop.
			after = time.Now().UTC().Truncate(time.Second)
		}
		st.DropAfter = &after
	}
	return st, nil
}

// row returns the registry row of id (0: the default) without building
// its embedder.
func (s *Set) row(ctx context.Context, id int16) (Model, error) {
	id = s.Resolve(id)
	s.mu.Lock()
	m, ok := s.rows[id]
	s.mu.Unlock()
	if ok {
		return m, nil
	}
	m, err := byID(ctx, s.pool, id)
	if err != nil {
		return Model{}, err
	}
	s.mu.Lock()
	s.rows[id] = m
	s.mu.Unlock()
	return m, nil
}

// SetTarget starts (or, with the active model as name, cancels) tenant's
// switch to the model registered as name, in the tenant's transaction (db:
// the owner or the application pool). A switch already going to another
// model is redirected: the vectors written so far stay and are dropped with
// the others. Returns the target model and whether a switch is now in
// progress. Errors: ErrNotRegistered, ErrRetired.
func (s *Set) SetTarget(ctx context.Context, db *pgxpool.Pool, tenantID uuid.UUID, name string) (Model, bool, error) {
	m, switching, _, err := s.SetTargetCancelling(ctx, db, tenantID, name)
	return m, switching, err
}

// SetTargetCancelling is SetTarget that also returns the model of the
// switch it cancelled or replaced (0: none was in progress), so that the
// operator is told which.
func (s *Set) SetTargetCancelling(ctx context.Context, db *pgxpool.Pool, tenantID uuid.UUID, name string) (m Model, switching bool, was int16, err error) {
	m, err = ByName(ctx, db, name)
	if err != nil {
		return Model{}, false, 0, err
	}
	err = inTenant(ctx, db, tenantID, func(tx pgx.Tx) error {
		q := store.New()
		cur, err := q.LockTenantModelsForFlip(ctx, tx, tenantID)
		if err != nil {
			return err
		}
		was = cur.TargetModelID
		target := m.ID
		if s.Resolve(cur.EmbeddingModelID) == m.ID {
			target = 0 // already active: no switch (cancels one in progress)
		} else if m.Status == StatusRetired {
			return fmt.Errorf("%w: %q (`ragd model list`)", ErrRetired, name)
		}
		switching = target != 0
		return q.SetTenantTargetModel(ctx, tx, store.SetTenantTargetModelParams{ID: tenantID, TargetModelID: target})
	})
	return m, switching, was, err
}

// Progress is one step of Run.
type Progress struct {
	Target           string
	Chunks, Embedded int64
}

// Options tune a Switcher.
type Options struct {
	// Rate is the texts per second sent to one model (0: unlimited);
	// RAGD_REEMBED_RATE.
	Rate float64
	// Batch is the chunks per batch (one embedding call, one transaction);
	// RAGD_REEMBED_BATCH.
	Batch int
	// EmbedText is the embedded-text recipe (ingest.EmbedHeadingContent or
	// ingest.EmbedContent), the same as the write path's (RAGD_EMBED_TEXT).
	EmbedText string
	// Grace is how long the replaced model's vectors are kept after a flip
	// (RAGD_MODEL_GRACE).
	Grace time.Duration
	// IndexReady reports whether the tenant may flip to model: true when it
	// needs no dedicated HNSW index (it holds at most the exact threshold's
	// vectors) or the index is built. The CLI builds the index here; the
	// server, which owns nothing and cannot build, checks that `ragd tenant
	// index` did. nil: always ready.
	IndexReady func(ctx context.Context, tenantID uuid.UUID, model int16, vectors int64) (bool, error)
	Logger     *slog.Logger
}

// OptionsFromConfig are the switch options of cfg (no IndexReady).
func OptionsFromConfig(cfg config.Config) Options {
	return Options{Rate: cfg.ReembedRate, Batch: cfg.ReembedBatch, EmbedText: cfg.EmbedText, Grace: cfg.ModelGrace}
}

// Switcher runs tenants' switches: the re-embed, the index check and the
// flip (Run), in the caller or in the background (Kick). Safe for
// concurrent use; one run per tenant at a time within a process (runs in
// two processes are safe too: their inserts skip what the other wrote).
type Switcher struct {
	set    *Set
	pool   store.Beginner
	opts   Options
	ctx    context.Context // background runs; ended by Stop
	cancel context.CancelFunc

	mu       sync.Mutex
	running  map[uuid.UUID]bool
	limiters map[int16]*rate.Limiter
	retryAt  map[uuid.UUID]time.Time
	wg       sync.WaitGroup
}

// NewSwitcher returns a Switcher writing through pool (tenant transactions).
func NewSwitcher(set *Set, pool store.Beginner, opts Options) *Switcher {
	if opts.Batch <= 0 {
		opts.Batch = config.DefaultReembedBatch
	}
	if opts.EmbedText == "" {
		opts.EmbedText = ingest.EmbedHeadingContent
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Switcher{set: set, pool: pool, opts: opts, ctx: ctx, cancel: cancel, running: map[uuid.UUID]bool{}, limiters: map[int16]*rate.Limiter{},
		retryAt: map[uuid.UUID]time.Time{}}
}

func (w *Switcher) limiter(model int16) *rate.Limiter {
	w.mu.Lock()
	defer w.mu.Unlock()
	l, ok := w.limiters[model]
	if !ok {
		lim := rate.Inf
		if w.opts.Rate > 0 {
			lim = rate.Limit(w.opts.Rate)
		}
		l = rate.NewLimiter(lim, w.opts.Batch)
		w.limiters[model] = l
	}
	return l
}

// load reads the tenant's model state in its transaction.
func (w *Switcher) load(ctx context.Context, tenantID uuid.UUID) (tenant.Tenant, error) {
	t, err := tenant.Load(ctx, w.pool, tenantID)
	if errors.Is(err, tenant.ErrDisabled) {
		err = nil // a disabled tenant's switch still completes
	}
	return t, err
}

// Run carries tenant's switch to its end: re-embed what the target lacks,
// wait for the index (ErrIndexPending when IndexReady says no), flip. It
// returns the flipped-to model, or ErrNoSwitch when there is nothing to do.
// progress (may be nil) is called after each batch. An error is also
// recorded on the tenant (tenant show, GET /v1/tenant); calling Run again
// continues.
func (w *Switcher) Run(ctx context.Context, tenantID uuid.UUID, progress func(Progress)) (Model, error) {
	// A switch re-embeds, counts and flips over every chunk of the tenant,
	// whoever started it: the server's background run has no caller, and
	// under a caller's access list the documents it hides would never be
	// re-embedded (the flip would then wait for them forever).
	ctx = store.WithVisibility(ctx, store.AllDocuments())
	m, err := w.run(ctx, tenantID, progress)
	if err != nil && !errors.Is(err, ErrNoSwitch) && ctx.Err() == nil {
		msg := err.Error()
		if rerr := inTenant(context.WithoutCancel(ctx), w.pool, tenantID, func(tx pgx.Tx) error {
			return store.New().SetTenantModelSwitchError(ctx, tx, store.SetTenantModelSwitchErrorParams{ID: tenantID, Error: msg})
		}); rerr != nil {
			w.opts.Logger.Warn("model switch: recording the error failed", "tenant", tenantID, "err", rerr)
		}
	}
	return m, err
}

func (w *Switcher) run(ctx context.Context, tenantID uuid.UUID, progress func(Progress)) (Model, error) {
	for {
		t, err := w.load(ctx, tenantID)
		if err != nil {
			return Model{}, err
		}
		if t.TargetModelID == 0 {
			return Model{}, ErrNoSwitch
		}
		target, emb, err := w.set.Get(ctx, t.TargetModelID)
		if err != nil {
			return Model{}, err
		}
		wm := ingest.WriteModel{ID: target.ID, Embedder: emb, Prefix: target.DocumentPrefix, MaxChars: target.maxChars()}
		for after := uuid.Nil; ; {
			n, last, err := w.batch(ctx, t.ID, wm, after)
			if err != nil {
				return Model{}, err
			}
			after = last
			if progress != nil {
				chunks, embedded, err := Coverage(ctx, w.pool, t.ID, target.ID)
				if err != nil {
					return Model{}, err
				}
				progress(Progress{Target: target.Name, Chunks: chunks, Embedded: embedded})
			}
			if n == 0 {
				break
			}
		}
		chunks, _, err := Coverage(ctx, w.pool, t.ID, target.ID)
		if err != nil {
			return Model{}, err
		}
		if w.opts.IndexReady != nil {
			ready, err := w.opts.IndexReady(ctx, t.ID, target.ID, chunks)
			if err != nil {
				return Model{}, err
			}
			if !ready {
				return Model{}, ErrIndexPending
			}
		}
		flipped, err := w.flip(ctx, t.ID, target.ID)
		if err != nil {
			return Model{}, err
		}
		if flipped {
			w.opts.Logger.Info("model switch: flipped", "tenant", t.Slug, "model", target.Name, "chunks", chunks)
			return target, nil
		}
		// Chunks written meanwhile without the target, or the target
		// changed: derive the work again.
	}
}

// batch re-embeds up to Batch chunks after chunk id after without a
// vector of m; it returns how many it read (0: none left after it) and the
// last one's id.
func (w *Switcher) batch(ctx context.Context, tenantID uuid.UUID, m ingest.WriteModel, after uuid.UUID) (int, uuid.UUID, error) {
	q := store.New()
	var rows []store.ChunksMissingModelRow
	err := inTenant(ctx, w.pool, tenantID, func(tx pgx.Tx) error {
		var err error
		rows, err = q.ChunksMissingModel(ctx, tx, store.ChunksMissingModelParams{TenantID: tenantID, ModelID: m.ID, After: after,
			MaxRows: int32(w.opts.Batch)})
		return err
	})
	if err != nil || len(rows) == 0 {
		return 0, after, err
	}
	last := rows[len(rows)-1].ID
	if err := w.limiter(m.ID).WaitN(ctx, len(rows)); err != nil {
		return 0, after, err
	}
	texts := make([]string, len(rows))
	p := store.InsertReembeddingsParams{TenantID: tenantID, ModelID: m.ID}
	for i, r := range rows {
		text := r.Content
		if w.opts.EmbedText == ingest.EmbedHeadingContent {
			text = ingest.EmbedText(r.HeadingPath, r.Content)
		}
		sum := sha256.Sum256([]byte(text))
		texts[i] = m.Text(text)
		p.ChunkIds = append(p.ChunkIds, r.ID)
		p.TextShas = append(p.TextShas, sum[:])
	}
	vecs, err := m.Embedder.Embed(ctx, texts)
	if err != nil {
		return 0, after, fmt.Errorf("re-embed with %s: %w", m.Embedder.Model(), err)
	}
	if len(vecs) != len(texts) {
		return 0, after, fmt.Errorf("re-embed with %s: %d vectors for %d texts", m.Embedder.Model(), len(vecs), len(texts))
	}
	for _, v := range vecs {
		p.Embeddings = append(p.Embeddings, pgvector.NewVector(v))
	}
	err = inTenant(ctx, w.pool, tenantID, func(tx pgx.Tx) error {
		_, err := q.InsertReembeddings(ctx, tx, p)
		return err
	})
	return len(rows), last, err
}

// flip makes target the tenant's active model if it still is the target
// and covers every chunk: the tenant row is locked FOR UPDATE first (writes
// in flight hold it FOR SHARE, so they commit first and are counted; later
// writes wait and then see the new models), then the coverage is counted
// and the row updated, in one transaction.
func (w *Switcher) flip(ctx context.Context, tenantID uuid.UUID, target int16) (bool, error) {
	var flipped bool
	err := inTenant(ctx, w.pool, tenantID, func(tx pgx.Tx) error {
		q := store.New()
		cur, err := q.LockTenantModelsForFlip(ctx, tx, tenantID)
		if err != nil || cur.TargetModelID != target {
			return err
		}
		cov, err := q.ModelCoverage(ctx, tx, store.ModelCoverageParams{TenantID: tenantID, ModelID: target})
		if err != nil || cov.Embedded < cov.Chunks {
			return err
		}
		n, err := q.FlipTenantModel(ctx, tx, store.FlipTenantModelParams{ID: tenantID, TargetModelID: target,
			PreviousModelID: w.set.Resolve(cur.EmbeddingModelID)})
		flipped = n == 1
		return err
	})
	return flipped, err
}

// DropVectors deletes tenant's vectors of model (in batches, each its own
// transaction) and forgets it as the previous model. It refuses the active
// model and a switch's target. Returns the vectors deleted.
func (s *Set) DropVectors(ctx context.Context, db store.Beginner, tenantID uuid.UUID, model int16) (int64, error) {
	return s.dropVectors(ctx, db, tenantID, model, true)
}

// dropVectors is DropVectors; forget says whether the model, once its
// vectors are gone, is forgotten as the previous model (it is not when it
// was no longer the previous one: an abandoned model's).
func (s *Set) dropVectors(ctx context.Context, db store.Beginner, tenantID uuid.UUID, model int16, forget bool) (int64, error) {
	// Every vector of the model, whatever its document's access list.
	ctx = store.WithVisibility(ctx, store.AllDocuments())
	var total int64
	for {
		var n int64
		err := inTenant(ctx, db, tenantID, func(tx pgx.Tx) error {
			q := store.New()
			cur, err := q.LockTenantModels(ctx, tx, tenantID)
			if err != nil {
				return err
			}
			if s.Resolve(cur.EmbeddingModelID) == model || cur.TargetModelID == model {
				return fmt.Errorf("model %d is the tenant's active or target model: its vectors stay", model)
			}
			if n, err = q.DeleteModelVectors(ctx, tx, store.DeleteModelVectorsParams{TenantID: tenantID, ModelID: model, MaxRows: 5000}); err != nil {
				return err
			}
			if n == 0 && forget {
				return q.ClearTenantPreviousModel(ctx, tx, tenantID)
			}
			return nil
		})
		if err != nil {
			return total, err
		}
		total += n
		if n == 0 {
			return total, nil
		}
	}
}

// Kick starts t's pending work in the background, at most one run per
// tenant: the switch in progress (Run), and the previous model's vectors
// once the grace period is over. The server calls it for every tenant a
// request resolves, so a switch started by the admin route or the CLI, or
// interrupted by a restart, proceeds while the tenant is in use. A failed
// run is retried no sooner than a minute later.
func (w *Switcher) Kick(t tenant.Tenant) {
	graceOver := t.PreviousModelID != 0 && time.Since(t.ModelSwitchedAt) >= w.opts.Grace
	if t.TargetModelID == 0 && !graceOver {
		return
	}
	w.mu.Lock()
	if w.running[t.ID] || time.Now().Before(w.retryAt[t.ID]) {
		w.mu.Unlock()
		return
	}
	w.running[t.ID] = true
	w.wg.Add(1)
	w.mu.Unlock()
	go func() {
		defer w.wg.Done()
		ctx := w.ctx
		err := w.background(ctx, t)
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.running, t.ID)
		if err != nil && !errors.Is(err, ErrNoSwitch) && ctx.Err() == nil {
			w.opts.Logger.Warn("model switch: run failed; retried on a later request", "tenant", t.Slug, "err", err)
			w.retryAt[t.ID] = time.Now().Add(time.Minute)
		}
	}()
}

// background is one Kick's work: the switch, then, on the tenant as it is
// now, the previous model's vectors once the grace period is over.
func (w *Switcher) background(ctx context.Context, t tenant.Tenant) error {
	if t.TargetModelID != 0 {
		if _, err := w.Run(ctx, t.ID, nil); err != nil && !errors.Is(err, ErrNoSwitch) {
			return err
		}
	}
	t, err := w.load(ctx, t.ID)
	if err != nil {
		return err
	}
	if err := w.dropAbandoned(ctx, t); err != nil {
		return err
	}
	if t.PreviousModelID == 0 || t.PreviousModelID == t.TargetModelID || time.Since(t.ModelSwitchedAt) < w.opts.Grace {
		return nil // (a switch resumed to the model it had given up keeps its vectors)
	}
	n, err := w.set.DropVectors(ctx, w.pool, t.ID, t.PreviousModelID)
	if err == nil {
		w.opts.Logger.Info("model switch: previous model's vectors dropped after the grace period", "tenant", t.Slug, "vectors", n)
	}
	return err
}

// dropAbandoned deletes the tenant's vectors of every model that is
// neither its active model, nor a switch's target, nor the previous model
// kept for the grace period: a model replaced two switches ago (A → B,
// then B → C within the grace period: the flip keeps B as previous) and
// the partial vectors of a switch redirected elsewhere (to B, then C).
// Nothing else would ever delete them.
func (w *Switcher) dropAbandoned(ctx context.Context, t tenant.Tenant) error {
	var models []int16
	err := inTenant(store.WithVisibility(ctx, store.AllDocuments()), w.pool, t.ID, func(tx pgx.Tx) error {
		var err error
		models, err = store.New().TenantVectorModels(ctx, tx, t.ID)
		return err
	})
	if err != nil {
		return err
	}
	for _, m := range models {
		if m == w.set.Resolve(t.ModelID) || m == t.TargetModelID || m == t.PreviousModelID {
			continue
		}
		n, err := w.set.dropVectors(ctx, w.pool, t.ID, m, false)
		if err != nil {
			return err
		}
		w.opts.Logger.Info("model switch: vectors of a model the tenant no longer uses dropped", "tenant", t.Slug, "model", m, "vectors", n)
	}
	return nil
}

// Grace is how long a replaced model's vectors are kept (Options.Grace).
func (w *Switcher) Grace() time.Duration { return w.opts.Grace }

// Wait blocks until the background runs started by Kick end.
func (w *Switcher) Wait() { w.wg.Wait() }

// Stop cancels the background runs and waits for them (the server's
// shutdown). A cancelled run loses at most its current batch; the next run
// derives the rest from the database.
func (w *Switcher) Stop() {
	w.cancel()
	w.wg.Wait()
}
