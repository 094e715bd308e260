package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/provider/providertest"
)

const testKey = "sk-test-secret-0123456789"

// embServer is an in-process OpenAI-compatible embeddings server. Each
// request is answered by reply with its 1-based sequence number; the default
// reply is a correct response with the data entries in reverse order.
type embServer struct {
	*httptest.Server
	calls    atomic.Int32
	inFlight atomic.Int32
	maxIn    atomic.Int32
	mu       sync.Mutex
	bodies   []map[string]any
	times    []time.Time
}

// snapshot returns copies of the recorded request bodies and arrival times.
func (s *embServer) snapshot() ([]map[string]any, []time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.bodies...), append([]time.Time(nil), s.times...)
}

func newEmbServer(t *testing.T, dims int, reply func(w http.ResponseWriter, r *http.Request, n int, inputs []string) bool) *embServer {
	t.Helper()
	s := &embServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(s.calls.Add(1))
		cur := s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		for {
			old := s.maxIn.Load()
			if cur <= old || s.maxIn.CompareAndSwap(old, cur) {
				break
			}
		}
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			http.Error(w, "wrong route "+r.Method+" "+r.URL.Path, http.StatusNotFound)
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
		var inputs []string
		for _, in := range body["input"].([]any) {
			inputs = append(inputs, in.(string))
		}
		if reply != nil && reply(w, r, n, inputs) {
			return
		}
		writeVectorsAs(w, inputs, dims, body["model"].(string))
	}))
	t.Cleanup(s.Close)
	return s
}

// vectorFor encodes the text "t<k>" as the unnormalised vector (k+1, 2, 0, ...).
func vectorFor(text string, dims int) []float64 {
	k, _ := strconv.Atoi(strings.TrimPrefix(text, "t"))
	v := make([]float64, dims)
	v[0], v[1] = float64(k+1), 2
	return v
}

// writeVectors answers without a "model" field (accepted, as several
// servers omit it).
func writeVectors(w http.ResponseWriter, inputs []string, dims int) {
	writeVectorsAs(w, inputs, dims, "")
}

// writeVectorsAs answers as model ("" = no model field).
func writeVectorsAs(w http.ResponseWriter, inputs []string, dims int, model string) {
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	}
	var data []item
	for i := len(inputs) - 1; i >= 0; i-- { // reversed: the client must reorder by index
		data = append(data, item{"embedding", i, vectorFor(inputs[i], dims)})
	}
	w.Header().Set("Content-Type", "application/json")
	resp := map[string]any{"object": "list", "data": data}
	if model != "" {
		resp["model"] = model
	}
	_ = json.NewEncoder(w).Encode(resp)
}

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "t" + strconv.Itoa(i)
	}
	return out
}

func fastOpts(extra ...OpenAIOption) []OpenAIOption {
	return append([]OpenAIOption{
		WithOpenAIAPIKey(testKey),
		WithOpenAIBackoff(time.Millisecond, 5*time.Millisecond),
		WithOpenAITimeout(2 * time.Second),
	}, extra...)
}

func newClient(t *testing.T, s *embServer, dims int, opts ...OpenAIOption) *OpenAI {
	t.Helper()
	c, err := NewOpenAI(s.URL+"/v1/", "test-model", dims, opts...)
	if err != nil {
		t.Fatalf("NewOpenAI: %v", err)
	}
	return c
}

func TestOpenAIBatchesConcurrentlyAndKeepsOrder(t *testing.T) {
	t.Parallel()
	const dims = 8
	var badAuth atomic.Bool
	s := newEmbServer(t, dims, func(w http.ResponseWriter, r *http.Request, n int, inputs []string) bool {
		if r.Header.Get("Authorization") != "Bearer "+testKey {
			badAuth.Store(true)
		}
		time.Sleep(15 * time.Millisecond) // let batches overlap
		return false
	})
	c := newClient(t, s, dims, fastOpts(WithOpenAIBatchSize(16), WithOpenAIMaxConcurrent(3))...)

	in := texts(150)
	got, err := c.Embed(context.Background(), in)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if n := s.calls.Load(); n != 10 { // ceil(150/16)
		t.Errorf("requests = %d, want 10", n)
	}
	if m := s.maxIn.Load(); m > 3 {
		t.Errorf("max requests in flight = %d, want <= 3", m)
	}
	if badAuth.Load() {
		t.Error("a request lacked the bearer API key")
	}
	bodies, _ := s.snapshot()
	for _, b := range bodies {
		if b["model"] != "test-model" {
			t.Errorf("model = %v, want test-model", b["model"])
		}
		if l := len(b["input"].([]any)); l > 16 {
			t.Errorf("batch of %d inputs, want <= 16", l)
		}
		if _, ok := b["dimensions"]; ok {
			t.Error("dimensions sent without WithOpenAIDimensionsParam")
		}
	}
	if len(got) != len(in) {
		t.Fatalf("got %d vectors, want %d", len(got), len(in))
	}
	for i, v := range got {
		if len(v) != dims {
			t.Fatalf("vector %d has %d dims", i, len(v))
		}
		var norm float64
		for _, x := range v {
			norm += float64(x) * float64(x)
		}
		if math.Abs(norm-1) > 1e-5 {
			t.Errorf("vector %d has squared norm %v, want 1", i, norm)
		}
		// The server sent (i+1, 2, 0...): the ratio survives normalisation
		// and proves vector i belongs to text i.
		if ratio := float64(v[0]) / float64(v[1]) * 2; math.Abs(ratio-float64(i+1)) > 1e-3 {
			t.Fatalf("vector %d encodes text %v: order lost", i, ratio-1)
		}
	}
	if c.Model() != "test-model" || c.Dims() != dims {
		t.Errorf("Model/Dims = %q/%d", c.Model(), c.Dims())
	}
}

func TestOpenAIDimensionsParam(t *testing.T) {
	t.Parallel()
	s := newEmbServer(t, 4, nil)
	c := newClient(t, s, 4, fastOpts(WithOpenAIDimensionsParam())...)
	if _, err := c.Embed(context.Background(), texts(2)); err != nil {
		t.Fatal(err)
	}
	bodies, _ := s.snapshot()
	if d := bodies[0]["dimensions"]; d != float64(4) {
		t.Errorf("dimensions = %v, want 4", d)
	}
}

func TestOpenAIRetryAfter429(t *testing.T) {
	t.Parallel()
	s := newEmbServer(t, 4, func(w http.ResponseWriter, r *http.Request, n int, _ []string) bool {
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			http.Error(w, `{"error":{"message":"rate limited"}}`, http.StatusTooManyRequests)
			return true
		}
		return false
	})
	// Backoff is 1–5ms, so only Retry-After can explain a ~1s pause.
	c := newClient(t, s, 4, fastOpts()...)
	got, err := c.Embed(context.Background(), texts(3))
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if len(got) != 3 || s.calls.Load() != 2 {
		t.Fatalf("got %d vectors after %d requests, want 3 after 2", len(got), s.calls.Load())
	}
	_, times := s.snapshot()
	if gap := times[1].Sub(times[0]); gap < 900*time.Millisecond {
		t.Errorf("retry came %v after the 429, want >= ~1s (Retry-After)", gap)
	}
}

func TestOpenAIRetryAfterHonoursContext(t *testing.T) {
	t.Parallel()
	s := newEmbServer(t, 4, func(w http.ResponseWriter, r *http.Request, n int, _ []string) bool {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
		return true
	})
	c := newClient(t, s, 4, fastOpts()...)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Embed(ctx, texts(1))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("Embed returned after %v; the context should cut the 30s Retry-After short", el)
	}
}

func TestOpenAICanceledContext(t *testing.T) {
	t.Parallel()
	s := newEmbServer(t, 4, nil)
	c := newClient(t, s, 4, fastOpts()...)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := c.Embed(ctx, texts(3))
	if !errors.Is(err, context.Canceled) || got != nil {
		t.Fatalf("Embed = %v, %v; want no vectors and context.Canceled", got, err)
	}
	if n := s.calls.Load(); n != 0 {
		t.Errorf("requests = %d, want 0", n)
	}
}

func TestOpenAIRetries500ThenSucceeds(t *testing.T) {
	t.Parallel()
	s := newEmbServer(t, 4, func(w http.ResponseWriter, r *http.Request, n int, _ []string) bool {
		if n <= 2 {
			http.Error(w, "overloaded", http.StatusInternalServerError)
			return true
		}
		return false
	})
	c := newClient(t, s, 4, fastOpts(WithOpenAIMaxRetries(3))...)
	got, err := c.Embed(context.Background(), texts(5))
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if len(got) != 5 || s.calls.Load() != 3 {
		t.Fatalf("got %d vectors after %d requests, want 5 after 3", len(got), s.calls.Load())
	}
}

func TestOpenAIPersistent500GivesUp(t *testing.T) {
	t.Parallel()
	s := newEmbServer(t, 4, func(w http.ResponseWriter, r *http.Request, n int, _ []string) bool {
		// A hostile server echoes the credentials; the error must not.
		http.Error(w, "upstream exploded; you sent "+r.Header.Get("Authorization")+strings.Repeat(" pad", 200),
			http.StatusInternalServerError)
		return true
	})
	c := newClient(t, s, 4, fastOpts(WithOpenAIMaxRetries(2))...)
	_, err := c.Embed(context.Background(), texts(2))
	var se *StatusError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want *StatusError", err)
	}
	if se.StatusCode != 500 || !strings.Contains(se.Body, "upstream exploded") {
		t.Errorf("StatusError = %d %q", se.StatusCode, se.Body)
	}
	if len(se.Body) > 310 {
		t.Errorf("body not truncated: %d bytes", len(se.Body))
	}
	if strings.Contains(err.Error(), testKey) {
		t.Errorf("error leaks the API key: %v", err)
	}
	if !strings.Contains(err.Error(), "500") || !strings.Contains(err.Error(), "3 attempts") {
		t.Errorf("error should name the status and the attempts: %v", err)
	}
	if n := s.calls.Load(); n != 3 {
		t.Errorf("requests = %d, want 3 (1 + 2 retries)", n)
	}
}

func TestOpenAIDoesNotRetryClientErrors(t *testing.T) {
	t.Parallel()
	s := newEmbServer(t, 4, func(w http.ResponseWriter, r *http.Request, n int, _ []string) bool {
		http.Error(w, `{"error":{"message":"Incorrect API key provided: `+testKey+`"}}`, http.StatusUnauthorized)
		return true
	})
	c := newClient(t, s, 4, fastOpts()...)
	_, err := c.Embed(context.Background(), texts(2))
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusUnauthorized {
		t.Fatalf("err = %v, want 401 StatusError", err)
	}
	if strings.Contains(err.Error(), testKey) || !strings.Contains(se.Body, "[REDACTED]") {
		t.Errorf("API key not redacted: %v", err)
	}
	if n := s.calls.Load(); n != 1 {
		t.Errorf("requests = %d, want 1 (401 is not retried)", n)
	}
}

func TestOpenAIMalformedResponses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		body string
		want error
	}{
		{"garbage", `{"data": [oops`, ErrBadResponse},
		{"html", `<html>502 Bad Gateway</html>`, ErrBadResponse},
		{"too few", `{"data":[{"index":0,"embedding":[1,0,0,0]}]}`, ErrBadResponse},
		{"duplicate index", `{"data":[{"index":0,"embedding":[1,0,0,0]},{"index":0,"embedding":[1,0,0,0]}]}`, ErrBadResponse},
		{"missing index", `{"data":[{"embedding":[1,0,0,0]},{"index":1,"embedding":[1,0,0,0]}]}`, ErrBadResponse},
		{"index out of range", `{"data":[{"index":0,"embedding":[1,0,0,0]},{"index":2,"embedding":[1,0,0,0]}]}`, ErrBadResponse},
		{"zero vector", `{"data":[{"index":0,"embedding":[0,0,0,0]},{"index":1,"embedding":[1,0,0,0]}]}`, ErrBadResponse},
		{"wrong dims", `{"data":[{"index":0,"embedding":[1,0,0]},{"index":1,"embedding":[1,0,0]}]}`, ErrDimensionMismatch},
		{"too many dims", `{"data":[{"index":0,"embedding":[1,0,0,0,0]},{"index":1,"embedding":[1,0,0,0,0]}]}`, ErrDimensionMismatch},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newEmbServer(t, 4, func(w http.ResponseWriter, r *http.Request, n int, _ []string) bool {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, tc.body)
				return true
			})
			c := newClient(t, s, 4, fastOpts()...)
			got, err := c.Embed(context.Background(), texts(2))
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if got != nil {
				t.Errorf("partial result returned with error")
			}
			if n := s.calls.Load(); n != 1 {
				t.Errorf("requests = %d, want 1 (bad 2xx bodies are not retried)", n)
			}
		})
	}
}

func TestOpenAITimeout(t *testing.T) {
	t.Parallel()
	s := newEmbServer(t, 4, func(w http.ResponseWriter, r *http.Request, n int, _ []string) bool {
		<-r.Context().Done() // hang until the client gives up
		return true
	})
	// Attempts are counted at the transport: on a loaded machine a 100 ms
	// attempt can time out before the server's handler ever runs.
	rt := &providertest.CountingTransport{}
	c := newClient(t, s, 4, fastOpts(WithOpenAITimeout(100*time.Millisecond), WithOpenAIMaxRetries(1),
		WithOpenAIHTTPClient(rt.Client()))...)
	start := time.Now()
	_, err := c.Embed(context.Background(), texts(1))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a timeout (context.DeadlineExceeded)", err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("took %v, want about 2×100ms", el)
	}
	if n := rt.Attempts(); n != 2 {
		t.Errorf("attempts = %d, want 2 (timeouts are retried once)", n)
	}
	if n := s.calls.Load(); n < 1 || n > 2 {
		t.Errorf("server saw %d requests, want 1 or 2", n)
	}
}

func TestOpenAIFailingBatchFailsCall(t *testing.T) {
	t.Parallel()
	s := newEmbServer(t, 4, func(w http.ResponseWriter, r *http.Request, n int, inputs []string) bool {
		if inputs[0] == "t4" { // the third batch of two
			http.Error(w, "bad input", http.StatusBadRequest)
			return true
		}
		return false
	})
	c := newClient(t, s, 4, fastOpts(WithOpenAIBatchSize(2), WithOpenAIMaxConcurrent(1))...)
	got, err := c.Embed(context.Background(), texts(10))
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 400 {
		t.Fatalf("err = %v, want 400 StatusError", err)
	}
	if got != nil {
		t.Error("partial result returned")
	}
	if !strings.Contains(err.Error(), "texts 4..5") {
		t.Errorf("error should name the failing batch: %v", err)
	}
	if n := s.calls.Load(); n > 4 {
		t.Errorf("requests = %d; batches after the failure should not be sent", n)
	}
}

func TestOpenAIEmptyInput(t *testing.T) {
	t.Parallel()
	s := newEmbServer(t, 4, nil)
	c := newClient(t, s, 4, fastOpts()...)
	_, err := c.Embed(context.Background(), []string{"t1", " \n\t", "t2"})
	if !errors.Is(err, ErrEmptyInput) || !strings.Contains(err.Error(), "text 1") {
		t.Fatalf("err = %v, want ErrEmptyInput naming text 1", err)
	}
	got, err := c.Embed(context.Background(), nil)
	if err != nil || len(got) != 0 {
		t.Fatalf("Embed(nil) = %v, %v; want empty, nil", got, err)
	}
	if n := s.calls.Load(); n != 0 {
		t.Errorf("requests = %d, want 0", n)
	}
}

func TestNewOpenAIValidates(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		base  string
		model string
		dims  int
		opts  []OpenAIOption
	}{
		{"relative url", "localhost:8080", "m", 4, nil},
		{"ftp url", "ftp://example.com/v1", "m", 4, nil},
		{"empty model", "http://x/v1", " ", 4, nil},
		{"zero dims", "http://x/v1", "m", 0, nil},
		{"zero batch", "http://x/v1", "m", 4, []OpenAIOption{WithOpenAIBatchSize(0)}},
		{"zero concurrency", "http://x/v1", "m", 4, []OpenAIOption{WithOpenAIMaxConcurrent(0)}},
		{"zero timeout", "http://x/v1", "m", 4, []OpenAIOption{WithOpenAITimeout(0)}},
		{"negative retries", "http://x/v1", "m", 4, []OpenAIOption{WithOpenAIMaxRetries(-1)}},
		{"inverted backoff", "http://x/v1", "m", 4, []OpenAIOption{WithOpenAIBackoff(time.Second, time.Millisecond)}},
		{"unknown script", "http://x/v1", "m", 4, []OpenAIOption{WithOpenAIScripts("Latin", "latin")}},
		{"no-script script", "http://x/v1", "m", 4, []OpenAIOption{WithOpenAIScripts("Common")}},
	}
	for _, tc := range cases {
		if _, err := NewOpenAI(tc.base, tc.model, tc.dims, tc.opts...); err == nil {
			t.Errorf("%s: NewOpenAI succeeded, want an error", tc.name)
		}
	}
	if _, err := NewOpenAI("https://api.openai.com/v1", "text-embedding-3-small", 1536); err != nil {
		t.Errorf("valid config rejected: %v", err)
	}
}

func TestOpenAIScripts(t *testing.T) {
	t.Parallel()
	all, err := NewOpenAI("http://x/v1", "m", 4)
	if err != nil {
		t.Fatal(err)
	}
	latin, err := NewOpenAI("http://x/v1", "m", 4, WithOpenAIScripts("Latin", "Cyrillic"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		e      Embedder
		script string
		want   bool
	}{{all, "Han", true}, {all, "Latin", true}, {latin, "Latin", true}, {latin, "Cyrillic", true}, {latin, "Han", false}} {
		if got := Represents(tc.e, tc.script); got != tc.want {
			t.Errorf("Represents(%s, %s) = %v, want %v", tc.e.(*OpenAI).Scripts(), tc.script, got, tc.want)
		}
	}
}

// TestOpenAIModelMismatch: a response naming another model than the one
// asked for is refused (its vectors are not comparable with the stored
// ones) and not retried; the same model under an Ollama tag or an
// organisation prefix, or no model field, is accepted.
func TestOpenAIModelMismatch(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		answer string
		ok     bool
	}{
		{"bge-small-en-v1.5", true}, {"", true}, {"bge-small-en-v1.5:latest", true}, {"BAAI/bge-small-en-v1.5", true},
		{"text-embedding-3-small", false}, {"bge-large-en-v1.5", false},
	} {
		calls := 0
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls++
			var body struct {
				Input []string `json:"input"`
			}
			_ = json.NewDecoder(r.Body).Decode(&body)
			writeVectorsAs(w, body.Input, 4, tc.answer)
		}))
		c, err := NewOpenAI(srv.URL, "bge-small-en-v1.5", 4, WithOpenAIBackoff(time.Millisecond, time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Embed(ctx, []string{"t1"})
		srv.Close()
		if tc.ok && err != nil {
			t.Errorf("answer %q: %v", tc.answer, err)
		}
		if !tc.ok && (!errors.Is(err, ErrModelMismatch) || calls != 1 || !strings.Contains(err.Error(), tc.answer)) {
			t.Errorf("answer %q: err %v after %d calls, want ErrModelMismatch naming it after 1", tc.answer, err, calls)
		}
	}
}
