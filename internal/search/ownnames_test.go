package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// A name in capitals or a qualified member that the question presents as
// the asker's own ("my APPHOME environment variable", "my
// Order#recalculate method") is no evidence the documents lack something,
// as "my order_line_items table" is not: such questions were refused. The
// same names presented as the software's stay missing.
func TestAskersOwnCapitalsAndMembersAreNotMissing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tt, s := corpusTenant(t, "ownnames", "english", map[string]string{
		"run.md": "# docker run\n\n## Set environment variables (-e, --env, --env-file)\n\nUse the -e, --env, and --env-file flags to set simple " +
			"environment variables in the container you are running, or to overwrite variables defined in the Dockerfile of the image.\n",
		"callbacks.md": "# Active Record Callbacks\n\n## Registering callbacks\n\nTo run a method of your model every time a record is saved, " +
			"register it with before_save or after_save. A before_save callback runs before both creates and updates.\n",
	})
	for _, c := range []struct{ q, word string }{
		{"How do I pass my APPHOME environment variable to a container with docker run?", "APPHOME"},
		{"How do I run my Order#recalculate method every time an order record is saved?", "recalculate"},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: c.q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(resp.MissingTerms, c.word) {
			t.Errorf("%q: %q reported missing (confidence %.3f); it is the asker's own", c.q, c.word, resp.Confidence)
		}
	}
	resp, err := s.Search(ctx, tt, search.Request{Query: "How do I set the GLOBSORT variable in a container?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(resp.MissingTerms, "GLOBSORT") {
		t.Errorf("GLOBSORT: missing %q; the software's variable no document names", resp.MissingTerms)
	}
}
