package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// A release a site writes in its pages' titles with a word or two between
// the name and the number ("Introduction — Frob Documentation (3.1.x)", as
// Jinja's Sphinx theme titles every page) is the release the documents are
// of: "Which Python versions does Frob 3.1 support?" was refused over
// every page of the Jinja 3.1 documentation. A release no page writes
// (Frob 4.0) is still missing.
func TestReleaseWrittenInThePagesTitles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tt, s := corpusTenant(t, "reltitle", "english", map[string]string{
		"intro.md": "# Introduction — Frob Documentation (3.1.x)\n\n## Installation\n\nWe recommend using the latest version of Python. " +
			"Frob supports Python 3.7 and newer.\n",
		"changes.md": "# Changes — Frob Documentation (3.1.x)\n\n## Version 2.0\n\nFrob 2.0 dropped support for Python 2.6 and the old template loader.\n",
	})
	resp, err := s.Search(ctx, tt, search.Request{Query: "Which Python versions does Frob 3.1 support?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.MissingTerms) > 0 || resp.Confidence < 0.34 {
		t.Errorf("Frob 3.1: missing %q, confidence %.3f (%s); every page's title writes “Frob Documentation (3.1.x)”", resp.MissingTerms, resp.Confidence, resp.ConfidenceReason)
	}
	resp, err = s.Search(ctx, tt, search.Request{Query: "Which Python versions does Frob 4.0 support?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(resp.MissingTerms, "Frob 4.0") {
		t.Errorf("Frob 4.0: missing %q, confidence %.3f; no document writes it", resp.MissingTerms, resp.Confidence)
	}
}
