package search

import (
	"slices"
	"testing"
)

// TestLanguageNamesFoundByTheirCode (h-trial38): internationalisation
// documents write a language as its locale code, and "How do I create a
// new French translation catalog?" was refused as "no document mentions
// “French”" over Babel's documentation, which writes Locale('fr'). A
// language's name is probed with its code; the name counts as found when
// the code is, and stays missing (reported by its name) when neither is.
func TestLanguageNamesFoundByTheirCode(t *testing.T) {
	probes := namesOf("How do I create a new French translation catalog?").probes
	if !slices.ContainsFunc(probes, func(p probe) bool { return p.word == "fr" && p.of == "French" }) {
		t.Fatalf("probes %+v; want French's code probed for it", probes)
	}
	if got := found(probes, []string{"French"}); len(got) != 0 {
		t.Errorf("code written, name not: missing %q, want none", got)
	}
	if got := codedLanguages(probes, []string{"French"}); !slices.Equal(got, []string{"French"}) {
		t.Errorf("coded %q, want French", got)
	}
	if got := found(probes, []string{"French", "fr"}); !slices.Equal(got, []string{"French"}) {
		t.Errorf("neither written: missing %q, want French (not its code)", got)
	}
	if got := codedLanguages(probes, []string{"French", "fr"}); len(got) != 0 {
		t.Errorf("neither written: coded %q", got)
	}
	// A name that is no language has no code probed.
	if slices.ContainsFunc(namesOf("How do I deploy on Heroku?").probes, func(p probe) bool { return p.of != "" }) {
		t.Error("Heroku got a helper probe")
	}
}
