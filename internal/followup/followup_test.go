package followup

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/ragd-dev/ragd/internal/llm"
)

func TestCarryTerms(t *testing.T) {
	t.Parallel()
	turns := []Turn{{Role: "user", Content: "How do I create an index concurrently on a big table?"},
		{Role: "assistant", Content: "Use CREATE INDEX CONCURRENTLY [1]."}}
	for _, c := range []struct{ q, want, method string }{
		{"and how do I undo that?", "and how do I undo that? create index concurrently big table", MethodTerms},
		{"What about dropping it?", "What about dropping it? create index concurrently big table", MethodTerms},
		{"How do I configure pg_hba.conf for md5 authentication?", "How do I configure pg_hba.conf for md5 authentication?", ""},
		{"Why?", "Why? create index concurrently big table", MethodTerms},
	} {
		got := CarryTerms(turns, c.q)
		if got.Question != c.want || got.Method != c.method {
			t.Errorf("%q → %q (%s), want %q (%s)", c.q, got.Question, got.Method, c.want, c.method)
		}
	}
	// Names are carried as written: "HTTP/2" split into "http 2" matched
	// nothing of the page about it.
	h2 := []Turn{{Role: "user", Content: "How do I enable HTTP/2 on my server?"}}
	if got := CarryTerms(h2, "and how do I turn it off again for one virtual host?"); got.Question != "and how do I turn it off again for one virtual host? enable http/2 server" {
		t.Errorf("HTTP/2 follow-up → %q", got.Question)
	}
	if r := CarryTerms(nil, "and that?"); r.Question != "and that?" || r.Method != "" {
		t.Errorf("no earlier turn: %+v", r)
	}
}

func TestRewriteWithLLMAndFallback(t *testing.T) {
	t.Parallel()
	var (
		mu     sync.Mutex
		prompt string
		fail   bool
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		prompt = string(b)
		if fail {
			http.Error(w, "down", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"choices":[{"message":{"content":"\"How do I drop an index created concurrently?\"\n"}}]}`)
	}))
	t.Cleanup(srv.Close)
	gen, err := llm.New(srv.URL+"/v1", "fake", llm.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	r := &Rewriter{LLM: gen}
	turns := []Turn{{Role: "user", Content: "How do I create an index concurrently?"}, {Role: "assistant", Content: "Use CREATE INDEX CONCURRENTLY."}}
	got := r.Rewrite(t.Context(), turns, "and how do I drop it?")
	if got.Question != "How do I drop an index created concurrently?" || got.Method != MethodLLM {
		t.Fatalf("LLM rewrite %+v", got)
	}
	mu.Lock()
	if !strings.Contains(prompt, "How do I create an index concurrently?") || !strings.Contains(prompt, "and how do I drop it?") {
		t.Errorf("the prompt lacks the conversation: %s", prompt)
	}
	fail = true
	mu.Unlock()
	if got := r.Rewrite(t.Context(), turns, "and how do I drop it?"); got.Method != MethodTerms || got.Question != "and how do I drop it? create index concurrently" {
		t.Errorf("fallback %+v", got)
	}
	if got := r.Rewrite(t.Context(), nil, "and how do I drop it?"); got.Method != "" {
		t.Errorf("no history: %+v", got)
	}
}
