package answer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/llm"
)

// chatServer is an in-process OpenAI-compatible chat completions server.
// reply gets the request number (1-based) and whether a stream was asked for.
type chatServer struct {
	*httptest.Server
	calls atomic.Int32
	mu    sync.Mutex
	last  []llm.Message
}

func newChatServer(t *testing.T, reply func(w http.ResponseWriter, r *http.Request, n int, stream bool)) *chatServer {
	t.Helper()
	s := &chatServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(s.calls.Add(1))
		var body struct {
			Messages []llm.Message `json:"messages"`
			Stream   bool          `json:"stream"`
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&body) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.last = body.Messages
		s.mu.Unlock()
		reply(w, r, n, body.Stream)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *chatServer) lastMessages() []llm.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// say answers with content, as one JSON completion or as a stream of pieces
// of the given size.
func say(content string, pieceSize int) func(w http.ResponseWriter, r *http.Request, n int, stream bool) {
	return func(w http.ResponseWriter, r *http.Request, n int, stream bool) {
		if !stream {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}}})
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; i < len(content); i += pieceSize {
			writeDelta(w, content[i:min(i+pieceSize, len(content))])
		}
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}
}

func writeDelta(w http.ResponseWriter, s string) {
	b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"delta": map[string]any{"content": s}}}})
	fmt.Fprintf(w, "data: %s\n\n", b)
	w.(http.Flusher).Flush()
}

func newAnswerer(t *testing.T, s *chatServer, opts ...Option) *Answerer {
	t.Helper()
	gen, err := llm.New(s.URL+"/v1", "test-model", llm.WithMaxRetries(1), llm.WithBackoff(time.Millisecond, 2*time.Millisecond), llm.WithTimeout(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return New(gen, opts...)
}

const question = "Which port does the server listen on, and how are tenants isolated?"

func TestAnswerWithLLM(t *testing.T) {
	t.Parallel()
	s := newChatServer(t, say("The server listens on port 8080 [2][7]. Tenants are isolated by row-level security [Source 3].", 0))
	a := newAnswerer(t, s)
	r, err := a.Answer(context.Background(), question, docsSources())
	if err != nil {
		t.Fatalf("Answer: %v", err)
	}
	want := "The server listens on port 8080 [2]. Tenants are isolated by row-level security [3]."
	if r.Answer != want || r.Refused || r.Unsupported || r.Degraded || r.Mode != ModeLLM {
		t.Errorf("result = %+v, want answer %q", r, want)
	}
	if len(r.Citations) != 2 || r.Citations[0].N != 2 || r.Citations[0].ChunkID != "b" || r.Citations[1].N != 3 || r.Citations[1].SourceURI != "docs/tenancy.md" {
		t.Errorf("Citations = %+v", r.Citations)
	}
	if !slices.Equal(r.InvalidCitations, []int{7}) {
		t.Errorf("InvalidCitations = %v, want [7]", r.InvalidCitations)
	}
	msgs := s.lastMessages()
	if len(msgs) != 2 || !strings.Contains(msgs[0].Content, RefusalPhrase) ||
		!strings.Contains(msgs[1].Content, `<source n="2">`) || !strings.Contains(msgs[1].Content, question) {
		t.Errorf("the model did not get the prompt: %+v", msgs)
	}
}

func TestAnswerWithLLMRefusalAndUnsupported(t *testing.T) {
	t.Parallel()
	cases := []struct {
		reply       string
		unsupported bool
		invalid     []int
	}{
		{RefusalPhrase, false, []int{}},
		{"I don't know based on the provided sources", false, []int{}},
		{"The port is 8080.", true, []int{}},
		{"The port is 8080 [4].", true, []int{4}},
	}
	for _, tc := range cases {
		s := newChatServer(t, say(tc.reply, 0))
		r, err := newAnswerer(t, s).Answer(context.Background(), question, docsSources())
		if err != nil {
			t.Fatalf("Answer: %v", err)
		}
		if !r.Refused || r.Answer != RefusalPhrase || r.Unsupported != tc.unsupported || len(r.Citations) != 0 ||
			!slices.Equal(r.InvalidCitations, tc.invalid) || r.Degraded || r.Mode != ModeLLM {
			t.Errorf("reply %q: result = %+v", tc.reply, r)
		}
	}
}

func TestAnswerDegradesToExtractiveWhenLLMFails(t *testing.T) {
	t.Parallel()
	for name, reply := range map[string]func(w http.ResponseWriter, r *http.Request, n int, stream bool){
		"500": func(w http.ResponseWriter, r *http.Request, n int, stream bool) {
			http.Error(w, "model unavailable", http.StatusInternalServerError)
		},
		"garbage": func(w http.ResponseWriter, r *http.Request, n int, stream bool) { fmt.Fprint(w, "{oops") },
		"empty":   say("   ", 0),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newChatServer(t, reply)
			r, err := newAnswerer(t, s).Answer(context.Background(), "Which port does the server listen on by default?", docsSources())
			if err != nil {
				t.Fatalf("Answer: %v", err)
			}
			if !r.Degraded || r.Mode != ModeExtractive || r.Refused {
				t.Errorf("result = %+v, want a degraded extractive answer", r)
			}
			if !strings.Contains(r.Answer, "port 8080 by default") || len(r.Citations) == 0 || r.Citations[0].N != 1 || r.Citations[0].ChunkID != "b" {
				t.Errorf("extractive fallback = %q %+v", r.Answer, r.Citations)
			}
		})
	}
}

func TestAnswerStream(t *testing.T) {
	t.Parallel()
	reply := "  The server listens on port 8080 [2][7]. Tenants are isolated\nby row-level security [3, 9]. Use `SET x[1]` here [1]."
	for _, size := range []int{1, 3, 7, 1000} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			t.Parallel()
			s := newChatServer(t, say(reply, size))
			var pieces []string
			r, err := newAnswerer(t, s).AnswerStream(context.Background(), question, docsSources(), func(p string) error {
				pieces = append(pieces, p)
				return nil
			})
			if err != nil {
				t.Fatalf("AnswerStream: %v", err)
			}
			want := "The server listens on port 8080 [2]. Tenants are isolated\nby row-level security [3]. Use `SET x[1]` here [1]."
			if r.Answer != want || r.Refused || r.Degraded {
				t.Errorf("result = %+v", r)
			}
			if got := strings.Join(pieces, ""); got != r.Answer {
				t.Errorf("streamed %q, want Result.Answer %q", got, r.Answer)
			}
			for _, p := range pieces {
				if strings.Contains(p, "7") || strings.Contains(p, "9") {
					t.Errorf("piece %q carries an invalid citation", p)
				}
			}
			if size == 1 && len(pieces) < 10 {
				t.Errorf("only %d pieces for a byte-by-byte stream: not incremental", len(pieces))
			}
			if !slices.Equal(r.InvalidCitations, []int{7, 9}) || len(r.Citations) != 3 {
				t.Errorf("citations %+v invalid %v", r.Citations, r.InvalidCitations)
			}
		})
	}
}

func TestAnswerStreamNeverShowsUnsupportedText(t *testing.T) {
	t.Parallel()
	for _, reply := range []string{"Port 8080, trust me. Really [5].", RefusalPhrase} {
		s := newChatServer(t, say(reply, 4))
		var pieces []string
		r, err := newAnswerer(t, s).AnswerStream(context.Background(), question, docsSources(), func(p string) error {
			pieces = append(pieces, p)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Refused || len(pieces) != 1 || pieces[0] != RefusalPhrase {
			t.Errorf("reply %q: pieces %q, result %+v; want only the refusal", reply, pieces, r)
		}
	}
}

func TestAnswerStreamDegrades(t *testing.T) {
	t.Parallel()
	t.Run("before any text", func(t *testing.T) {
		t.Parallel()
		s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, stream bool) {
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
		})
		var pieces []string
		r, err := newAnswerer(t, s).AnswerStream(context.Background(), "Which port does the server listen on by default?", docsSources(), func(p string) error {
			pieces = append(pieces, p)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Degraded || r.Mode != ModeExtractive || len(pieces) != 1 || pieces[0] != r.Answer {
			t.Errorf("pieces %q, result %+v; want the extractive answer as one piece", pieces, r)
		}
		if s.calls.Load() != 2 {
			t.Errorf("requests = %d, want 2 (one retry)", s.calls.Load())
		}
	})
	t.Run("midway", func(t *testing.T) {
		t.Parallel()
		s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, stream bool) {
			w.Header().Set("Content-Type", "text/event-stream")
			writeDelta(w, "Tenants are isolated [3].\nAnd then")
			panic(http.ErrAbortHandler) // connection dies mid-answer
		})
		var pieces []string
		r, err := newAnswerer(t, s).AnswerStream(context.Background(), "Which port does the server listen on by default?", docsSources(), func(p string) error {
			pieces = append(pieces, p)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Degraded || r.Mode != ModeExtractive || !strings.Contains(r.Answer, "8080") {
			t.Errorf("result = %+v, want a degraded extractive answer", r)
		}
		if got := strings.Join(pieces, ""); got != "Tenants are isolated [3].\nAnd then" {
			t.Errorf("streamed %q before the failure", got)
		}
		if s.calls.Load() != 1 {
			t.Errorf("requests = %d, want 1: text was delivered, so no retry", s.calls.Load())
		}
	})
}

func TestAnswerStreamCallbackErrorStops(t *testing.T) {
	t.Parallel()
	s := newChatServer(t, say("Tenants are isolated [3]. More text follows here [2].", 2))
	gone := errors.New("client disconnected")
	calls := 0
	r, err := newAnswerer(t, s).AnswerStream(context.Background(), question, docsSources(), func(p string) error {
		calls++
		return gone
	})
	if !errors.Is(err, gone) || calls != 1 || r.Answer != "" {
		t.Errorf("err = %v, calls = %d, result %+v; want the callback's error after one call", err, calls, r)
	}
}

func TestAnswerWithoutLLM(t *testing.T) {
	t.Parallel()
	a := New(nil, WithMaxSentences(1))
	q := "Which port does the server listen on by default?"
	r, err := a.Answer(context.Background(), q, docsSources())
	if err != nil || r.Mode != ModeExtractive || r.Degraded || !strings.Contains(r.Answer, "8080") || strings.Count(r.Answer, "[") != 1 {
		t.Errorf("Answer = %+v, %v", r, err)
	}
	var pieces []string
	r2, err := a.AnswerStream(context.Background(), q, docsSources(), func(p string) error { pieces = append(pieces, p); return nil })
	if err != nil || len(pieces) != 1 || pieces[0] != r2.Answer || r2.Answer != r.Answer {
		t.Errorf("AnswerStream pieces %q result %+v err %v", pieces, r2, err)
	}
}

func TestAnswerInputs(t *testing.T) {
	t.Parallel()
	s := newChatServer(t, say("unused [1]", 0))
	for _, a := range []*Answerer{New(nil), newAnswerer(t, s)} {
		r, err := a.Answer(context.Background(), "anything?", nil)
		if err != nil || !r.Refused || r.Answer != RefusalPhrase || r.Citations == nil || r.Mode != a.mode() {
			t.Errorf("no sources: %+v, %v", r, err)
		}
		var pieces []string
		r, err = a.AnswerStream(context.Background(), "anything?", nil, func(p string) error { pieces = append(pieces, p); return nil })
		if err != nil || !r.Refused || len(pieces) != 1 || pieces[0] != RefusalPhrase {
			t.Errorf("stream, no sources: %+v %q %v", r, pieces, err)
		}
		if _, err := a.Answer(context.Background(), " \n", docsSources()); !errors.Is(err, ErrEmptyQuestion) {
			t.Errorf("empty question: %v", err)
		}
		bad := docsSources()
		bad[1].N = 5
		if _, err := a.Answer(context.Background(), "q?", bad); !errors.Is(err, ErrSourceNumbering) {
			t.Errorf("bad numbering: %v", err)
		}
	}
	if s.calls.Load() != 0 {
		t.Errorf("the LLM was called %d times for inputs that need no generation", s.calls.Load())
	}
	numbered := docsSources()
	for i := range numbered {
		numbered[i].N = i + 1
	}
	if _, err := New(nil).Answer(context.Background(), "port?", numbered); err != nil {
		t.Errorf("correctly numbered sources rejected: %v", err)
	}
}

func TestAnswerHonoursContext(t *testing.T) {
	t.Parallel()
	s := newChatServer(t, func(w http.ResponseWriter, r *http.Request, n int, stream bool) { <-r.Context().Done() })
	a := newAnswerer(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	r, err := a.Answer(ctx, question, docsSources())
	if !errors.Is(err, context.DeadlineExceeded) || r.Answer != "" {
		t.Errorf("Answer = %+v, %v; want the context's error and no fallback", r, err)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel2()
	if _, err := a.AnswerStream(ctx2, question, docsSources(), func(string) error { return nil }); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("AnswerStream err = %v, want context.DeadlineExceeded", err)
	}
}
