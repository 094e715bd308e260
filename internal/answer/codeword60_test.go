package answer

import (
	"slices"
	"testing"
)

// TestStopWordWrittenAsCodeIsATerm: a stop word written as a call or as an
// attribute ("region.get()", "get()") is a name and a term of the
// question; the same word in prose, or inside an identifier joined with
// underscores, is not.
func TestStopWordWrittenAsCodeIsATerm(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"Does region.get() return None for a missing key?", true},
		{"What does get() return?", true},
		{"Use cache.get to read it.", true},
		{"How do I get the value?", false},
		{"What does get_or_create do?", false},
		{"Get it. Then go.", false},
	} {
		if got := slices.Contains(terms(c.s), "get"); got != c.want {
			t.Errorf("terms(%q) = %q: holds get %v, want %v", c.s, terms(c.s), got, c.want)
		}
	}
}
