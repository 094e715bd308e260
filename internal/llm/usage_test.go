package llm

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/ragd-dev/ragd/internal/provider"
)

// TestUsageIsCounted: the tokens a response reports reach the context's
// counter, for completions and for streams that carry usage; a response
// without usage adds nothing.
func TestUsageIsCounted(t *testing.T) {
	t.Parallel()
	s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, body map[string]any) {
		switch n {
		case 1:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"ok"}}],"usage":{"prompt_tokens":30,"completion_tokens":12,"total_tokens":42}}`)
		case 2:
			startStream(w)
			event(w, deltaEvent("a"))
			event(w, finishEvent)
			event(w, `{"choices":[],"usage":{"total_tokens":8}}`)
			event(w, "[DONE]")
		default:
			writeCompletion(w, "no usage")
		}
	})
	c := newTestClient(t, s)
	var n atomic.Int64
	ctx := provider.WithTokenCounter(t.Context(), &n)
	if _, err := c.Complete(ctx, msgs); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Stream(ctx, msgs, func(string) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Complete(ctx, msgs); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 50 {
		t.Fatalf("counted %d tokens, want 42 + 8", n.Load())
	}
}
