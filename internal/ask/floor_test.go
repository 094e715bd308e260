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

// TestDropWeakBarIgnoresOneHub: one result whose words match everything (a
// change log's entry, a download page naming every format) does not set
// the bar: the page that answers, at two thirds of its BM25 score and the
// best coverage but one, stays a source (h-trial41's "What does the
// noclasses option of HtmlFormatter do?" lost its only relevant source to
// the change log's entry). Weak results are still dropped.
func TestDropWeakBarIgnoresOneHub(t *testing.T) {
	t.Parallel()
	q := "What does the noclasses option of HtmlFormatter do?"
	rs := []search.Result{
		{Content: "Changes: fixed the HtmlFormatter's handling of noclasses, an option that does what it says.", KeywordScore: ptr(9.2)},
		{Content: "The API lists HtmlFormatter among the formatters.", VectorRank: ptr(1)},
		{Content: "noclasses: If set to true, tags will not use CSS classes, but inline styles.", KeywordScore: ptr(6.2)},
		{Content: "Unrelated text about lexers.", KeywordScore: ptr(1.0)},
	}
	got := ask.DropWeak(q, rs)
	kept := map[string]bool{}
	for _, r := range got {
		kept[r.Content] = true
	}
	if !kept[rs[2].Content] {
		t.Errorf("the option's entry was dropped: kept %d of %d", len(got), len(rs))
	}
	if kept[rs[3].Content] {
		t.Error("a result weak on every leg was kept")
	}
}
