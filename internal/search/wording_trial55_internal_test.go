package search

import "testing"

// TestWhereFromIsPhrasing: "come" and "find" in "Where do its choices come
// from?" and "Where can I find …" phrase the question (django-filter's
// AllValuesFilter question was refused: "no document mentions “come”"); a
// find after a determiner is the subject ("the find command").
func TestWhereFromIsPhrasing(t *testing.T) {
	if w := requestWording("What does AllValuesFilter do, and where do its choices come from?"); !w["come"] {
		t.Errorf("requestWording = %v, want come", w)
	}
	if w := requestWording("Where can I find the log files?"); !w["find"] {
		t.Errorf("requestWording = %v, want find", w)
	}
	if w := requestWording("How does the find command match names?"); w["find"] {
		t.Errorf("requestWording = %v, want find left as the subject", w)
	}
}
