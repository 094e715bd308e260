// Package ask answers a tenant's question end to end: hybrid retrieval
// (package search) → refusal when retrieval is weak → numbered sources → a
// cited answer (package answer: LLM with verified citations, or extractive).
package ask

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// DefaultSources is how many retrieved chunks go into the prompt.
const DefaultSources = 5

// Refusal reasons.
const (
	ReasonNoResults     = "no_results"
	ReasonLowConfidence = "low_retrieval_confidence"
	ReasonNotInSources  = "not_in_sources"
	ReasonUnsupported   = "unsupported_answer"
)

// Citation is a source an answer cites.
type Citation struct {
	N           int    `json:"n"`
	ChunkID     string `json:"chunk_id"`
	SourceURI   string `json:"source_uri"`
	Title       string `json:"title"`
	HeadingPath string `json:"heading_path"`
}

// Source is one numbered source given to the answerer.
type Source struct {
	N           int    `json:"n"`
	ChunkID     string `json:"chunk_id"`
	DocumentID  string `json:"document_id"`
	SourceURI   string `json:"source_uri"`
	Title       string `json:"title"`
	HeadingPath string `json:"heading_path"`
	Content     string `json:"content"`
	StartOffset int    `json:"start_offset"`
	EndOffset   int    `json:"end_offset"`
}

// Response is the answer contract: either an answer whose every citation
// names a given source, or Refused with answer.RefusalPhrase.
type Response struct {
	Answer           string     `json:"answer"`
	Refused          bool       `json:"refused"`
	RefusalReason    string     `json:"refusal_reason,omitempty"`
	Citations        []Citation `json:"citations"`
	Sources          []Source   `json:"sources"`
	InvalidCitations []int      `json:"invalid_citations"`
	Mode             string     `json:"mode"`
	// Degraded: a provider failed (embedding → keyword leg only; LLM →
	// extractive answer) and ragd answered without it.
	Degraded bool `json:"degraded"`
	// Confidence is the retrieval confidence the refusal was decided on.
	Confidence float64 `json:"confidence"`
	// RefuseBelow is the tenant's threshold that Confidence was compared with.
	RefuseBelow float64 `json:"refuse_below"`
	// Timings are milliseconds per stage: the search's stages
	// (search.Response.Timings: embed, retrieve, fuse, rerank, …) and
	// "answer", the answerer's time (absent when retrieval already decided
	// a refusal).
	Timings map[string]float64 `json:"timings_ms"`
}

// Service answers questions. Fields are read-only after construction.
type Service struct {
	Searcher *search.Searcher
	Answerer *answer.Answerer
	// Sources is the number of chunks in the prompt (default DefaultSources).
	Sources int
}

// Ask answers question for tenant t. topK (0 = Sources) bounds the sources.
// onDelta, when non-nil, receives the answer text as it is generated (the
// final Response is still authoritative: citations are verified after
// generation, and a refusal replaces streamed text). Errors: search's
// validation errors (search.ErrEmptyQuery, ErrQueryTooLong, ErrBadTopK) and
// store errors; provider failures degrade instead of failing.
func (s *Service) Ask(ctx context.Context, t tenant.Tenant, question string, topK int, onDelta func(string) error) (Response, error) {
	if topK <= 0 {
		topK = s.Sources
		if topK <= 0 {
			topK = DefaultSources
		}
	}
	res, err := s.Searcher.Search(ctx, t, search.Request{Query: question, TopK: topK})
	if err != nil {
		return Response{}, err
	}
	set := t.Settings.Effective()
	out := Response{Citations: []Citation{}, Sources: []Source{}, InvalidCitations: []int{}, Degraded: res.Degraded,
		Confidence: res.Confidence, RefuseBelow: *set.RefuseBelow, Mode: answer.ModeExtractive, Timings: maps.Clone(res.Timings)}
	if out.Timings == nil {
		out.Timings = map[string]float64{}
	}
	refuse := func(reason string) (Response, error) {
		out.Answer, out.Refused, out.RefusalReason = answer.RefusalPhrase, true, reason
		out.Citations = []Citation{}
		return out, nil
	}
	if len(res.Results) == 0 {
		return refuse(ReasonNoResults)
	}
	srcs := make([]answer.Source, len(res.Results))
	for i, r := range res.Results {
		srcs[i] = answer.Source{N: i + 1, ChunkID: r.ChunkID.String(), DocumentID: r.DocumentID.String(), SourceURI: r.SourceURI,
			Title: r.Title, HeadingPath: r.HeadingPath, Content: r.Content}
		out.Sources = append(out.Sources, Source{N: i + 1, ChunkID: r.ChunkID.String(), DocumentID: r.DocumentID.String(),
			SourceURI: r.SourceURI, Title: r.Title, HeadingPath: r.HeadingPath, Content: r.Content, StartOffset: r.StartOffset, EndOffset: r.EndOffset})
	}
	if res.Confidence < *set.RefuseBelow {
		return refuse(ReasonLowConfidence)
	}
	var ar answer.Result
	start := time.Now()
	if onDelta != nil {
		ar, err = s.Answerer.AnswerStream(ctx, question, srcs, onDelta)
	} else {
		ar, err = s.Answerer.Answer(ctx, question, srcs)
	}
	out.Timings["answer"] = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		return Response{}, fmt.Errorf("ask: %w", err)
	}
	out.Mode = ar.Mode
	out.Degraded = out.Degraded || ar.Degraded
	out.InvalidCitations = append(out.InvalidCitations, ar.InvalidCitations...)
	if ar.Refused {
		if ar.Unsupported {
			return refuse(ReasonUnsupported)
		}
		return refuse(ReasonNotInSources)
	}
	out.Answer = ar.Answer
	for _, c := range ar.Citations {
		out.Citations = append(out.Citations, Citation{N: c.N, ChunkID: c.ChunkID, SourceURI: c.SourceURI, Title: c.Title, HeadingPath: c.HeadingPath})
	}
	return out, nil
}
