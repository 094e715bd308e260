package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestNamedMissingIdentifierIsRefused: a question about a setting (option,
// parameter, view, …) by a name no document writes is about another
// release or product, however well its other words match: its confidence
// is capped below any threshold. The same name as the asker's own object,
// or without a kind, is one missing term among the question's words.
func TestNamedMissingIdentifierIsRefused(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"settings.md": "# Settings\n\n## DOWNLOAD_DELAY\n\nThe delay in seconds between consecutive requests to the same domain. " +
			"Use it to throttle the crawl speed and avoid hitting servers too hard.\n\n" +
			"## DOWNLOAD_TIMEOUT\n\nThe time in seconds the downloader waits before timing out a request to a domain.",
		"spiders.md": "# Spiders\n\nA spider sets custom_settings to override the project's settings, such as the download delay per spider.",
	}
	tt, s := corpusTenant(t, "namedmissing", "english", docs)
	ctx := context.Background()
	capped := "How do I set a different download delay per domain with the DOWNLOAD_SLOTS setting?"
	resp, err := s.Search(ctx, tt, search.Request{Query: capped, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Signals.Capped || resp.Confidence > 0.1+1e-9 {
		t.Errorf("%q: capped %v, confidence %.2f; want capped at 0.1 (a setting no document names)", capped, resp.Signals.Capped, resp.Confidence)
	}
	for _, q := range []string{
		"How do I set a different download delay per domain for my DOWNLOAD_SLOTS table?",
		"How do I set a different download delay per domain, like DOWNLOAD_SLOTS does?",
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Signals.Capped {
			t.Errorf("%q: capped, though the name is not asked about as a setting", q)
		}
	}
}
