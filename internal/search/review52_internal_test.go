package search

import (
	"testing"

	"github.com/google/uuid"
)

// TestStrayNameWithAReleaseNumber: a product written with its major
// release glued on ("Jinja2") is a name as "Jinja" is: a question about
// Jinja2's filters over Mako's documentation, which name Jinja2 only in
// a benchmark's template, is about another product.
func TestStrayNameWithAReleaseNumber(t *testing.T) {
	const q = "How do I register a custom filter in a Jinja2 Environment's filters dictionary?"
	results := []Result{{ChunkID: uuid.New(), Title: "Filtering", HeadingPath: "Filtering and Buffering > Expression Filtering",
		Content: "The default filters are applied to every expression; a custom filter is any callable given to the filter list."}}
	legs := strayLegs(q, map[string]float64{"regist": 1.1, "custom": 0.9, "filter": 0.3, "jinja2": 3.4, "environ": 1.5, "dictionari": 1.2})
	if got := strayName(legs, results, nil); got != "Jinja2" {
		t.Errorf("strayName = %q, want \"Jinja2\"", got)
	}
	for _, c := range []struct {
		w    string
		want bool
	}{{"Jinja2", true}, {"Python3", true}, {"Jinja", true}, {"Vue3", false}, {"HTTP2", false}, {"S3", false}, {"utf8", false}} {
		if got := productName(c.w); got != c.want {
			t.Errorf("productName(%q) = %v, want %v", c.w, got, c.want)
		}
	}
}

// TestAskingWhatSomethingMeansIsWording: "mean", "meant", "define" and
// "happens" phrase the question ("What does frobnication mean?"); "the
// mean" is a subject.
func TestAskingWhatSomethingMeansIsWording(t *testing.T) {
	for _, c := range []struct {
		q      string
		lexeme string
		want   bool
	}{
		{"What does frobnication mean?", "mean", true},
		{"What is meant by frobnication?", "meant", true},
		{"Define frobnication.", "defin", true},
		{"What happens if I exceed the rate limit?", "happen", true},
		{"How do I compute the mean of a column?", "mean", false},
	} {
		if got := requestWording(c.q)[c.lexeme]; got != c.want {
			t.Errorf("requestWording(%q)[%q] = %v, want %v", c.q, c.lexeme, got, c.want)
		}
	}
}
