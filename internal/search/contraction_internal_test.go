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

// TestAskingForYourViewIsOpinion: a question that asks the one answering
// for their own view ("Do you think …", "in your opinion") asks for a
// judgement no document states (a held-out trial on nose2 answered "Do
// you think the such DSL makes tests more readable than plain unittest
// classes?" at 0.54); "you" asking how to do something does not.
func TestAskingForYourViewIsOpinion(t *testing.T) {
	t.Parallel()
	for q, want := range map[string]bool{
		"Do you think the such DSL makes tests more readable than plain unittest classes?": true,
		"In your opinion, is frobpo fast enough for large catalogs?":                       true,
		"Would you recommend the mp plugin for a small suite?":                             true,
		"What's your take on the such DSL?":                                                true,
		"How do you run a single test with nose2?":                                         false,
		"Can you show me how to configure the mp plugin?":                                  false,
		"Do you need a config file to enable plugins?":                                     false,
	} {
		if got := asksOpinion(q); got != want {
			t.Errorf("asksOpinion(%q) = %v, want %v", q, got, want)
		}
	}
}
