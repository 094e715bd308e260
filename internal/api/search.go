package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/search"
)

// SearchRequest is the body of POST /v1/search.
type SearchRequest struct {
	Query           string         `json:"query" minLength:"1" maxLength:"32768" doc:"The search text (the server's limit, RAGD_MAX_QUERY_CHARS, is usually lower)." example:"how do I create an index concurrently"`
	TopK            int            `json:"top_k,omitempty" minimum:"1" default:"5" doc:"Results to return, 1 to RAGD_MAX_TOP_K (50 unless the server sets it; 1000 at most); omitted: 5. Above the limit: 422, naming the server's limit."`
	SourceURIPrefix string         `json:"source_uri_prefix,omitempty" maxLength:"2048" doc:"Only documents whose source_uri starts with this."`
	Metadata        map[string]any `json:"metadata,omitempty" doc:"Only documents whose metadata contains this JSON object."`
}

// SearchInput is the input of POST /v1/search.
type SearchInput struct {
	Body SearchRequest
}

// SearchResult is one retrieved chunk with the explain fields of each leg.
type SearchResult struct {
	Rank             int       `json:"rank" doc:"1-based position in the results."`
	ChunkID          uuid.UUID `json:"chunk_id"`
	DocumentID       uuid.UUID `json:"document_id"`
	SourceURI        string    `json:"source_uri"`
	Title            string    `json:"title"`
	HeadingPath      string    `json:"heading_path" doc:"Headings above the chunk, e.g. \"Install > Docker\"."`
	Content          string    `json:"content"`
	ChunkIndex       int       `json:"chunk_index" doc:"0-based position of the chunk in its document."`
	StartOffset      int       `json:"start_offset" doc:"Byte offset of the chunk in the document's extracted text."`
	EndOffset        int       `json:"end_offset" doc:"Byte offset just past the chunk."`
	PageStart        *int      `json:"page_start,omitempty" doc:"First page (1-based) of a PDF the chunk comes from; absent for documents without pages."`
	PageEnd          *int      `json:"page_end,omitempty" doc:"Last page (1-based) of a PDF the chunk comes from; absent for documents without pages."`
	Anchor           string    `json:"anchor,omitempty" doc:"The fragment identifier (without \"#\") of the section or definition the chunk starts in, when its HTML page gives one, or page=N, the page it starts on, for a PDF (RFC 8118): source_uri#anchor links to that place. Absent otherwise."`
	MatchHeadingPath string    `json:"match_heading_path,omitempty" doc:"When the query's words are further down the chunk, in a place of its own (a later section or definition entry the chunk packs, a later page of a PDF): the heading path of the section that place is in. Absent otherwise."`
	MatchAnchor      string    `json:"match_anchor,omitempty" doc:"The fragment identifier of that place: source_uri#match_anchor links to where the query's words are, where source_uri#anchor links to where the chunk starts. Absent otherwise."`
	Score            float64   `json:"score" doc:"Fused score, higher is better: by default a convex combination of the legs' normalised scores (in [0, 1] at document_weight 0; the other matching chunks of a page can lift its chunks above 1); weighted Reciprocal Rank Fusion for tenants set to rrf."`
	VectorRank       *int      `json:"vector_rank" doc:"Rank in the vector leg; null when not in its candidates."`
	VectorDistance   *float64  `json:"vector_distance" doc:"Cosine distance to the query; null when not in the vector leg."`
	KeywordRank      *int      `json:"keyword_rank" doc:"Rank in the BM25 keyword leg; null when not in its candidates."`
	KeywordScore     *float64  `json:"keyword_score" doc:"BM25 score; null when not in the keyword leg."`
	RerankScore      *float64  `json:"rerank_score,omitempty" doc:"Reranker score, when a reranker is configured."`
}

// Degradation is one retrieval leg or stage the response was produced
// without, and why.
type Degradation struct {
	Leg    string `json:"leg" enum:"vector,keyword,rerank,llm" doc:"The leg or stage left out: vector or keyword (retrieval legs), rerank, llm (answers only)."`
	Reason string `json:"reason" doc:"Why, for a person, e.g. \"the embedding model use-lite does not represent Han script (100% of the question)\"."`
}

// degradations converts search's degradations (never nil, so the JSON is
// always an array).
func degradations(ds []search.Degradation) []Degradation {
	out := make([]Degradation, len(ds))
	for i, d := range ds {
		out[i] = Degradation{Leg: string(d.Leg), Reason: d.Reason}
	}
	return out
}

// SearchResponse is the result of POST /v1/search.
type SearchResponse struct {
	Results          []SearchResult     `json:"results"`
	Degraded         bool               `json:"degraded" doc:"True when a leg or the reranker was left out (it failed, or the embedding model does not represent the question's script), or when the tenant's embedding model covers only part of its chunks."`
	DegradedReasons  []Degradation      `json:"degraded_reasons" doc:"One entry per leg or stage left out, with the reason; empty when not degraded."`
	VectorModel      string             `json:"vector_model,omitempty" doc:"The embedding model whose vectors the vector leg read (the tenant's active model); absent when the leg did not run."`
	Confidence       float64            `json:"confidence" doc:"Estimated probability in [0, 1] that the tenant's documents answer the query (the refusal signal)."`
	ConfidenceReason string             `json:"confidence_reason,omitempty" doc:"Why the confidence is low, in words, e.g. no document mentions “MongoDB”."`
	MissingTerms     []string           `json:"missing_terms,omitempty" doc:"Names and identifiers of the query that no document of the tenant contains (a name, a code identifier, an option, a release). Ordinary words no document has are not listed here; confidence_reason may name them (\"no document mentions “backoff”\")."`
	KeywordSkipped   bool               `json:"keyword_skipped,omitempty" doc:"True when the query had no searchable words (stop words only)."`
	TimingsMS        map[string]float64 `json:"timings_ms" doc:"Milliseconds per stage: embed, retrieve (both legs with the chunks they found, one database round trip), fuse, rerank; a single-leg search reports its retrieve time as vector or keyword too."`
	EventID          string             `json:"event_id,omitempty" format:"uuid" doc:"The retrieval event recorded for this search: POST /v1/events/{id}/feedback rates it. Absent when the event was not recorded (recording off or its buffer full)."`
}

// SearchOutput is the response of POST /v1/search.
type SearchOutput struct {
	Body SearchResponse
}

func (s *Server) registerSearch() {
	register(s, huma.Operation{
		OperationID: "search", Method: http.MethodPost, Path: "/v1/search", Tags: []string{"search"},
		Summary: "Hybrid search",
		Description: "Vector (cosine) and keyword (BM25) retrieval over the tenant's chunks, fused (by default a convex combination of normalised scores), " +
			"optionally reranked; every result explains its rank in each leg.",
		Errors: []int{http.StatusUnprocessableEntity},
	}, opSpec{role: auth.RoleReader}, s.search)
}

func (s *Server) search(ctx context.Context, in *SearchInput) (*SearchOutput, error) {
	t, err := tenantOf(ctx)
	if err != nil {
		return nil, err
	}
	b := in.Body
	start := time.Now()
	req := search.Request{Query: b.Query, TopK: b.TopK, SourceURIPrefix: b.SourceURIPrefix, Metadata: b.Metadata}
	resp, err := s.deps.Searcher.Search(ctx, t, req)
	if err != nil {
		return nil, err
	}
	s.metrics.observeTimings(resp.Timings)
	if resp.Degraded {
		s.metrics.degraded.WithLabelValues("search").Inc()
	}
	out := &SearchOutput{Body: SearchResponse{Results: make([]SearchResult, len(resp.Results)), Degraded: resp.Degraded,
		DegradedReasons: degradations(resp.DegradedReasons), VectorModel: resp.VectorModel, Confidence: resp.Confidence, ConfidenceReason: resp.ConfidenceReason,
		MissingTerms: resp.MissingTerms, KeywordSkipped: resp.KeywordSkipped, TimingsMS: resp.Timings}}
	if out.Body.TimingsMS == nil {
		out.Body.TimingsMS = map[string]float64{}
	}
	for i, r := range resp.Results {
		out.Body.Results[i] = SearchResult{Rank: r.Rank, ChunkID: r.ChunkID, DocumentID: r.DocumentID, SourceURI: r.SourceURI,
			Title: r.Title, HeadingPath: r.HeadingPath, Content: r.Content, ChunkIndex: r.ChunkIndex, StartOffset: r.StartOffset,
			EndOffset: r.EndOffset, PageStart: r.PageStart, PageEnd: r.PageEnd, Anchor: r.Anchor, MatchHeadingPath: r.MatchHeadingPath, MatchAnchor: r.MatchAnchor, Score: r.Score, VectorRank: r.VectorRank, VectorDistance: r.VectorDistance,
			KeywordRank: r.KeywordRank, KeywordScore: r.KeywordScore, RerankScore: r.RerankScore}
	}
	out.Body.EventID = s.recordSearch(ctx, t, req, resp, start)
	return out, nil
}
