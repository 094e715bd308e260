package search

import "testing"

// TestContractionsAreWording: the parser makes a contraction's tail ("ve"
// in "I've", "d" in "we'd") and a negation's head ("isn" in "isn't")
// lexemes of their own, which no document need write; before they were
// wording, "How can I reset all the mocks I've created so far…" was
// refused over pytest-mock's pages for "ve" (a held-out trial).
func TestContractionsAreWording(t *testing.T) {
	t.Parallel()
	for q, want := range map[string][]string{
		"How can I reset all the mocks I've created so far?":         {"ve"},
		"Why isn't aiofiles used when we'd asked for it?":            {"isn", "t", "d"},
		"What happens when I’m offline and it doesn’t reconnect?":    {"m", "doesn", "t"},
		"Why won't you'll-style contractions break Click's options?": {"won", "t"},
	} {
		got := requestWording(q)
		for _, l := range want {
			if !got[l] {
				t.Errorf("requestWording(%q) = %v, want %q in it", q, got, l)
			}
		}
	}
	if got := requestWording("How do I configure the Click's option?"); got["click"] {
		t.Errorf("a possessive's head is the subject, not wording: %v", got)
	}
}
