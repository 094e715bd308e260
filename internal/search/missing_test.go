package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestMissingIdentifiersAreMatchedLiterally: an identifier with
// underscores is missing unless a chunk contains it word for word, so one
// whose joined form another identifier shares (pg_stat_io, pg_statio_) is
// named missing; identifiers the documents contain, dotted ones with
// underscores included (pg_hba.conf), are not.
func TestMissingIdentifiersAreMatchedLiterally(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"statio.md": "# I/O statistics\n\nThe pg_statio_user_tables view shows the number of disk blocks read from each table. " +
			"The pg_statio_ views count buffer hits and reads.",
		"auth.md": "# Client authentication\n\nClient authentication is controlled by the file pg_hba.conf in the data directory. " +
			"Each record names a connection type, a database, a user and an authentication method.",
		"python.md": "# Importing\n\nCall importlib.import_module to import a module by its name at run time.",
	}
	tt, s := corpusTenant(t, "identifiers", "english", docs)
	ctx := context.Background()
	for _, tc := range []struct {
		question string
		missing  []string
		ids      int
	}{
		{"Which columns does the pg_stat_io view have?", []string{"pg_stat_io"}, 1},
		{"What does pg_statio_user_tables count?", nil, 0},
		{"Where is pg_hba.conf and what does a record name?", nil, 0},
		{"How do I use importlib.import_module?", nil, 0},
		{"Does PG_STATIO_USER_TABLES count buffer hits?", nil, 0},
		{"How do I tune MongoDB and the frobnix_lever setting?", []string{"MongoDB", "frobnix_lever"}, 1},
	} {
		resp, err := s.Search(ctx, tt, search.Request{Query: tc.question, TopK: 3})
		if err != nil {
			t.Fatalf("%q: %v", tc.question, err)
		}
		if !slices.Equal(resp.MissingTerms, tc.missing) {
			t.Errorf("%q: missing %q, want %q", tc.question, resp.MissingTerms, tc.missing)
		}
		if resp.Signals.MissingIdentifiers != tc.ids {
			t.Errorf("%q: %d missing identifiers, want %d", tc.question, resp.Signals.MissingIdentifiers, tc.ids)
		}
	}
}
