package analyze

import (
	"slices"
	"testing"
)

func TestInflectedForms(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []Alternate
	}{
		{"How do I define a short alias for a URL?", []Alternate{{"alias", "aliases"}}},
		{"Aliases: where are they kept?", []Alternate{{"Aliases", "alias"}}},
		{"Does the analysis need parentheses?", []Alternate{{"analysis", "analyses"}, {"parentheses", "parenthesis"}}},
		// basis and axis would bring the common base and axe; this is no noun.
		{"Is this computed on a per-table basis along each axis?", nil},
		{"What does the planner do with cases and files?", nil},
		{"alias ALIAS", []Alternate{{"alias", "aliases"}}},
		// A name: Hypothesis the library has no plural.
		{"How do I make Hypothesis try more examples?", nil},
	} {
		if got := InflectedForms(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("InflectedForms(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestAlternatesUnderEnglishOnly(t *testing.T) {
	q := "How do I set an e-mail alias?"
	if got, want := Alternates(q, "english"), []Alternate{{"e-mail", "email"}, {"alias", "aliases"}}; !slices.Equal(got, want) {
		t.Errorf("english: %q, want %q", got, want)
	}
	if got, want := Alternates(q, "simple"), []Alternate{{"e-mail", "email"}}; !slices.Equal(got, want) {
		t.Errorf("simple: %q, want %q", got, want)
	}
}
