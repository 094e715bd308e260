package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestHR10CodeNamesAreNotHostNames: hostName takes every word that follows
// an "@" anywhere in the question, and every dotted word whose last part is
// a domain suffix, for the asker's host name, and leaves it unprobed. So a
// Python decorator (@functools.cached_property, @lru_cache_wrapper_x), a Java
// annotation (@SpringBootApplication) and package names ending in a
// "suffix" (java.io, scipy.io, ASP.NET) are no longer reported missing over
// documents that never mention them: the question is answered from the
// documents' other words instead of being capped/refused as before.
func TestHR10CodeNamesAreNotHostNames(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "hr10-hosts", "english", map[string]string{
		"cache.md": "# Caching\n\nA cache keeps the result of a function call so that the next call with the same arguments " +
			"returns it without computing it again. Clear the cache when the underlying data changes.",
	})
	ctx := context.Background()
	for _, tc := range []struct {
		question, missing string
	}{
		{"How does @functools.cached_property cache the result of a call?", "functools.cached_property"},
		{"When should I clear the cache of @lru_cache_wrapper functions?", "lru_cache_wrapper"},
		{"How does @SpringBootApplication cache the result of a call?", "SpringBootApplication"},
		{"How do I cache the result of a call with java.io streams?", "java.io"},
		{"How do I cache the result of a call in ASP.NET?", "ASP.NET"},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(resp.MissingTerms, tc.missing) {
			t.Errorf("%q: missing %q, want %q among them (confidence %.3f, %q)", tc.question, resp.MissingTerms, tc.missing, resp.Confidence, resp.ConfidenceReason)
		}
	}
}
