package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/analyze"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/rerank"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// Errors returned by Search.
var (
	// ErrEmptyQuery: the query has no characters other than white space.
	ErrEmptyQuery = errors.New("search: empty query")
	// ErrQueryTooLong: the query exceeds Searcher.MaxQueryChars.
	ErrQueryTooLong = errors.New("search: query too long")
	// ErrBadTopK: top_k outside 1..MaxTopK.
	ErrBadTopK = errors.New("search: top_k out of range")
	// ErrInvalidFilter: the metadata filter is not a JSON object.
	ErrInvalidFilter = errors.New("search: metadata filter must be a JSON object")
)

// confidenceVectorShare is the weight of the vector similarity against the
// keyword coverage in Response.Confidence.
const confidenceVectorShare = 0.3

// Leg names a retrieval leg.
type Leg string

// The legs.
const (
	LegVector  Leg = "vector"
	LegKeyword Leg = "keyword"
	LegFused   Leg = "fused"
)

// Request is one search.
type Request struct {
	Query string
	// TopK results to return (default 5).
	TopK int
	// SourceURIPrefix keeps only documents whose source_uri starts with it.
	SourceURIPrefix string
	// Metadata keeps only documents whose metadata contains this JSON object.
	Metadata map[string]any
	// Legs restricts retrieval to one leg (evaluation ablations); empty = the
	// tenant's configuration.
	Only Leg
	// NoRerank skips the reranker even when one is configured.
	NoRerank bool
	// Settings overrides the tenant's settings (evaluation grids); nil = tenant's.
	Settings *tenant.Settings
}

// Result is one retrieved chunk with its explain fields. Ranks are 1-based;
// a nil rank means the chunk was not in that leg's top-N.
type Result struct {
	Rank           int       `json:"rank"`
	ChunkID        uuid.UUID `json:"chunk_id"`
	DocumentID     uuid.UUID `json:"document_id"`
	SourceURI      string    `json:"source_uri"`
	Title          string    `json:"title"`
	HeadingPath    string    `json:"heading_path"`
	Content        string    `json:"content"`
	ChunkIndex     int       `json:"chunk_index"`
	StartOffset    int       `json:"start_offset"`
	EndOffset      int       `json:"end_offset"`
	Score          float64   `json:"score"`
	VectorRank     *int      `json:"vector_rank"`
	VectorDistance *float64  `json:"vector_distance"`
	KeywordRank    *int      `json:"keyword_rank"`
	KeywordScore   *float64  `json:"keyword_score"`
	RerankScore    *float64  `json:"rerank_score,omitempty"`
}

// Response is a search's outcome.
type Response struct {
	Results []Result `json:"results"`
	// Degraded is true when a leg or the reranker was skipped: it failed,
	// or (the vector leg) its model does not represent the question's script.
	Degraded bool `json:"degraded"`
	// DegradedReasons says which and why, one entry per skipped leg or stage.
	DegradedReasons []Degradation `json:"degraded_reasons,omitempty"`
	// Confidence in [0, 1] is the refusal signal: (KeywordCoverage + 0.3 ×
	// VectorSimilarity) / 1.3 when both legs ran, the one available
	// otherwise, or the top rerank score when reranked. RRF scores cannot be
	// thresholded (they top out near 2/61).
	Confidence float64 `json:"confidence"`
	// VectorSimilarity is 1 − the best cosine distance (0 without the leg).
	VectorSimilarity float64 `json:"vector_similarity"`
	// KeywordCoverage is the best BM25 score over its maximum for the query,
	// Σ idf·(k1+1), counting query terms absent from the tenant as df = 0
	// (0 without the leg).
	KeywordCoverage float64 `json:"keyword_coverage"`
	// KeywordSkipped is true when the query has no lexemes (stop words only).
	KeywordSkipped bool `json:"keyword_skipped,omitempty"`
	// Timings per stage, milliseconds.
	Timings map[string]float64 `json:"timings_ms"`
}

// Searcher runs hybrid search. Fields are read-only after construction.
type Searcher struct {
	Pool     *pgxpool.Pool
	Embedder embed.Embedder
	ModelID  int16
	// Reranker is optional (nil = off).
	Reranker *rerank.Client
	// ExactThreshold: tenants with at most this many chunks are searched
	// exactly by the vector leg (default 5000: an exact scan costs 2-3 µs per
	// 512-d row here, and HNSW kept recall@20 ≥ 0.993 down to that size;
	// docs/BENCHMARKS.md).
	ExactThreshold int64
	// PerTermLimit bounds each query term's posting list read by the keyword
	// leg for candidate generation (default 150; every candidate is scored
	// exactly). Measured (docs/EVAL.md): SciFact train and pgdocs give the same
	// recall@5/10, MRR and nDCG@10 at 150, 300 and 2000; 100 loses 0.005
	// recall@5 on pgdocs. Each candidate costs one lookup per common query
	// term, so 150 halves the leg's p95 against 300.
	PerTermLimit int
	// PerDocument caps how many chunks of one document come before the
	// other documents' chunks (default 2; see Diversify).
	PerDocument   int
	MaxQueryChars int
	MaxTopK       int
	Logger        *slog.Logger
}

func (s *Searcher) defaults() {
	if s.ExactThreshold == 0 {
		s.ExactThreshold = 5000
	}
	if s.PerTermLimit == 0 {
		s.PerTermLimit = 150
	}
	if s.PerDocument == 0 {
		s.PerDocument = 2
	}
	if s.MaxQueryChars == 0 {
		s.MaxQueryChars = 4000
	}
	if s.MaxTopK == 0 {
		s.MaxTopK = 50
	}
	if s.Logger == nil {
		s.Logger = slog.Default()
	}
}

// Validate checks a request's shape before any work: ErrEmptyQuery,
// ErrQueryTooLong, ErrBadTopK, ErrInvalidFilter.
func (s *Searcher) Validate(req *Request) error {
	s.defaults()
	req.Query = strings.TrimSpace(req.Query)
	if req.Query == "" {
		return ErrEmptyQuery
	}
	if n := len([]rune(req.Query)); n > s.MaxQueryChars {
		return fmt.Errorf("%w: %d characters, the limit is %d", ErrQueryTooLong, n, s.MaxQueryChars)
	}
	if req.TopK == 0 {
		req.TopK = 5
	}
	if req.TopK < 1 || req.TopK > s.MaxTopK {
		return fmt.Errorf("%w: top_k must be between 1 and %d", ErrBadTopK, s.MaxTopK)
	}
	return nil
}

// Search runs req for tenant t. Errors: the Validate errors; store errors
// (store.ErrUnavailable when the database is down). A failing embedder or
// reranker does not fail the search: it is skipped and Degraded is set,
// with the reason in DegradedReasons; so is the vector leg when the
// question is mostly in scripts the embedding model does not represent.
func (s *Searcher) Search(ctx context.Context, t tenant.Tenant, req Request) (Response, error) {
	if err := s.Validate(&req); err != nil {
		return Response{}, err
	}
	set := t.Settings
	if req.Settings != nil {
		set = *req.Settings
	}
	set = set.Effective()
	resp := Response{Timings: map[string]float64{}}
	useVector := *set.VectorWeight > 0 && req.Only != LegKeyword
	useKeyword := *set.KeywordWeight > 0 && req.Only != LegVector
	if !useVector && !useKeyword {
		useVector, useKeyword = true, true
	}
	n := max(set.Candidates, req.TopK)
	if s.Reranker != nil && !req.NoRerank {
		n = max(n, 20)
	}
	metadata := []byte("{}")
	if len(req.Metadata) > 0 {
		var err error
		if metadata, err = json.Marshal(req.Metadata); err != nil {
			return resp, fmt.Errorf("%w: %v", ErrInvalidFilter, err)
		}
	}
	filtered := req.SourceURIPrefix != "" || len(req.Metadata) > 0

	var qvec []float32
	if d, gap := scriptGap(s.Embedder, req.Query); useVector && gap {
		resp.degrade(d)
		useVector, useKeyword = false, true
	}
	if useVector {
		start := time.Now()
		vecs, err := s.Embedder.Embed(ctx, []string{req.Query})
		resp.Timings["embed"] = ms(time.Since(start))
		if err != nil || len(vecs) != 1 {
			if ctx.Err() != nil {
				return resp, ctx.Err()
			}
			s.Logger.Warn("search: embedding the query failed; keyword leg only", "err", err)
			resp.degrade(embedFailed(s.Embedder.Model(), err))
			useVector = false
			useKeyword = true
		} else {
			qvec = vecs[0]
		}
	}

	var res legResults
	lq := legQuery{tenantID: t.ID, chunkCount: t.ChunkCount, tsConfig: t.TSConfig, n: n, k1: set.K1, b: *set.B,
		filtered: filtered, prefix: req.SourceURIPrefix, metadata: metadata}
	if useVector {
		lq.vector = qvec
	}
	if useKeyword {
		lq.keywordText = analyze.Query(req.Query)
	}
	start := time.Now()
	b := &pgx.Batch{}
	err := s.queueRetrieval(b, lq, &res)
	if err == nil {
		err = store.SendTenantBatch(ctx, s.Pool, t.ID, b)
	}
	if err != nil {
		return resp, fmt.Errorf("retrieve: %w", err)
	}
	// Both legs share one round trip: "retrieve" is their time together
	// (a single leg's time under that leg's name as well).
	resp.Timings["retrieve"] = ms(time.Since(start))
	switch {
	case useVector && !useKeyword:
		resp.Timings["vector"] = resp.Timings["retrieve"]
	case useKeyword && !useVector:
		resp.Timings["keyword"] = resp.Timings["retrieve"]
	}
	vec, kw, idfSum := res.vec, res.kw, res.idfSum
	resp.KeywordSkipped = useKeyword && res.lexemes == 0

	start = time.Now()
	fused := Fuse(set.RRFK, []Ranking{
		{Weight: *set.VectorWeight, IDs: ids(vec)},
		{Weight: *set.KeywordWeight, IDs: ids(kw)},
	})
	resp.Timings["fuse"] = ms(time.Since(start))
	content := make(map[uuid.UUID]chunkContent, len(vec)+len(kw))
	for _, h := range vec {
		content[h.id] = h.chunk
	}
	for _, h := range kw {
		content[h.id] = h.chunk
	}
	results := make([]Result, 0, len(fused))
	for _, f := range fused {
		c, ok := content[f.ID]
		if !ok {
			continue
		}
		r := Result{ChunkID: f.ID, DocumentID: c.DocumentID, SourceURI: c.SourceURI, Title: c.Title, HeadingPath: c.HeadingPath,
			Content: c.Content, ChunkIndex: int(c.ChunkIndex), StartOffset: int(c.StartOffset), EndOffset: int(c.EndOffset), Score: f.Score}
		for i, h := range vec {
			if h.id == f.ID {
				r.VectorRank, r.VectorDistance = ptr(i+1), ptr(h.value)
				break
			}
		}
		for i, h := range kw {
			if h.id == f.ID {
				r.KeywordRank, r.KeywordScore = ptr(i+1), ptr(h.value)
				break
			}
		}
		results = append(results, r)
	}
	if len(vec) > 0 {
		resp.VectorSimilarity = 1 - vec[0].value
	}
	if len(kw) > 0 && idfSum > 0 {
		resp.KeywordCoverage = math.Min(1, kw[0].value/(idfSum*(set.K1+1)))
	}
	if req.Only == "" {
		// Single-leg searches (evaluation ablations) keep the leg's raw order.
		results = Diversify(results, s.PerDocument)
	}
	kwRan := useKeyword && !resp.KeywordSkipped
	switch {
	case useVector && kwRan:
		// Measured on the pgdocs set (docs/EVAL.md): keyword coverage separates
		// answerable from unanswerable questions far better (ROC AUC 0.82) than
		// the local model's similarity (0.59) or their maximum (0.66); a 0.3
		// share of similarity keeps paraphrases from the bottom.
		resp.Confidence = (resp.KeywordCoverage + confidenceVectorShare*resp.VectorSimilarity) / (1 + confidenceVectorShare)
	case kwRan:
		resp.Confidence = resp.KeywordCoverage
	default:
		resp.Confidence = resp.VectorSimilarity
	}
	if s.Reranker != nil && !req.NoRerank && len(results) > 0 {
		start := time.Now()
		top := results[:min(20, len(results))]
		docs := make([]string, len(top))
		for i, r := range top {
			docs[i] = r.HeadingPath + "\n" + r.Content
		}
		scores, err := s.Reranker.Rerank(ctx, req.Query, docs)
		resp.Timings["rerank"] = ms(time.Since(start))
		if err != nil {
			s.Logger.Warn("search: rerank failed; fused order kept", "err", err)
			resp.degrade(rerankFailed(err))
		} else {
			reranked := make([]Result, 0, len(top))
			for _, sc := range scores {
				if sc.Index < 0 || sc.Index >= len(top) {
					continue
				}
				r := top[sc.Index]
				r.RerankScore = ptr(sc.Score)
				reranked = append(reranked, r)
			}
			if len(reranked) > 0 {
				results = reranked
				resp.Confidence = *reranked[0].RerankScore
			}
		}
	}
	if len(results) > req.TopK {
		results = results[:req.TopK]
	}
	for i := range results {
		results[i].Rank = i + 1
	}
	resp.Results = results
	return resp, nil
}

func ids(hits []legHit) []uuid.UUID {
	out := make([]uuid.UUID, len(hits))
	for i, h := range hits {
		out[i] = h.id
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Ranking is one leg's ranked ids (best first) and its fusion weight.
type Ranking struct {
	Weight float64
	IDs    []uuid.UUID
}

// Fused is one fused item.
type Fused struct {
	ID    uuid.UUID
	Score float64
}

// Fuse merges rankings with weighted Reciprocal Rank Fusion: score(d) =
// Σ_legs w / (k + rank(d)), rank 1-based (Cormack, Clarke & Büttcher 2009,
// "Reciprocal Rank Fusion outperforms Condorcet and individual rank learning
// methods"). Legs with weight ≤ 0 are ignored. Ties are broken by the best
// single rank, then by id, so the order is deterministic.
func Fuse(k float64, legs []Ranking) []Fused {
	score := map[uuid.UUID]float64{}
	best := map[uuid.UUID]int{}
	for _, leg := range legs {
		if leg.Weight <= 0 {
			continue
		}
		for i, id := range leg.IDs {
			score[id] += leg.Weight / (k + float64(i+1))
			if b, ok := best[id]; !ok || i < b {
				best[id] = i
			}
		}
	}
	out := make([]Fused, 0, len(score))
	for id, s := range score {
		out = append(out, Fused{ID: id, Score: s})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		if best[out[i].ID] != best[out[j].ID] {
			return best[out[i].ID] < best[out[j].ID]
		}
		return strings.Compare(out[i].ID.String(), out[j].ID.String()) < 0
	})
	return out
}

// Diversify reorders ranked results so that at most perDoc chunks of any one
// document precede the chunks of documents further down: the chunks over the
// cap keep their relative order and move after the others. Nothing is
// dropped, and the first occurrence of every document keeps its relative
// order, so document-level rankings (evaluation) are unchanged; what changes
// is that a top-k handed to the answerer is not filled by one long page.
// perDoc < 1 returns results unchanged.
func Diversify(results []Result, perDoc int) []Result {
	if perDoc < 1 || len(results) <= perDoc {
		return results
	}
	seen := make(map[uuid.UUID]int, len(results))
	out := make([]Result, 0, len(results))
	var over []Result
	for _, r := range results {
		seen[r.DocumentID]++
		if seen[r.DocumentID] > perDoc {
			over = append(over, r)
			continue
		}
		out = append(out, r)
	}
	return append(out, over...)
}
