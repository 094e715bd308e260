package answer

import (
	"slices"
	"testing"
)

// byMeans counts "<verb> by <word>ing" as telling the reader what to do
// (instructs), but it reads neither negation nor whether the "-ing" word
// is a gerund: a warning against a remedy ("Do not fix this by deleting
// the journal file", "This cannot be fixed by restarting the server")
// earns a how-question's instruction credit as the remedy itself would,
// and so do sentences whose "-ing" word is a noun ("Comparison is by
// string value", "Dependency injection is done by Spring"), none of
// which tells the reader what to do. (An imperative is counted only when
// it opens the sentence or its main clause: "Do not run …" never was.)
func TestHR43MeansClauseFalsePositives(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"Do not fix this by deleting the journal file.",
		"You should never fix it by editing the zone file while named is running.",
		"This cannot be fixed by restarting the server.",
		"Comparison is by string value, not by identity.",
		"Dependency injection is done by Spring when the application context starts.",
	} {
		if instructs(s) {
			t.Errorf("instructs(%q) = true; it tells the reader nothing to do", s)
		}
	}
}

// "ie" joined "e.g" among the abbreviations that end no sentence, but the
// lookup is case-blind: "IE" (Internet Explorer), which web documentation
// names at the end of many a sentence, now never ends one, and the next
// sentence is glued to it.
func TestHR43InternetExplorerEndsASentence(t *testing.T) {
	t.Parallel()
	got := splitUnit("CSS grid layout is not supported in IE. Use flexbox as a fallback for older browsers.")
	want := []string{"CSS grid layout is not supported in IE.", "Use flexbox as a fallback for older browsers."}
	if !slices.Equal(got, want) {
		t.Errorf("splitUnit = %q, want %q", got, want)
	}
}
