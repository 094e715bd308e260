package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/eval"
)

// TestTuneReportSaysTheDefaultIsKept: a tune that keeps the default and
// stores does not say it stored settings of the tenant's own (a new user
// read "decision: keep the default" and then "stored as the tenant's
// settings", and found the settings empty).
func TestTuneReportSaysTheDefaultIsKept(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	printTune(&b, eval.TuneResult{Stored: true, Adoption: eval.Adoption{Adopt: false, Reason: "no held-out gain"}})
	out := b.String()
	if strings.Contains(out, "stored as the tenant's settings") || !strings.Contains(out, "keeps the default fusion") {
		t.Errorf("report:\n%s\nwant it to say the default is kept, not that settings were stored", out)
	}
	b.Reset()
	printTune(&b, eval.TuneResult{Stored: true, Adoption: eval.Adoption{Adopt: true, Reason: "held-out gain"}})
	if !strings.Contains(b.String(), "stored as the tenant's settings") {
		t.Errorf("adopted and stored, report:\n%s", b.String())
	}
}
