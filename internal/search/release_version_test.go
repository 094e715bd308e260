package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// A release the documents write with the word "version" between its name
// and number ("For Vim version 9.0", every Vim help file's header) is the
// release a question names as "Vim 9.0" or "Vim 9": such questions were
// refused as about a release no document mentions. A release the
// documents do not write (Vim 10.0) is still missing.
func TestReleaseWrittenWithTheWordVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tt, s := corpusTenant(t, "relversion", "english", map[string]string{
		"terminal.txt": "For Vim version 9.0. Last change: 2022.\n\nTerminal window support. The :terminal command opens a new window " +
			"with a terminal emulator running a shell. Type CTRL-W N to go to Normal mode in the terminal window.",
		"fold.txt": "For Vim version 9.0. Last change: 2022.\n\nFolding. Use zR to open all folds and zM to close all folds in the buffer. " +
			"Since Vim 8.2 folds are kept in views.",
	})
	for _, q := range []string{"How do I open a terminal window in Vim 9.0?", "How do I open a terminal window in Vim 9?"} {
		resp, err := s.Search(ctx, tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.MissingTerms) > 0 || q[len(q)-2] == '0' && resp.Confidence < 0.33 {
			t.Errorf("%q: missing %q, confidence %.3f (%s); the documents write “Vim version 9.0”", q, resp.MissingTerms, resp.Confidence, resp.ConfidenceReason)
		}
	}
	resp, err := s.Search(ctx, tt, search.Request{Query: "How do I open a terminal window in Vim 10.0?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(resp.MissingTerms, "Vim 10.0") {
		t.Errorf("Vim 10.0: missing %q, confidence %.3f; no document writes it", resp.MissingTerms, resp.Confidence)
	}
}
