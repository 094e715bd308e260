package search_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// TestKeywordLegTopKIsAPrefixUnderTies: chunks of equal BM25 scores (the
// same words in texts of equal length) are ordered alike at every depth,
// so the keyword leg's top k is the prefix of its top K. A score is summed
// in groups that depend on the depth (the essential terms' sum, then the
// others'); unrounded, equal scores came out 1e-15 apart in an order that
// changed with the depth, and eval tune's in-memory fusion, which cuts a
// deep retrieval, differed from what search served (migration 00031).
func TestKeywordLegTopKIsAPrefixUnderTies(t *testing.T) {
	t.Parallel()
	docs := map[string]string{}
	for i := range 24 {
		// Equal texts but for a number, which is no query term.
		docs[fmt.Sprintf("page%02d.md", i)] = fmt.Sprintf("# Routine %d\n\nThe vacuum routine reclaims the storage of dead tuples and "+
			"freezes old transaction ids before wraparound.", i)
	}
	for i := range 6 {
		docs[fmt.Sprintf("other%02d.md", i)] = fmt.Sprintf("# Notes %d\n\nStorage is reclaimed by other means on this system.", i)
	}
	tt, s := corpusTenant(t, "kwties", "english", docs)
	ctx := context.Background()
	chunks := func(q string, n int) []string {
		t.Helper()
		set := tenant.Settings{Candidates: n}
		resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: n, Only: search.LegKeyword, NoRerank: true, Settings: &set})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range resp.Results {
			out = append(out, r.ChunkID.String())
		}
		return out
	}
	for _, q := range []string{"vacuum reclaims storage of dead tuples", "freezes transaction ids wraparound vacuum storage", "dead tuples storage"} {
		deep := chunks(q, 30)
		for _, k := range []int{1, 2, 3, 5, 8, 13} {
			if got := chunks(q, k); !slices.Equal(got, deep[:min(k, len(deep))]) {
				t.Errorf("%q: top %d is not the prefix of the top 30:\n %v\n %v", q, k, got, deep[:min(k, len(deep))])
			}
		}
	}
}
