package reliability

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/llm"
	"github.com/ragd-dev/ragd/internal/provider/providertest"
	"github.com/ragd-dev/ragd/internal/rerank"
)

// fault is how a fake provider answers.
type fault string

const (
	faultNone    fault = ""        // a correct answer
	fault429     fault = "429"     // 429 Too Many Requests, Retry-After: 0
	fault500     fault = "500"     // 500 with a body
	faultGarbage fault = "garbage" // 200 with a body that is not the API's JSON
	faultHang    fault = "hang"    // no answer until the client gives up
	faultCut     fault = "cut"     // LLM stream: some text, then the connection drops
)

// provider is an in-process fake of an OpenAI-compatible API (embeddings,
// chat completions) or a Cohere-style /rerank, with a switchable fault.
type provider struct {
	*httptest.Server
	mode  atomic.Value // fault
	calls atomic.Int64
	// reply computes a chat completion from the user message (LLM only).
	reply func(prompt string) string
	mu    sync.Mutex
	last  string // the last user message the LLM saw
}

func (p *provider) set(f fault) { p.mode.Store(f) }

func (p *provider) fault() fault { f, _ := p.mode.Load().(fault); return f }

func (p *provider) lastPrompt() string { p.mu.Lock(); defer p.mu.Unlock(); return p.last }

// misbehave answers for a fault; it reports whether it did.
func (p *provider) misbehave(w http.ResponseWriter, r *http.Request) bool {
	switch p.fault() {
	case fault429:
		w.Header().Set("Retry-After", "0")
		http.Error(w, `{"error":{"message":"rate limited"}}`, http.StatusTooManyRequests)
	case fault500:
		http.Error(w, `{"error":{"message":"upstream exploded: secret-internal-detail"}}`, http.StatusInternalServerError)
	case faultGarbage:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `<html>502 proxy error</html>{"data":`)
	case faultHang:
		// Read the request first, so the server notices when the client
		// hangs up (net/http watches the connection only after the body).
		io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	default:
		return false
	}
	return true
}

// newEmbedProvider fakes POST /v1/embeddings with the local model's vectors.
// embedTimeout bounds each call to the fake embeddings API: short enough
// that a hanging provider costs a search seconds, not minutes, and long
// enough that a healthy call embedding a seed document under the race
// detector on a loaded machine is not taken for a hang (400 ms was not).
const embedTimeout = time.Second

func newEmbedProvider(t testing.TB) (*provider, *embed.OpenAI) {
	t.Helper()
	emb := local(t)
	p := &provider{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.calls.Add(1)
		if p.misbehave(w, r) {
			return
		}
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		vecs, err := emb.Embed(r.Context(), req.Input)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		data := make([]map[string]any, len(vecs))
		for i, v := range vecs {
			data[i] = map[string]any{"object": "embedding", "index": i, "embedding": v}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": emb.Model()})
	}))
	t.Cleanup(p.Close)
	c, err := embed.NewOpenAI(p.URL+"/v1", emb.Model(), emb.Dims(), embed.WithOpenAIMaxRetries(1),
		embed.WithOpenAIBackoff(time.Millisecond, 5*time.Millisecond), embed.WithOpenAITimeout(embedTimeout))
	if err != nil {
		t.Fatal(err)
	}
	return p, c
}

// newLLMProvider fakes POST /v1/chat/completions (plain and streamed);
// reply decides the text from the user message.
func newLLMProvider(t testing.TB, reply func(prompt string) string) (*provider, *llm.Client) {
	t.Helper()
	p := &provider{reply: reply}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.calls.Add(1)
		var req struct {
			Stream   bool          `json:"stream"`
			Messages []llm.Message `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		user := ""
		for _, m := range req.Messages {
			if m.Role == llm.RoleUser {
				user = m.Content
			}
		}
		p.mu.Lock()
		p.last = user
		p.mu.Unlock()
		if p.misbehave(w, r) {
			return
		}
		text := p.reply(user)
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"id": "x", "object": "chat.completion",
				"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}}})
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		ev := func(data string) {
			fmt.Fprintf(w, "data: %s\n\n", data)
			w.(http.Flusher).Flush()
		}
		for i, piece := range strings.SplitAfter(text, " ") {
			if p.fault() == faultCut && i == 2 {
				// Drop the connection midway: no finish_reason, no [DONE].
				if hj, ok := w.(http.Hijacker); ok {
					if c, _, err := hj.Hijack(); err == nil {
						c.Close()
					}
				}
				return
			}
			b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": piece}, "finish_reason": nil}}})
			ev(string(b))
		}
		ev(`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
		ev("[DONE]")
	}))
	t.Cleanup(p.Close)
	c, err := llm.New(p.URL+"/v1", "fake-chat", llm.WithMaxRetries(1), llm.WithBackoff(time.Millisecond, 5*time.Millisecond),
		llm.WithTimeout(400*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return p, c
}

// newRerankProvider fakes a Cohere-style POST /v1/rerank that scores a
// document by its length (any deterministic order different from fusion's).
func newRerankProvider(t testing.TB) (*provider, *rerank.Client) {
	t.Helper()
	p := &provider{}
	rank := providertest.RerankHandler(func(_ int, d string) float64 { return 1 / float64(1+len(d)) })
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.calls.Add(1)
		if p.misbehave(w, r) {
			return
		}
		rank(w, r)
	}))
	t.Cleanup(p.Close)
	c, err := rerank.New(p.URL+"/v1", "fake-rerank", rerank.WithMaxRetries(1), rerank.WithBackoff(time.Millisecond, 5*time.Millisecond),
		rerank.WithTimeout(400*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return p, c
}

// newHTTPTestServer starts h on loopback, closed when the test ends.
func newHTTPTestServer(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}
