package search_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// TestSmallTenantAbsentWordsWeighLess: over a tenant of a few chunks, most
// of the words a question may use are in no chunk; each weighed more than
// any word the chunks have, and answerable questions were refused for
// "wrote" or "quickest" (polib's 13 chunks: 12 of 30, a held-out trial).
// An absent ordinary word's idf is scaled by the tenant's size up to
// smallTenant chunks, never below half: the question is answered, and a
// question of absent words only, or of a feature the chunks lack, still
// is not.
func TestSmallTenantAbsentWordsWeighLess(t *testing.T) {
	t.Parallel()
	docs := frobpoDocs()
	tt, s := corpusTenant(t, "smalltenant", "english", docs)
	ctx := context.Background()
	resp, err := s.Search(ctx, tt, search.Request{Query: "Under which license is frobpo released?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence < tenant.DefaultRefuseBelow {
		t.Errorf("license question over 15 chunks: confidence %.3f (reason %q), want at least %.2f", resp.Confidence, resp.ConfidenceReason, tenant.DefaultRefuseBelow)
	}
	// Half weight at least: a question most of whose words no chunk has
	// is still refused (a review: over a tenant of three chunks, with no
	// floor, "how do I cancel a running job" was answered at 0.68). One
	// absent word weighs as much whether it is phrasing or the feature
	// asked about ("how do I encrypt the po file" is answered here): the
	// lexical signals cannot tell them apart.
	for _, q := range []string{"can frobpo run on windows", "how do I upload translations to a translation website"} {
		resp, err = s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Confidence >= tenant.DefaultRefuseBelow {
			t.Errorf("%q over 15 chunks: confidence %.3f, want below %.2f", q, resp.Confidence, tenant.DefaultRefuseBelow)
		}
	}
	// The asker's own thing ("my project") is named in the asker's words,
	// as any ordinary word is (a held-out trial's "How do I install
	// Flask-Login in my project?" was refused over its one page, "no
	// document mentions “project”").
	resp, err = s.Search(ctx, tt, search.Request{Query: "How do I install frobpo in my project?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence < tenant.DefaultRefuseBelow {
		t.Errorf("install question naming the asker's project over 15 chunks: confidence %.3f (reason %q), want at least %.2f", resp.Confidence, resp.ConfidenceReason, tenant.DefaultRefuseBelow)
	}
	resp, err = s.Search(ctx, tt, search.Request{Query: "How long should sourdough bread dough rise before baking?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence >= tenant.DefaultRefuseBelow {
		t.Errorf("off-topic question over 15 chunks: confidence %.3f, want below %.2f", resp.Confidence, tenant.DefaultRefuseBelow)
	}
	// Over two chunks (a tenant's first documents) a question of a feature
	// the chunks lack is refused: with no floor, weighing n/40, its absent
	// words weighed 1/20 and it was answered.
	tiny := map[string]string{
		"index.md": "# tinyq\n\ntinyq is a small job queue that stores its jobs in SQLite. Install it with pip install tinyq.",
		"usage.md": "# Usage\n\nCall tinyq.enqueue(func, *args, delay=0) to add a job. Start a worker with tinyq worker. " +
			"A job that keeps failing is retried three times and then marked dead.",
	}
	qt, qs := corpusTenant(t, "smalltenant2", "english", tiny)
	for _, q := range []string{"how do I cancel a running job", "can tinyq use redis instead of sqlite"} {
		resp, err = qs.Search(ctx, qt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Confidence >= tenant.DefaultRefuseBelow {
			t.Errorf("%q over 2 chunks: confidence %.3f, want below %.2f", q, resp.Confidence, tenant.DefaultRefuseBelow)
		}
	}
}

// frobpoDocs is a tenant of 15 chunks: a gettext library's introduction,
// quick start and installation, and a page on each of twelve topics.
func frobpoDocs() map[string]string {
	docs := map[string]string{
		"index.md": "# frobpo\n\nfrobpo is a library to manipulate gettext files (po and mo files). The license used is the MIT license. " +
			"It was developed back in 2006 by Jane Roe.",
		"quickstart.md": "# Quick start\n\nLoading a po file is done with the pofile() function. The percent_translated() method gives the percentage of translated entries.",
		"install.md":    "# Installation\n\nInstall frobpo with pip install frobpo.",
	}
	for i, topic := range []string{"header entries", "fuzzy flags", "obsolete entries", "plural forms", "message contexts", "translator comments",
		"occurrences", "wrapping width", "encodings", "merging catalogs", "saving catalogs", "compiling catalogs"} {
		docs[fmt.Sprintf("topic%02d.md", i)] = fmt.Sprintf("# %s\n\nThe catalog object exposes %s through its entries, and a method lists them.", topic, topic)
	}
	return docs
}
