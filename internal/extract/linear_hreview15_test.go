package extract

import (
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// TestAssertLinearUnderLoad_hreview15: assertLinear's comment says "a
// loaded machine or the race detector slows both sizes alike, so the
// outcome does not depend on what else runs". It does not: the small run
// of TestHBreak8MarkdownMismatchedEmphasisIsLinear takes about 2 ms, within
// one scheduler time slice, while the 4n run (15-30 ms) is preempted by
// whatever else wants the cores; on this 2-core machine with two busy
// loops beside it (`sh -c 'while :; do :; done'` twice) that test failed 13
// of 20 runs (×12 to ×27), with the extraction unchanged. Here the
// other work is goroutines of the test binary, one per core, and the
// measured code is the same linear extraction.
//
// Expected: a linear extraction passes whatever runs beside it (sizes
// large enough that each run spans many time slices, or CPU time rather
// than wall time). Resolved: assertLinear compares the bytes allocated,
// which no other work changes; the emphasis test checks its guard.
func TestAssertLinearUnderLoad_hreview15(t *testing.T) {
	var stop atomic.Bool
	defer stop.Store(true)
	for range runtime.GOMAXPROCS(0) {
		go func() {
			for x := 0; !stop.Load(); x++ {
			}
		}()
	}
	for range 3 {
		assertLinear(t, "hyphenated manual page beside busy goroutines", 10000, func(n int) {
			var sb strings.Builder
			for range n {
				sb.WriteString("       word word word mes-\n")
			}
			mustExtract(t, "html", hr10ManPage(sb.String()))
		})
	}
}
