package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"

	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/followup"
	"github.com/ragd-dev/ragd/internal/provider"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/traffic"
)

// Asker answers a question from a tenant's documents: retrieval, then an
// answer that cites its sources, or a refusal.
//
// Ask retrieves topK chunks for question within tenant t and answers from
// them. When onDelta is non-nil the answer text is streamed through it as it
// is produced; the returned AskResult stays authoritative (citations are
// verified after generation and a refusal replaces streamed text). An error
// from onDelta — the client went away — should end Ask with that error. Errors: the
// search package's validation errors (ErrEmptyQuery, ErrQueryTooLong,
// ErrBadTopK → 422), store errors (store.ErrUnavailable → 503), the
// context's error (504); LLM failures should degrade, not fail.
type Asker interface {
	Ask(ctx context.Context, t tenant.Tenant, req search.Request, onDelta func(string) error) (AskResult, error)
}

// AskResult is what an Asker returns.
type AskResult struct {
	Answer  string // the answer text with [n] citation markers, or the refusal phrase
	Refused bool   // no answer: the sources do not contain it
	// RefusalReason says why when Refused (e.g. no_results,
	// low_retrieval_confidence, not_in_sources); optional.
	RefusalReason string
	// Confidence is the estimated probability that the documents answer the
	// question; ConfidenceReason says why it is low, when it is, or why
	// the passages found do not answer (a not_in_sources refusal).
	Confidence       float64
	ConfidenceReason string
	MissingTerms     []string          // the question's names no document contains
	Citations        []answer.Citation // sources cited by the answer, in order of first citation
	// Sources are every source given to the answerer, numbered from 1
	// (without an LLM, each with its neighbouring chunks).
	Sources  []answer.Source
	Mode     string // "llm" or "extractive"
	Degraded bool   // a retrieval leg, the reranker or the LLM was left out (failed, or cannot represent the question)
	// DegradedReasons names each leg or stage left out and why.
	DegradedReasons []Degradation
	// Timings are milliseconds per stage (retrieval stages as in
	// search.Response.Timings, plus e.g. "answer"); exported as metrics.
	Timings map[string]float64
	// RefuseBelow is the tenant's threshold Confidence was compared with.
	RefuseBelow float64
	// Retrieved are the search results the sources came from, with each
	// leg's rank and score (recorded in the retrieval event; optional).
	Retrieved []search.Result
}

// AnswerRequest is the body of POST /v1/answer.
type AnswerRequest struct {
	Question string `json:"question" minLength:"1" maxLength:"32768" doc:"The question (the server's limit, RAGD_MAX_QUERY_CHARS, is usually lower)." example:"How do I create an index without locking writes?"`
	TopK     int    `json:"top_k,omitempty" minimum:"1" default:"5" doc:"At most this many chunks are retrieved as sources, 1 to RAGD_MAX_TOP_K (50 unless the server sets it; 1000 at most); omitted: 5. Above the limit: 422, naming the server's limit. Sources under the relevance floor are dropped rather than padding the list."`
	// The same filters as POST /v1/search, applied before ranking.
	SourceURIPrefix string         `json:"source_uri_prefix,omitempty" maxLength:"2048" doc:"Only documents whose source_uri starts with this."`
	Metadata        map[string]any `json:"metadata,omitempty" doc:"Only documents whose metadata contains this JSON object."`
	// History makes question a follow-up.
	History []Turn `json:"history,omitempty" maxItems:"50" doc:"The conversation's earlier turns, oldest first. A question that cannot stand alone (\"and how do I undo that?\") is rewritten into a standalone question before retrieval: by the LLM when one is configured, otherwise by carrying the earlier question's key terms."`
}

// Turn is one earlier message of a conversation.
type Turn struct {
	Role    string `json:"role" enum:"user,assistant"`
	Content string `json:"content" maxLength:"32768"`
}

// AnswerInput is the input of POST /v1/answer.
type AnswerInput struct {
	Accept string `header:"Accept" doc:"text/event-stream streams the answer as server-sent events; anything else returns JSON."`
	Body   AnswerRequest
}

// AnswerResponse is the answer (the JSON body, or the data of the SSE done event).
type AnswerResponse struct {
	Answer           string             `json:"answer" doc:"The answer with [n] markers citing sources, or exactly \"I don't know based on the provided sources.\" when refused."`
	Refused          bool               `json:"refused" doc:"True when the sources do not contain the answer."`
	RefusalReason    string             `json:"refusal_reason,omitempty" doc:"Why the answer was refused, e.g. no_results, low_retrieval_confidence, not_in_sources, unsupported_answer."`
	Confidence       float64            `json:"confidence" doc:"Estimated probability in [0, 1] that the tenant's documents answer the question; answers below the tenant's refuse_below are refused."`
	ConfidenceReason string             `json:"confidence_reason,omitempty" doc:"Why the confidence is low, or why the passages found do not answer (a not_in_sources refusal), in words, e.g. no document mentions “MongoDB”."`
	MissingTerms     []string           `json:"missing_terms,omitempty" doc:"Names and identifiers of the question that no document of the tenant contains (a name, a code identifier, an option, a release). Ordinary words no document has are not listed here; confidence_reason may name them (\"no document mentions “backoff”\")."`
	Citations        []answer.Citation  `json:"citations" doc:"Sources the answer cites, in order of first citation."`
	Sources          []answer.Source    `json:"sources" doc:"Every retrieved source given to the answerer, numbered as the answer's [n] markers: best first for an LLM's answer; for an extractive one, the sources it quotes first, in the order it quotes them, then the others best first."`
	Mode             string             `json:"mode" enum:"llm,extractive" doc:"llm: generated and citation-checked; extractive: sentences quoted from the sources."`
	Degraded         bool               `json:"degraded" doc:"True when a retrieval leg, the reranker or the LLM was left out (it failed, or the embedding model does not represent the question's script), or when the tenant's embedding model covers only part of its chunks."`
	DegradedReasons  []Degradation      `json:"degraded_reasons" doc:"One entry per leg or stage left out, with the reason; empty when not degraded."`
	EventID          string             `json:"event_id,omitempty" format:"uuid" doc:"The retrieval event recorded for this answer: POST /v1/events/{id}/feedback rates it. Absent when the event was not recorded (recording off or its buffer full)."`
	Standalone       string             `json:"standalone_question,omitempty" doc:"The standalone question a follow-up was rewritten to and answered as; absent when the question was used as asked."`
	Rewrite          string             `json:"rewrite,omitempty" enum:"llm,terms" doc:"How the follow-up was rewritten: llm, or terms (the earlier question's key terms carried over)."`
	RefuseBelow      float64            `json:"refuse_below" doc:"The tenant's threshold that confidence was compared with."`
	TimingsMS        map[string]float64 `json:"timings_ms" doc:"Milliseconds per stage: the search's (embed, retrieve, fuse, rerank) and answer, the answerer's time (absent when retrieval already decided a refusal)."`
}

// AnswerDelta is the data of an SSE delta event.
type AnswerDelta struct {
	Text string `json:"text" doc:"The next piece of the answer text."`
}

func (s *Server) registerAnswer() {
	reg := s.api.OpenAPI().Components.Schemas
	answerSchema := reg.Schema(reflect.TypeFor[AnswerResponse](), true, "AnswerResponse")
	deltaSchema := reg.Schema(reflect.TypeFor[AnswerDelta](), true, "AnswerDelta")
	problemSchema := reg.Schema(reflect.TypeFor[Problem](), true, "Problem")
	register(s, huma.Operation{
		OperationID: "answer", Method: http.MethodPost, Path: "/v1/answer", Tags: []string{"answer"},
		Summary: "Answer a question with citations",
		Description: "Retrieves sources with hybrid search and answers from them, citing each claim as [n]; refuses " +
			"(refused = true) when the sources do not contain the answer.\n\n" +
			"With `Accept: text/event-stream` the answer streams as server-sent events: `event: delta` " +
			"(data: {\"text\": ...}) for each piece of text, then one `event: done` whose data is the full " +
			"AnswerResponse with its citations — or `event: error` with a problem object if it fails midway. " +
			"The done event is authoritative: citations are verified after generation, and a refusal replaces streamed text.",
		Errors: []int{http.StatusUnprocessableEntity},
		Responses: map[string]*huma.Response{"200": {
			Description: "The answer, as JSON or as a stream of server-sent events.",
			Content: map[string]*huma.MediaType{
				"application/json": {Schema: answerSchema},
				"text/event-stream": {Schema: &huma.Schema{
					Description: "Each event's data is one JSON object: delta → AnswerDelta, done → AnswerResponse, error → Problem.",
					OneOf: []*huma.Schema{
						{Title: "delta", Ref: deltaSchema.Ref},
						{Title: "done", Ref: answerSchema.Ref},
						{Title: "error", Ref: problemSchema.Ref},
					},
				}},
			},
		}},
	}, opSpec{role: auth.RoleReader}, s.answer)
}

// wantsSSE reports whether the Accept header asks for a stream: the quality
// it gives text/event-stream is non-zero and at least the one it gives
// application/json, each taken from the most specific range that matches
// the type (RFC 9110 §12.5.1: "text/*, text/event-stream;q=0" refuses the
// stream; q=0 means "not acceptable").
func wantsSSE(accept string) bool {
	type best struct {
		specificity int // 0 none, 1 */*, 2 type/*, 3 the type itself
		q           float64
	}
	var sse, js best
	match := func(b *best, specificity int, q float64) {
		if specificity > b.specificity {
			*b = best{specificity, q}
		} else if specificity == b.specificity {
			b.q = max(b.q, q)
		}
	}
	for _, r := range strings.Split(accept, ",") {
		params := strings.Split(r, ";")
		media := strings.ToLower(strings.TrimSpace(params[0]))
		q := 1.0
		for _, p := range params[1:] {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && f >= 0 && f <= 1 {
					q = f
				} else {
					q = 0
				}
			}
		}
		switch media {
		case "text/event-stream":
			match(&sse, 3, q)
		case "text/*":
			match(&sse, 2, q)
		case "application/json":
			match(&js, 3, q)
		case "application/*":
			match(&js, 2, q)
		case "*/*":
			match(&sse, 1, q)
			match(&js, 1, q)
		}
	}
	// A stream only when asked for by name or by text/*: */* alone (most
	// clients' default) gets JSON.
	return sse.specificity >= 2 && sse.q > 0 && (js.specificity == 0 || sse.q >= js.q)
}

func (s *Server) answer(ctx context.Context, in *AnswerInput) (*huma.StreamResponse, error) {
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	q := strings.TrimSpace(in.Body.Question)
	topK := in.Body.TopK
	switch {
	case q == "":
		return nil, invalidf("question is empty")
	case utf8.RuneCountInString(q) > s.limits.MaxQueryChars:
		return nil, invalidf("question too long: %d characters, the limit is %d", utf8.RuneCountInString(q), s.limits.MaxQueryChars)
	case topK == 0:
		topK = 5
	}
	if topK < 1 || topK > s.limits.MaxTopK {
		// The same error, and words, as /v1/search gives.
		return nil, fmt.Errorf("%w: top_k must be between 1 and %d (this server's RAGD_MAX_TOP_K)", search.ErrBadTopK, s.limits.MaxTopK)
	}
	start := time.Now()
	// The LLM's reported tokens are counted to the tenant's usage.
	var tokens atomic.Int64
	ctx = provider.WithTokenCounter(ctx, &tokens)
	rw := s.rewrite(ctx, in.Body.History, q)
	req := search.Request{Query: rw.Question, TopK: topK, SourceURIPrefix: in.Body.SourceURIPrefix, Metadata: in.Body.Metadata}
	if !wantsSSE(in.Accept) {
		res, err := s.deps.Asker.Ask(ctx, t, req, nil)
		s.deps.Recorder.Count(t.ID, traffic.ProviderTokens, tokens.Load())
		if err != nil {
			return nil, err
		}
		body := s.answered(res)
		body.EventID = s.recordAnswer(ctx, t, q, rw, req, res, start)
		if rw.Method != "" {
			body.Standalone, body.Rewrite = rw.Question, rw.Method
		}
		return &huma.StreamResponse{Body: func(hctx huma.Context) {
			hctx.SetHeader("Content-Type", "application/json")
			hctx.SetStatus(http.StatusOK)
			_ = json.NewEncoder(hctx.BodyWriter()).Encode(body)
		}}, nil
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		// The stream starts with its first event: an error before it (bad
		// input the search refuses, a rate limit, the database down) is
		// the same problem response as the JSON answer's, not a 200 stream
		// carrying an error event.
		started := false
		w := hctx.BodyWriter()
		send := func(event string, v any) error {
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			if !started {
				started = true
				hctx.SetHeader("Content-Type", "text/event-stream")
				hctx.SetHeader("Cache-Control", "no-cache")
				hctx.SetHeader("X-Accel-Buffering", "no") // no proxy buffering of the stream
				hctx.SetStatus(http.StatusOK)
			}
			if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b); err != nil {
				return err
			}
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
			return nil
		}
		res, err := s.deps.Asker.Ask(ctx, t, req, func(text string) error {
			return send("delta", AnswerDelta{Text: text})
		})
		s.deps.Recorder.Count(t.ID, traffic.ProviderTokens, tokens.Load())
		if err != nil {
			p := asProblem(ctx, err)
			if started {
				_ = send("error", p)
				return
			}
			for k, vs := range p.GetHeaders() {
				for _, v := range vs {
					hctx.AppendHeader(k, v)
				}
			}
			hctx.SetHeader("Content-Type", "application/problem+json")
			hctx.SetStatus(p.Status)
			_ = json.NewEncoder(w).Encode(p)
			return
		}
		body := s.answered(res)
		body.EventID = s.recordAnswer(ctx, t, q, rw, req, res, start)
		if rw.Method != "" {
			body.Standalone, body.Rewrite = rw.Question, rw.Method
		}
		_ = send("done", body)
	}}, nil
}

// rewrite makes q standalone given the conversation's earlier turns (no
// turns, or no Rewriter: q as is).
func (s *Server) rewrite(ctx context.Context, history []Turn, q string) followup.Result {
	if len(history) == 0 || s.deps.Rewriter == nil {
		return followup.Result{Question: q}
	}
	turns := make([]followup.Turn, len(history))
	for i, h := range history {
		turns[i] = followup.Turn{Role: h.Role, Content: h.Content}
	}
	rw := s.deps.Rewriter.Rewrite(ctx, turns, q)
	if utf8.RuneCountInString(rw.Question) > s.limits.MaxQueryChars {
		return followup.Result{Question: q} // carried terms may not push a question past the limit
	}
	return rw
}

// answered records an answer's metrics and shapes its body.
func (s *Server) answered(res AskResult) AnswerResponse {
	s.metrics.observeTimings(res.Timings)
	if res.Degraded {
		s.metrics.degraded.WithLabelValues("answer").Inc()
	}
	body := AnswerResponse{Answer: res.Answer, Refused: res.Refused, RefusalReason: res.RefusalReason, Confidence: res.Confidence,
		ConfidenceReason: res.ConfidenceReason, MissingTerms: res.MissingTerms, Citations: res.Citations, Sources: res.Sources,
		Mode: res.Mode, Degraded: res.Degraded, DegradedReasons: res.DegradedReasons, RefuseBelow: res.RefuseBelow, TimingsMS: res.Timings}
	if body.DegradedReasons == nil {
		body.DegradedReasons = []Degradation{}
	}
	if body.Citations == nil {
		body.Citations = []answer.Citation{}
	}
	if body.Sources == nil {
		body.Sources = []answer.Source{}
	}
	if body.TimingsMS == nil {
		body.TimingsMS = map[string]float64{}
	}
	return body
}

// asProblem maps err through fail to a *Problem (for SSE error events).
func asProblem(ctx context.Context, err error) *Problem {
	err = fail(ctx, err, "")
	var p *Problem
	if errors.As(err, &p) {
		return p
	}
	var se huma.StatusError
	if errors.As(err, &se) {
		return newProblem(ctx, se.GetStatus(), se.Error())
	}
	return newProblem(ctx, http.StatusInternalServerError, "")
}
