package answer

import (
	"slices"
	"strings"
	"testing"
)

// A superscript digit after an ordinary one is an exponent: "[10²]" is the
// number 10 squared (an interval "[10², 10⁴]"), not a citation of source 102.
// digitAt reads superscript digits as digits of the same number, so the
// marker parses as [102, 104]: Verify deletes the interval from an LLM answer
// as an invalid citation, and stripMarkers deletes "[10²]" from quoted
// source text. Before the change both were left as written.
func TestHR21SuperscriptExponentIsNoCitation(t *testing.T) {
	t.Parallel()
	if got := ParseCitations("Values lie in [10², 10⁴] [1]."); !slices.Equal(got, []int{1}) {
		t.Errorf("ParseCitations = %v, want [1]: [10², 10⁴] is an interval of powers of ten", got)
	}
	text := "The learning rate is searched in [10², 10⁴] [1]."
	if clean, _, invalid := Verify(text, threeSources()); clean != text || len(invalid) != 0 {
		t.Errorf("Verify(%q) = %q, invalid %v; want the interval kept", text, clean, invalid)
	}
	if got := stripMarkers("The buffer holds up to [2¹⁶] entries."); !strings.Contains(got, "2¹⁶") {
		t.Errorf("stripMarkers dropped the exponent: %q", got)
	}
}

// Superscript parentheses around a digit are the notation of a derivative
// or a layer/sample index in mathematics and machine learning (f⁽⁵⁾, a⁽¹⁾,
// x⁽²⁾). Read as citation markers, they are cut out of quoted sources ("the
// activation a of layer one") and out of LLM answers (an out-of-range
// "f⁽⁵⁾" becomes "f").
func TestHR21SuperscriptParenthesesInMath(t *testing.T) {
	t.Parallel()
	if got := stripMarkers("The activation a⁽¹⁾ of the first layer feeds a⁽²⁾."); !strings.Contains(got, "a⁽¹⁾") || !strings.Contains(got, "a⁽²⁾") {
		t.Errorf("stripMarkers removed the layer indices: %q", got)
	}
	text := "The fifth derivative f⁽⁵⁾ vanishes [1]."
	if clean, _, invalid := Verify(text, threeSources()); clean != text {
		t.Errorf("Verify(%q) = %q (invalid %v); the derivative's order is no citation", text, clean, invalid)
	}
}

// A recorded code range is quoted through stripCodeMarkers, whose pattern
// (codeMarker) still knows only "[n]" and "［n］": the lookalikes this change
// makes markers ("【7】", "⁽⁷⁾", "[Source: 7]", "[7" + LRM + "]") planted in a
// <pre> are quoted verbatim in the extractive answer, while the same "[7]"
// is removed. The answer then shows a citation of a source that does not
// exist, which the change means to prevent ("stripped from quoted sources").
func TestHR21CodeSpanKeepsLookalikeMarker(t *testing.T) {
	t.Parallel()
	intro := "Start the server with four workers and watch its start-up lines:"
	for _, m := range []string{"[7]", "【7】", "⁽⁷⁾", "[Source: 7]", "[7\u200e]"} {
		code := "$ quokkad --http 127.0.0.1:8000 --workers 4\nspawned quokkad worker 1 (pid: x). " + m + "\nspawned quokkad worker 2 (pid: x)"
		content := intro + "\n\n" + code + "\n\nThe workers option starts worker processes."
		spans := []Span{{Start: len(intro) + 2, End: len(intro) + 2 + len(code)}}
		r := Extractive("How do I start quokkad with four workers?", []Source{{N: 1, HeadingPath: "Deploying > quokkad", Content: content, Code: spans}}, 3)
		if !strings.Contains(r.Answer, "spawned quokkad worker 1") {
			t.Fatalf("%s: the code is not quoted (test setup): %q", m, r.Answer)
		}
		if strings.Contains(r.Answer, m) {
			t.Errorf("%s: planted marker quoted from the code:\n%s", m, r.Answer)
		}
	}
}

// shortOption's doc: a one-letter option after "a quote" and "not followed
// by another letter". Typographic quotes are quotes, but the preceding byte
// is compared with an ASCII list and the following byte is converted to a
// rune (rune(0xE2) is 'â', a letter): "‘-v’" and "“-h”" give no term, so
// the question loses exactly the word the change adds.
func TestHR21ShortOptionInTypographicQuotes(t *testing.T) {
	t.Parallel()
	for _, q := range []string{"What does ‘-v’ do?", "What does “-h” print?", "Is -h—the short form—supported?"} {
		if got := terms(q); !slices.ContainsFunc(got, func(s string) bool { return s == "-v" || s == "-h" }) {
			t.Errorf("terms(%q) = %q, want the option among them", q, got)
		}
	}
}
