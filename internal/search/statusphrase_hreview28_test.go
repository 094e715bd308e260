package search

import (
	"slices"
	"testing"
)

// TestHReview28StatusPhraseRulesSwallowNames: statusPhrases takes every
// title-cased word after any three-digit number from 100 to 599 for an
// HTTP status line's reason, and every title-cased run holding "Not" or
// "Too" for a status phrase, and namesOf then probes none of their words.
// But "300 Celery workers" is a count, not a status code, and "Postgres
// Not starting" is a product name beside a capitalised "Not" (as issue
// titles write them): the name is not probed, so a tenant with no
// document about Celery or Postgres no longer reports it as a missing
// term, and the question is answered from unrelated pages at full
// confidence.
func TestHReview28StatusPhraseRulesSwallowNames(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ question, name string }{
		{"Can I run 300 Celery workers on one host?", "Celery"},
		{"My 200 Kafka topics lag behind the producers, why?", "Kafka"},
		{"Why is Postgres Not starting after the upgrade?", "Postgres"},
	} {
		var got []string
		for _, p := range probeWords(c.question) {
			got = append(got, p.word)
		}
		if !slices.Contains(got, c.name) {
			t.Errorf("%q: probes %q lack the name %q", c.question, got, c.name)
		}
	}
}
