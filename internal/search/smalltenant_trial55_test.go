package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// TestSmallTenantAbsentWordsWeighLess: over a tenant of a few chunks, most
// of the words a question may use are in no chunk; each weighed more than
// any word the chunks have, and answerable questions were refused for
// "wrote" or "quickest" (polib's 13 chunks: 12 of 30, a held-out trial).
// An absent word's idf is scaled by the tenant's size up to smallTenant
// chunks: the question is answered, and a question of absent words only
// still is not.
func TestSmallTenantAbsentWordsWeighLess(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"index.md": "# frobpo\n\nfrobpo is a library to manipulate gettext files (po and mo files). The license used is the MIT license. " +
			"It was developed back in 2006 by Jane Roe.",
		"quickstart.md": "# Quick start\n\nLoading a po file is done with the pofile() function. The percent_translated() method gives the percentage of translated entries.",
		"install.md":    "# Installation\n\nInstall frobpo with pip install frobpo.",
	}
	tt, s := corpusTenant(t, "smalltenant", "english", docs)
	ctx := context.Background()
	resp, err := s.Search(ctx, tt, search.Request{Query: "Under what license is frobpo released and who originally wrote it?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence < tenant.DefaultRefuseBelow {
		t.Errorf("license question over 3 chunks: confidence %.3f (reason %q), want at least %.2f", resp.Confidence, resp.ConfidenceReason, tenant.DefaultRefuseBelow)
	}
	resp, err = s.Search(ctx, tt, search.Request{Query: "How long should sourdough bread dough rise before baking?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence >= tenant.DefaultRefuseBelow {
		t.Errorf("off-topic question over 3 chunks: confidence %.3f, want below %.2f", resp.Confidence, tenant.DefaultRefuseBelow)
	}
}
