package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestHR23ProseArrowIsNoMissingTerm: a question that writes a menu path
// with an ASCII arrow ("Settings -> Network"), asked of documentation that
// writes it "Settings → Network", gains the pseudo-word opdg0 in its
// required keyword text (analyze.Query adds OperatorTerms). No chunk has
// it, so it is counted as an absent term with the highest idf: the
// question's term coverage and confidence drop against the very same
// question written "Settings, Network", although the arrow is prose, not
// an operator the asker wants documented. Should: the two questions get
// the same term coverage (a prose arrow adds no required term).
func TestHR23ProseArrowIsNoMissingTerm(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"network.md": "# Network settings\n\nOpen Settings → Network and enter the proxy host and the proxy port to route traffic through a proxy.",
		"display.md": "# Display settings\n\nOpen Settings → Display to change the theme and the font size of the editor.",
		"backup.md":  "# Backups\n\nThe application writes a backup of every project each night to the backup folder.",
	}
	tt, s := corpusTenant(t, "hr23arrow", "english", docs)
	ctx := context.Background()
	plain, err := s.Search(ctx, tt, search.Request{Query: "Where do I enter the proxy host in Settings, Network?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	arrow, err := s.Search(ctx, tt, search.Request{Query: "Where do I enter the proxy host in Settings -> Network?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if arrow.TermCoverage < plain.TermCoverage-1e-9 || arrow.Confidence < plain.Confidence-0.02 {
		t.Errorf("a prose arrow lowers the question's evidence: term coverage %.3f (without the arrow %.3f), confidence %.3f (%.3f), reason %q",
			arrow.TermCoverage, plain.TermCoverage, arrow.Confidence, plain.Confidence, arrow.ConfidenceReason)
	}
}

// TestHR23CompanyHistoryPageIsNoChangelog: a company's "History — Acme"
// page (prose about who founded the company, no versions) is taken for a
// change log by its title alone (the title test matches "History" once the
// site suffix is cut), so for "Who founded Acme in the Springfield
// garage?" its chunk keeps half its fused score and ranks below a museum
// page that shares the question's words but does not say who founded it. Should: the page that answers the
// question ranks first; only a document that is a change log is
// discounted.
func TestHR23CompanyHistoryPageIsNoChangelog(t *testing.T) {
	t.Parallel()
	// The same corpus with the page titled "Our story — Acme" ranks it
	// first: the title alone moves it down.
	for _, title := range []string{"Our story — Acme", "History — Acme"} {
		docs := map[string]string{
			"about/history.md": "# " + title + "\n\nJane Doe founded Acme in 1947 in a garage in Springfield, where she built the first anvil with her brother Tom.",
			"about/museum.md":  "# Museum — Acme\n\nThe Springfield garage museum shows the anvils Acme made in the years after the company was founded; it opens on Saturdays.",
			"about/contact.md": "# Contact — Acme\n\nWrite to the Acme office or call the support line on weekdays.",
		}
		tt, s := corpusTenant(t, "hr23history", "english", docs)
		resp, err := s.Search(context.Background(), tt, search.Request{Query: "Who founded Acme in the Springfield garage?", TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range resp.Results {
			got = append(got, r.SourceURI)
		}
		if len(got) == 0 || !strings.HasSuffix(got[0], "history.md") {
			t.Errorf("titled %q: results %q, want about/history.md (the page that answers) first", title, got)
		}
	}
}
