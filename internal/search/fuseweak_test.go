package search

import (
	"testing"

	"github.com/google/uuid"
)

// TestFuseConvexDocumentEvidenceWeakMatchesDoNotAmplify: the square root
// over a page's other chunks was brought in so that "a very long page's
// many weak matches no longer outrank the page that answers" (505fc08).
// It does so only for sums above 1: below 1, √x > x, and the weaker the
// matches, the more the root multiplies them. Forty chunks of a long page
// each at a hundredth of the best BM25 score (a rare word mentioned once in
// passing) sum to 0.4 and count as √0.4 = 0.63: the long page's chunk at
// 0.9 gets (0.9 + 0.2·0.63)/1.2 = 0.855 and outranks the answer's 1/1.2 =
// 0.833, which it did not before the change ((0.9 + 0.2·0.4)/1.2 = 0.817).
func TestFuseConvexDocumentEvidenceWeakMatchesDoNotAmplify(t *testing.T) {
	answer, long := uuid.New(), uuid.New()
	keyword := []Scored{{ID: uuid.New(), Doc: answer, Value: 10}, {ID: uuid.New(), Doc: long, Value: 9}}
	for range 40 {
		keyword = append(keyword, Scored{ID: uuid.New(), Doc: long, Value: 0.1})
	}
	got := FuseConvex(0, 1, 0.2, nil, keyword)
	if got[0].ID != keyword[0].ID {
		t.Fatalf("the long page's chunk (score %.3f) leads the answer through forty near-zero matches", got[0].Score)
	}
}
