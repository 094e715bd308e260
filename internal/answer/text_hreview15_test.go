package answer

import (
	"slices"
	"testing"
)

// TestKeepBracketsAfterAParenthesis_hreview15: keepBrackets walks back
// from a marker over nameByte, which takes ')' but not '(', so a marker
// after a closing parenthesis opens its code span inside the
// parenthesis: a footnote after a parenthetical ("(the capital)[3]") is
// kept as "(the `capital)[3]`", a half-parenthesis in code, instead of
// being removed; a subscript of a call's result ("f(x)[1]"), which the
// comment counts as code ("a parenthesis in the name"), is quoted
// "f(`x)[1]`", another expression than the source's.
//
// Expected: the footnote removed ("Canberra (the capital) lies
// inland."), the call's subscript in one span ("`f(x)[1]`").
func TestKeepBracketsAfterAParenthesis_hreview15(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Canberra (the capital)[3] lies inland.", "Canberra (the capital) lies inland."},
		{"Then f(x)[1] is the first element.", "Then `f(x)[1]` is the first element."},
	} {
		if got := stripMarkers(tc.in); got != tc.want {
			t.Errorf("stripMarkers(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSplitUnitAtUppercaseAcronyms_hreview15: "ca", "sec", "vol", "pp"
// and "ch" were added to the abbreviations, and endsAbbreviation compares
// lowercased, so a sentence ending with the acronyms CA (certificate
// authority) or SEC, or with the unit "sec", no longer ends: "… signed by
// the CA. The client checks …" is one unit, quoted whole (and a
// sentence holding no question term rides along with the one that does,
// which the passage rules exist to prevent).
//
// Expected: two sentences each, as before the abbreviations were added.
func TestSplitUnitAtUppercaseAcronyms_hreview15(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Each server certificate is signed by the CA. The client checks the signature.",
			[]string{"Each server certificate is signed by the CA.", "The client checks the signature."}},
		{"The annual report was filed with the SEC. It lists the risks.",
			[]string{"The annual report was filed with the SEC.", "It lists the risks."}},
		{"The default timeout is 30 sec. Larger values delay failover.",
			[]string{"The default timeout is 30 sec.", "Larger values delay failover."}},
	} {
		if got := splitUnit(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("splitUnit(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
