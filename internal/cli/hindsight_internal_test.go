package cli

import (
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/eval"
)

// TestReportThresholdIsHindsight: a run's report says that the threshold
// chosen on the run's own questions is hindsight and not applied; read
// after `tenant apply --tune` had kept the default ("calibration needs at
// least 10 of each"), "calibrated threshold 0.3919 would refuse 100% …
// meets the target" contradicted it (a fresh user's finding).
func TestReportThresholdIsHindsight(t *testing.T) {
	var b strings.Builder
	printReport(&b, eval.Report{Refusal: &eval.Calibration{Unanswerable: 3, Answerable: 7,
		Current: eval.RefusalPoint{Threshold: 0.34}, Chosen: eval.RefusalPoint{Threshold: 0.3919, Recall: 1}, Rule: "meets the target"}})
	out := b.String()
	if !strings.Contains(out, "in hindsight on this set (not applied), threshold 0.3919") || strings.Contains(out, "calibrated threshold") {
		t.Errorf("report:\n%s\nwant the chosen threshold called hindsight, not calibrated", out)
	}
}
