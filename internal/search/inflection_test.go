package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestNounInEitherNumber: PostgreSQL's English stemmer gives "alias" the
// lexeme alia and "aliases" alias, so a question writing one number did not
// match the chunks writing the other, and the word counted as in no
// document ("no document mentions “alias”": a false refusal). The other
// number is an alternative term: the chunk is found and the word is
// present. A word no document writes in either number is still absent.
func TestNounInEitherNumber(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"config.md": "# User config\n\nThe abbreviations setting holds repository aliases: with pp defined there, " +
			"the template is given by its short name.",
		"math.md":  "# Grouping\n\nAn expression in parenthesis is evaluated first.",
		"other.md": "# Templates\n\nA template repository holds a project layout and its hooks.",
	}
	tt, s := corpusTenant(t, "inflection", "english", docs)
	ctx := context.Background()
	for _, tc := range []struct{ question, want string }{
		{"How do I define a short alias for a template repository?", "config.md"},
		{"Are expressions in parentheses evaluated first?", "math.md"},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3, Only: "keyword"})
		if err != nil {
			t.Fatalf("%q: %v", tc.question, err)
		}
		if len(resp.Results) == 0 || resp.Results[0].SourceURI != tc.want {
			var got []string
			for _, r := range resp.Results {
				got = append(got, r.SourceURI)
			}
			t.Errorf("%q: keyword leg %q, want %s first", tc.question, got, tc.want)
		}
		if resp.Signals.AbsentShare != 0 || resp.ConfidenceReason != "" {
			t.Errorf("%q: absent share %.3f, reason %q; every word is in the documents", tc.question, resp.Signals.AbsentShare, resp.ConfidenceReason)
		}
	}
	resp, err := s.Search(ctx, tt, search.Request{Query: "How do I define a short canvas for a template repository?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Signals.AbsentShare == 0 {
		t.Errorf("canvas: absent share %.3f; want canvas absent", resp.Signals.AbsentShare)
	}
}

// TestOtherNumberOnlyWhereTheWordIsAbsent: the other number is searched
// only when no readable chunk has the word as the question writes it: a
// corpus writing "aliases" answers "lexer aliases" by that word alone,
// and the chunks writing "alias" (another lexeme) do not rank for it
// (Pygments' entries taking an alias argument had outranked the lexer the
// question asked about).
func TestOtherNumberOnlyWhereTheWordIsAbsent(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"lexers.md": "# Lexers\n\nEach lexer lists its aliases, the short names it is found by.",
		"lookup.md": "# Lookup\n\nThe function takes an alias and returns the matching alias entry, alias by alias.",
	}
	tt, s := corpusTenant(t, "inflectabsent", "english", docs)
	resp, err := s.Search(context.Background(), tt, search.Request{Query: "Which lexer aliases are there?", TopK: 5, Only: "keyword"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range resp.Results {
		got = append(got, r.SourceURI)
	}
	if len(got) != 1 || got[0] != "lexers.md" {
		t.Errorf("keyword leg %q, want lexers.md alone: the documents write aliases, so alias is not searched", got)
	}
}

// TestShortenedWordMeetsItsFullForm: a question writing a shortening the
// documents write in full ("max" for "maximum": a held-out trial's "max
// rows for xls export" was refused, "no document mentions “max”") finds
// the chunk and counts the word present; a tenant writing the shortening
// itself is searched by it alone.
func TestShortenedWordMeetsItsFullForm(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"formats.md": "# Excel\n\nThe xls export is limited to a maximum of 65,000 rows per sheet.",
		"csv.md":     "# CSV\n\nThe csv export writes one line per row, quoted where needed.",
	}
	tt, s := corpusTenant(t, "abbrev", "english", docs)
	resp, err := s.Search(context.Background(), tt, search.Request{Query: "max rows for the xls export?", TopK: 3, Only: "keyword"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) == 0 || resp.Results[0].SourceURI != "formats.md" {
		t.Errorf("keyword leg %v, want formats.md first", resp.Results)
	}
	if resp.Signals.AbsentShare != 0 || resp.ConfidenceReason != "" {
		t.Errorf("absent share %.3f, reason %q; max is in the documents as maximum", resp.Signals.AbsentShare, resp.ConfidenceReason)
	}
}
