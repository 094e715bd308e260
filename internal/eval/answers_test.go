package eval_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/answer"
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
	sources := []answer.Source{{N: 1, Title: "Billing", Content: "Refunds are processed within 5 days."}, {N: 2, Title: "Other", Content: "UNCITED SOURCE"}}
	supported := ask.Response{Answer: "refunds take 5 days [1]", Citations: []answer.Citation{{N: 1}}, Sources: sources}
	unsupported := ask.Response{Answer: "refunds are instant [1]", Citations: []answer.Citation{{N: 1}}, Sources: sources}
	if ok, err := eval.Judge(context.Background(), c, "How long do refunds take?", supported); err != nil || !ok {
		t.Errorf("supported answer judged %v, %v", ok, err)
	}
	if ok, err := eval.Judge(context.Background(), c, "How long do refunds take?", unsupported); err != nil || ok {
		t.Errorf("unsupported answer judged %v, %v", ok, err)
	}
}

func TestContainsTerm(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		answer, term string
		want         bool
	}{
		{"Use pg_dump [1].", "pg_dump", true},
		{"Use pg_dumpall [1].", "pg_dump", false},
		{"SETTINGS are read", "SET", false},
		{"run SET LOCAL", "SET", true},
		{"copy the files", "COPY", false},
		{`\l[+] lists databases`, `\l`, true},
		{`\list lists databases`, `\l`, false},
		{"SELECT now();", "now()", true},
		{"Error Code: 42P01; Condition Name: undefined_table [1]", "undefined_table", true},
		{"蜂胶具有抗菌作用。[1]", "抗菌", true}, // no spaces between CJK words
		{"PostgreSQL的连接池 [1]", "PostgreSQL", true},
		{"PostgreSQLの", "SQL", false},
		{"", "x", false},
		{"x", "", false},
	} {
		if got := eval.ContainsTerm(c.answer, c.term); got != c.want {
			t.Errorf("ContainsTerm(%q, %q) = %v, want %v", c.answer, c.term, got, c.want)
		}
	}
}

func TestParseAnswerChecks(t *testing.T) {
	t.Parallel()
	ok := `{"question": "How do I dump a database?", "answer_terms": ["pg_dump"], "split": "tune"}

{"question": "What is the capital of France?", "answer_terms": []}`
	cs, err := eval.ParseAnswerChecks(strings.NewReader(ok))
	if err != nil || len(cs) != 2 || cs[0].AnswerTerms[0] != "pg_dump" || cs[0].Split != "tune" || len(cs[1].AnswerTerms) != 0 {
		t.Fatalf("ParseAnswerChecks = %+v, %v", cs, err)
	}
	bad := `{"question": "a", "answer_terms": [""]}
{"question": "A", "answer_terms": ["x"]}
{"question": "b", "terms": ["x"]}
not json`
	_, err = eval.ParseAnswerChecks(strings.NewReader(bad))
	var ve *eval.ValidationError
	if !errors.As(err, &ve) || !errors.Is(err, eval.ErrInvalidSet) {
		t.Fatalf("err = %v, want a ValidationError", err)
	}
	var codes []string
	for _, p := range ve.Problems {
		codes = append(codes, fmt.Sprintf("%d:%s", p.Line, p.Code))
	}
	if want := "[1:empty_term 2:duplicate_question 3:malformed 4:malformed]"; fmt.Sprint(codes) != want {
		t.Errorf("problems = %v, want %s", codes, want)
	}
}
