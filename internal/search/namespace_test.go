package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
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

// TestMissingProperNameIsAFeature: a product the documents never name,
// written as a proper name (Kafka), is counted apart from the question's
// other missing names (MissingProper), and with the default model the
// question is refused though every other word of it is covered; the same
// question about the broker the documents describe is answered, and a
// missing word in capitals (an abbreviation, "SASL") is no proper name.
func TestMissingProperNameIsAFeature(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "proper", "english", map[string]string{
		"brokers.md": "# Brokers\n\nTo configure Celery to use RabbitMQ as the message broker, set broker_url to the broker's URL. " +
			"The Apache Cassandra result backend keeps results in a Cassandra cluster.",
		"workers.md": "# Workers\n\nA worker consumes tasks from the message broker and runs them.",
	})
	ctx := context.Background()
	for _, tc := range []struct {
		question string
		proper   int
		// refused is the decision wanted of the default model, "" when
		// the question only checks the count.
		refused string
	}{
		{"How do I configure Celery to use Apache Kafka as the message broker?", 1, "yes"},
		{"How do I configure Celery to use RabbitMQ as the message broker?", 0, "no"},
		{"How do I configure Celery to use SASL with the message broker?", 0, ""},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3})
		if err != nil {
			t.Fatalf("%q: %v", tc.question, err)
		}
		if resp.Signals.MissingProper != tc.proper {
			t.Errorf("%q: MissingProper %d (missing %q), want %d", tc.question, resp.Signals.MissingProper, resp.MissingTerms, tc.proper)
		}
		if refused := resp.Confidence < tenant.DefaultRefuseBelow; tc.refused != "" && refused != (tc.refused == "yes") {
			t.Errorf("%q: confidence %.3f (%q), want refused: %s", tc.question, resp.Confidence, resp.ConfidenceReason, tc.refused)
		}
	}
}
