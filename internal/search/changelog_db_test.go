package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// TestChangelogYieldsToTheGuide: a change log whose entries share a
// question's words ranks below the page that explains them, unless the
// question asks about versions or changes. Two trials found a Sphinx
// build's change log among the sources of a third to a half of their
// questions, quoted as the answer.
func TestChangelogYieldsToTheGuide(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"changes.md": "# Changes\n\n## Version 2.2.0\n\n- Signals support the blinker library when it is installed.\n" +
			"- Signals now send the app when the blinker library signals a request.\n- Signal support needs blinker installed.\n\n" +
			"## Version 2.1.0\n\n- Fix signals sent twice for one request.",
		"signals.md": "# Signals\n\nSignal support is provided by the blinker library, which must be installed; " +
			"without it signals fall back to a stub that does nothing.",
		"views.md": "# Views\n\nA view returns a response for a request.",
	}
	tt, s := corpusTenant(t, "changelog", "english", docs)
	ctx := context.Background()
	for q, want := range map[string]string{
		"Do I need to install the blinker library to use signals?": "signals.md",
		"In which version did signals start supporting blinker?":   "changes.md",
	} {
		wantFirst(t, ctx, s, tt, q, want)
	}
}

// wantFirst checks that a search for q ranks the document whose
// source_uri ends with want first.
func wantFirst(t *testing.T, ctx context.Context, s *search.Searcher, tt tenant.Tenant, q, want string) {
	t.Helper()
	resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	if len(resp.Results) == 0 || !strings.HasSuffix(resp.Results[0].SourceURI, want) {
		var got []string
		for _, r := range resp.Results {
			got = append(got, r.SourceURI)
		}
		t.Errorf("%q: results %q, want %s first", q, got, want)
	}
}
