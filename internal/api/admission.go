package api

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/limit"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/traffic"
)

// classOf is the route class of an operation: its rate bucket and usage
// counter.
func classOf(op string) limit.Class {
	switch op {
	case "search", "answer":
		return limit.ClassQuery
	case "upsertDocument", "uploadDocument", "deleteDocument", "deleteDocumentBySourceURI":
		return limit.ClassWrite
	}
	return limit.ClassAdmin
}

// usageKind maps a route class to its traffic counter.
func usageKind(c limit.Class) int {
	switch c {
	case limit.ClassQuery:
		return traffic.QueryRequests
	case limit.ClassWrite:
		return traffic.WriteRequests
	}
	return traffic.AdminRequests
}

// rates are t's effective rates: its own (tenant.Limits) over the server's.
func (s *Server) rates(t tenant.Tenant) limit.Rates {
	r := s.limits.Rates
	if l := t.Settings.Limits; l != nil {
		if l.QueryRate != nil {
			r.Query = *l.QueryRate
		}
		if l.WriteRate != nil {
			r.Write = *l.WriteRate
		}
		if l.AdminRate != nil {
			r.Admin = *l.AdminRate
		}
	}
	return r
}

// quotas are t's effective storage quotas (0 = unlimited).
func (s *Server) quotas(t tenant.Tenant) (docs, chunks, bytes int64) {
	q := ingest.QuotaOf(t, ingest.Quota{Documents: s.limits.QuotaDocuments, Chunks: s.limits.QuotaChunks, Bytes: s.limits.QuotaBytes})
	return q.Documents, q.Chunks, q.Bytes
}

// retryAfter is a Retry-After header value: whole seconds (RFC 9110
// §10.2.3), rounded up, at least 1.
func retryAfter(d time.Duration) http.Header {
	return http.Header{"Retry-After": {strconv.Itoa(max(1, int(math.Ceil(d.Seconds()))))}}
}

// allowRate applies the tenant's rate limit for the operation's class
// (429). It writes the problem and returns false when the request may not
// proceed. It comes before anything else the request costs: a tenant far
// above its rate is answered at once, before its body is read, and does not
// take the capacity other tenants use.
func (s *Server) allowRate(w http.ResponseWriter, r *http.Request, info *reqInfo, op string) bool {
	t := *info.tenant
	class := classOf(op)
	rate := s.rates(t).Of(class)
	if allowed, wait := s.limiter.Allow(t.ID, class, rate); !allowed {
		s.deps.Recorder.Count(t.ID, traffic.RateLimited, 1)
		s.metrics.refused.WithLabelValues(class.String(), "rate_limit").Inc()
		p := newProblem(r.Context(), http.StatusTooManyRequests,
			fmt.Sprintf("rate limit: this tenant may make %g %s requests per second; retry after the Retry-After seconds", rate, class))
		p.headers = retryAfter(wait)
		writeProblem(w, p)
		return false
	}
	return true
}

// admit takes a slot of the server's admission gate (503 when its queue is
// full or the wait passes), after allowRate and after a JSON body has been
// read whole (requireUTF8JSON): a client that sends its bodies slowly, or
// never finishes them, holds connections, not the slots every tenant's
// requests share. It writes the problem and returns false when the request
// may not proceed; otherwise the caller must call release when the request
// ends.
func (s *Server) admit(w http.ResponseWriter, r *http.Request, info *reqInfo, op string) (release func(), ok bool) {
	ctx := r.Context()
	t := *info.tenant
	class := classOf(op)
	if op == "ingestJobEvents" {
		// A job's progress stream is open for as long as the client
		// follows it (up to the request timeout) but uses the database only
		// for a moment each poll: holding an admission slot for it would let
		// a few followers shed every other request. Their number is bounded
		// per tenant instead (maxStreamsPerTenant): thousands of streams of
		// one tenant polling at once slowed every tenant's searches from 0.1
		// to 4-15 s (found by a breaker helper).
		release, ok := s.streams.open(t.ID)
		if !ok {
			s.metrics.refused.WithLabelValues(class.String(), "streams").Inc()
			p := newProblem(ctx, http.StatusTooManyRequests,
				fmt.Sprintf("this tenant has %d job event streams open, the most it may; close one or poll GET /v1/ingest/jobs/{id}", maxStreamsPerTenant))
			p.headers = retryAfter(5 * time.Second)
			writeProblem(w, p)
			return nil, false
		}
		s.deps.Recorder.Count(t.ID, usageKind(class), 1)
		return release, true
	}
	release, err := s.gate.Acquire(ctx)
	if err != nil {
		if errors.Is(err, context.Canceled) && errors.Is(ctx.Err(), context.Canceled) {
			writeProblem(w, newProblem(ctx, StatusClientClosedRequest, "client closed the request"))
			return nil, false
		}
		reason := "queue_full"
		if !errors.Is(err, limit.ErrQueueFull) {
			reason = "queue_wait"
		}
		s.deps.Recorder.Count(t.ID, traffic.Shed, 1)
		s.metrics.refused.WithLabelValues(class.String(), reason).Inc()
		info.log.WarnContext(ctx, "request shed by admission control", "reason", reason, "in_flight", s.gate.InFlight(), "queued", s.gate.Queued())
		p := newProblem(ctx, http.StatusServiceUnavailable, "")
		p.headers = retryAfter(time.Second)
		writeProblem(w, p)
		return nil, false
	}
	s.deps.Recorder.Count(t.ID, usageKind(class), 1)
	return release, true
}

// protectMetrics requires the configured bearer token on /metrics (when one
// is set), compared in constant time.
func (s *Server) protectMetrics(h http.Handler) http.Handler {
	want := s.limits.MetricsToken
	if want == "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, err := auth.BearerToken(r.Header.Get("Authorization"))
		if err != nil || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
			p := newProblem(r.Context(), http.StatusUnauthorized, "metrics need the metrics bearer token")
			p.headers = http.Header{"Www-Authenticate": {`Bearer realm="ragd-metrics"`}}
			writeProblem(w, p)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// problemQuotaExceeded is the problem type of a write refused by a storage
// quota (422): the request is valid, the tenant's storage is full.
const problemQuotaExceeded = "https://ragd.dev/problems/quota-exceeded"

// checkQuota refuses a write of size bytes at sourceURI that would take t
// past a storage quota: documents (a new source_uri when the tenant holds
// its quota), chunks (the tenant already holds its quota: a document's
// chunks are known only after chunking, so a write may pass it by one
// document's chunks), bytes (stored extracted text plus this content,
// minus what it replaces). No quota set: no query. It reads the counts
// before the write, without a lock, so that a write past a quota is refused
// before it is extracted and embedded, with the counts for callers who may
// see them; the pipeline checks again in the write's transaction, under the
// lock that serialises the tenant's writers (ingest.ErrQuotaExceeded, the
// same 422), so concurrent writes cannot pass a quota together.
func (s *Server) checkQuota(ctx context.Context, t tenant.Tenant, sourceURI string, size int) error {
	maxDocs, maxChunks, maxBytes := s.quotas(t)
	if maxDocs <= 0 && maxChunks <= 0 && maxBytes <= 0 {
		return nil
	}
	// The quota is the tenant's: counted over every document, whatever the
	// writer can read (under the writer's access list, a writer who reads
	// less stored past the quota). The counts go into the problem only for
	// callers who see every document. The document being replaced is the
	// one the writer reads: a document hidden from it at sourceURI counts
	// as absent (the write then fails with 409), so that the quota's answer
	// never depends on a hidden document's size.
	all := callerVisibility(ctx).All()
	var st store.GetTenantStorageRow
	err := store.InTenant(store.WithVisibility(ctx, store.AllDocuments()), s.deps.Pool, t.ID, func(tx pgx.Tx) error {
		var err error
		st, err = store.New().GetTenantStorage(ctx, tx, store.GetTenantStorageParams{TenantID: t.ID, SourceUri: sourceURI})
		return err
	})
	if err == nil && !all && st.ExistingBytes >= 0 {
		err = store.InTenant(ctx, s.deps.Pool, t.ID, func(tx pgx.Tx) error {
			mine, err := store.New().GetTenantStorage(ctx, tx, store.GetTenantStorageParams{TenantID: t.ID, SourceUri: sourceURI})
			st.ExistingBytes = mine.ExistingBytes
			return err
		})
	}
	if err != nil {
		return err
	}
	var detail string
	switch {
	case maxDocs > 0 && st.ExistingBytes < 0 && st.Documents >= maxDocs:
		detail = fmt.Sprintf("storage quota exceeded: the tenant has reached its quota of %d documents", maxDocs)
		if all {
			detail = fmt.Sprintf("storage quota exceeded: the tenant stores %d documents, its quota is %d", st.Documents, maxDocs)
		}
	case maxChunks > 0 && st.Chunks >= maxChunks:
		detail = fmt.Sprintf("storage quota exceeded: the tenant has reached its quota of %d chunks", maxChunks)
		if all {
			detail = fmt.Sprintf("storage quota exceeded: the tenant stores %d chunks, its quota is %d", st.Chunks, maxChunks)
		}
	case maxBytes > 0 && st.Bytes-max(st.ExistingBytes, 0)+int64(size) > maxBytes:
		detail = fmt.Sprintf("storage quota exceeded: this document's %d bytes of text would take the tenant past its quota of %d bytes", size, maxBytes)
		if all {
			detail = fmt.Sprintf("storage quota exceeded: the tenant stores %d bytes of text and this document has %d, its quota is %d",
				st.Bytes, size, maxBytes)
		}
	default:
		return nil
	}
	p := newProblem(ctx, http.StatusUnprocessableEntity, detail)
	p.Type = problemQuotaExceeded
	return p
}

// maxStreamsPerTenant bounds a tenant's open job event streams per server
// process.
const maxStreamsPerTenant = 16

// streamCounts counts each tenant's open job event streams.
type streamCounts struct {
	mu    sync.Mutex
	count map[uuid.UUID]int
}

// open counts one more stream of tenant, unless it has
// maxStreamsPerTenant already; release uncounts it.
func (c *streamCounts) open(tenant uuid.UUID) (release func(), ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.count == nil {
		c.count = map[uuid.UUID]int{}
	}
	if c.count[tenant] >= maxStreamsPerTenant {
		return nil, false
	}
	c.count[tenant]++
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.count[tenant]--; c.count[tenant] == 0 {
				delete(c.count, tenant)
			}
		})
	}, true
}
