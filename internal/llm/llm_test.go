package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/provider/providertest"
)

const testKey = "sk-llm-secret-42"

// chatServer is an in-process OpenAI-compatible chat completions server;
// reply answers request n (1-based) and gets the decoded request body.
type chatServer struct {
	*httptest.Server
	calls atomic.Int32
	// attempts counts at the client's transport (see providertest).
	attempts providertest.CountingTransport
	mu       sync.Mutex
	bodies   []map[string]any
	times    []time.Time
}

func newChatServer(t *testing.T, reply func(w http.ResponseWriter, r *http.Request, n int, body map[string]any)) *chatServer {
	t.Helper()
	s := &chatServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(s.calls.Add(1))
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "no route "+r.URL.Path, http.StatusNotFound)
			return
		}
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.bodies = append(s.bodies, body)
		s.times = append(s.times, time.Now())
		s.mu.Unlock()
		reply(w, r, n, body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *chatServer) body(i int) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies[i]
}

func (s *chatServer) gap(i int) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.times[i].Sub(s.times[i-1])
}

func writeCompletion(w http.ResponseWriter, content string) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}]}`, content)
}

// event writes one server-sent event and flushes it.
func event(w http.ResponseWriter, data string) {
	fmt.Fprintf(w, "data: %s\n\n", data)
	w.(http.Flusher).Flush()
}

func deltaEvent(content string) string {
	b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": content}, "finish_reason": nil}}})
	return string(b)
}

const finishEvent = `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`

func startStream(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
}

// streamPieces writes a well-formed stream of pieces.
func streamPieces(w http.ResponseWriter, pieces ...string) {
	startStream(w)
	event(w, `{"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`)
	for _, p := range pieces {
		event(w, deltaEvent(p))
	}
	event(w, finishEvent)
	event(w, "[DONE]")
}

func newTestClient(t *testing.T, s *chatServer, opts ...Option) *Client {
	t.Helper()
	opts = append([]Option{WithAPIKey(testKey), WithBackoff(time.Millisecond, 5*time.Millisecond), WithTimeout(2 * time.Second), WithHTTPClient(s.attempts.Client())}, opts...)
	c, err := New(s.URL+"/v1", "test-chat", opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

var msgs = []Message{{Role: RoleSystem, Content: "be brief"}, {Role: RoleUser, Content: "hi"}}

// collect returns an onDelta that records pieces.
func collect(pieces *[]string) func(string) error {
	return func(s string) error { *pieces = append(*pieces, s); return nil }
}

func TestCompleteSendsRequestAndReturnsContent(t *testing.T) {
	t.Parallel()
	var auth string
	s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, body map[string]any) {
		auth = r.Header.Get("Authorization")
		writeCompletion(w, "Hello there [1].")
	})
	c := newTestClient(t, s, WithMaxTokens(256))
	got, err := c.Complete(context.Background(), msgs)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if got != "Hello there [1]." {
		t.Errorf("Complete = %q", got)
	}
	b := s.body(0)
	if b["model"] != "test-chat" || b["temperature"] != 0.1 || b["max_tokens"] != float64(256) || b["stream"] != false {
		t.Errorf("request body = %v", b)
	}
	m := b["messages"].([]any)
	if len(m) != 2 || m[0].(map[string]any)["role"] != "system" || m[1].(map[string]any)["content"] != "hi" {
		t.Errorf("messages = %v", m)
	}
	if auth != "Bearer "+testKey {
		t.Errorf("Authorization = %q", auth)
	}
	if c.Model() != "test-chat" {
		t.Errorf("Model = %q", c.Model())
	}
}

func TestCompleteOmitsMaxTokensByDefault(t *testing.T) {
	t.Parallel()
	s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, body map[string]any) { writeCompletion(w, "ok") })
	c := newTestClient(t, s, WithTemperature(0))
	if _, err := c.Complete(context.Background(), msgs); err != nil {
		t.Fatal(err)
	}
	b := s.body(0)
	if _, ok := b["max_tokens"]; ok {
		t.Errorf("max_tokens sent by default: %v", b)
	}
	if b["temperature"] != float64(0) {
		t.Errorf("temperature = %v, want 0 (explicit zero must be sent)", b["temperature"])
	}
}

func TestCompleteRetriesUnavailableWithRetryAfter(t *testing.T) {
	t.Parallel()
	s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, body map[string]any) {
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "warming up", http.StatusServiceUnavailable)
			return
		}
		writeCompletion(w, "ready")
	})
	c := newTestClient(t, s)
	got, err := c.Complete(context.Background(), msgs)
	if err != nil || got != "ready" {
		t.Fatalf("Complete = %q, %v", got, err)
	}
	if s.calls.Load() != 2 {
		t.Errorf("requests = %d, want 2", s.calls.Load())
	}
	if g := s.gap(1); g < 900*time.Millisecond {
		t.Errorf("retried after %v, want >= ~1s (Retry-After)", g)
	}
}

func TestCompleteFaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		reply     func(w http.ResponseWriter, r *http.Request, n int)
		want      error
		wantCalls int32
		status    int
	}{
		{"persistent 500", func(w http.ResponseWriter, r *http.Request, n int) {
			http.Error(w, "model crashed, key was "+r.Header.Get("Authorization"), 500)
		}, nil, 3, 500},
		{"400 not retried", func(w http.ResponseWriter, r *http.Request, n int) {
			http.Error(w, `{"error":{"message":"context length exceeded"}}`, 400)
		}, nil, 1, 400},
		{"garbage json", func(w http.ResponseWriter, r *http.Request, n int) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"choices": [{"message": `)
		}, ErrBadResponse, 1, 0},
		{"no choices", func(w http.ResponseWriter, r *http.Request, n int) {
			fmt.Fprint(w, `{"choices": []}`)
		}, ErrBadResponse, 1, 0},
		{"error object", func(w http.ResponseWriter, r *http.Request, n int) {
			fmt.Fprint(w, `{"error": {"message": "model overloaded"}}`)
		}, ErrBadResponse, 1, 0},
		{"hang", func(w http.ResponseWriter, r *http.Request, n int) {
			<-r.Context().Done()
		}, ErrTimeout, 3, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, _ map[string]any) { tc.reply(w, r, n) })
			c := newTestClient(t, s, WithMaxRetries(2), WithTimeout(100*time.Millisecond))
			start := time.Now()
			got, err := c.Complete(context.Background(), msgs)
			if err == nil {
				t.Fatalf("Complete = %q, want an error", got)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if tc.status != 0 {
				var se *StatusError
				if !errors.As(err, &se) || se.StatusCode != tc.status {
					t.Errorf("err = %v, want StatusError %d", err, tc.status)
				}
			}
			if strings.Contains(err.Error(), testKey) {
				t.Errorf("error leaks the API key: %v", err)
			}
			if n := s.attempts.Attempts(); n != int64(tc.wantCalls) {
				t.Errorf("attempts = %d, want %d", n, tc.wantCalls)
			}
			if el := time.Since(start); el > 3*time.Second {
				t.Errorf("took %v", el)
			}
		})
	}
}

func TestCompleteNoMessages(t *testing.T) {
	t.Parallel()
	c, err := New("http://127.0.0.1:1/v1", "m")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Complete(context.Background(), nil); !errors.Is(err, ErrNoMessages) {
		t.Errorf("Complete(nil) err = %v", err)
	}
	if _, err := c.Stream(context.Background(), nil, func(string) error { return nil }); !errors.Is(err, ErrNoMessages) {
		t.Errorf("Stream(nil) err = %v", err)
	}
}

func TestStreamDeliversPiecesIncrementally(t *testing.T) {
	t.Parallel()
	firstSeen := make(chan struct{})
	s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, body map[string]any) {
		if body["stream"] != true || r.Header.Get("Accept") != "text/event-stream" {
			http.Error(w, "expected a stream request", 400)
			return
		}
		startStream(w)
		fmt.Fprint(w, ": keep-alive comment\r\n\r\n")
		event(w, `{"choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}`)
		event(w, deltaEvent("Paris "))
		// The client must have the first piece before the rest is sent.
		select {
		case <-firstSeen:
		case <-time.After(2 * time.Second):
			return
		}
		// One event split over two data lines, CRLF line endings.
		fmt.Fprint(w, "event: message\r\ndata: {\"choices\":[{\"index\":0,\r\ndata: \"delta\":{\"content\":\"is the capital\"}}]}\r\n\r\n")
		event(w, deltaEvent(" [1]."))
		event(w, finishEvent)
		event(w, `{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":4}}`)
		event(w, "[DONE]")
	})
	c := newTestClient(t, s)
	var pieces []string
	got, err := c.Stream(context.Background(), msgs, func(p string) error {
		if len(pieces) == 0 {
			close(firstSeen)
		}
		pieces = append(pieces, p)
		return nil
	})
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	want := []string{"Paris ", "is the capital", " [1]."}
	if strings.Join(pieces, "|") != strings.Join(want, "|") {
		t.Errorf("pieces = %q, want %q", pieces, want)
	}
	if got != "Paris is the capital [1]." {
		t.Errorf("Stream = %q", got)
	}
}

func TestStreamRetriesBeforeFirstPiece(t *testing.T) {
	t.Parallel()
	cases := map[string]func(w http.ResponseWriter){
		"500": func(w http.ResponseWriter) { http.Error(w, "boom", 500) },
		"connection dropped": func(w http.ResponseWriter) {
			startStream(w)
			event(w, `{"choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}`)
			panic(http.ErrAbortHandler)
		},
		"ended without done": func(w http.ResponseWriter) {
			startStream(w)
			event(w, `{"choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}`)
		},
	}
	for name, fail := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, _ map[string]any) {
				if n == 1 {
					fail(w)
					return
				}
				streamPieces(w, "second ", "try")
			})
			c := newTestClient(t, s)
			var pieces []string
			got, err := c.Stream(context.Background(), msgs, collect(&pieces))
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			if got != "second try" || strings.Join(pieces, "") != got {
				t.Errorf("Stream = %q, pieces %q", got, pieces)
			}
			if n := s.calls.Load(); n != 2 {
				t.Errorf("requests = %d, want 2", n)
			}
		})
	}
}

func TestStreamDoesNotRetryAfterFirstPiece(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		fail func(w http.ResponseWriter, r *http.Request)
		want error
	}{
		{"ended without done", func(w http.ResponseWriter, r *http.Request) {
			event(w, deltaEvent("Hel"))
		}, ErrStreamInterrupted},
		{"stalled", func(w http.ResponseWriter, r *http.Request) {
			event(w, deltaEvent("Hel"))
			<-r.Context().Done()
		}, ErrTimeout},
		{"garbage event", func(w http.ResponseWriter, r *http.Request) {
			event(w, deltaEvent("Hel"))
			event(w, `{"choices": nope`)
		}, ErrBadResponse},
		{"error event", func(w http.ResponseWriter, r *http.Request) {
			event(w, deltaEvent("Hel"))
			event(w, `{"error":{"message":"overloaded"}}`)
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, _ map[string]any) {
				startStream(w)
				tc.fail(w, r)
			})
			c := newTestClient(t, s, WithTimeout(150*time.Millisecond))
			var pieces []string
			got, err := c.Stream(context.Background(), msgs, collect(&pieces))
			if err == nil {
				t.Fatal("Stream succeeded, want an error")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if got != "Hel" || len(pieces) != 1 {
				t.Errorf("partial = %q, pieces %q; want the delivered text", got, pieces)
			}
			if n := s.calls.Load(); n != 1 {
				t.Errorf("requests = %d, want 1: text was delivered, so no retry", n)
			}
		})
	}
}

func TestStreamIdleTimeoutIsNotATotalTimeout(t *testing.T) {
	t.Parallel()
	s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, _ map[string]any) {
		startStream(w)
		for i := range 8 {
			event(w, deltaEvent(fmt.Sprint(i)))
			time.Sleep(200 * time.Millisecond)
		}
		event(w, finishEvent)
		event(w, "[DONE]")
	})
	// 8×200ms = 1.6s in total, but never 1s without a byte: a gap five
	// times the server's pause, so that a loaded machine's scheduling
	// delays cannot make it look idle.
	c := newTestClient(t, s, WithTimeout(time.Second))
	got, err := c.Stream(context.Background(), msgs, func(string) error { return nil })
	if err != nil || got != "01234567" {
		t.Fatalf("Stream = %q, %v", got, err)
	}
}

func TestStreamHeaderTimeoutRetried(t *testing.T) {
	t.Parallel()
	s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, _ map[string]any) {
		if n == 1 {
			<-r.Context().Done()
			return
		}
		streamPieces(w, "late")
	})
	c := newTestClient(t, s, WithTimeout(300*time.Millisecond))
	got, err := c.Stream(context.Background(), msgs, func(string) error { return nil })
	if err != nil || got != "late" {
		t.Fatalf("Stream = %q, %v", got, err)
	}
	if n := s.calls.Load(); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}
}

func TestStreamCallbackErrorStops(t *testing.T) {
	t.Parallel()
	s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, _ map[string]any) {
		streamPieces(w, "a", "b", "c")
	})
	c := newTestClient(t, s)
	clientGone := errors.New("client went away")
	var pieces []string
	got, err := c.Stream(context.Background(), msgs, func(p string) error {
		pieces = append(pieces, p)
		if p == "b" {
			return clientGone
		}
		return nil
	})
	if !errors.Is(err, clientGone) {
		t.Fatalf("err = %v, want the callback's error", err)
	}
	if got != "ab" || strings.Join(pieces, "") != "ab" {
		t.Errorf("partial = %q, pieces %q", got, pieces)
	}
	if n := s.calls.Load(); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

func TestStreamAcceptsPlainJSONReply(t *testing.T) {
	t.Parallel()
	s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, _ map[string]any) {
		writeCompletion(w, "not streamed [2]")
	})
	c := newTestClient(t, s)
	var pieces []string
	got, err := c.Stream(context.Background(), msgs, collect(&pieces))
	if err != nil || got != "not streamed [2]" || len(pieces) != 1 {
		t.Fatalf("Stream = %q, %v, pieces %q", got, err, pieces)
	}
}

func TestStreamPersistentFailure(t *testing.T) {
	t.Parallel()
	s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, _ map[string]any) {
		w.Header().Set("Retry-After", "0")
		http.Error(w, "slow down", http.StatusTooManyRequests)
	})
	c := newTestClient(t, s, WithMaxRetries(1))
	called := false
	_, err := c.Stream(context.Background(), msgs, func(string) error { called = true; return nil })
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 429 || !strings.Contains(se.Body, "slow down") {
		t.Fatalf("err = %v, want 429 StatusError", err)
	}
	if called || s.calls.Load() != 2 {
		t.Errorf("callback called=%v, requests=%d; want false, 2", called, s.calls.Load())
	}
}

func TestNewValidates(t *testing.T) {
	t.Parallel()
	bad := map[string]func() (*Client, error){
		"relative url":  func() (*Client, error) { return New("api.openai.com/v1", "m") },
		"empty model":   func() (*Client, error) { return New("http://x/v1", "") },
		"temperature":   func() (*Client, error) { return New("http://x/v1", "m", WithTemperature(2.5)) },
		"max tokens":    func() (*Client, error) { return New("http://x/v1", "m", WithMaxTokens(-1)) },
		"timeout":       func() (*Client, error) { return New("http://x/v1", "m", WithTimeout(0)) },
		"retries":       func() (*Client, error) { return New("http://x/v1", "m", WithMaxRetries(-1)) },
		"backoff order": func() (*Client, error) { return New("http://x/v1", "m", WithBackoff(time.Second, time.Millisecond)) },
	}
	for name, f := range bad {
		if _, err := f(); err == nil {
			t.Errorf("%s: New succeeded, want an error", name)
		}
	}
}
