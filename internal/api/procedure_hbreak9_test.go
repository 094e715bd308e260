package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestHowAnswersQuoteTheWholeProcedure (h-break9): the extractive answer
// to a question that asks how quotes a numbered procedure from step 1 to
// its last step only when its passage *opens* inside the list
// (answer.complete: `procedure && numbered(d[from].item)`), and continues
// an announced list only when the sentence before it ends with ":". A
// passage that opens on the sentence before the list and reaches into it
// stops where the passage ends:
//
//   - "How do I stop the gizmo daemon?" → "The gizmo daemon reads the quux
//     setting when it starts [1].\n1. Stop the gizmo daemon [1]." — step 1
//     of 3, the answer ends with the daemon stopped;
//   - "How do I reset a widget?" → "To reset a widget, follow these steps
//     [1]." — the sentence announcing the steps, and none of them (it ends
//     with "." rather than ":").
//
// Each document is three short steps under one short sentence, well within
// the passage limits (the same steps are quoted whole for "How do I stop
// the sprocket service?", whose passage opens at step 1).
//
// Expected: an answer that quotes a numbered procedure's first step, or the
// sentence that announces it, for a question that asks how, quotes its
// steps to the last one as far as they fit.
func TestHowAnswersQuoteTheWholeProcedure(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	b.upsert(editor, "gizmo.md", "# Gizmo daemon\n\nThe gizmo daemon reads the quux setting when it starts.\n\n"+
		"1. Stop the gizmo daemon.\n2. Edit the quux setting in gizmo.conf.\n3. Start the gizmo daemon again.\n")
	b.upsert(editor, "widget.md", "# Widget reset\n\nTo reset a widget, follow these steps.\n\n"+
		"1. Unplug the widget.\n2. Hold the reset pin for ten seconds.\n3. Plug the widget back in.\n")
	for _, c := range []struct{ question, lastStep string }{
		{"How do I stop the gizmo daemon?", "Start the gizmo daemon again"},
		{"How do I reset a widget?", "Plug the widget back in"},
	} {
		ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: editor,
			body: map[string]any{"question": c.question}}), http.StatusOK)
		if ar.Refused {
			t.Errorf("%q refused (%s, %.2f); the premise is an answer", c.question, ar.RefusalReason, ar.Confidence)
			continue
		}
		if !strings.Contains(ar.Answer, c.lastStep) {
			t.Errorf("%q: the answer quotes the procedure without its last step %q:\n%s", c.question, c.lastStep, ar.Answer)
		}
	}
}
