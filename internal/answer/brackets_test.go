package answer

import "testing"

// TestKeepBrackets: subscripts of names shaped like code and groups of
// numbers that cannot be one citation are kept as written, in a code span;
// footnotes and lone markers are still removed from source text.
func TestKeepBrackets(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"It reads sys.argv[1] and quux_scores[1].", "It reads `sys.argv[1]` and `quux_scores[1]`."},
		{"Then grid.rows[2][3] is the cell.", "Then `grid.rows[2][3]` is the cell."},
		{"It lies in [0, 1] and in [1, 10].", "It lies in `[0, 1]` and in `[1, 10]`."},
		{"Paris[1] is the capital.[2] Rome[3][4] too.", "Paris is the capital. Rome too."},
		{"The sky is green [7]. It was founded in 1990.[3]", "The sky is green. It was founded in 1990."},
		{"Already `a[1]` in code.", "Already `a[1]` in code."},
		// A one-letter variable's subscript, or a name glued to a comma
		// or a parenthesis, is code (the Lua manual's "will iterate over
		// the pairs (1,t[1]), (2,t[2]), …", quoted "(1,t), (2,t)" to a
		// fresh user); a footnote follows a word.
		{"It will iterate over the pairs (1,t[1]), (2,t[2]), …", "It will iterate over the pairs (1,`t[1]`), (2,`t[2]`), …"},
		{"Use x[2] for the second element.", "Use `x[2]` for the second element."},
		{"See the list (alpha[3]) and Paris[1].", "See the list (`alpha[3]`) and Paris."},
		{"As shown before (Smith[2]), Vitamin C[1] helps.", "As shown before (Smith), Vitamin C helps."},
	} {
		if got := stripMarkers(tc.in); got != tc.want {
			t.Errorf("stripMarkers(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
