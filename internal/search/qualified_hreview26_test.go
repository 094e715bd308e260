package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestQualifiedTailHReview26 (h-review26): the dotted-name rule
// (qualifiedTail/found) on realistic questions.
func TestQualifiedTailHReview26(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		// The documents of a library name it (Mako, the requests
		// library) and its module of exceptions; they never name SQLAlchemy.
		"errors.md": "# Errors\n\nMako raises a TopLevelLookupException when the template lookup cannot locate a template by its uri; the exceptions module holds it. " +
			"With the requests library, an SSLError is raised when the certificate of the server cannot be verified.",
		"dates.md": "# Dates\n\nCalling toString on a date returns its text in the ISO form; an IntegrityError is raised when a unique index rejects a row.",
	}
	tt, s := corpusTenant(t, "qualifiedhr26", "english", docs)
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		question string
		missing  []string
	}{
		// The class written on its own before its dotted form: the dotted
		// name gets no probe of its tail (seen) and stays missing though
		// the documents write the class.
		{"tail written first", "Why is TopLevelLookupException shown as mako.exceptions.TopLevelLookupException in the template lookup log?", nil},
		// A traceback writes the class twice, qualified differently: the
		// second dotted name's tail is seen already.
		{"two qualified forms", "raise exceptions.TopLevelLookupException from the template lookup, then mako.exceptions.TopLevelLookupException when it cannot locate a template", nil},
		// The class an acronym opens (SSLError, HTTPError, URLError) has no
		// capital after a lower-case letter: the commonest pasted Python
		// errors are still refused though the documents write the class.
		{"acronym class", "requests.exceptions.SSLError: certificate of the server cannot be verified", nil},
		// A method of a class no document names: the last part is a common
		// API word, and the class, which the question is about, is no
		// longer looked for.
		{"method of an unknown class", "What text does KafkaConsumer.toString return for a consumer?", []string{"KafkaConsumer.toString"}},
		// Another library's exception: the module names a library the
		// documents never mention.
		{"other library's class", "How do I catch sqlalchemy.exc.IntegrityError when a unique index rejects a row?", []string{"sqlalchemy.exc.IntegrityError"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(resp.MissingTerms, tc.missing) {
				t.Errorf("%q: missing %q, want %q", tc.question, resp.MissingTerms, tc.missing)
			}
		})
	}
}
