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

// TestAnsweredConfidenceSaysCloseToThreshold: an answer whose confidence
// is just above the threshold says so in words; one well above does not.
func TestAnsweredConfidenceSaysCloseToThreshold(t *testing.T) {
	for _, tc := range []struct {
		conf, threshold float64
		want            string
	}{
		{0.36, 0.34, "confidence 0.36, threshold 0.34: close to the threshold, the sources may not answer this"},
		{0.43, 0.34, "confidence 0.43, threshold 0.34: close to the threshold, the sources may not answer this"},
		{0.45, 0.34, "confidence 0.45, threshold 0.34"},
		{0.9, 0.34, "confidence 0.90, threshold 0.34"},
	} {
		if got := answeredConfidence(tc.conf, tc.threshold); got != tc.want {
			t.Errorf("answeredConfidence(%v, %v) = %q, want %q", tc.conf, tc.threshold, got, tc.want)
		}
	}
}
