package search_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// TestQuestionWordsOfAnotherLanguageAreNoMissingTerms: over German and
// French documents in a tenant with the simple configuration (no stop
// words), the words that phrase a German or French question ("Wie",
// "viele", "Qui") are in no document and name no subject: they are not
// missing terms, and the question whose answer a document states is not
// refused for them.
func TestQuestionWordsOfAnotherLanguageAreNoMissingTerms(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"urlaub.md": "# Urlaub\n\nAlle Mitarbeiter haben Anspruch auf dreißig Urlaubstage pro Kalenderjahr. " +
			"Nicht genommener Urlaub verfällt am 31. März des Folgejahres.",
		"frais.md":   "# Notes de frais\n\nLes notes de frais sont validées par M. Dupont, responsable financier, avant le remboursement.",
		"reise.md":   "# Reisekosten\n\nReisekosten werden innerhalb von 14 Tagen erstattet. Die Abrechnung erfolgt über das Portal.",
		"kantine.md": "# Kantine\n\nDie Kantine ist montags bis freitags von 11 bis 14 Uhr geöffnet.",
	}
	tt, s := corpusTenant(t, "qwords", "simple", docs)
	for _, c := range []struct {
		q     string
		words []string
	}{
		{"Wie viele Urlaubstage haben Mitarbeiter?", []string{"wie", "viele"}},
		{"Qui valide les notes de frais?", []string{"qui"}},
	} {
		resp, err := s.Search(context.Background(), tt, search.Request{Query: c.q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.words {
			if strings.Contains(strings.ToLower(resp.ConfidenceReason), "“"+w+"”") {
				t.Errorf("%q: the reason %q names the question word %q", c.q, resp.ConfidenceReason, w)
			}
		}
		if resp.Confidence < tenant.DefaultRefuseBelow {
			t.Errorf("%q: confidence %.3f (reason %q), below the default threshold %.2f", c.q, resp.Confidence, resp.ConfidenceReason, tenant.DefaultRefuseBelow)
		}
	}
	// A subject no document writes still is one: the tenant has no
	// canteen menu.
	resp, err := s.Search(context.Background(), tt, search.Request{Query: "Wie teuer ist das Mittagsmenü in der Kantine?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(resp.ConfidenceReason, "Mittagsmenü") || strings.Contains(resp.ConfidenceReason, "“Wie”") {
		t.Errorf("reason %q: want Mittagsmenü named, and no question word", resp.ConfidenceReason)
	}
}

// TestAFileNamedInsideAPathIsMentioned: a question naming a file that the
// documents write only inside a path ("config.toml" in
// ~/.plinth/config.toml) finds that document, and the file is no missing
// name.
func TestAFileNamedInsideAPathIsMentioned(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"config.md":  "# Configuration\n\nThe configuration file lives at ~/.plinth/config.toml and is read when plinth starts.",
		"install.md": "# Installing plinth\n\nDownload the archive and run the installer; plinth then starts at login.",
	}
	tt, s := corpusTenant(t, "pathname", "english", docs)
	resp, err := s.Search(context.Background(), tt, search.Request{Query: "Where is config.toml?", TopK: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.MissingTerms) != 0 || strings.Contains(resp.ConfidenceReason, "config.toml") {
		t.Errorf("missing %q, reason %q: want config.toml found", resp.MissingTerms, resp.ConfidenceReason)
	}
	if len(resp.Results) == 0 || !strings.HasSuffix(resp.Results[0].SourceURI, "config.md") {
		t.Errorf("results %+v: want config.md first", resp.Results)
	}
}

// TestForeignQuestionWordsExcuseNoSubject: only a question word itself,
// or a start of it a stemmer left, is excused; a subject one letter longer
// ("Perl" against Italian "per") still counts as missing, in a question in
// that language and in an English one padded with its function words.
func TestForeignQuestionWordsExcuseNoSubject(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"install.md": "# Installazione\n\nPer installare il modulo per Python si usa il comando pip install plinth nel terminale.",
		"stats.md":   "# Statistiche\n\nLa latenza p99 di ogni interrogazione è riportata dal comando plinth stats --latency.",
	}
	tt, s := corpusTenant(t, "perlword", "simple", docs)
	for _, q := range []string{
		"Come si installa il modulo per Perl?",
		"How is the p99 latency of a query reported for Perl? di il la che per una con",
	} {
		resp, err := s.Search(context.Background(), tt, search.Request{Query: q, TopK: 2})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Confidence >= tenant.DefaultRefuseBelow || !strings.Contains(resp.ConfidenceReason, "Perl") && !slices.Contains(resp.MissingTerms, "Perl") {
			t.Errorf("%q: confidence %.3f, reason %q, missing %q; want Perl missing and the question refused", q, resp.Confidence, resp.ConfidenceReason, resp.MissingTerms)
		}
	}
}
