package answer

import (
	"slices"
	"testing"
)

// A PDF manual's page reference "(p. 113)" and an undotted "eg." end no
// sentence: split there, the gnuplot manual's mcsplines entry was quoted
// as "(p [1]. 113)), a curve is …". A lowercase "p." before a word still
// ends one.
func TestSplitUnitKeepsPageReferences(t *testing.T) {
	t.Parallel()
	got := splitUnit(`After the data are made monotonic in x (see smooth unique (p. 113)), a curve is built. Use a terminal, eg. PNG, for files. The value is p. Another sentence.`)
	want := []string{
		"After the data are made monotonic in x (see smooth unique (p. 113)), a curve is built.",
		"Use a terminal, eg. PNG, for files.",
		"The value is p.",
		"Another sentence.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("splitUnit =\n%q\nwant\n%q", got, want)
	}
}
