package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// The change meant "the RUST_MAX_HEAP variable" (the software's
// environment variable) to count as a name the documents should have,
// but constantName switches the kind word off for every object word
// (column, table, field, attribute, property, variable) and whatever the
// article: an asker's own column or table written in capitals, as Oracle,
// DB2 and Snowflake users write them ("the CUSTOMER_ID column", "the
// ORDER_ITEMS table"), and the asker's own constant ("a MAX_RETRIES
// variable I defined") are now reported missing, as names the documents
// should have and lack, where before the change they were the asker's
// own (as "the customer_id column" still is).
func TestHR43AskersOwnCapitalisedColumnIsNotMissing(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"indexes.md": "# Indexes\n\nA B-tree index speeds up queries that filter a column by equality or range. " +
			"Create one with CREATE INDEX on the column the WHERE clause compares. " +
			"A query that wraps the column in a function cannot use a plain index on it; index the expression instead.",
		"loops.md": "# Retrying\n\nA script that retries a failed request should bound the number of retries and wait between attempts.",
	}
	tt, s := corpusTenant(t, "hr43capscol", "english", docs)
	ctx := context.Background()
	for _, tc := range []struct{ q, name string }{
		{"Why does my query not use the index when the WHERE clause filters on the CUSTOMER_ID column?", "CUSTOMER_ID"},
		{"How do I speed up queries on the ORDER_ITEMS table that filter by date range?", "ORDER_ITEMS"},
		{"I defined a MAX_RETRIES variable; how should a script bound the number of retries of a failed request?", "MAX_RETRIES"},
		{"Why does my query not use the index when the WHERE clause filters on the customer_id column?", "customer_id"},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(resp.MissingTerms, tc.name) {
			t.Errorf("%q: missing terms %q (confidence %.2f); %s is the asker's own, no name the documents lack", tc.q, resp.MissingTerms, resp.Confidence, tc.name)
		}
	}
}
