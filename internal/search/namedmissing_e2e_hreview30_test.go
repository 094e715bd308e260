package search_test

import (
	"context"
	"testing"

	"github.com/ragd-dev/ragd/internal/search"
)

// TestHR30AskersOwnFunctionIsNotCapped: the asker's own function, named by
// its kind ("I wrote a send_invoice function"), is no name the documents
// could write; the question (why .delay() does not run a task) is what
// the task pages answer. namedMissing caps it at 0.1 (refused) because
// askersOwn does not see "I wrote a" as the asker's. Correct: not capped,
// as for "my send_invoice function".
func TestHR30AskersOwnFunctionIsNotCapped(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"tasks.md": "# Tasks\n\nA task is a function decorated with @shared_task. Calling a task with delay() sends a message to the broker; " +
			"a worker must be running and consuming the queue, or the task never runs.",
	}
	tt, s := corpusTenant(t, "hr30ownfunc", "english", docs)
	ctx := context.Background()
	mine := "Why does calling delay() on my send_invoice function decorated with @shared_task never run the task?"
	wrote := "I wrote a send_invoice function decorated with @shared_task; why does calling delay() never run the task?"
	rm, err := s.Search(ctx, tt, search.Request{Query: mine, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	rw, err := s.Search(ctx, tt, search.Request{Query: wrote, TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rw.Signals.Capped && !rm.Signals.Capped {
		t.Errorf("%q: capped (confidence %.2f), while %q is not (%.2f): the asker's own function is no missing setting", wrote, rw.Confidence, mine, rm.Confidence)
	}
}

// TestHR30RFCWithCurlyApostropheFound: as "RFC 5322 validation" over pages
// writing rfc5322, "RFC 5322’s" (curly apostrophe) should not report RFC
// missing; joinedNumber reads the apostrophe's first byte as the letter
// 'â' and gives no joined form.
func TestHR30RFCWithCurlyApostropheFound(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"formats.md": "# Formats\n\nThe email format only provides a sanity check, not full rfc5322 validation. " +
			"Dates are checked as rfc3339 full-date strings.",
	}
	tt, s := corpusTenant(t, "hr30joined", "english", docs)
	for _, q := range []string{
		"Does the email format check RFC 5322’s full grammar?",
		"Which RFC does the email format follow, RFC 5322?",
	} {
		resp, err := s.Search(context.Background(), tt, search.Request{Query: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range resp.MissingTerms {
			if m == "RFC" {
				t.Errorf("%q over pages writing rfc5322: missing terms %q, want no RFC", q, resp.MissingTerms)
			}
		}
	}
}
