// Package limit protects the server from its callers: a token bucket per
// tenant and route class bounds each tenant's request rate (429), and an
// admission gate bounds the requests the server works on at once and the
// queue in front of them (503), so that overload is answered early instead
// of turning into unbounded latency for every tenant.
//
// Both are in memory and per server process: with N servers behind a load
// balancer a tenant gets up to N times its rate (docs/SCALING.md).
package limit

import (
	"context"
	"errors"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
)

// Class is a route class with its own rate per tenant.
type Class int

// Route classes.
const (
	// ClassQuery: search and answer (retrieval, the expensive reads).
	ClassQuery Class = iota
	// ClassWrite: document writes (chunking and embedding).
	ClassWrite
	// ClassAdmin: every other tenant-scoped route (listing, settings,
	// evaluation, events).
	ClassAdmin
	numClasses
)

// String names the class as in metrics and usage: query, write, admin.
func (c Class) String() string {
	switch c {
	case ClassQuery:
		return "query"
	case ClassWrite:
		return "write"
	default:
		return "admin"
	}
}

// Rates are requests per second per tenant and class; 0 means unlimited.
type Rates struct {
	Query, Write, Admin float64
}

// Of returns the rate of class c.
func (r Rates) Of(c Class) float64 {
	switch c {
	case ClassQuery:
		return r.Query
	case ClassWrite:
		return r.Write
	default:
		return r.Admin
	}
}

// Limiter holds a token bucket per (tenant, class). A bucket holds at most
// Burst seconds of its rate (at least one request) and starts full. Safe
// for concurrent use; the zero value is not usable, call NewLimiter.
type Limiter struct {
	burst time.Duration
	now   func() time.Time

	mu      sync.Mutex
	buckets map[bucketKey]*bucket
	calls   int
}

type bucketKey struct {
	tenant uuid.UUID
	class  Class
}

type bucket struct {
	tokens float64
	last   time.Time
	rate   float64
}

// DefaultBurst is the bucket size in seconds of rate when NewLimiter gets 0.
const DefaultBurst = 2 * time.Second

// NewLimiter returns a limiter whose buckets hold burst of their rate
// (DefaultBurst when burst <= 0).
func NewLimiter(burst time.Duration) *Limiter {
	if burst <= 0 {
		burst = DefaultBurst
	}
	return &Limiter{burst: burst, now: time.Now, buckets: map[bucketKey]*bucket{}}
}

// sweepEvery is how many Allow calls pass between sweeps of idle buckets: a
// full bucket behaves like a missing one, so dropping them bounds memory by
// the tenants active in the last burst.
const sweepEvery = 4096

// Allow takes one token from tenant's bucket of class c refilled at rate
// per second. It returns true, or false and how long until a token is
// available. rate <= 0 always allows.
func (l *Limiter) Allow(tenant uuid.UUID, c Class, rate float64) (bool, time.Duration) {
	if rate <= 0 || math.IsInf(rate, 1) || math.IsNaN(rate) {
		return true, 0
	}
	now := l.now()
	capacity := max(1, rate*l.burst.Seconds())
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls++
	if l.calls%sweepEvery == 0 {
		for k, b := range l.buckets {
			if b.tokens+now.Sub(b.last).Seconds()*b.rate >= max(1, b.rate*l.burst.Seconds()) {
				delete(l.buckets, k)
			}
		}
	}
	k := bucketKey{tenant, c}
	b, ok := l.buckets[k]
	if !ok {
		b = &bucket{tokens: capacity, last: now}
		l.buckets[k] = b
	}
	b.rate = rate
	b.tokens = min(capacity, b.tokens+now.Sub(b.last).Seconds()*rate)
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / rate * float64(time.Second))
}

// Errors of Gate.Acquire.
var (
	// ErrQueueFull: the gate's queue holds its maximum already.
	ErrQueueFull = errors.New("limit: admission queue full")
	// ErrQueueTimeout: the request waited the gate's maximum wait without
	// getting a slot.
	ErrQueueTimeout = errors.New("limit: admission queue wait exceeded")
)

// Gate admits at most MaxInFlight requests at once; up to MaxQueued more
// wait, each at most MaxWait, in arrival order of the runtime's channel
// (FIFO for waiting goroutines in practice). Safe for concurrent use.
type Gate struct {
	slots     chan struct{}
	maxQueued int64
	maxWait   time.Duration
	queued    atomic.Int64
}

// NewGate returns a gate. maxInFlight < 1 is taken as 1, maxQueued < 0 as
// 0, maxWait <= 0 as one second.
func NewGate(maxInFlight, maxQueued int, maxWait time.Duration) *Gate {
	if maxInFlight < 1 {
		maxInFlight = 1
	}
	if maxWait <= 0 {
		maxWait = time.Second
	}
	return &Gate{slots: make(chan struct{}, maxInFlight), maxQueued: int64(max(0, maxQueued)), maxWait: maxWait}
}

// Acquire takes a slot, waiting in the queue when none is free. It returns
// the function that gives the slot back (call it exactly once). Errors:
// ErrQueueFull, ErrQueueTimeout, ctx's error.
func (g *Gate) Acquire(ctx context.Context) (func(), error) {
	release := func() { <-g.slots }
	select {
	case g.slots <- struct{}{}:
		return release, nil
	default:
	}
	if g.queued.Add(1) > g.maxQueued {
		g.queued.Add(-1)
		return nil, ErrQueueFull
	}
	defer g.queued.Add(-1)
	t := time.NewTimer(g.maxWait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return release, nil
	case <-t.C:
		return nil, ErrQueueTimeout
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// InFlight is the number of slots taken.
func (g *Gate) InFlight() int { return len(g.slots) }

// Queued is the number of requests waiting.
func (g *Gate) Queued() int { return int(g.queued.Load()) }

// MaxWait is the longest a request waits in the queue.
func (g *Gate) MaxWait() time.Duration { return g.maxWait }
