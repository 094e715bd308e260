package answer

import (
	"slices"
	"testing"
)

func TestSplitUnitKeepsStandaloneDotDot(t *testing.T) {
	t.Parallel()
	got := splitUnit("Use the slice mechanism to do that. LIMIT .. OFFSET .. becomes slower the bigger offset you use. Count 1 .. 10 here. It ended.. Then more.")
	want := []string{
		"Use the slice mechanism to do that.",
		"LIMIT .. OFFSET .. becomes slower the bigger offset you use.",
		"Count 1 .. 10 here.",
		"It ended..",
		"Then more.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("splitUnit =\n%q\nwant\n%q", got, want)
	}
}
