package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestHReview29LanguageFoundByAnUnrelatedCode: 3403cc8 probes a language
// the question names with its ISO 639-1 code and counts the name as
// found when any document writes the code (found, codedLanguages). Many
// of those codes are everyday words of technical documentation: "id" (a
// record's id: Indonesian), "th" and "tr" (HTML's table cells and rows:
// Thai, Turkish), "hr" (Croatian), "vi" (the editor: Vietnamese). A tenant
// whose documents never mention Indonesian in any form, not even as a
// locale, but write "id" as a field's name has Indonesian counted as found:
// it is not reported in missing_terms, and the question is answered from
// the date-formatting page as if the documents covered it. Only the stop
// words among the codes ("it", "no", "is", "he") are excepted, as the
// comment says.
//
// A correct implementation reports Indonesian (and Thai) missing when no
// document writes the language, by name or as a locale: a code that is a
// common word elsewhere proves nothing (probe such codes only in a
// locale's form, or not at all).
func TestHReview29LanguageFoundByAnUnrelatedCode(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"dates.md": "# Formatting dates\n\nformat_date(date, format='medium', locale='en_US') formats a date with the month names of the locale. " +
			"Pass locale='de_DE' for German month names or locale='fr_FR' for French ones.",
		"events.md": "# Events\n\nEach event record has an id, a title and a start date. The id is assigned by the database when the event is saved.",
		"tables.md": "# Rendering tables\n\nThe table helper writes a th element for each header cell and a tr element for each row of the events.",
	}
	tt, s := corpusTenant(t, "langcode-hr29", "english", docs)
	ctx := context.Background()
	for _, c := range []struct{ question, name string }{
		{"How do I format month names in Indonesian?", "Indonesian"},
		{"How do I format month names in Thai?", "Thai"},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: c.question, TopK: 3})
		if err != nil {
			t.Fatalf("%q: %v", c.question, err)
		}
		if !slices.Contains(resp.MissingTerms, c.name) {
			t.Errorf("%q: missing terms %q (confidence %.2f, %q); want %q: no document writes the language, by name or as a locale",
				c.question, resp.MissingTerms, resp.Confidence, resp.ConfidenceReason, c.name)
		}
	}
	// The control: a language no code of which is written anywhere is
	// missing, as it should be.
	resp, err := s.Search(ctx, tt, search.Request{Query: "How do I format month names in Korean?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(resp.MissingTerms, "Korean") {
		t.Fatalf("control: missing terms %q, want Korean", resp.MissingTerms)
	}
}
