package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

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
