package api_test

import (
	"net/http"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestQuestionWordsDoNotRefuseAnswerableQuestions (h-break9): the words a
// question is asked with count as content the documents must mention, and
// their absence refuses answerable questions with a reason that names them:
//
//   - English "how much": "How much does the oscillator drift?" over "The
//     oscillator drifts by two seconds a day." is refused (confidence 0.14
//     here) with "no document mentions “much”" ("much" is not in
//     PostgreSQL's English stop list, and no rule treats "how much" as the
//     question's form);
//   - Japanese とは / って, the ordinary way to ask what something is:
//     "apt-pinningとは何ですか？" over "パッケージを固定するにはapt-pinningを使います。"
//     is refused with "no document mentions “とは”, “すか”", "apt-pinningとは？"
//     with “とは”, "apt-pinningって何？" with “って” — while
//     "apt-pinningは何ですか？" (the same question with は) is answered.
//
// Expected: question words (how much/many, とは, って, ですか …) are the
// question's form, not its content: each of these questions is answered
// from the sentence that holds its subject, as the は form is.
func TestQuestionWordsDoNotRefuseAnswerableQuestions(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	b.upsert(editor, "clock.md", "# Clock\n\nThe quartz oscillator runs at 32768 Hz.\n\nThe oscillator drifts by two seconds a day.\n")
	b.upsert(editor, "apt.md", "# パッケージ管理\n\nAPTはDebianのパッケージ管理ツールです。パッケージを固定するにはapt-pinningを使います。設定ファイルは/etc/apt/preferencesです。\n")
	control := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: editor,
		body: map[string]any{"question": "apt-pinningは何ですか？"}}), http.StatusOK)
	if control.Refused {
		t.Fatalf("the control question is refused (%.2f, %s); the premise is that it is answered", control.Confidence, control.ConfidenceReason)
	}
	for _, q := range []string{"How much does the oscillator drift?", "apt-pinningとは何ですか？", "apt-pinningとは？", "apt-pinningって何？"} {
		ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: editor,
			body: map[string]any{"question": q}}), http.StatusOK)
		if ar.Refused {
			t.Errorf("%q refused (%s, confidence %.2f): %s", q, ar.RefusalReason, ar.Confidence, ar.ConfidenceReason)
		}
	}
}
