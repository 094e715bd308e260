package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestReleaseWithTheWordVersionOverDocuments: over documents that name
// their product with its release ("Frobnicator 6.67.1 documentation") and
// number their own releases bare ("Changed in version 6.60"), a question
// about "Frobnicator version 6.90" is about a release no document covers
// (capped, the release named), while "Frobnicator version 6.60" is one
// they do.
func TestReleaseWithTheWordVersionOverDocuments(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"index.md": "# Frobnicator 6.67.1 documentation\n\nFrobnicator frobnicates widgets and keeps an example database of the widgets it frobnicated.",
		"database.md": "# The example database\n\nThe example database stores every widget that failed. Changed in version 6.60: the example database " +
			"moved to a directory of its own, and earlier releases read the old directory.",
	}
	tt, s := corpusTenant(t, "relword", "english", docs)
	resp, err := s.Search(context.Background(), tt, search.Request{Query: "What changed about the example database in Frobnicator version 6.90 compared to earlier releases?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence > 0.1 || !slices.Contains(resp.MissingTerms, "Frobnicator version 6.90") {
		t.Errorf("release 6.90: confidence %.3f, missing %q; want capped at 0.1 (releaseCap) with the release named", resp.Confidence, resp.MissingTerms)
	}
	resp, err = s.Search(context.Background(), tt, search.Request{Query: "What changed about the example database in Frobnicator version 6.60 compared to earlier releases?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Confidence <= 0.1 || len(resp.MissingTerms) != 0 {
		t.Errorf("release 6.60, which the documents write bare: confidence %.3f, missing %q; want not capped, nothing missing", resp.Confidence, resp.MissingTerms)
	}
}
