package search_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestAttributeFoundByItsParts: a question writes an object's attribute as
// code reads it ("cursor.rowcount"), where reference documentation lists
// the attribute under its class ("rowcount" under "class Cursor"); a
// held-out trial's "Why does cursor.rowcount come back as -1?" was
// refused, "no document mentions “cursor.rowcount”". The dotted name
// counts as found when both its parts are written, and is then neither
// missing nor absent, nor the reason for a refusal; an attribute no
// document writes is still missing, and a file name is no attribute.
func TestAttributeFoundByItsParts(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"classes.md": "# Classes\n\n## class frobsql.Cursor\n\nA cursor runs statements on a connection.\n\n### rowcount\n\n" +
			"This read-only attribute contains the number of rows that the last execute() produced, or -1 if no execute() has been run " +
			"or the row count cannot be determined.\n\n### arraysize\n\nThe number of rows fetchmany() returns by default.",
		"connection.md": "# Connection\n\nA connection holds the notifies list of the notifications the server sent, and settings read from frobsql.toml.",
	}
	tt, s := corpusTenant(t, "attribute56", "english", docs)
	ctx := context.Background()
	for _, tc := range []struct {
		question string
		missing  []string
	}{
		{"Why does cursor.rowcount come back as -1 after running my statement?", nil},
		{"Is it safe to read connection.notifies from two threads?", nil},
		{"Does frobsql support cursor.fetchframes for streaming?", []string{"cursor.fetchframes"}},
		{"Where does frobsql read its settings.toml from?", []string{"settings.toml"}},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3})
		if err != nil {
			t.Fatalf("%q: %v", tc.question, err)
		}
		if !slices.Equal(resp.MissingTerms, tc.missing) {
			t.Errorf("%q: missing %q, want %q", tc.question, resp.MissingTerms, tc.missing)
		}
		if tc.missing == nil && (strings.Contains(resp.ConfidenceReason, "rowcount") || strings.Contains(resp.ConfidenceReason, "notifies")) {
			t.Errorf("%q: reason %q names the attribute the documents write", tc.question, resp.ConfidenceReason)
		}
	}
	resp, err := s.Search(ctx, tt, search.Request{Query: "What does cursor.rowcount contain?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Signals.AbsentShare > 0 {
		t.Errorf("cursor.rowcount: absent share %.3f, want 0 (every part is written)", resp.Signals.AbsentShare)
	}
}
