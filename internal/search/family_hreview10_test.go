package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// TestHR10AskersColumnOfCommonWordsIsNoStray: the asker's own column named
// with ordinary words (is_read_only, a flag of their table) shares two
// parts with a setting the documents describe (default_transaction_read_only:
// the tail family "read only"), so strayMember capped the confidence at 0.1
// and the question was refused, though the documents answer it (how to add
// a boolean column with a default). TestStrayFamilyMemberIsRefused leaves
// the asker's order_total_amount to the model; the two-part rule does not
// protect columns whose two shared parts are common English words (read
// only, created at, user name). The same question about a column with no
// such neighbour (is_locked_flag) is not capped.
func TestHR10AskersColumnOfCommonWordsIsNoStray(t *testing.T) {
	t.Parallel()
	tt, s := corpusTenant(t, "hr10-family", "english", map[string]string{
		// The manual this stands for also writes of locks and flags: with
		// no page holding them, the parts of the asker's column were three
		// absent terms, and the answerable control question sat at the
		// threshold (0.3399 under the model refitted on 2026-12-06).
		"alter.md": "# ALTER TABLE\n\nTo add a boolean column with a default value to a table, use ALTER TABLE ... ADD COLUMN " +
			"with the column name, the type boolean and a DEFAULT clause. Existing rows get the default value. " +
			"ALTER TABLE takes a lock on the table; a boolean column often holds a flag.",
		"settings.md": "# Client connection defaults\n\nThe default_transaction_read_only setting controls the default read-only " +
			"status of each new transaction. A read-only transaction cannot write to tables.",
	})
	ctx := context.Background()
	capped := map[string]bool{}
	for _, col := range []string{"is_locked_flag", "is_read_only"} {
		q := "How do I add a boolean column " + col + " with a default value to my table?"
		resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		capped[col] = resp.Signals.Capped
		// The column is the asker's own: no missing name, and the
		// question, which the documents answer, is answered.
		if resp.Signals.MissingNames != 0 || resp.Confidence < tenant.DefaultRefuseBelow {
			t.Errorf("%s: %d missing names, confidence %.3f (%q): the asker's own column counted against the question",
				col, resp.Signals.MissingNames, resp.Confidence, resp.ConfidenceReason)
		}
		t.Logf("%s: %.3f %q missing %q capped %v", col, resp.Confidence, resp.ConfidenceReason, resp.MissingTerms, resp.Signals.Capped)
	}
	if capped["is_locked_flag"] {
		t.Fatalf("control question capped: the test needs it left to the model")
	}
	if capped["is_read_only"] {
		t.Errorf("is_read_only capped as a stray member of default_transaction_read_only's family, want it left to the model like is_locked_flag")
	}
}
