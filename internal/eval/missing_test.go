package eval_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/eval"
)

// A run names the relevant source_uris of its set that the tenant no longer
// has (a labelled document deleted since the set was loaded): their
// questions count as misses, and the report says why instead of only
// scoring lower.
func TestRunNamesDeletedRelevantDocuments(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	qs := []eval.Question{
		{Question: "What does VACUUM reclaim?", Relevant: []string{"doc://vacuum"}},
		{Question: "How does write-ahead logging protect data?", Relevant: []string{"doc://wal"}},
	}
	if _, err := b.svc.LoadSet(ctx, b.t, "labels", qs, eval.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	rep, err := b.svc.Run(ctx, b.t, eval.RunOptions{Set: "labels", DryRun: true})
	if err != nil || len(rep.Missing) != 0 {
		t.Fatalf("run with every labelled document present: missing %q, %v", rep.Missing, err)
	}
	if _, err := b.pipe.DeleteBySourceURI(ctx, b.t, "doc://wal"); err != nil {
		t.Fatal(err)
	}
	rep, err = b.svc.Run(ctx, b.t, eval.RunOptions{Set: "labels", DryRun: true})
	if err != nil || !slices.Equal(rep.Missing, []string{"doc://wal"}) {
		t.Fatalf("run after deleting doc://wal: missing %q, %v", rep.Missing, err)
	}
}
