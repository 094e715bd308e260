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
		{"How do I define a short alias for a URL?", []Alternate{{"alias", "aliases", true}}},
		{"Aliases: where are they kept?", []Alternate{{"Aliases", "alias", true}}},
		{"Does the analysis need parentheses?", []Alternate{{"analysis", "analyses", true}, {"parentheses", "parenthesis", true}}},
		// basis and axis would bring the common base and axe; this is no noun.
		{"Is this computed on a per-table basis along each axis?", nil},
		{"What does the planner do with cases and files?", nil},
		{"alias ALIAS", []Alternate{{"alias", "aliases", true}}},
		// A name: Hypothesis the library has no plural.
		{"How do I make Hypothesis try more examples?", nil},
	} {
		if got := InflectedForms(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("InflectedForms(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestAlternatesUnderEnglishOnly(t *testing.T) {
	q := "How do I set an e-mail alias?"
	if got, want := Alternates(q, "english"), []Alternate{{"e-mail", "email", false}, {"alias", "aliases", true}}; !slices.Equal(got, want) {
		t.Errorf("english: %v, want %v", got, want)
	}
	if got, want := Alternates(q, "simple"), []Alternate{{"e-mail", "email", false}}; !slices.Equal(got, want) {
		t.Errorf("simple: %v, want %v", got, want)
	}
}

func TestAlternatesOfSignedNumbers(t *testing.T) {
	got := Alternates("Does it handle numbers like 4.2E-34 or (-1e5)?", "simple")
	want := []Alternate{{"4.2E-34", "+4.2E-34 -4.2E-34", false}, {"-1e5", "1e5 +1e5", false}}
	if !slices.Contains(got, want[0]) || !slices.Contains(got, want[1]) {
		t.Errorf("Alternates = %v, want %v", got, want)
	}
}

// TestAbbreviationForms: a shortened word gets its full form and a full
// word its shortened one; a shortening inside another word ("lib" of
// "html5lib") or a capitalised name after the first word gets none, nor
// does a shortening with two readings ("doc").
func TestAbbreviationForms(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []Alternate
	}{
		{"What is the max rows for an xls export?", []Alternate{{"max", "maximum", true}}},
		{"Config in a repo", []Alternate{{"Config", "configuration", true}, {"repo", "repository", true}}},
		{"What is the maximum number of connections?", []Alternate{{"maximum", "max", true}, {"connections", "conns", true}}},
		{"Does html5lib ship a sanitizer?", nil},
		{"Which doc covers the Max setting?", nil},
	} {
		if got := AbbreviationForms(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("AbbreviationForms(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
