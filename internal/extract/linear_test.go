package extract

import (
	"testing"
	"time"
)

// assertLinear checks that run's cost grows linearly with its input: run(n)
// and run(4n), each the fastest of three runs (the least disturbed by other
// work on the machine), must differ by less than maxRatio (a linear
// algorithm gives about 4, a quadratic one 16). The ratio, not a duration,
// is asserted: a loaded machine or the race detector slows both sizes
// alike, so the outcome does not depend on what else runs.
func assertLinear(t *testing.T, what string, n int, run func(n int)) {
	t.Helper()
	const maxRatio = 9
	fastest := func(n int) time.Duration {
		best := time.Duration(1<<63 - 1)
		for range 3 {
			start := time.Now()
			run(n)
			best = min(best, time.Since(start))
		}
		return best
	}
	small, large := fastest(n), fastest(4*n)
	ratio := float64(large) / float64(max(small, time.Millisecond))
	t.Logf("%s: %v at n=%d, %v at 4n (×%.1f)", what, small, n, large, ratio)
	if ratio > maxRatio {
		t.Errorf("%s: %v at n=%d but %v at 4n (×%.1f, want under %d: linear)", what, small, n, large, ratio, maxRatio)
	}
}
