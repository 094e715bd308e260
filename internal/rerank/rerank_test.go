package rerank

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

const testKey = "rr-secret-key-77"

// rrServer is an in-process /rerank server; reply answers request n
// (1-based) given the decoded body.
type rrServer struct {
	*httptest.Server
	calls atomic.Int32
	// attempts counts at the client's transport (see providertest).
	attempts providertest.CountingTransport
	mu       sync.Mutex
	bodies   []map[string]any
}

func newRRServer(t *testing.T, reply func(w http.ResponseWriter, r *http.Request, n int, body map[string]any)) *rrServer {
	t.Helper()
	s := &rrServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(s.calls.Add(1))
		if r.Method != http.MethodPost || r.URL.Path != "/v1/rerank" {
			http.Error(w, "no route "+r.URL.Path, http.StatusNotFound)
			return
		}
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, "bad json", 400)
			return
		}
		s.mu.Lock()
		s.bodies = append(s.bodies, body)
		s.mu.Unlock()
		reply(w, r, n, body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *rrServer) body(i int) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies[i]
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// scoreOf is the fake model: the score is the number of query words in doc.
func scoreOf(query, doc string) float64 {
	s := 0.0
	for _, w := range strings.Fields(query) {
		if strings.Contains(doc, w) {
			s++
		}
	}
	return s / 10
}

// cohereReply answers in the Cohere/Jina/Infinity shape, worst first, with
// the documents echoed as Jina does; it honours top_n.
func cohereReply(w http.ResponseWriter, r *http.Request, n int, body map[string]any) {
	q := body["query"].(string)
	docs := strs(body["documents"])
	type res struct {
		Index    int               `json:"index"`
		Score    float64           `json:"relevance_score"`
		Document map[string]string `json:"document"`
	}
	var results []res
	for i, d := range docs {
		results = append(results, res{i, scoreOf(q, d), map[string]string{"text": d}})
	}
	// Worst first, so the client's sort is exercised.
	for i := 0; i < len(results); i++ {
		for j := i + 1; j < len(results); j++ {
			if results[j].Score < results[i].Score {
				results[i], results[j] = results[j], results[i]
			}
		}
	}
	if tn, ok := body["top_n"].(float64); ok && int(tn) < len(results) {
		results = results[len(results)-int(tn):]
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"id": "x", "results": results, "meta": map[string]any{}})
}

// teiReply answers in TEI's bare-array shape.
func teiReply(w http.ResponseWriter, r *http.Request, n int, body map[string]any) {
	if _, ok := body["documents"]; ok {
		http.Error(w, `Failed to deserialize the JSON body: missing field "texts"`, 422)
		return
	}
	q := body["query"].(string)
	var out []map[string]any
	for i, d := range strs(body["texts"]) {
		out = append(out, map[string]any{"index": i, "score": scoreOf(q, d)})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

func newTestClient(t *testing.T, s *rrServer, opts ...Option) *Client {
	t.Helper()
	opts = append([]Option{WithAPIKey(testKey), WithBackoff(time.Millisecond, 5*time.Millisecond), WithTimeout(2 * time.Second), WithHTTPClient(s.attempts.Client())}, opts...)
	c, err := New(s.URL+"/v1/", "rerank-model", opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

var docs = []string{
	"postgres stores rows",          // 0: 1 word
	"the rls rules isolate tenants", // 1: 2 words (rls, tenants)
	"bananas are yellow",            // 2: 0 words
	"rls tenants isolation policy",  // 3: 3 words (rls, tenants, policy)
}

const query = "rls tenants policy postgres"

func indices(rs []Result) []int {
	var out []int
	for _, r := range rs {
		out = append(out, r.Index)
	}
	return out
}

func TestRerankCohereShape(t *testing.T) {
	t.Parallel()
	var auth string
	s := newRRServer(t, func(w http.ResponseWriter, r *http.Request, n int, body map[string]any) {
		auth = r.Header.Get("Authorization")
		cohereReply(w, r, n, body)
	})
	c := newTestClient(t, s)
	got, err := c.Rerank(context.Background(), query, docs)
	if err != nil {
		t.Fatalf("Rerank: %v", err)
	}
	if fmt.Sprint(indices(got)) != "[3 1 0 2]" {
		t.Fatalf("order = %v, want [3 1 0 2]", indices(got))
	}
	if got[0].Index != 3 || got[0].Score != 0.3 || got[3].Score != 0 {
		t.Errorf("results = %+v, want doc 3 (0.3) first, doc 2 (0) last", got)
	}
	b := s.body(0)
	if b["model"] != "rerank-model" || b["query"] != query || len(strs(b["documents"])) != 4 {
		t.Errorf("request = %v", b)
	}
	if _, ok := b["top_n"]; ok {
		t.Error("top_n sent without WithTopN")
	}
	if auth != "Bearer "+testKey {
		t.Errorf("Authorization = %q", auth)
	}
}

func TestRerankTEIShape(t *testing.T) {
	t.Parallel()
	s := newRRServer(t, teiReply)
	c := newTestClient(t, s, WithDialect(DialectTEI))
	got, err := c.Rerank(context.Background(), query, docs)
	if err != nil {
		t.Fatalf("Rerank: %v", err)
	}
	if fmt.Sprint(indices(got)) != "[3 1 0 2]" {
		t.Errorf("order = %v, want [3 1 0 2]", indices(got))
	}
	if got[0].Score != 0.3 {
		t.Errorf("top score = %v, want 0.3", got[0].Score)
	}
	// The default dialect is rejected by a TEI server, naming the problem.
	c2 := newTestClient(t, s)
	_, err = c2.Rerank(context.Background(), query, docs)
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 422 || !strings.Contains(se.Body, "texts") {
		t.Errorf("err = %v, want a 422 StatusError naming texts", err)
	}
}

func TestRerankTopN(t *testing.T) {
	t.Parallel()
	s := newRRServer(t, cohereReply)
	c := newTestClient(t, s, WithTopN(2))
	got, err := c.Rerank(context.Background(), query, docs)
	if err != nil {
		t.Fatalf("Rerank: %v", err)
	}
	if fmt.Sprint(indices(got)) != "[3 1]" {
		t.Errorf("top 2 = %v, want [3 1]", indices(got))
	}
	if s.body(0)["top_n"] != float64(2) {
		t.Errorf("top_n = %v, want 2", s.body(0)["top_n"])
	}
	// TEI has no top_n: the client truncates.
	s2 := newRRServer(t, teiReply)
	c2 := newTestClient(t, s2, WithTopN(1), WithDialect(DialectTEI))
	got, err = c2.Rerank(context.Background(), query, docs)
	if err != nil || len(got) != 1 || got[0].Index != 3 {
		t.Errorf("TEI top 1 = %v, %v; want [doc 3]", got, err)
	}
}

func TestRerankBatches(t *testing.T) {
	t.Parallel()
	s := newRRServer(t, cohereReply)
	c := newTestClient(t, s, WithBatchSize(3), WithTopN(3))
	got, err := c.Rerank(context.Background(), query, docs)
	if err != nil {
		t.Fatalf("Rerank: %v", err)
	}
	if n := s.calls.Load(); n != 2 {
		t.Errorf("requests = %d, want 2 (4 docs, batches of 3)", n)
	}
	if fmt.Sprint(indices(got)) != "[3 1 0]" {
		t.Errorf("merged top 3 = %v, want [3 1 0]: indices of the second batch must be offset", indices(got))
	}
	for i := range 2 {
		if _, ok := s.body(i)["top_n"]; ok {
			t.Error("top_n sent with batching; the per-batch best are not the global best")
		}
	}
}

func TestRerankTiesByIndex(t *testing.T) {
	t.Parallel()
	s := newRRServer(t, func(w http.ResponseWriter, r *http.Request, n int, body map[string]any) {
		fmt.Fprint(w, `{"results":[{"index":2,"relevance_score":0.5},{"index":0,"relevance_score":0.5},{"index":1,"relevance_score":0.9}]}`)
	})
	c := newTestClient(t, s)
	got, err := c.Rerank(context.Background(), "q", []string{"a", "b", "c"})
	if err != nil || fmt.Sprint(indices(got)) != "[1 0 2]" {
		t.Errorf("Rerank = %v, %v; want [1 0 2]", indices(got), err)
	}
}

func TestRerankRetries(t *testing.T) {
	t.Parallel()
	for _, status := range []int{429, 500, 503} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			s := newRRServer(t, func(w http.ResponseWriter, r *http.Request, n int, body map[string]any) {
				if n == 1 {
					w.Header().Set("Retry-After", "0")
					http.Error(w, "try later", status)
					return
				}
				cohereReply(w, r, n, body)
			})
			c := newTestClient(t, s)
			got, err := c.Rerank(context.Background(), query, docs)
			if err != nil || len(got) != 4 {
				t.Fatalf("Rerank = %v, %v", got, err)
			}
			if n := s.calls.Load(); n != 2 {
				t.Errorf("requests = %d, want 2", n)
			}
		})
	}
}

func TestRerankFaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		body      string
		status    int
		hang      bool
		want      error
		wantCalls int32
	}{
		{name: "persistent 500", body: "gpu on fire", status: 500, wantCalls: 3},
		{name: "401", body: "bad key " + testKey, status: 401, wantCalls: 1},
		{name: "garbage", body: `{"results": [{"index": 0,`, want: ErrBadResponse, wantCalls: 1},
		{name: "no results field", body: `{"data": []}`, want: ErrBadResponse, wantCalls: 1},
		{name: "missing score", body: `[{"index":0},{"index":1}]`, want: ErrBadResponse, wantCalls: 1},
		{name: "duplicate index", body: `[{"index":0,"score":1},{"index":0,"score":1}]`, want: ErrBadResponse, wantCalls: 1},
		{name: "index out of range", body: `[{"index":0,"score":1},{"index":5,"score":1}]`, want: ErrBadResponse, wantCalls: 1},
		{name: "too few results", body: `{"results":[{"index":0,"relevance_score":1}]}`, want: ErrBadResponse, wantCalls: 1},
		{name: "hang", hang: true, want: context.DeadlineExceeded, wantCalls: 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newRRServer(t, func(w http.ResponseWriter, r *http.Request, n int, body map[string]any) {
				if tc.hang {
					<-r.Context().Done()
					return
				}
				if tc.status != 0 {
					http.Error(w, tc.body, tc.status)
					return
				}
				fmt.Fprint(w, tc.body)
			})
			c := newTestClient(t, s, WithMaxRetries(2), WithTimeout(100*time.Millisecond))
			got, err := c.Rerank(context.Background(), "q", []string{"a", "b"})
			if err == nil || got != nil {
				t.Fatalf("Rerank = %v, %v; want no results and an error", got, err)
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
		})
	}
}

func TestRerankEmptyInputs(t *testing.T) {
	t.Parallel()
	s := newRRServer(t, cohereReply)
	c := newTestClient(t, s)
	if _, err := c.Rerank(context.Background(), "  ", docs); !errors.Is(err, ErrEmptyQuery) {
		t.Errorf("empty query err = %v", err)
	}
	got, err := c.Rerank(context.Background(), "q", nil)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("no docs = %v, %v; want empty, nil", got, err)
	}
	if n := s.calls.Load(); n != 0 {
		t.Errorf("requests = %d, want 0", n)
	}
}

func TestNewValidates(t *testing.T) {
	t.Parallel()
	bad := map[string]func() (*Client, error){
		"relative url": func() (*Client, error) { return New("tei:8080", "m") },
		"empty model":  func() (*Client, error) { return New("http://x", "") },
		"dialect":      func() (*Client, error) { return New("http://x", "m", WithDialect(Dialect(9))) },
		"top n":        func() (*Client, error) { return New("http://x", "m", WithTopN(-1)) },
		"batch":        func() (*Client, error) { return New("http://x", "m", WithBatchSize(-1)) },
		"timeout":      func() (*Client, error) { return New("http://x", "m", WithTimeout(0)) },
		"retries":      func() (*Client, error) { return New("http://x", "m", WithMaxRetries(-1)) },
	}
	for name, f := range bad {
		if _, err := f(); err == nil {
			t.Errorf("%s: New succeeded, want an error", name)
		}
	}
	if _, err := New("http://tei:8080", "", WithDialect(DialectTEI)); err != nil {
		t.Errorf("TEI without a model name rejected: %v", err)
	}
}
