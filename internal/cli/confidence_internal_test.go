package cli

import "testing"

// TestConfidenceAgainstTellsThemApart: a confidence just under its
// threshold is not printed as equal to it (a refusal read as a tie
// refused); apart by more, two decimals.
func TestConfidenceAgainstTellsThemApart(t *testing.T) {
	for _, tc := range []struct {
		conf, threshold float64
		want            string
	}{
		{0.3397, 0.34, "confidence 0.3397, threshold 0.3400"},
		{0.33972, 0.3401, "confidence 0.3397, threshold 0.3401"},
		{0.62, 0.34, "confidence 0.62, threshold 0.34"},
		{0.34, 0.34, "confidence 0.34, threshold 0.34"},
	} {
		if got := confidenceAgainst(tc.conf, tc.threshold); got != tc.want {
			t.Errorf("confidenceAgainst(%v, %v) = %q, want %q", tc.conf, tc.threshold, got, tc.want)
		}
	}
}
