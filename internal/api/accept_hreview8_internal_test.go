package api

import "testing"

// TestWantsSSEMostSpecificRangeWins_hreview8: RFC 9110 §12.5.1 — the most
// specific media range that matches a type gives its quality ("text/*,
// text/event-stream;q=0" accepts any text but not an event stream).
// wantsSSE takes the maximum over text/event-stream and text/*, so a client
// that refuses a stream outright while accepting other text gets one.
func TestWantsSSEMostSpecificRangeWins_hreview8(t *testing.T) {
	t.Parallel()
	for _, accept := range []string{
		"text/*, text/event-stream;q=0",
		"text/event-stream;q=0, text/*;q=0.9, application/json;q=0.1",
	} {
		if wantsSSE(accept) {
			t.Errorf("wantsSSE(%q) = true, want JSON: text/event-stream;q=0 is not acceptable, whatever text/* says", accept)
		}
	}
}
