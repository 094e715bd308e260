package followup

import (
	"strings"
	"testing"
)

// TestCarryTermsAtMostMaxCarried (review h-review6): CarryTerms promises
// "at most maxCarried" carried words. Since the compound change (40a8bc4) a
// token of several words that is not joined by "/" or "." (a hyphenated
// "write-ahead-log-segment") appends all its content words at once; once
// that jumps past maxCarried, the guard `len(carried) == maxCarried` never
// holds again and every later word of the earlier question is carried too.
// A one-word follow-up after a long question becomes a copy of it (and
// can push the rewritten question past the search's MaxQueryChars).
func TestCarryTermsAtMostMaxCarried(t *testing.T) {
	prev := "alpha bravo charlie delta echo foxtrot golf hotel india write-ahead-log-segment " +
		"juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey"
	r := CarryTerms([]Turn{{Role: "user", Content: prev}}, "And that?")
	carried := strings.Fields(strings.TrimPrefix(r.Question, "And that?"))
	if len(carried) > maxCarried {
		t.Errorf("carried %d words, more than maxCarried (%d): %q", len(carried), maxCarried, r.Question)
	}
}
