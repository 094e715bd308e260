package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestCountsAreNotReleases_hreview8: realistic questions with a name (a
// person, a company, a place) before a count are not about a release.
// releases still takes "Alice 2" in "give Alice 2 more seats" (the plural
// rule looks only at the next word), "charge 5" in "Does Acme charge 5 EUR"
// (a verb after a company name is a "product word", and EUR no unit),
// "GitHub 5" in "buy GitHub 5 seats" (the plural rule is for plain words
// only) and "Berlin 5" in "the Berlin 5 km run" (km is no unit): each is a
// literal probe the documents never write, so the answerable question is
// capped at 0.1 and refused with "no document mentions “Alice 2”".
func TestCountsAreNotReleases_hreview8(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"billing.md": "# Billing\n\nAlice is the billing administrator of the team. An administrator can give any member more seats from the billing page. " +
			"Acme charges 5 EUR per seat and month; seats bought on GitHub are billed by GitHub.",
		"events.md": "# Events\n\nMarie finished the Berlin run of 5 km in 31 minutes. The Berlin run starts at the Brandenburg Gate.",
	}
	tt, s := corpusTenant(t, "relcount", "english", docs)
	for _, q := range []string{
		"How do I give Alice 2 more seats from the billing page?",
		"Does Acme charge 5 EUR per seat?",
		"Can I buy GitHub 5 seats billed by GitHub?",
		"Did Marie finish the Berlin 5 km run?",
	} {
		noReleaseMissing(t, s, tt, q)
	}
}

// TestReleaseBeforeAPluralIsARelease_hreview8: the count rule (a plain
// capitalised word, a whole number, then a plural) drops the most common
// way to ask about a release's contents: "Java 30 features", "Android 17
// permissions", "Django 7 migrations". Asked of documents about Java 21, the
// question about Java 30 is not capped and names nothing missing, while the
// same question about "PostgreSQL 30 features" is (PostgreSQL is not a
// plain word). The documents hold every other word of the question, the
// number too, so only the cap refuses it.
func TestReleaseBeforeAPluralIsARelease_hreview8(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"java21.md": "# Java 21 features\n\nJava 21 brings 30 new features, among them virtual threads, record patterns and sequenced collections. " +
			"The new features of Java 21 are listed in its 30 JEPs.",
		"java17.md": "# Java 17\n\nJava 17 added sealed classes. Its new features are fewer than those of Java 21.",
	}
	tt, s := corpusTenant(t, "relplural", "english", docs)
	resp, err := s.Search(context.Background(), tt, search.Request{Query: "What are the new Java 30 features?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(resp.MissingTerms, []string{"Java 30"}) || resp.Confidence > 0.1 {
		t.Errorf("missing %q, confidence %.3f (%q); want “Java 30” missing and the confidence capped at 0.1",
			resp.MissingTerms, resp.Confidence, resp.ConfidenceReason)
	}
}
