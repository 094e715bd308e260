package analyze

import "testing"

// TestOperatorTerms: operators become words of their own; rules, option
// dashes, URLs and punctuation do not.
func TestOperatorTerms(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"What does the @> operator do?":                  "opag0",
		"jsonb @> jsonb → boolean":                       "opag0",
		`{{ "Hello " ~ name ~ "!" }}`:                    "opt0 opt0",
		"what does the ~ operator do":                    "opt0",
		"select x::int, a ->> 'b'":                       "opkk0 opdgg0",
		"'Post' || 'greSQL'":                             "opvv0",
		"run --help or -h; see https://x.org/a-b":        "",
		"Title\n=====\n\n---\n\na | b | c":               "",
		"Is 3 < 4 and R&D, 50%?":                         "",
		">>> f(1)\n~~~\n::: note\n<!-- x -->\n#!/bin/sh": "",
	} {
		if got := OperatorTerms(text); got != want {
			t.Errorf("OperatorTerms(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestIsOperatorWord(t *testing.T) {
	t.Parallel()
	for w, want := range map[string]bool{OperatorWord("@>"): true, OperatorWord("~"): true, "op0": false, "opzz0": false, "option": false, "opag": false} {
		if IsOperatorWord(w) != want {
			t.Errorf("IsOperatorWord(%q) = %v, want %v", w, !want, want)
		}
	}
}

// TestOperatorCharsSpellEveryOperator: the quick check OperatorTerms makes
// first names exactly the characters it spells.
func TestOperatorCharsSpellEveryOperator(t *testing.T) {
	t.Parallel()
	if len([]rune(operatorChars)) != len(operatorLetters) {
		t.Fatalf("operatorChars has %d characters, operatorLetters %d", len([]rune(operatorChars)), len(operatorLetters))
	}
	for _, r := range operatorChars {
		if operatorLetters[r] == 0 {
			t.Errorf("%q is in operatorChars but has no letter", r)
		}
	}
}
