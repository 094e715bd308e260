package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestHyphenatedWordMatchesItsJoinedForm: a question that hyphenates a word
// the documents write joined ("auto-vacuum", AUTOINCREMENT's
// "auto-increments") finds the chunks that write it joined, and the word
// is not counted absent: the refusal does not name it and the absent share
// is that of the question's other words. A joined form no chunk has is no
// term of the question: the signals count the question's own lexemes.
func TestHyphenatedWordMatchesItsJoinedForm(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"vacuum.md": "# Routine maintenance\n\nThe autovacuum daemon is a background process. " +
			"Each autovacuum worker processes one database at a time.",
		"cleaning.md": "# Cleaning robots\n\nIn auto mode the robot will vacuum every room of the house on its own schedule, " +
			"and a full vacuum of a large house takes an hour.",
		"keys.md": "# Row identifiers\n\nA column declared INTEGER PRIMARY KEY AUTOINCREMENT never reuses the identifier of a deleted row.",
		"mail.md": "# Reporting bugs\n\nSend your bug report by e-mail to the bugs list, with the version you run.",
	}
	tt, s := corpusTenant(t, "hyphens", "english", docs)
	ctx := context.Background()
	for _, tc := range []struct{ question, want string }{
		{"What does the auto-vacuum daemon do?", "vacuum.md"},
		{"Which column declaration auto-increments the row identifier?", "keys.md"},
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
		if resp.Signals.AbsentShare != 0 || len(resp.MissingTerms) > 0 {
			t.Errorf("%q: absent share %.3f, missing %q; every word is in the documents", tc.question, resp.Signals.AbsentShare, resp.MissingTerms)
		}
	}
	// report, bug, e-mail, e, mail: the joined "email" is in no chunk and
	// adds no term.
	resp, err := s.Search(ctx, tt, search.Request{Query: "How do I report a bug by e-mail?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Signals.Terms != 5 || resp.Signals.AbsentShare != 0 {
		t.Errorf("e-mail: %d terms, absent share %.3f; want the question's 5 lexemes, none absent", resp.Signals.Terms, resp.Signals.AbsentShare)
	}
	if len(resp.Results) == 0 || resp.Results[0].SourceURI != "mail.md" {
		t.Errorf("e-mail: results %v, want mail.md first", resp.Results)
	}
	// A hyphenated word written nowhere, joined or not, is still absent.
	resp, err = s.Search(ctx, tt, search.Request{Query: "How does the frob-nicator daemon work?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Signals.AbsentShare == 0 || resp.ConfidenceReason == "" {
		t.Errorf("frob-nicator: absent share %.3f, reason %q; want the word absent", resp.Signals.AbsentShare, resp.ConfidenceReason)
	}
}
