package search

import (
	"sync/atomic"
	"testing"
)

// TestEachOf: every index is visited once, on one goroutine or several;
// a panic in fn reaches the caller's goroutine (where the server's
// recovery answers the request with a 500) instead of ending the process.
func TestEachOf(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, eachOfMin - 1, 4 * eachOfMin, 1000} {
		seen := make([]atomic.Int32, n)
		eachOf(n, func(i int) { seen[i].Add(1) })
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d visited %d times", n, i, c)
			}
		}
	}
	got := func() (v any) {
		defer func() { v = recover() }()
		eachOf(1000, func(i int) {
			if i == 777 {
				panic("boom")
			}
		})
		return nil
	}()
	if got != "boom" {
		t.Fatalf("the panic reached the caller as %v, want boom", got)
	}
}
