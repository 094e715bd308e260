package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// A verb that opens a sentence before a value ("Returns 1.5 when …", a
// reference page's every method) is no product with releases: a question
// quoting what a method "returns 9" was refused as about a release no
// document mentions ("no document mentions “returns 9”"). A product the
// documents write with releases inside their sentences (" … since Ruby
// 3.1.") still has them, and one they do not write is missing.
func TestSentenceOpeningVerbHasNoReleases(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tt, s := corpusTenant(t, "relsentence", "english", map[string]string{
		"integer.txt": "Integer conversion.\n\nReturns 1.5 when the receiver is half of three. Raises ArgumentError when the " +
			"string is not a valid integer literal; a leading zero makes the literal octal, so Integer(\"09\") raises. " +
			"The to_i method returns 0 for a string that holds no digits.\n\nThis behaviour is the same since Ruby 3.1.",
	})
	q := `Why does Integer("09") raise an ArgumentError when "09".to_i returns 9?`
	resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.MissingTerms) > 0 || resp.Confidence <= 0.1 {
		t.Errorf("%q: missing %q, confidence %.3f (%s)", q, resp.MissingTerms, resp.Confidence, resp.ConfidenceReason)
	}
	resp, err = s.Search(ctx, tt, search.Request{Query: "Why does Integer(\"09\") raise in Ruby 3.4?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(resp.MissingTerms, "Ruby 3.4") {
		t.Errorf("Ruby 3.4: missing %q, confidence %.3f; no document writes it", resp.MissingTerms, resp.Confidence)
	}
}
