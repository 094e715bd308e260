package search

import "testing"

// TestCalendarWordsAreNoNames: a month's or a day's name is capitalised by
// convention, not as a name: "like 15-17 January 2016" in a question about
// formatting a range of dates was refused because the best passages do
// not mention January. A product's name in the same place stays one.
func TestCalendarWordsAreNoNames(t *testing.T) {
	t.Parallel()
	for w, want := range map[string]bool{"January": false, "Friday": false, "Redis": true, "Kubernetes": true, "MARCH": true} {
		if got := NameLike(w, false); got != want {
			t.Errorf("NameLike(%q) = %v, want %v", w, got, want)
		}
	}
}
