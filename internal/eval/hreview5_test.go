package eval_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestTuneLeavesRefusalAsItWasUnderTheLock: tune now writes through
// tenant.UpdateSettings, reading the settings under the row's lock so that
// "a concurrent update … is neither lost nor overwritten with what was read
// before it". But on a set without unanswerable questions ("refusal
// calibration left as it was") setTuned still copies refuse_below and
// answer_model from the tenant as it was loaded when tuning started: a
// refuse_below set (settings PATCH) while the tune ran is overwritten with
// the stale value read before it. Simulated deterministically: the tenant
// is loaded, refuse_below is then stored, and Tune runs on the loaded
// snapshot.
func TestTuneLeavesRefusalAsItWasUnderTheLock(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	var qs []eval.Question
	for _, q := range questions {
		if q.Answerable() {
			qs = append(qs, q)
		}
	}
	if _, err := b.svc.LoadSet(ctx, b.t, "answerable", qs, eval.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	snapshot := b.t // what the tune's request loaded
	// A settings PATCH lands while the tune runs.
	patched := snapshot.Settings
	rb := 0.33
	patched.RefuseBelow = &rb
	if err := tenant.SaveSettings(ctx, testdb.App(t), b.t.ID, patched); err != nil {
		t.Fatal(err)
	}
	res, err := b.svc.Tune(ctx, snapshot, eval.TuneOptions{Set: "answerable"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("notes: %q", res.Notes)
	after := reload(t, b.t).Settings
	if after.RefuseBelow == nil || *after.RefuseBelow != rb {
		t.Errorf("tune on a set without unanswerable questions (refusal calibration \"left as it was\") stored refuse_below %v; "+
			"the tenant had %.2f, set while the tune ran", after.RefuseBelow, rb)
	}
}
