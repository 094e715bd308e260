package eval

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// TestRefusalCalibrationNeedsEnoughQuestions: fusion tuning trusts no gain
// on fewer than MinTuneQuestions answerable questions ("below that a
// held-out fold has a handful of questions"), but the refusal calibration
// has no such floor: five questions (three answerable, two unanswerable
// that look on-topic) make CalibrateAnswerability replace the default and
// store a threshold fitted just under the three answerable questions'
// confidences. Stored by `eval tune`, it refuses every later question less
// confident than those three, i.e. most real traffic.
func TestRefusalCalibrationNeedsEnoughQuestions(t *testing.T) {
	t.Parallel()
	sig := func(c float64) search.Signals {
		return search.Signals{Terms: 6, KeywordCoverage: c, TermCoverage: c, DocumentCoverage: c, TopMean: c / 2}
	}
	sg := []search.Signals{sig(0.95), sig(0.96), sig(0.97), sig(0.91), sig(0.92)}
	answerable := []bool{true, true, true, false, false}
	fold := []int{0, 1, 2, 3, 4}
	for i, s := range sg {
		if p := search.DefaultAnswerModel.Probability(s); p < tenant.DefaultRefuseBelow {
			t.Fatalf("question %d: default confidence %.3f below the default threshold: the case tests nothing", i, p)
		}
	}
	c, ok := CalibrateAnswerability(sg, answerable, fold, 5)
	if !ok {
		t.Fatalf("not calibrated: %s", c.Reason)
	}
	if c.Chosen != ProcedureDefault || c.Threshold != nil || c.Model != nil {
		typical := search.DefaultAnswerModel.Probability(sig(0.9))
		t.Errorf("5 questions (3 answerable, 2 unanswerable) replaced the default refusal calibration: chosen %q, threshold %.3f "+
			"(default %.2f; a question covering 90%% of its terms has confidence %.3f and would be refused); reason: %s",
			c.Chosen, deref(c.Threshold), tenant.DefaultRefuseBelow, typical, c.Reason)
	}
}

func deref(p *float64) float64 {
	if p == nil {
		return -1
	}
	return *p
}

// TestParseJSONLRequiresRelevant: a line without "relevant" (or with
// "relevant": null) is stored as an unanswerable question, silently, while
// the set format's own rule is that a misspelt "relevant" must not make a
// question silently unanswerable (unknown fields are refused for that
// reason), and PUT /v1/eval/sets refuses a question without "relevant"
// (422). The CLI and the API disagree, and `eval tune` then calibrates
// refusal on a question that was meant to be answerable.
func TestParseJSONLRequiresRelevant(t *testing.T) {
	t.Parallel()
	for name, line := range map[string]string{
		"absent": `{"question": "How do I rotate the keys?"}`,
		"null":   `{"question": "How do I rotate the keys?", "relevant": null}`,
	} {
		qs, err := ParseJSONL(strings.NewReader(line + "\n"))
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s relevant: parsed as %+v (answerable %v), err %v; want a problem naming the line "+
				"(an empty list, [], is how a question is marked unanswerable)", name, qs, len(qs) == 1 && qs[0].Answerable(), err)
		}
	}
}

// TestValidateUnicodeDuplicates: two questions that differ only in
// Unicode normalisation (NFC "pâtisserie" and NFD "pa\u0302tisserie") are
// the same question to every reader, but Validate compares bytes (after
// case and spacing), so both are stored; FoldOf hashes the bytes too, so
// the twin of a held-out question can sit in the training folds of tuning.
func TestValidateUnicodeDuplicates(t *testing.T) {
	t.Parallel()
	nfc := "What does the p\u00e2tisserie sell on Thursdays?"
	nfd := "What does the pa\u0302tisserie sell on Thursdays?"
	err := Validate([]Question{{Question: nfc, Relevant: []string{"a"}}, {Question: nfd, Relevant: []string{"a"}}})
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) == 0 || ve.Problems[0].Code != "duplicate_question" {
		t.Errorf("NFC and NFD spellings of one question: err %v, want a duplicate_question problem (folds %d and %d of 5)",
			err, FoldOf(nfc, 5), FoldOf(nfd, 5))
	}
}

// TestFoldOfAgreesWithDuplicates: Validate calls two questions duplicates
// when they differ only in case or spacing anywhere ("How do I  rotate"
// and "how do i rotate"), and BEIR sets are loaded keeping such duplicates
// (AllowDuplicates). FoldOf, though, only trims the ends before hashing,
// so the two copies of one question usually land in different folds:
// tuning chooses a point on the training folds that contain the very
// question it is then scored on held out.
func TestFoldOfAgreesWithDuplicates(t *testing.T) {
	t.Parallel()
	split := 0
	for i := range 100 {
		a := fmt.Sprintf("How do I configure feature number %d for the cluster?", i)
		b := strings.Replace(a, "configure feature", "configure  feature", 1)
		if err := Validate([]Question{{Question: a, Relevant: []string{"u"}}, {Question: b, Relevant: []string{"u"}}}); err == nil {
			t.Fatalf("%q and %q are not duplicates to Validate: the premise does not hold", a, b)
		}
		if FoldOf(a, 5) != FoldOf(b, 5) {
			split++
		}
	}
	if split > 0 {
		t.Errorf("%d of 100 questions and their duplicates (one doubled space) fall in different folds of 5", split)
	}
}
