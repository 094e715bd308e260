package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// TestReleaseWrittenAsTheDocumentWritesItIsNotMissing_hreview7: a release the
// question names exactly as the documents write it is not missing. The
// release probe drops the question's "v" ("Frobnicator v2.4" is probed as
// "Frobnicator 2.4", which the documents never write: they write "v2.4"),
// so the question is capped at 0.1 and refused with "no document mentions
// “Frobnicator 2.4”" although every document says "Frobnicator v2.4".
func TestReleaseWrittenAsTheDocumentWritesItIsNotMissing_hreview7(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, doc, question string }{
		{"v prefix", "# Release notes\n\nFrobnicator v2.4 adds parallel frobnication of widgets and a new widget cache. " +
			"Frobnicator v2.4 also removes the legacy widget format, which adds nothing to the widget cache.",
			"What does Frobnicator v2.4 add for the widget cache?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			docs := map[string]string{
				"news.md":  tc.doc,
				"guide.md": "# Widgets\n\nA widget is frobnicated by the Frobnicator daemon. The widget cache keeps recently frobnicated widgets.",
			}
			tt, s := corpusTenant(t, "relv", "english", docs)
			noReleaseMissing(t, s, tt, tc.question)
		})
	}
}

// TestSettingValueIsNotARelease_hreview7: releasePattern takes any NameLike
// word before a one- or two-digit number for a release: a setting and the
// value a question asks about ("Is max_wal_senders 10 the default?") or a
// person and a count ("give Bob 2 roles") becomes a release probe the documents never write literally, and
// the question is capped at 0.1 and refused with "no document mentions
// “max_wal_senders 10”", though the documents state exactly that.
func TestSettingValueIsNotARelease_hreview7(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"replication.md": "# Replication settings\n\nmax_wal_senders (integer)\n\nSpecifies the maximum number of concurrent connections from standby servers " +
			"or streaming base backup clients. The default of max_wal_senders is 10. The value 0 disables replication.",
		"roles.md": "# Roles\n\nAn administrator can give a user several roles with the grant command. Bob is the administrator of the replication servers.",
	}
	tt, s := corpusTenant(t, "relset", "english", docs)
	for _, q := range []string{"Is max_wal_senders 10 by default?", "How do I give Bob 2 roles with the grant command?"} {
		noReleaseMissing(t, s, tt, q)
	}
}

// noReleaseMissing checks that question reports nothing missing and that its
// confidence is not capped (releaseCap).
func noReleaseMissing(t *testing.T, s *search.Searcher, tt tenant.Tenant, question string) {
	t.Helper()
	resp, err := s.Search(context.Background(), tt, search.Request{Query: question, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.MissingTerms) != 0 || resp.Confidence <= 0.1 {
		t.Errorf("%q: missing %q, confidence %.3f (%q); want nothing missing and the confidence not capped",
			question, resp.MissingTerms, resp.Confidence, resp.ConfidenceReason)
	}
}
