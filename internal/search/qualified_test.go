package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestQualifiedNamesFoundByTheirClass (h-trial35): Python prints an
// exception with its module ("mako.exceptions.TopLevelLookupException:
// Can't locate template …"), where documents write the class alone; the
// pasted error was refused with "no document mentions
// “mako.exceptions.TopLevelLookupException”". A dotted name whose last
// part is a name of its own counts as found when that part is; one whose
// class no document writes is still missing, and the class probed for it
// is no name of the question's own (not counted, not reported).
func TestQualifiedNamesFoundByTheirClass(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"errors.md": "# Errors\n\nMako raises a TopLevelLookupException when the template lookup cannot locate a template by its uri. " +
			"The exceptions module holds every exception the template engine raises.",
		"usage.md": "# Usage\n\nThe TemplateLookup class finds templates in the directories it is given.",
	}
	tt, s := corpusTenant(t, "qualified", "english", docs)
	ctx := context.Background()
	for _, tc := range []struct {
		question string
		missing  []string
		ids      int
	}{
		{"mako.exceptions.TopLevelLookupException: Can't locate template for uri 'emails/welcome.txt'", nil, 0},
		{"When is mako.exceptions.TopLevelLookupException raised by the template lookup?", nil, 0},
		{"When is mako.exceptions.FrobnicatorError raised by the template lookup?", []string{"mako.exceptions.FrobnicatorError"}, 1},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3})
		if err != nil {
			t.Fatalf("%q: %v", tc.question, err)
		}
		got := slices.DeleteFunc(slices.Clone(resp.MissingTerms), func(w string) bool { return w == "emails/welcome.txt" || w == "welcome.txt" })
		if !slices.Equal(got, tc.missing) {
			t.Errorf("%q: missing %q, want %q", tc.question, resp.MissingTerms, tc.missing)
		}
		if resp.Signals.MissingIdentifiers != tc.ids {
			t.Errorf("%q: %d missing identifiers, want %d", tc.question, resp.Signals.MissingIdentifiers, tc.ids)
		}
	}
}
