package search_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestSignedScientificNumberIsWritten: PostgreSQL's parser keeps a
// number's sign in its lexeme (+4.2e-34), so a question naming the number
// with another sign, or none, found it in no document and was refused
// (natsort's float definition, a held-out trial). A number no document
// writes is still missing.
func TestSignedScientificNumberIsWritten(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"floats.md": "# Customizing float definition\n\nThe sorter can search for any float that would be a valid float literal, " +
			"such as 5, 0.4, -4.78, +4.2E-34, etc. using the FLOAT key.",
		"other.md": "# Sorting paths\n\nPaths are split at their separators before sorting.",
	}
	tt, s := corpusTenant(t, "signednum", "english", docs)
	for _, q := range []string{"How do I sort strings with numbers like +4.2E-34?", "How do I sort strings with numbers like 4.2E-34?"} {
		resp, err := s.Search(context.Background(), tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.MissingTerms) != 0 || strings.Contains(resp.ConfidenceReason, "4.2") {
			t.Errorf("%q: missing %q, reason %q; the document writes +4.2E-34", q, resp.MissingTerms, resp.ConfidenceReason)
		}
		kw, err := s.Search(context.Background(), tt, search.Request{Query: q, TopK: 3, Only: "keyword"})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(kw.Results, func(r search.Result) bool { return r.SourceURI == "floats.md" }) {
			t.Errorf("%q: keyword leg %v, want floats.md matched by the number", q, kw.Results)
		}
	}
	resp, err := s.Search(context.Background(), tt, search.Request{Query: "How do I sort strings with numbers like 7.1E-12?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(resp.MissingTerms, "7.1E-12") {
		t.Errorf("7.1E-12: missing %q, want it named", resp.MissingTerms)
	}
}
