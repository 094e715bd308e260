package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestNameFoundJoinedToItsNumber: documents write "RFC 5322" as rfc5322
// (jsonschema's format docs); a question writing it apart names no missing
// "RFC". A number the documents never write joined keeps the name missing.
func TestNameFoundJoinedToItsNumber(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"formats.md": "# Formats\n\nThe email format only provides a sanity check, not full rfc5322 validation. " +
			"Dates are checked as rfc3339 full-date strings.",
	}
	tt, s := corpusTenant(t, "joinednumber", "english", docs)
	ctx := context.Background()
	resp, err := s.Search(ctx, tt, search.Request{Query: "Does the email format do full RFC 5322 validation?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(resp.MissingTerms, "RFC") {
		t.Errorf("RFC 5322 over pages writing rfc5322: missing terms %q", resp.MissingTerms)
	}
	resp, err = s.Search(ctx, tt, search.Request{Query: "Does the email format do full RFC 6531 validation?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(resp.MissingTerms, "RFC") {
		t.Errorf("RFC 6531, which no page writes: missing terms %q, want RFC", resp.MissingTerms)
	}
}
