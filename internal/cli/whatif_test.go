package cli

import "testing"

// TestWhatIfRejectsNonFiniteAndOutOfRange: the what-if settings flags of
// eval run and eval beir take finite non-negative numbers (b and the
// refusal threshold at most 1); NaN and infinities, which ParseFloat
// accepts, are usage errors rather than settings that fuse every score
// into NaN.
func TestWhatIfRejectsNonFiniteAndOutOfRange(t *testing.T) {
	for _, c := range []struct {
		flag, value string
		ok          bool
	}{
		{"vector-weight", "0.25", true}, {"vector-weight", "NaN", false}, {"vector-weight", "nan", false},
		{"keyword-weight", "Inf", false}, {"keyword-weight", "+Inf", false}, {"rrf-k", "-1", false}, {"k1", "1e400", false},
		{"k1", "1.2", true}, {"b", "0.75", true}, {"b", "1.5", false}, {"refuse-below", "1.01", false}, {"refuse-below", "0", true},
	} {
		var w whatIf
		err := w.set(c.flag)(c.value)
		if (err == nil) != c.ok {
			t.Errorf("--%s %s: error %v, want ok %v", c.flag, c.value, err, c.ok)
		}
		if err == nil && w.nums[c.flag] < 0 {
			t.Errorf("--%s %s stored %v", c.flag, c.value, w.nums[c.flag])
		}
	}
}
