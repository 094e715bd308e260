package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestHyphenatedNameWrittenJoined: a name joined by hyphens ("Wi-Fi") is
// found where documents write it without them ("WiFi"); one whose parts
// documents write ("MTA", "STS", or "MTA–STS" with an en dash, or
// "MTA-STS-compliant") is found as before.
func TestHyphenatedNameWrittenJoined(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"tls.md": "# TLS\n\nThe MTA delivers mail over TLS when the receiving server offers it. " +
			"Strict transport security (STS) headers are set by the web server, not by the mail server. " +
			"The server is MTA–STS-compliant since 3.9.",
		"net.md": "# Networks\n\nThe device joins a WiFi network by its name. " +
			"A Read-Only volume cannot be written; mount it again to change that.",
	}
	tt, s := corpusTenant(t, "hyphens", "english", docs)
	ctx := context.Background()
	for _, tc := range []struct {
		question string
		missing  []string
	}{
		{"How do I make the mail server enforce MTA-STS policies?", nil},
		{"How does the device join a Wi-Fi network?", nil},
		{"Why is my volume Read-Only after a crash?", nil},
		{"Does the MTA deliver mail over TLS?", nil},
		// A capitalised word with a modifier names the word: documents
		// write its parts apart.
		{"Is the MTA-Driven delivery over TLS?", nil},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3})
		if err != nil {
			t.Fatalf("%q: %v", tc.question, err)
		}
		if !slices.Equal(resp.MissingTerms, tc.missing) {
			t.Errorf("%q: missing %q, want %q", tc.question, resp.MissingTerms, tc.missing)
		}
	}
}
