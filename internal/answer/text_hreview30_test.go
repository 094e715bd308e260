package answer

import (
	"strings"
	"testing"
)

// TestHR30ClipKeepsTheWordItsEndStartsAt: when the end's first byte lands
// exactly on a word's start (the byte before it a space), clip still skips
// to the next space and drops that whole word, though it fits: the end it
// keeps is one word shorter than max allows, and the word lost may be the
// one the question asked about (here "not": "…, not full rfc5322
// validation" becomes "… full rfc5322 validation", the opposite meaning).
// Correct: a cut already at a word boundary keeps the word.
func TestHR30ClipKeepsTheWordItsEndStartsAt(t *testing.T) {
	max := 400
	prefix := strings.Repeat("word ", 100)
	head := strings.TrimSuffix(truncate(prefix, max*2/5), "…")
	// clip keeps the last max-len(head)-len(" … ") bytes: make them
	// exactly "…filler…, not full rfc5322 validation." starting on a word.
	tailLen := max - len(head) - len(" … ")
	end := "not full rfc5322 validation."
	var tail strings.Builder
	for tail.Len()+len("pad ")+len(end) <= tailLen {
		tail.WriteString("pad ")
	}
	tail.WriteString(strings.Repeat("z", tailLen-tail.Len()-len(end)))
	tail.WriteString(end)
	want := tail.String()
	want = "a " + want[2:] // the first word is "a": short, well within the first half
	s := prefix + want
	got := clip(s, max)
	if len(want) != tailLen || !strings.HasSuffix(got, " … "+want) {
		t.Errorf("clip dropped the word its end starts at:\n%q\nwant it to end with %q", got, " … "+want)
	}
	if len(got) > max {
		t.Errorf("clip: %d bytes, max %d", len(got), max)
	}
}

// TestHR30ClipShortMax: clip panics (slice bounds out of range) for a
// small max: max - len(head) - len(" … ") is negative, so the end's start
// lies past the string. Correct: a result of at most max bytes (or s cut as
// truncate does), never a panic.
func TestHR30ClipShortMax(t *testing.T) {
	for _, max := range []int{1, 4, 6} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("clip(…, %d) panicked: %v", max, r)
				}
			}()
			got := clip("abcdefghijklmnopqrstuvwxyz", max)
			if len(got) > max+len("…") {
				t.Errorf("clip(…, %d) = %q, longer than max", max, got)
			}
		}()
	}
}
