package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

func TestReview57bScratch(t *testing.T) {
	tt, s := corpusTenant(t, "rv57bscr", "english", frobpoDocs())
	for _, q := range []string{
		"Where can I quickly find the plural forms?",
		"How do I quickly check fuzzy flags?",
		"What happens to obsolete entries later?",
		"Where are obsolete entries kept?",
		"Are obsolete entries still kept?",
		"Can I easily change the wrapping width?",
		"How do I quickly read translator comments?",
		"Is it easy to merge catalogs?",
		"Can I still get message contexts?",
		"Where are translator comments kept?",
	} {
		resp, err := s.Search(context.Background(), tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%.3f %q %s", resp.Confidence, resp.ConfidenceReason, q)
	}
}
