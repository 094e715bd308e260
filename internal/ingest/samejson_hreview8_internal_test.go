package ingest

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestSameJSONLargeExponentIsCheap_hreview8: sameJSON decodes every number
// into an exact big.Rat and prints it back (exactValue). A number's
// exponent is bounded only by big.Rat's own limit (10^±1,000,000): each
// "1e999999" in metadata builds a 1,000,000-digit integer and prints it in
// decimal: some 6 MB and 45 ms of CPU each (0.2 s for the first). Metadata
// of 64 KB holds some 7,000 of them: re-sending a stored document with such
// metadata (the unchanged-content path compares it with the stored
// metadata inside the write's transaction, before PostgreSQL ever sees the
// number) costs each request minutes of CPU. Comparing numbers exactly needs no expansion:
// mantissa digits and a decimal exponent, normalised, compare in the
// text's length.
func TestSameJSONLargeExponentIsCheap_hreview8(t *testing.T) {
	const n = 20
	huge := "[" + strings.TrimSuffix(strings.Repeat("1e999999,", n), ",") + "]"
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	same := sameJSON([]byte(`{"a":`+huge+`}`), []byte(`{"a":`+strings.ReplaceAll(huge, "e", "E")+`}`))
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if !same {
		t.Errorf("1e999999 and 1E999999 compared unequal")
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("comparing two %d-byte metadata texts of %d numbers allocated %d MB in %v; want at most 4 MB (no expansion of exponents)",
			len(huge)+6, 2*n, alloc>>20, took)
	}
	// What a fix must keep: jsonb prints 1e400 in full, and that is the
	// same number.
	if !sameJSON([]byte(`{"a":1e400}`), []byte(`{"a":1`+strings.Repeat("0", 400)+`}`)) {
		t.Errorf("1e400 and its jsonb output compared unequal")
	}
	if sameJSON([]byte(`{"a":1e400}`), []byte(`{"a":1`+strings.Repeat("0", 399)+`1}`)) {
		t.Errorf("1e400 and 1e400+1 compared equal")
	}
}
