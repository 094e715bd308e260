package extract

import (
	"encoding/json"
	"os"
	"testing"
)

// TestHReview47SluggerFixtures: headingSlug gives what github-slugger 2.0.0
// gives on its own test fixtures (testdata/github-slugger-fixtures.json,
// copied from that ISC-licensed project's test/fixtures.json; the inputs
// go to one slugger in order, as the fixtures are written), so that a
// citation into a Markdown document links where GitHub puts the heading.
// The fixture of unassigned code points is left out: Go's Unicode tables
// are newer than the fixtures', and assign some of them.
func TestHReview47SluggerFixtures(t *testing.T) {
	raw, err := os.ReadFile("testdata/github-slugger-fixtures.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx []struct{ Name, Input, Expected string }
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	if len(fx) < 70 {
		t.Fatalf("%d fixtures read", len(fx))
	}
	w := &mdWalker{}
	for _, f := range fx {
		if f.Name == "Unassigned" {
			w.headingSlug(f.Input) // its slug still counts for the ones after it
			continue
		}
		if got := w.headingSlug(f.Input); got != f.Expected {
			t.Errorf("%s: headingSlug(%q) = %q, want %q", f.Name, f.Input, got, f.Expected)
		}
	}
}

// TestHReview47SlugCharacters: other numbers (², ½) are dropped, circled
// letters kept, a final capital sigma lower-cased as "ς", as github-slugger
// does in JavaScript.
func TestHReview47SlugCharacters(t *testing.T) {
	for _, c := range [][2]string{
		{"x² scaling", "x-scaling"},
		{"½ cup", "-cup"},
		{"ΟΔΗΓΟΣ ΧΡΗΣΗΣ", "οδηγος-χρησης"},
		{"Ⓐ circled", "ⓐ-circled"},
	} {
		w := &mdWalker{}
		if got := w.headingSlug(c[0]); got != c[1] {
			t.Errorf("headingSlug(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}
