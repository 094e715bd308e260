package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/analyze"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// TestEverydayWordsPhraseTheQuestion: over the 15 chunks of frobpoDocs, a
// question that asks what a page says in everyday words no chunk writes
// ("clearly", "show", "whether") is answered; the subject a question asks
// about keeps its full weight when no chunk has it, so the same phrasing
// around a format the library lacks ("xliff") or another product
// ("transifex") is still refused (held-out trials: "How can I reset all
// the mocks I've created so far…" refused over "far", "How do I log a
// user out and clear the cookies…" over "clear").
func TestEverydayWordsPhraseTheQuestion(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "everyday", "english", frobpoDocs())
	ctx := context.Background()
	for _, q := range []string{
		"Can the catalog object clearly show whether an entry is obsolete?",
		"Is there a quick way to show how much of my po file is translated so far?",
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Confidence < tenant.DefaultRefuseBelow {
			t.Errorf("%q over 15 chunks: confidence %.3f (reason %q), want at least %.2f", q, resp.Confidence, resp.ConfidenceReason, tenant.DefaultRefuseBelow)
		}
	}
	for _, q := range []string{
		"Can the catalog object clearly show whether an xliff entry is obsolete?",
		"Is there a quick way to show how much of my xliff file is translated so far?",
		"Which function do I still need to call first when uploading to transifex?",
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Confidence >= tenant.DefaultRefuseBelow {
			t.Errorf("%q over 15 chunks none of which names it: confidence %.3f (reason %q), want below %.2f", q, resp.Confidence, resp.ConfidenceReason, tenant.DefaultRefuseBelow)
		}
	}
}

// TestEverydayWords: the list is general English, not any tenant's words;
// regular endings reach their stem, and a specific or technical word is
// not everyday.
func TestEverydayWords(t *testing.T) {
	t.Parallel()
	for _, w := range []string{"still", "many", "far", "clear", "share", "shows", "limits", "stored", "Turning", "tries"} {
		if !analyze.Everyday(w) {
			t.Errorf("Everyday(%q) = false, want true", w)
		}
	}
	for _, w := range []string{"wget", "sourdough", "recipe", "xliff", "colliding", "encrypt", "fraction", "redis", "st", ""} {
		if analyze.Everyday(w) {
			t.Errorf("Everyday(%q) = true, want false", w)
		}
	}
}
