package app

import (
	"context"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestHReview33FilteredReasonUnderPartialCoverage: a tenant searched with a
// model that covers only part of its chunks (the server's default changed
// to a model it has no vectors of: a state the search reports as degraded)
// reads no row in the vector leg whatever the filters. A filtered question
// whose words the ten matching documents lack is then told that "no
// document the caller can read matches the filters", though all ten match:
// vecRead == 0 is taken for "the filters leave nothing".
func TestHReview33FilteredReasonUnderPartialCoverage(t *testing.T) {
	ctx := context.Background()
	a, b := newFakeModel(t, "fake-a", 16), newFakeModel(t, "fake-b", 32)
	a.register(t)
	b.register(t)
	cfg := defaults(t)
	h := newSwitchHarness(t, cfg, a, 10)
	other, err := New(ctx, cfg, testdb.App(t), WithEmbedder(b.client(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Switcher.Stop)
	req := search.Request{Query: "zebra quokka axolotl", SourceURIPrefix: "docs/"}
	covered, err := h.app.Searcher.Search(ctx, h.tn, req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(covered.ConfidenceReason, "no document matching the filters contains any of the question's terms") {
		t.Fatalf("with the covering model: reason %q (the baseline)", covered.ConfidenceReason)
	}
	res, err := other.Searcher.Search(ctx, h.tn, req)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Degraded {
		t.Fatalf("the uncovering model's search is not degraded: %+v", res.DegradedReasons)
	}
	if strings.HasPrefix(res.ConfidenceReason, "no document the caller can read matches the filters") {
		t.Errorf("reason %q, but the ten documents under docs/ match the filter and the caller reads them all; the vector leg read nothing only because the model has no vectors of them",
			res.ConfidenceReason)
	}
}
