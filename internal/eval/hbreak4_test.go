package eval_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestTuneStoresNoRefusalThresholdFromAHandfulOfQuestions: `eval tune` on a
// five-question set (three answerable, two unanswerable questions about the
// corpus's own topics) keeps the default fusion — fewer than
// MinTuneQuestions answerable questions, "no gain is trusted" — yet stores
// a refusal threshold fitted on those five questions, far above the
// default: every later question less confident than the three answerable
// ones is refused.
func TestTuneStoresNoRefusalThresholdFromAHandfulOfQuestions(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	qs := []eval.Question{
		{Question: "How does VACUUM reclaim storage from dead tuples?", Relevant: []string{"doc://vacuum"}},
		{Question: "Which index type suits full-text documents and arrays?", Relevant: []string{"doc://index"}},
		{Question: "Can a role own a database?", Relevant: []string{"doc://roles"}},
		{Question: "Which potassium-rich fertiliser is best for tomatoes?", Relevant: []string{}},
		{Question: "Does the autovacuum daemon run at night?", Relevant: []string{}},
	}
	if _, err := b.svc.LoadSet(ctx, b.t, "tiny", qs, eval.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := b.svc.Tune(ctx, b.t, eval.TuneOptions{Set: "tiny"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Adoption.Adopt {
		t.Fatalf("fusion adopted on %d answerable questions: %s", res.Answerable, res.Adoption.Reason)
	}
	after := reload(t, b.t).Settings
	if after.RefuseBelow != nil || after.AnswerModel != nil {
		reason := ""
		if res.Answerability != nil {
			reason = res.Answerability.Reason
		}
		// An answerable question the five did not include, refused now.
		other := eval.Question{Question: "How long should sourdough dough ferment before it is baked?", Relevant: []string{"doc://bread"}}
		rows, err := b.svc.Signals(ctx, b.t, []eval.Question{other}, eval.SignalOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Errorf("tuned on %d questions (%d answerable), the tenant now stores refuse_below %v (default %.2f) and answer model %v: %s; "+
			"%q (confidence %.3f) is now refused",
			res.Questions, res.Answerable, *after.RefuseBelow, tenant.DefaultRefuseBelow, after.AnswerModel, reason,
			other.Question, search.DefaultAnswerModel.Probability(rows[0].Signals))
	}
}

// TestRunReportsRefusalOnUnanswerableOnlySet: a set of questions the corpus
// cannot answer (an off-topic set, the one that says whether ragd refuses
// what it should) is run, but the report has no refusal section at all —
// Calibrate computes the current threshold's refusal rate and the report
// drops it because no threshold can be calibrated without answerable
// questions — while its retrieval metrics read 0 as if measured. The user
// cannot tell from `eval run` how many of the off-topic questions the
// tenant refuses.
func TestRunReportsRefusalOnUnanswerableOnlySet(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	qs := []eval.Question{
		{Question: "Who won the football world cup in 1966?", Relevant: []string{}},
		{Question: "What is the capital of Australia?", Relevant: []string{}},
	}
	if _, err := b.svc.LoadSet(ctx, b.t, "offtopic", qs, eval.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	rep, err := b.svc.Run(ctx, b.t, eval.RunOptions{Set: "offtopic"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Refusal == nil {
		t.Errorf("run of %d unanswerable questions (%d answerable): no refusal report; metrics %+v", rep.Questions, rep.Answerable, rep.Metrics)
	} else if rep.Refusal.Unanswerable != 2 {
		t.Errorf("refusal report counts %d unanswerable questions, want 2", rep.Refusal.Unanswerable)
	}
}

// TestTuneKeepsEventAndLimitSettings: `eval tune` stores the kept grid
// point — for the default, the zero Settings — plus the refusal fields, so
// every other field of the tenant's settings is reset: a tenant that set
// event_question "sha256" (retrieval events keep only a hash of each
// question) and event_retention_days 7 has both back at "text" and 30
// after tuning, and every later question is stored in clear and kept four
// times longer; its own quotas and rates (`ragd tenant limits`, stored in
// the same settings) are dropped, back to the server defaults (unlimited
// unless RAGD_QUOTA_* are set). Tuning changes retrieval and refusal
// settings only. (`ragd tenant apply` with tune: true runs the same code.)
func TestTuneKeepsEventAndLimitSettings(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	set := b.t.Settings
	set.EventQuestion, set.EventRetentionDays = tenant.EventQuestionSHA256, 7
	maxDocs, queryRate := int64(50), 2.0
	set.Limits = &tenant.Limits{MaxDocuments: &maxDocs, QueryRate: &queryRate}
	if err := tenant.SaveSettings(ctx, testdb.App(t), b.t.ID, set); err != nil {
		t.Fatal(err)
	}
	tt := reload(t, b.t)
	if _, err := b.svc.LoadSet(ctx, tt, "default", questions, eval.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.svc.Tune(ctx, tt, eval.TuneOptions{Set: "default"}); err != nil {
		t.Fatal(err)
	}
	after := reload(t, tt).Settings
	if after.EventQuestion != tenant.EventQuestionSHA256 || after.EventRetentionDays != 7 {
		t.Errorf("after eval tune: event_question %q, event_retention_days %d; want %q and 7 as set before (empty and 0 are the defaults, text and 30 days)",
			after.EventQuestion, after.EventRetentionDays, tenant.EventQuestionSHA256)
	}
	if after.Limits == nil || after.Limits.MaxDocuments == nil || *after.Limits.MaxDocuments != maxDocs ||
		after.Limits.QueryRate == nil || *after.Limits.QueryRate != queryRate {
		t.Errorf("after eval tune: the tenant's own limits (`ragd tenant limits`: max_documents 50, query_rate 2) are %+v; "+
			"nil is the server defaults (unlimited by default)", after.Limits)
	}
}

// TestTuneCountsOnlyMeasurableQuestions: the 30-answerable-question floor
// of eval tune ("below that a held-out fold has a handful of questions and
// no gain is trusted") counts questions whose relevant documents do not
// exist — stored with --allow-unknown, or deleted since the set was
// loaded. Such a question scores 0 at every grid point: it measures
// nothing, adds a zero to every paired difference (narrowing the
// bootstrap interval around the few real ones) and lets three real
// questions pass a floor meant for thirty.
func TestTuneCountsOnlyMeasurableQuestions(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	qs := []eval.Question{
		{Question: "How does VACUUM reclaim storage from dead tuples?", Relevant: []string{"doc://vacuum"}},
		{Question: "Which index type suits full-text documents and arrays?", Relevant: []string{"doc://index"}},
		{Question: "Can a role own a database?", Relevant: []string{"doc://roles"}},
	}
	for i := range 30 {
		qs = append(qs, eval.Question{Question: fmt.Sprintf("What does release note number %d say about upgrades?", i),
			Relevant: []string{fmt.Sprintf("doc://release-notes/%d", i)}})
	}
	info, err := b.svc.LoadSet(ctx, b.t, "padded", qs, eval.LoadOptions{AllowUnknown: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Unknown) != 30 {
		t.Fatalf("unknown source_uris %d, want 30", len(info.Unknown))
	}
	res, err := b.svc.Tune(ctx, b.t, eval.TuneOptions{Set: "padded", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answerable >= eval.MinTuneQuestions {
		t.Errorf("tune counts %d answerable questions (floor %d), of which 30 name only documents the tenant does not have; "+
			"decision: %s", res.Answerable, eval.MinTuneQuestions, res.Adoption.Reason)
	}
}
