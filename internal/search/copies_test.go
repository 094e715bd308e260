package search

import (
	"strings"
	"testing"

	"github.com/google/uuid"
)

// TestArrangeDiscountsCopies: a section that several pages include (Git's
// "Combined diff format", in six manual pages) fills the results with one
// text no more: its first copy keeps its place, the later copies fall
// below what else matches about as well, and each copy stays among the
// results. A text repeated within one document, or too short to say
// much, is not discounted.
func TestArrangeDiscountsCopies(t *testing.T) {
	t.Parallel()
	d := make([]uuid.UUID, 8)
	for i := range d {
		d[i] = uuid.New()
	}
	shared := strings.Repeat("For a merge commit, the combined diff format lists each parent's changes in a column of its own. ", 4)
	results := []Result{
		{ChunkID: d[0], DocumentID: d[1], Content: shared, Score: 1.00},
		{ChunkID: d[2], DocumentID: d[3], Content: "  " + strings.ReplaceAll(shared, " ", "\n"), Score: 0.99},
		{ChunkID: d[4], DocumentID: d[5], Content: shared, Score: 0.98},
		{ChunkID: d[6], DocumentID: d[7], Content: "Interactive mode lets you squash commits into one: pick the first and mark the others squash.", Score: 0.90},
	}
	got := Arrange("How do I combine my last commits into one?", results, 3)
	var order []int
	for _, r := range got {
		for i, id := range d {
			if r.ChunkID == id {
				order = append(order, i)
			}
		}
	}
	if want := []int{0, 6, 2, 4}; len(order) != len(want) || order[0] != 0 || order[1] != 6 || order[2] != 2 || order[3] != 4 {
		t.Errorf("order %v, want %v (first copy, the other page, then the copies)", order, want)
	}

	// The same text twice in one document, or a short line many pages
	// share, keeps its order.
	same := []Result{
		{ChunkID: d[0], DocumentID: d[1], Content: shared, Score: 1.0},
		{ChunkID: d[2], DocumentID: d[1], Content: shared, Score: 0.99},
		{ChunkID: d[4], DocumentID: d[5], Content: "Part of the git(1) suite", Score: 0.98},
		{ChunkID: d[6], DocumentID: d[7], Content: "Part of the git(1) suite", Score: 0.97},
		{ChunkID: d[3], DocumentID: d[7], Content: "Something else entirely, about rebasing.", Score: 0.5},
	}
	got = Arrange("What is the combined diff format?", same, 3)
	for i, want := range []int{0, 2, 4, 6, 3} {
		if got[i].ChunkID != d[want] {
			t.Fatalf("result %d is %v, want chunk %d unmoved", i, got[i].ChunkID, want)
		}
	}
}
