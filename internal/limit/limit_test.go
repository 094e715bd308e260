package limit

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
)

func TestLimiterTokenBucket(t *testing.T) {
	t.Parallel()
	clock := time.Unix(1_000_000, 0)
	l := NewLimiter(2 * time.Second)
	l.now = func() time.Time { return clock }
	a, b := uuid.New(), uuid.New()
	// rate 5/s, burst 2 s: 10 requests pass at once, the 11th waits 0.2 s.
	for i := range 10 {
		if ok, _ := l.Allow(a, ClassQuery, 5); !ok {
			t.Fatalf("request %d refused within the burst", i+1)
		}
	}
	ok, wait := l.Allow(a, ClassQuery, 5)
	if ok || wait != 200*time.Millisecond {
		t.Fatalf("11th request: ok=%v wait=%v, want refused with 200ms", ok, wait)
	}
	// Another tenant and another class of the same tenant have their own buckets.
	if ok, _ := l.Allow(b, ClassQuery, 5); !ok {
		t.Fatal("tenant b refused because of tenant a")
	}
	if ok, _ := l.Allow(a, ClassWrite, 5); !ok {
		t.Fatal("writes refused because of queries")
	}
	clock = clock.Add(200 * time.Millisecond)
	if ok, _ := l.Allow(a, ClassQuery, 5); !ok {
		t.Fatal("refused after the refill time")
	}
	if ok, _ := l.Allow(a, ClassQuery, 5); ok {
		t.Fatal("a second request passed on one refilled token")
	}
	if ok, _ := l.Allow(a, ClassQuery, 0); !ok {
		t.Fatal("rate 0 must mean unlimited")
	}
}

func TestGateQueuesThenSheds(t *testing.T) {
	t.Parallel()
	// The queued waiter must still be waiting when the loop below sees
	// it, however long the machine keeps this goroutine off the CPU: with
	// a 50 ms wait it could time out first, and the loop waited forever
	// (a CI run under load hung here). The timeout is its own gate's.
	g := NewGate(1, 1, time.Hour)
	ctx := context.Background()
	rel, err := g.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// One waiter fits in the queue; a second is shed at once.
	waited := make(chan error, 1)
	go func() {
		r, err := g.Acquire(ctx)
		if err == nil {
			r()
		}
		waited <- err
	}()
	for g.Queued() == 0 {
		time.Sleep(time.Millisecond)
	}
	if _, err := g.Acquire(ctx); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("second waiter: %v, want ErrQueueFull", err)
	}
	rel()
	if err := <-waited; err != nil {
		t.Fatalf("queued request: %v, want admitted after release", err)
	}
	// A waiter that outlasts MaxWait gets ErrQueueTimeout.
	g = NewGate(1, 1, 50*time.Millisecond)
	rel, _ = g.Acquire(ctx)
	defer rel()
	start := time.Now()
	if _, err := g.Acquire(ctx); !errors.Is(err, ErrQueueTimeout) || time.Since(start) < 50*time.Millisecond {
		t.Fatalf("got %v after %v, want ErrQueueTimeout after 50ms", err, time.Since(start))
	}
	if g.InFlight() != 1 || g.Queued() != 0 {
		t.Fatalf("in flight %d queued %d, want 1 and 0", g.InFlight(), g.Queued())
	}
}
