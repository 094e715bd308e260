package ask_test

import (
	"testing"

	"github.com/ragd-dev/ragd/internal/ask"
	"github.com/ragd-dev/ragd/internal/search"
)

func ptr[T any](v T) *T { return &v }

func TestDropWeakKeepsStrongEvidenceAndTheFirst(t *testing.T) {
	t.Parallel()
	q := "How do I rebuild a corrupted index?"
	rs := []search.Result{
		{Content: "Nothing relevant here.", KeywordScore: ptr(1.0)}, // weak, but first
		{Content: "REINDEX rebuilds a corrupted index.", KeywordScore: ptr(9.0)},
		{Content: "An index is a structure.", KeywordScore: ptr(8.0)},              // keyword score near the best
		{Content: "Unrelated text about tables.", VectorRank: ptr(2)},              // vector leg's top
		{Content: "Unrelated text about tables.", KeywordScore: ptr(2.0)},          // weak on every leg
		{Content: "Unrelated text.", VectorRank: ptr(9), VectorDistance: ptr(0.5)}, // weak
	}
	got := ask.DropWeak(q, rs)
	if len(got) != 4 || got[0].Content != rs[0].Content || got[1].Content != rs[1].Content ||
		got[2].Content != rs[2].Content || got[3].VectorRank == nil {
		t.Errorf("DropWeak kept %+v", got)
	}
	if got := ask.DropWeak(q, rs[:1]); len(got) != 1 {
		t.Errorf("a single result must be kept, got %d", len(got))
	}
}
