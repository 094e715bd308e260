package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestFieldOptionIsTheSoftwares: "the db_comment field option" names an
// option of the software's fields, not the asker's field: no document
// writing it, the question is about another release, and is capped and
// told so. "the db_comment field" alone stays the asker's own column.
func TestFieldOptionIsTheSoftwares(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"fields.md": "# Model field reference\n\n## Field options\n\n### null\n\nIf True, the database stores empty values as NULL. " +
			"### db_column\n\nThe name of the database column to use for this field.\n\n### db_index\n\nIf True, a database index is created for this field.",
		"comments.md": "# Comments\n\nThe comments framework lets users add a comment to any model instance on the site.",
	}
	tt, s := corpusTenant(t, "fieldoption", "english", docs)
	ctx := context.Background()
	q := "How do I add a database column comment with the db_comment field option?"
	resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(resp.MissingTerms, "db_comment") || !resp.Signals.Capped {
		t.Errorf("%q: missing %q, capped %v, confidence %.2f; want db_comment missing and the question capped", q, resp.MissingTerms, resp.Signals.Capped, resp.Confidence)
	}
	own := "How do I add a database column comment to the db_comment field?"
	resp, err = s.Search(ctx, tt, search.Request{Query: own, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(resp.MissingTerms, "db_comment") || resp.Signals.Capped {
		t.Errorf("%q: missing %q, capped %v; the field is the asker's", own, resp.MissingTerms, resp.Signals.Capped)
	}
}
