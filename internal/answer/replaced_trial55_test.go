package answer

import (
	"slices"
	"strings"
	"testing"
)

// TestReplacedPhraseIsNoEvidence: a question naming what it wants instead
// ("… instead of %(name)s?") is answered by the passage on what it wants,
// not by the one on what it names to replace (configobj's interpolation
// styles, a held-out trial: the %(name)s sentence was quoted).
func TestReplacedPhraseIsNoEvidence(t *testing.T) {
	content := "ConfigObj supports two styles of string interpolation. The default is ConfigParser-style. " +
		"At some undetermined point in the future, that default may change to Template-style interpolation. " +
		"For ConfigParser-style interpolation, you specify a value to be substituted by including %(name)s in the value. " +
		"For Template-style interpolation, you specify a value to be substituted by including ${name} in the value. " +
		"Alternately, if the name is a valid Python identifier, you can use $name.\n\n" +
		"Interpolation checks first the current section and then the DEFAULT section."
	r := Extractive("What is the syntax for substituting another value using Template-style interpolation instead of %(name)s?",
		[]Source{{N: 1, Content: content, HeadingPath: "Reading and Writing Config Files > String Interpolation"}}, 3)
	if r.Refused || !strings.Contains(r.Answer, "${name}") {
		t.Errorf("answer %q; want the Template-style sentence with ${name}", r.Answer)
	}
}

func TestReplaced(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"How do I log to stdout instead of stderr?", []string{"stderr"}},
		{"How do I keep patches in another folder rather than the default folder, and where?", []string{"default"}},
		{"How do I keep patches rather than the top of the source tree?", []string{"top"}},
		{"How do I log to stdout instead of the colorful console format?", []string{"colorful", "console", "format"}},
		{"How do I keep my prompt rather than having it replaced?", nil},
		{"How do I list files other than hidden ones?", []string{"hidden", "one"}},
		{"How do I list files?", nil},
	} {
		got := replaced(tc.q)
		if len(got) != len(tc.want) {
			t.Errorf("%q: %v, want %v", tc.q, got, tc.want)
			continue
		}
		for _, w := range tc.want {
			if !got[stem(w)] && !got[w] {
				t.Errorf("%q: %v, want %v", tc.q, got, tc.want)
			}
		}
	}
}

// TestWhyKeepsTheReplacedTerm: asking why one thing happens instead of
// another, the other is part of the answer (drf's 403 and 401).
func TestWhyKeepsTheReplacedTerm(t *testing.T) {
	q := "Why does my unauthenticated request get a 403 Forbidden response instead of a 401 Unauthorized?"
	if got := questionTerms(q, nil); !slices.Contains(got, "401") {
		t.Errorf("questionTerms(%q) = %q, want 401 kept", q, got)
	}
	q = "How do I get a 403 Forbidden response instead of a 401 Unauthorized?"
	if got := questionTerms(q, nil); slices.Contains(got, "401") {
		t.Errorf("questionTerms(%q) = %q, want 401 left out", q, got)
	}
}

// TestWhetherKeepsTheReplacedTerm: asking whether one thing can stand for
// another, the other is part of the answer (configobj's "The equals sign
// is the only valid divider").
func TestWhetherKeepsTheReplacedTerm(t *testing.T) {
	q := "Can I use a colon instead of an equals sign between keys and values?"
	if got := questionTerms(q, nil); !slices.Contains(got, "equal") && !slices.Contains(got, "equals") {
		t.Errorf("questionTerms(%q) = %q, want the equals sign kept", q, got)
	}
}
