package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestNamespaceStrayIsRefused: a setting of four parts the documents never
// name, whose first two parts open settings they do describe
// (task_default_queue_type beside task_default_queue and
// task_default_exchange_type, a newer release's setting), is about
// something they do not cover, and the confidence is capped; its
// documented neighbour is answered, and so is a four-part name whose
// first two parts open nothing the documents write.
func TestNamespaceStrayIsRefused(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "namespace", "english", map[string]string{
		"config.md": "# Task settings\n\nThe task_default_queue setting names the queue a task is sent to when it has no route. " +
			"The task_default_exchange_type setting is the exchange type of that default queue, direct by default. " +
			"The task_default_priority setting is the priority of a task sent without one.",
		"queues.md": "# Queues\n\nA queue keeps messages until a worker consumes them. Declare a quorum queue on the broker " +
			"for replicated queues; a classic queue keeps its messages on one node.",
	})
	ctx := context.Background()
	for _, tc := range []struct {
		question string
		capped   bool
	}{
		{"How do I make the default queue a quorum queue with task_default_queue_type?", true},
		{"What is the default task_default_exchange_type of the default queue?", false},
		{"How do I make my_app_queue_declare_hook declare a quorum queue?", false},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3})
		if err != nil {
			t.Fatalf("%q: %v", tc.question, err)
		}
		if resp.Signals.Capped != tc.capped {
			t.Errorf("%q: capped %v (confidence %.3f, %q, missing %q), want %v", tc.question, resp.Signals.Capped, resp.Confidence, resp.ConfidenceReason, resp.MissingTerms, tc.capped)
		}
		if tc.capped && resp.Confidence > 0.1 {
			t.Errorf("%q: confidence %.3f above the cap", tc.question, resp.Confidence)
		}
	}
}
