package answer

import "testing"

// TestOneLetterWordFootnote_hreview45b: a8730d4 keeps any one-letter
// name's subscript as code, so a footnote after a one-letter word of
// prose (encyclopedia text: "Vitamin C[1]", "Hepatitis B[2]", "World War
// I[3]") is no longer removed: the answer quotes "Vitamin `C[1]` is …",
// a footnote number shown as code, where before it read "Vitamin C is …".
func TestOneLetterWordFootnote_hreview45b(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"Vitamin C[1] is an essential nutrient.", "Vitamin C is an essential nutrient."},
		{"Hepatitis B[2] is spread by blood.", "Hepatitis B is spread by blood."},
		{"It ended after World War I[3].", "It ended after World War I."},
	} {
		if got := stripMarkers(tc.in); got != tc.want {
			t.Errorf("stripMarkers(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
