package api

import "testing"

// TestWantsSSETextRange_hreview7: wantsSSE's contract (its doc comment:
// "it names text/event-stream (or text/*) with a non-zero quality, at least
// as high as any JSON range's") and RFC 9110 §12.5.1: text/* accepts
// text/event-stream and not application/json. The switch only knows the
// exact type, so "Accept: text/*" (and "text/*, application/json;q=0.5")
// gets the JSON answer the client ranked lower or did not accept at all.
func TestWantsSSETextRange_hreview7(t *testing.T) {
	t.Parallel()
	for _, accept := range []string{"text/*", "text/*, application/json;q=0.5", "TEXT/*;q=0.9, */*;q=0.1"} {
		if !wantsSSE(accept) {
			t.Errorf("wantsSSE(%q) = false, want a stream (text/* names text/event-stream, ranked above JSON)", accept)
		}
	}
	for _, accept := range []string{"text/*;q=0", "text/*;q=0.5, application/json"} {
		if wantsSSE(accept) {
			t.Errorf("wantsSSE(%q) = true, want JSON", accept)
		}
	}
}
