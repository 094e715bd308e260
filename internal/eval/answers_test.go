package eval_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/ask"
	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/llm"
)

// TestJudgeReadsTheVerdict runs the LLM judge against an in-process
// chat-completions server that answers SUPPORTED only when the cited source
// holds the answer's claim, and checks that only cited sources are sent.
func TestJudgeReadsTheVerdict(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []llm.Message `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		user := req.Messages[len(req.Messages)-1].Content
		verdict := "UNSUPPORTED"
		if strings.Contains(user, "refunds take 5 days") && strings.Contains(user, "Refunds are processed within 5 days") {
			verdict = "SUPPORTED"
		}
		if strings.Contains(user, "UNCITED SOURCE") {
			verdict = "leak: an uncited source was sent"
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]string{"role": "assistant", "content": verdict}}}})
	}))
	defer srv.Close()
	c, err := llm.New(srv.URL, "judge")
	if err != nil {
		t.Fatal(err)
	}
	sources := []ask.Source{{N: 1, Title: "Billing", Content: "Refunds are processed within 5 days."}, {N: 2, Title: "Other", Content: "UNCITED SOURCE"}}
	supported := ask.Response{Answer: "refunds take 5 days [1]", Citations: []ask.Citation{{N: 1}}, Sources: sources}
	unsupported := ask.Response{Answer: "refunds are instant [1]", Citations: []ask.Citation{{N: 1}}, Sources: sources}
	if ok, err := eval.Judge(context.Background(), c, "How long do refunds take?", supported); err != nil || !ok {
		t.Errorf("supported answer judged %v, %v", ok, err)
	}
	if ok, err := eval.Judge(context.Background(), c, "How long do refunds take?", unsupported); err != nil || ok {
		t.Errorf("unsupported answer judged %v, %v", ok, err)
	}
}
