package search_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestMissingProtocolVersion: a protocol's version the documents never
// write ("HTTP/2" over documents of HTTP/1.1) is a missing name, though
// every other word of the question is there; one they write is not, and
// neither is a pair of words joined by a slash (TCP/IP), whose parts
// are indexed as words.
func TestMissingProtocolVersion(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"server.md": "# Development server\n\nThe development server speaks HTTP/1.1 and keeps connections alive. " +
			"Enable it in the server settings. It runs over TCP/IP on port 5000.",
		"errors.md": "# Error classes\n\nexception werkzeug.exceptions.RequestEntityTooLarge(description=None)\n\n" +
			"The status code 413 is raised when the data submitted exceeded the limit.",
	}
	tt, s := corpusTenant(t, "slashversion", "english", docs)
	ctx := context.Background()
	for _, tc := range []struct {
		question string
		missing  []string
	}{
		{"How do I enable HTTP/2 in the development server?", []string{"HTTP/2"}},
		{"Does the development server speak HTTP/1.1?", nil},
		{"Does the development server run over TCP/IP?", nil},
		{"When is RequestEntityTooLarge raised?", nil},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3})
		if err != nil {
			t.Fatalf("%q: %v", tc.question, err)
		}
		if !slices.Equal(resp.MissingTerms, tc.missing) {
			t.Errorf("%q: missing %q, want %q", tc.question, resp.MissingTerms, tc.missing)
		}
	}
	// A class's short name finds the entry that writes its full dotted
	// name, in the keyword leg.
	resp, err := s.Search(ctx, tt, search.Request{Query: "RequestEntityTooLarge", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) == 0 || !strings.HasSuffix(resp.Results[0].SourceURI, "errors.md") || resp.Results[0].KeywordRank == nil {
		t.Fatalf("the class entry is not the keyword leg's first result: %+v", resp.Results)
	}
}
