package job

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// errClaimLost: the item's claim is no longer this worker's (its lease
// expired and another worker took it); the worker drops the item untouched.
var errClaimLost = errors.New("job: claim lost")

// Run works jobs with Options.Workers workers until ctx ends, then returns
// once every worker has handed back its item (ReleaseIngestionItem: a
// graceful stop does not count as an attempt). Errors are logged, never
// returned: a worker that cannot reach the database waits and tries again.
func (s *Service) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for range s.opt.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.loop(ctx)
		}()
	}
	wg.Wait()
}

func (s *Service) loop(ctx context.Context) {
	idle := time.NewTimer(0)
	defer idle.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-idle.C:
		case <-s.wake:
		}
		worked, err := s.Work(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.Warn("ingestion worker: claim failed", "err", err)
		}
		wait := s.opt.Poll
		if worked {
			wait = 0 // more may be waiting
		}
		if !idle.Stop() {
			select {
			case <-idle.C:
			default:
			}
		}
		idle.Reset(wait)
	}
}

// Work claims one item (any tenant's, or Options.Tenants') and processes
// it: reports whether there was one. Errors: the claim's (the database);
// what happens to the document is recorded on its item, not returned.
func (s *Service) Work(ctx context.Context) (bool, error) {
	if ctx.Err() != nil {
		return false, nil
	}
	// The claim runs to its end even when ctx ends meanwhile: cancelled
	// mid-statement, the database may still claim an item (waiting on the
	// row lock of another worker's hand-back, then taking it) that this
	// worker never hears of, left claimed with its attempt counted until
	// the lease runs out. An item claimed once ctx has ended is handed
	// back at once.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), claimTimeout)
	c, ok, err := store.ClaimIngestionItem(cctx, s.pool, s.opt.Lease, s.opt.MaxAttempts, s.opt.Tenants)
	cancel()
	if err != nil || !ok {
		return false, err
	}
	if ctx.Err() != nil {
		s.release(ctx, c)
		return false, nil
	}
	s.process(ctx, c)
	return true, nil
}

// claimTimeout bounds one claim statement.
const claimTimeout = 30 * time.Second

// process carries one claimed item through the pipeline and records the
// outcome under the claim.
func (s *Service) process(ctx context.Context, c store.IngestionClaim) {
	// The worker's own reads and writes of the job's rows see every job of
	// the tenant; the document itself is written as the job's submitter
	// (below).
	ctx = store.WithVisibility(ctx, store.AllDocuments())
	log := s.log.With("tenant", c.TenantID, "job", c.BatchID, "index", c.Idx, "attempt", c.Attempts)
	q := store.New()
	var it store.GetClaimedIngestionItemRow
	err := store.InTenant(ctx, s.pool, c.TenantID, func(tx pgx.Tx) error {
		var err error
		it, err = q.GetClaimedIngestionItem(ctx, tx, store.GetClaimedIngestionItemParams{TenantID: c.TenantID, BatchID: c.BatchID, Idx: c.Idx, Claim: c.Claim})
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return // the claim was lost already, or the tenant deleted
	}
	if err != nil {
		s.settle(ctx, c, log, err)
		return
	}
	t, err := tenant.Load(ctx, s.pool, c.TenantID)
	if errors.Is(err, tenant.ErrNotFound) {
		return // deleted with its jobs
	}
	if errors.Is(err, tenant.ErrDisabled) {
		// Disabled after the claim (claim_ingestion_item skips disabled
		// tenants): the item waits, its attempt not counted, and goes on
		// when the tenant is enabled again.
		s.release(ctx, c)
		return
	}
	if err != nil {
		s.settle(ctx, c, log, err)
		return
	}
	var meta map[string]any
	if it.Metadata != nil {
		var err error
		if meta, err = ingest.DecodeMetadata(it.Metadata); err != nil {
			s.finish(ctx, c, log, StageFailed, ingest.Outcome{}, "metadata is not a JSON object")
			return
		}
	}

	// The lease is renewed while the document is worked on; losing it (or
	// the claim, at a stage report) cancels the work.
	wctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := make(chan struct{})
	var beat sync.WaitGroup
	beat.Add(1)
	hb := wctx // the heartbeat's own: wctx gains the stage observer below
	go func() {
		defer beat.Done()
		tick := time.NewTicker(s.opt.Lease / 3)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-hb.Done():
				return
			case <-tick.C:
				n, err := s.renew(hb, c)
				if err == nil && n == 0 {
					cancel(errClaimLost)
					return
				}
			}
		}
	}()
	wctx = ingest.WithStageObserver(wctx, func(st ingest.Stage) error {
		var n int64
		err := store.InTenant(wctx, s.pool, c.TenantID, func(tx pgx.Tx) error {
			var err error
			n, err = q.SetIngestionItemStage(wctx, tx, store.SetIngestionItemStageParams{Stage: string(st), LeaseSeconds: s.opt.Lease.Seconds(),
				TenantID: c.TenantID, BatchID: c.BatchID, Idx: c.Idx, Claim: c.Claim})
			return err
		})
		if err == nil && n == 0 {
			return errClaimLost
		}
		return err
	})
	// As the submitter: a job neither reads nor replaces a document its
	// submitter cannot see (NULL principals: submitted seeing every
	// document).
	as := store.AllDocuments()
	if it.Principals != nil {
		as = store.AsPrincipals(it.Principals)
	}
	dctx, dcancel := context.WithTimeoutCause(store.WithVisibility(wctx, as), s.opt.DocumentTimeout, errTooSlow)
	out, err := s.upsert(dctx, log, t, ingest.Document{SourceURI: it.SourceUri, ContentType: it.ContentType, Content: it.Content, Metadata: meta})
	slow := err != nil && errors.Is(context.Cause(dctx), errTooSlow)
	dcancel()
	close(stop)
	beat.Wait()
	if errors.Is(err, errClaimLost) || errors.Is(context.Cause(wctx), errClaimLost) {
		log.Warn("ingestion worker: claim lost; another worker has the document", "source_uri", it.SourceUri)
		return
	}
	if slow {
		// Retried like any transient failure, within MaxAttempts: the time
		// may have gone waiting (another writer's lock on the document, a
		// slow provider), not on the document itself.
		log.Warn("ingestion worker: document timed out", "source_uri", it.SourceUri, "timeout", s.opt.DocumentTimeout, "err", err)
		err = fmt.Errorf("%w: the document was not stored within %s (RAGD_INGEST_DOCUMENT_TIMEOUT)", errTooSlow, s.opt.DocumentTimeout)
	}
	if err == nil {
		if s.opt.OnStored != nil {
			s.opt.OnStored(c.TenantID, out.Embedded)
		}
		stage := StageStored
		if out.Status == ingest.StatusUnchanged {
			stage = StageUnchanged
		}
		s.finish(ctx, c, log, stage, out, "")
		return
	}
	s.settle(ctx, c, log, err)
}

// errTooSlow is the cause of a document's deadline (Options.DocumentTimeout).
var errTooSlow = errors.New("ingestion job: time is up")

// errPanicked: writing the document panicked. The document fails for good
// (another attempt would panic again), with a reason that names no
// internals; the stack is logged.
var errPanicked = errors.New("ingestion job: an internal error stopped the document (reported in the server log)")

// upsert writes one document, a panic made an error: the worker runs in
// `ragd serve`'s process, and one document that panicked it (and did
// again on every server that took the document over after the lease)
// would stop the server, where a PUT of the same document is a 500.
func (s *Service) upsert(ctx context.Context, log *slog.Logger, t tenant.Tenant, d ingest.Document) (out ingest.Outcome, err error) {
	defer func() {
		if v := recover(); v != nil {
			log.Error("ingestion worker: document panicked", "source_uri", d.SourceURI, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			out, err = ingest.Outcome{}, errPanicked
		}
	}()
	return s.up.Upsert(ctx, t, d)
}

// settle records a failed attempt: released when the worker is stopping;
// skipped, refused or failed for good (ingest.KindOf) when the document
// itself is the problem; queued for a retry after RetryDelay (doubling per
// attempt) when the failure may pass (the provider, the database); failed
// once the attempts are used up.
func (s *Service) settle(ctx context.Context, c store.IngestionClaim, log *slog.Logger, err error) {
	if ctx.Err() != nil {
		s.release(ctx, c)
		return
	}
	if !transient(err) {
		s.finish(ctx, c, log, kindStage(ingest.KindOf(err)), ingest.Outcome{}, reason(err))
		return
	}
	log.Warn("ingestion worker: attempt failed", "err", err)
	if int(c.Attempts) >= s.opt.MaxAttempts {
		s.finish(ctx, c, log, StageFailed, ingest.Outcome{}, fmt.Sprintf("gave up after %d attempts: %s", c.Attempts, reason(err)))
		return
	}
	delay := s.opt.RetryDelay << min(c.Attempts-1, 10)
	_ = store.InTenant(ctx, s.pool, c.TenantID, func(tx pgx.Tx) error {
		_, err := store.New().RetryIngestionItem(ctx, tx, store.RetryIngestionItemParams{Error: reason(err), DelaySeconds: delay.Seconds(),
			TenantID: c.TenantID, BatchID: c.BatchID, Idx: c.Idx, Claim: c.Claim})
		return err
	})
}

// transient reports whether err may pass on a later attempt: the embedding
// provider, the database being unreachable, a deadline. Everything else is
// about the document (too large, not UTF-8, empty, ...) and fails at once.
func transient(err error) bool {
	var pg *pgconn.PgError
	return errors.Is(err, ingest.ErrEmbedding) || store.IsUnavailable(err) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, errTooSlow) ||
		(errors.As(err, &pg) && !errors.Is(err, store.ErrInvalidValue) && !errors.Is(err, store.ErrInvalidText))
}

// reason is the client-facing text of a document's failure: the pipeline's
// own message for errors about the document, a generic one for the
// database's (its text stays in the server log).
func reason(err error) string {
	var pg *pgconn.PgError
	switch {
	case errors.Is(err, errTooSlow):
		return strings.TrimPrefix(err.Error(), errTooSlow.Error()+": ")
	case errors.Is(err, ingest.ErrEmbedding):
		return "the embedding model is unavailable"
	case store.IsUnavailable(err):
		return "the database is unavailable"
	case errors.Is(err, store.ErrInvalidText):
		return "text must not contain the NUL character (U+0000)"
	case errors.Is(err, store.ErrInvalidValue):
		return "a value is out of the allowed range"
	case errors.As(err, &pg):
		return "internal error (logged on the server)"
	}
	return err.Error()
}

func (s *Service) renew(ctx context.Context, c store.IngestionClaim) (int64, error) {
	var n int64
	err := store.InTenant(ctx, s.pool, c.TenantID, func(tx pgx.Tx) error {
		var err error
		n, err = store.New().RenewIngestionLease(ctx, tx, store.RenewIngestionLeaseParams{LeaseSeconds: s.opt.Lease.Seconds(),
			TenantID: c.TenantID, BatchID: c.BatchID, Idx: c.Idx, Claim: c.Claim})
		return err
	})
	return n, err
}

// finish records a final stage under the claim (0 rows when the claim was
// lost: the new claimer records it). It runs even when ctx has ended (the
// outcome is known and must not be redone).
func (s *Service) finish(ctx context.Context, c store.IngestionClaim, log *slog.Logger, stage string, out ingest.Outcome, why string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	var doc pgtype.UUID
	if stage == StageStored || stage == StageUnchanged {
		doc = pgtype.UUID{Bytes: out.DocumentID, Valid: true}
	}
	q := store.New()
	err := store.InTenant(ctx, s.pool, c.TenantID, func(tx pgx.Tx) error {
		_, err := q.FinishIngestionItem(ctx, tx, store.FinishIngestionItemParams{Stage: stage, Outcome: string(out.Status), DocumentID: doc,
			Chunks: int32(out.Chunks), Error: why, TenantID: c.TenantID, BatchID: c.BatchID, Idx: c.Idx, Claim: c.Claim})
		return err
	})
	if err != nil {
		// The item stays claimed; its lease expires and the next attempt
		// finds the document unchanged.
		log.Warn("ingestion worker: cannot record the outcome", "stage", stage, "err", err)
	}
}

// release hands the item back without counting the attempt (the worker is
// stopping).
func (s *Service) release(ctx context.Context, c store.IngestionClaim) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_ = store.InTenant(ctx, s.pool, c.TenantID, func(tx pgx.Tx) error {
		_, err := store.New().ReleaseIngestionItem(ctx, tx, store.ReleaseIngestionItemParams{TenantID: c.TenantID, BatchID: c.BatchID, Idx: c.Idx, Claim: c.Claim})
		return err
	})
}
