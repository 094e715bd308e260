package extract

import (
	"runtime"
	"testing"
)

// assertLinear checks that run's work grows linearly with its input, by the
// bytes it allocates: run(4n) must allocate less than maxRatio times what
// run(n) does (a linear algorithm about 4 times, one that rebuilds what it
// has built so far at every step 16). Allocation, unlike time, does not
// depend on what else runs on the machine, so the outcome is the same on a
// loaded CI runner and under the race detector. (Work that is quadratic in
// time but not in allocation is guarded by its own mechanism's test, such
// as markdownRisky's.)
func assertLinear(t *testing.T, what string, n int, run func(n int)) {
	t.Helper()
	const maxRatio = 9
	allocated := func(n int) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		run(n)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	run(n) // warm-up: lazily built tables are not the input's cost
	small, large := allocated(n), allocated(4*n)
	ratio := float64(large) / float64(max(small, 1))
	t.Logf("%s: %d bytes allocated at n=%d, %d at 4n (×%.1f)", what, small, n, large, ratio)
	if ratio > maxRatio {
		t.Errorf("%s: %d bytes allocated at n=%d but %d at 4n (×%.1f, want under %d: linear)", what, small, n, large, ratio, maxRatio)
	}
}
