// Package traffic records what a tenant's traffic was, off the request
// path: retrieval events (every search and answer: the question or its
// hash, the filters, the chunks returned with each leg's rank and score,
// the confidence and refusal, stage latencies, the principal's subject, the
// request id) and per-day usage counters (requests per route class,
// requests refused by the rate limit or shed by admission control, chunks
// embedded, provider tokens).
//
// Record and Count never block and never fail: events wait in a bounded
// channel and counters in a map, and a background writer (Run) stores them
// in batches, one tenant transaction per tenant per batch. When the buffer
// is full, new events are dropped and counted (ragd_events_dropped_total);
// a slow or failing database slows or fails only the writer. An event
// queued and not yet written is pending: Wait lets a request that needs it
// stored (feedback on an event_id just returned) have the writer flush at
// once and wait for it, instead of finding no row. Events older
// than their tenant's retention are purged by the writer for the tenants it
// writes for (at most hourly each) and by `ragd tenant purge-events` for
// all tenants.
package traffic

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ragd-dev/ragd/internal/store"
)

// Event is one search or answer as recorded.
type Event struct {
	ID       uuid.UUID
	TenantID uuid.UUID
	At       time.Time
	// Operation is "search" or "answer".
	Operation string
	RequestID string
	// Subject is the principal's subject (the token's sub claim).
	Subject string
	// Question is the question as asked; KeepText false stores only its
	// sha256 (the tenant's privacy setting).
	Question string
	KeepText bool
	// Rewritten is the standalone question a follow-up was rewritten to
	// (empty when it was not).
	Rewritten string
	// Filters are the request's filters (source_uri_prefix, metadata).
	Filters map[string]any
	TopK    int
	Results []Result
	// Confidence is the retrieval confidence; Refused and RefusalReason the
	// answer's refusal (a search's Refused is false).
	Confidence    float64
	Refused       bool
	RefusalReason string
	Degraded      bool
	// TimingsMS are milliseconds per stage; TotalMS the handler's time.
	TimingsMS map[string]float64
	TotalMS   float64
	// RetentionDays is the tenant's event retention (purge horizon).
	RetentionDays int
}

// Result is one returned chunk with its legs' ranks and scores.
type Result struct {
	Rank           int       `json:"rank"`
	ChunkID        uuid.UUID `json:"chunk_id"`
	DocumentID     uuid.UUID `json:"document_id"`
	SourceURI      string    `json:"source_uri"`
	Score          float64   `json:"score"`
	VectorRank     *int      `json:"vector_rank,omitempty"`
	VectorDistance *float64  `json:"vector_distance,omitempty"`
	KeywordRank    *int      `json:"keyword_rank,omitempty"`
	KeywordScore   *float64  `json:"keyword_score,omitempty"`
	RerankScore    *float64  `json:"rerank_score,omitempty"`
}

// Usage counter kinds (Count).
const (
	QueryRequests = iota
	WriteRequests
	AdminRequests
	RateLimited
	Shed
	EmbeddedChunks
	ProviderTokens
	numCounters
)

// QuestionSHA is the hex sha256 of a question as recorded.
func QuestionSHA(q string) string {
	h := sha256.Sum256([]byte(q))
	return hex.EncodeToString(h[:])
}

// Recorder buffers events and counters for its background writer. Build it
// with New; the zero value and a nil *Recorder record nothing.
type Recorder struct {
	pool  store.Beginner
	log   *slog.Logger
	ch    chan Event
	batch int
	every time.Duration

	mu     sync.Mutex
	counts map[usageKey]*[numCounters]int64

	purgeMu  sync.Mutex
	purgedAt map[uuid.UUID]time.Time

	// pending holds the ids of queued events not yet written (their
	// batch committed or failed); a value is made by the first Wait for
	// the event and closed once it is written.
	pendMu  sync.Mutex
	pending map[uuid.UUID]chan struct{}
	// kick asks the writer to write what is queued now (Wait).
	kick chan struct{}

	dropped, written, failed atomic.Uint64
	descs                    struct{ dropped, written, failed, buffered *prometheus.Desc }
}

type usageKey struct {
	tenant uuid.UUID
	day    time.Time // UTC midnight
}

// Option adjusts New.
type Option func(*Recorder)

// WithLogger sets the logger of write failures (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(r *Recorder) { r.log = l } }

// WithFlushEvery sets the writer's interval (default 500 ms): an event is
// stored at most about this long after its response.
func WithFlushEvery(d time.Duration) Option { return func(r *Recorder) { r.every = d } }

// New returns a recorder that buffers up to buffer events for pool
// (buffer <= 0: events are not recorded, counters still are).
func New(pool store.Beginner, buffer int, opts ...Option) *Recorder {
	r := &Recorder{pool: pool, log: slog.Default(), ch: make(chan Event, max(buffer, 0)), batch: 500, every: 500 * time.Millisecond,
		counts: map[usageKey]*[numCounters]int64{}, purgedAt: map[uuid.UUID]time.Time{}, pending: map[uuid.UUID]chan struct{}{},
		kick: make(chan struct{}, 1)}
	for _, o := range opts {
		o(r)
	}
	r.descs.dropped = prometheus.NewDesc("ragd_events_dropped_total", "Retrieval events dropped because the buffer was full.", nil, nil)
	r.descs.written = prometheus.NewDesc("ragd_events_written_total", "Retrieval events stored.", nil, nil)
	r.descs.failed = prometheus.NewDesc("ragd_events_write_failures_total", "Batches of retrieval events the database refused (their events are lost).", nil, nil)
	r.descs.buffered = prometheus.NewDesc("ragd_events_buffered", "Retrieval events waiting for the writer.", nil, nil)
	return r
}

// Record queues e without blocking. It returns false when e was dropped
// (buffer full or recording off).
func (r *Recorder) Record(e Event) bool {
	if r == nil || cap(r.ch) == 0 {
		return false
	}
	// Pending before it is queued: the writer may write it at once.
	r.pendMu.Lock()
	r.pending[e.ID] = nil
	r.pendMu.Unlock()
	select {
	case r.ch <- e:
		return true
	default:
		r.dropped.Add(1)
		r.settled([]Event{e})
		return false
	}
}

// Wait returns once the event id is not pending: written by the writer (or
// lost with a batch the database refused), or never queued by this
// recorder (another server's, or unknown). For a pending event it asks the
// writer to write what is queued at once rather than at its next interval,
// so the wait is about one batch transaction. Errors: ctx's error when ctx
// ends with the event still pending (the writer is stopped or the database
// slow). A nil Recorder has nothing pending.
func (r *Recorder) Wait(ctx context.Context, id uuid.UUID) error {
	if r == nil {
		return nil
	}
	r.pendMu.Lock()
	done, ok := r.pending[id]
	if ok && done == nil {
		done = make(chan struct{})
		r.pending[id] = done
	}
	r.pendMu.Unlock()
	if !ok {
		return nil
	}
	select {
	case r.kick <- struct{}{}:
	default: // a flush is asked for already
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// settled ends events' pending state (written, refused or dropped) and
// releases their waiters.
func (r *Recorder) settled(events []Event) {
	r.pendMu.Lock()
	defer r.pendMu.Unlock()
	for _, e := range events {
		if done, ok := r.pending[e.ID]; ok {
			if done != nil {
				close(done)
			}
			delete(r.pending, e.ID)
		}
	}
}

// Count adds n to tenant's counter kind for today (UTC).
func (r *Recorder) Count(tenant uuid.UUID, kind int, n int64) {
	if r == nil || n == 0 || kind < 0 || kind >= numCounters {
		return
	}
	k := usageKey{tenant, time.Now().UTC().Truncate(24 * time.Hour)}
	r.mu.Lock()
	c := r.counts[k]
	if c == nil {
		c = new([numCounters]int64)
		r.counts[k] = c
	}
	c[kind] += n
	r.mu.Unlock()
}

// Dropped is the number of events dropped so far.
func (r *Recorder) Dropped() uint64 { return r.dropped.Load() }

// Failed is the number of tenant batches the database refused so far.
func (r *Recorder) Failed() uint64 { return r.failed.Load() }

// Describe sends the recorder's metric descriptors (prometheus.Collector).
func (r *Recorder) Describe(ch chan<- *prometheus.Desc) {
	ch <- r.descs.dropped
	ch <- r.descs.written
	ch <- r.descs.failed
	ch <- r.descs.buffered
}

// Collect reads the recorder's counters (prometheus.Collector).
func (r *Recorder) Collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.MustNewConstMetric(r.descs.dropped, prometheus.CounterValue, float64(r.dropped.Load()))
	ch <- prometheus.MustNewConstMetric(r.descs.written, prometheus.CounterValue, float64(r.written.Load()))
	ch <- prometheus.MustNewConstMetric(r.descs.failed, prometheus.CounterValue, float64(r.failed.Load()))
	ch <- prometheus.MustNewConstMetric(r.descs.buffered, prometheus.GaugeValue, float64(len(r.ch)))
}

// writeTimeout bounds one tenant's batch transaction.
const writeTimeout = 10 * time.Second

// Run drains the buffer until ctx ends, writing a batch when it holds
// r.batch events, every flush interval, or at once when Wait asks for a
// pending event; then it writes what is buffered (within writeTimeout) and
// returns.
func (r *Recorder) Run(ctx context.Context) {
	t := time.NewTicker(r.every)
	defer t.Stop()
	var pending []Event
	for {
		select {
		case e := <-r.ch:
			pending = append(pending, e)
			if len(pending) < r.batch {
				continue
			}
		case <-t.C:
		case <-r.kick:
			// Everything queued so far: the event waited for is among it.
		queued:
			for len(pending) < r.batch {
				select {
				case e := <-r.ch:
					pending = append(pending, e)
				default:
					break queued
				}
			}
			if len(r.ch) > 0 {
				// More than a batch was queued: the next one at once too.
				select {
				case r.kick <- struct{}{}:
				default:
				}
			}
		case <-ctx.Done():
		drain:
			for {
				select {
				case e := <-r.ch:
					pending = append(pending, e)
				default:
					break drain
				}
			}
			r.Flush(context.WithoutCancel(ctx), pending)
			return
		}
		r.Flush(ctx, pending)
		pending = pending[:0]
	}
}

// Flush writes events and the counters accumulated so far, one tenant
// transaction per tenant, and purges the expired events of those tenants
// (at most hourly each). Failures are logged and counted, never returned:
// the events of a failed batch are lost and its counters restored. Then
// the events are no longer pending (Wait).
func (r *Recorder) Flush(ctx context.Context, events []Event) {
	defer r.settled(events)
	byTenant := map[uuid.UUID][]Event{}
	for _, e := range events {
		byTenant[e.TenantID] = append(byTenant[e.TenantID], e)
	}
	r.mu.Lock()
	counts := r.counts
	r.counts = map[usageKey]*[numCounters]int64{}
	r.mu.Unlock()
	usage := map[uuid.UUID]map[time.Time]*[numCounters]int64{}
	for k, c := range counts {
		if usage[k.tenant] == nil {
			usage[k.tenant] = map[time.Time]*[numCounters]int64{}
			if _, ok := byTenant[k.tenant]; !ok {
				byTenant[k.tenant] = nil
			}
		}
		usage[k.tenant][k.day] = c
	}
	for tenant, evs := range byTenant {
		if err := r.write(ctx, tenant, evs, usage[tenant]); err != nil {
			r.failed.Add(1)
			r.log.WarnContext(ctx, "retrieval events: write failed", "tenant_id", tenant, "events", len(evs), "err", err)
			for day, c := range usage[tenant] {
				for kind, n := range c {
					r.mu.Lock()
					k := usageKey{tenant, day}
					if r.counts[k] == nil {
						r.counts[k] = new([numCounters]int64)
					}
					r.counts[k][kind] += n
					r.mu.Unlock()
				}
			}
			continue
		}
		r.written.Add(uint64(len(evs)))
	}
}

// row is an event as InsertRetrievalEvents reads it.
type row struct {
	ID            uuid.UUID          `json:"id"`
	CreatedAt     time.Time          `json:"created_at"`
	Operation     string             `json:"operation"`
	RequestID     string             `json:"request_id"`
	Subject       string             `json:"subject"`
	Question      *string            `json:"question"`
	QuestionSHA   string             `json:"question_sha"`
	Rewritten     *string            `json:"rewritten"`
	Filters       map[string]any     `json:"filters"`
	TopK          int                `json:"top_k"`
	Results       []Result           `json:"results"`
	Confidence    float64            `json:"confidence"`
	Refused       bool               `json:"refused"`
	RefusalReason string             `json:"refusal_reason"`
	Degraded      bool               `json:"degraded"`
	TimingsMS     map[string]float64 `json:"timings_ms"`
	TotalMS       float64            `json:"total_ms"`
}

// purgeEvery is how often the writer purges one tenant's expired events.
const purgeEvery = time.Hour

// The columns' bounds (migration 00022): the tenant's events are written in
// one statement, so a value past its column's bound would lose every event
// of the batch, other callers' included.
const (
	maxSubjectChars   = 512
	maxRequestIDChars = 128
)

// within returns s, or "" (left out) when PostgreSQL cannot store it (a NUL
// character, invalid UTF-8) or it has more than n characters: a cut subject
// could name another caller.
func within(s string, n int) string {
	if utf8.RuneCountInString(s) > n || strings.ContainsRune(s, 0) || !utf8.ValidString(s) {
		return ""
	}
	return s
}

func (r *Recorder) write(ctx context.Context, tenant uuid.UUID, evs []Event, usage map[time.Time]*[numCounters]int64) error {
	ctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	retention := 0
	rows := make([]row, len(evs))
	for i, e := range evs {
		retention = max(retention, e.RetentionDays)
		rows[i] = row{ID: e.ID, CreatedAt: e.At, Operation: e.Operation, RequestID: within(e.RequestID, maxRequestIDChars), Subject: within(e.Subject, maxSubjectChars),
			QuestionSHA: QuestionSHA(e.Question), Filters: e.Filters, TopK: e.TopK, Results: e.Results, Confidence: e.Confidence,
			Refused: e.Refused, RefusalReason: e.RefusalReason, Degraded: e.Degraded, TimingsMS: e.TimingsMS, TotalMS: e.TotalMS}
		if e.KeepText {
			q := e.Question
			rows[i].Question = &q
			if e.Rewritten != "" {
				rw := e.Rewritten
				rows[i].Rewritten = &rw
			}
		}
		if rows[i].Results == nil {
			rows[i].Results = []Result{}
		}
	}
	purge := false
	if retention > 0 {
		r.purgeMu.Lock()
		if time.Since(r.purgedAt[tenant]) > purgeEvery {
			r.purgedAt[tenant] = time.Now()
			purge = true
		}
		r.purgeMu.Unlock()
	}
	return store.InTenant(ctx, r.pool, tenant, func(tx pgx.Tx) error {
		q := store.New()
		if len(rows) > 0 {
			b, err := json.Marshal(rows)
			if err != nil {
				return err
			}
			if _, err := q.InsertRetrievalEvents(ctx, tx, store.InsertRetrievalEventsParams{TenantID: tenant, Events: b}); err != nil {
				return fmt.Errorf("insert events: %w", err)
			}
		}
		for day, c := range usage {
			if err := q.AddTenantUsage(ctx, tx, store.AddTenantUsageParams{TenantID: tenant, Day: pgtype.Date{Time: day, Valid: true},
				QueryRequests: c[QueryRequests], WriteRequests: c[WriteRequests], AdminRequests: c[AdminRequests],
				RateLimited: c[RateLimited], Shed: c[Shed], EmbeddedChunks: c[EmbeddedChunks], ProviderTokens: c[ProviderTokens]}); err != nil {
				return fmt.Errorf("add usage: %w", err)
			}
		}
		if purge {
			return Purge(ctx, tx, tenant, retention, time.Now())
		}
		return nil
	})
}

// Purge deletes tenant's events older than retentionDays before now and
// its usage counters of days before that, inside the caller's tenant
// transaction.
func Purge(ctx context.Context, tx pgx.Tx, tenant uuid.UUID, retentionDays int, now time.Time) error {
	before := now.Add(-time.Duration(retentionDays) * 24 * time.Hour)
	q := store.New()
	if _, err := q.PurgeRetrievalEvents(ctx, tx, store.PurgeRetrievalEventsParams{TenantID: tenant, Before: pgtype.Timestamptz{Time: before, Valid: true}}); err != nil {
		return fmt.Errorf("purge events: %w", err)
	}
	if _, err := q.PurgeTenantUsage(ctx, tx, store.PurgeTenantUsageParams{TenantID: tenant,
		BeforeDay: pgtype.Date{Time: before.UTC().Truncate(24 * time.Hour), Valid: true}}); err != nil {
		return fmt.Errorf("purge usage: %w", err)
	}
	return nil
}
