package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/analyze"
	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/chunk"
	"github.com/ragd-dev/ragd/internal/config"
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
	Rank        int       `json:"rank"`
	ChunkID     uuid.UUID `json:"chunk_id"`
	DocumentID  uuid.UUID `json:"document_id"`
	SourceURI   string    `json:"source_uri"`
	Title       string    `json:"title"`
	HeadingPath string    `json:"heading_path"`
	Content     string    `json:"content"`
	ChunkIndex  int       `json:"chunk_index"`
	StartOffset int       `json:"start_offset"`
	EndOffset   int       `json:"end_offset"`
	// PageStart and PageEnd are the 1-based pages of a paged document (PDF)
	// the chunk spans; nil for documents without pages.
	PageStart *int `json:"page_start,omitempty"`
	// Anchor is the fragment identifier (without "#") of the section the
	// chunk starts in, when its page gives one (chunk.Chunk.Anchor), or
	// for a PDF's chunk page=N, its first page (PageAnchor):
	// source_uri#anchor links there.
	Anchor  string `json:"anchor,omitempty"`
	PageEnd *int   `json:"page_end,omitempty"`
	// MatchHeadingPath and MatchAnchor name the place inside the chunk
	// that holds the most of the query's words, when the chunk has places
	// of their own (its anchor changes inside it: the short sections or
	// definition entries it packs, a PDF's later pages) and that is not
	// where it starts (matchSection): source_uri#match_anchor links to
	// it, and MatchHeadingPath is the heading path of the section it is
	// in. Omitted otherwise.
	MatchHeadingPath string `json:"match_heading_path,omitempty"`
	MatchAnchor      string `json:"match_anchor,omitempty"`
	// MatchOffset is where in Content the place MatchAnchor links to
	// starts (0 when there is none).
	MatchOffset int `json:"-"`
	// sections, sectionAnchors and anchorMarks are the chunk's (store.LegRow),
	// which the match fields are found from (matchSection).
	sections, sectionAnchors, anchorMarks []string
	Score                                 float64  `json:"score"`
	VectorRank                            *int     `json:"vector_rank"`
	VectorDistance                        *float64 `json:"vector_distance"`
	KeywordRank                           *int     `json:"keyword_rank"`
	KeywordScore                          *float64 `json:"keyword_score"`
	RerankScore                           *float64 `json:"rerank_score,omitempty"`
	// DocumentShare is the document's share of the tenant's chunks, which
	// fusion weighs its document evidence by (FuseConvex); the evaluation's
	// in-memory fusion reads it.
	DocumentShare float64 `json:"-"`
}

// Response is a search's outcome.
type Response struct {
	Results []Result `json:"results"`
	// Degraded is true when a leg or the reranker was skipped: it failed,
	// or (the vector leg) its model does not represent the question's
	// script; or when the tenant's embedding model covers only part of its
	// chunks (the vector leg cannot find the others).
	Degraded bool `json:"degraded"`
	// DegradedReasons says which and why, one entry per skipped leg or stage.
	DegradedReasons []Degradation `json:"degraded_reasons,omitempty"`
	// VectorModel is the embedding model whose vectors the vector leg read
	// ("" when the leg did not run): every vector_distance is of it.
	VectorModel string `json:"vector_model,omitempty"`
	// Confidence in [0, 1] is the estimated probability that the tenant's
	// documents answer the query (see Assess): the refusal signal that
	// tenant.Settings.RefuseBelow is compared with.
	Confidence float64 `json:"confidence"`
	// ConfidenceReason says in words why Confidence is low, e.g. no document
	// mentions “pg_stat_io”; empty when it is not.
	ConfidenceReason string `json:"confidence_reason,omitempty"`
	// MissingTerms are the query's names and identifiers that no document of
	// the tenant contains (as written in the query).
	MissingTerms []string `json:"missing_terms,omitempty"`
	// TermCoverage is the share of the query's terms, weighted by idf, that
	// the best of the keyword leg's first chunks contains (0 without the leg).
	TermCoverage float64 `json:"term_coverage"`
	// VectorSimilarity is 1 − the best cosine distance (0 without the leg).
	VectorSimilarity float64 `json:"vector_similarity"`
	// KeywordCoverage is the best BM25 score over its maximum for the query,
	// Σ idf·(k1+1), counting query terms absent from the tenant as df = 0
	// (0 without the leg).
	KeywordCoverage float64 `json:"keyword_coverage"`
	// Signals is the evidence Confidence was estimated from (evaluation and
	// fitting read it; not part of the API).
	Signals Signals `json:"-"`
	// LegsApart says the search sent its legs apart (retrieveApart); the
	// store still runs them in one transaction when no second connection
	// is free at once (store.SendTenantBatchPair).
	LegsApart bool `json:"-"`
	// KeywordSkipped is true when the query has no lexemes (stop words only).
	KeywordSkipped bool `json:"keyword_skipped,omitempty"`
	// Timings per stage, milliseconds.
	Timings map[string]float64 `json:"timings_ms"`
}

// Defaults of the Searcher's fields (zero fields take them); the limits
// that are also settings are defined once, in package config.
const (
	DefaultExactThreshold = config.DefaultExactThreshold
	DefaultPerTermLimit   = config.DefaultKeywordPerTerm
	DefaultPerDocument    = 2
	DefaultMaxQueryChars  = config.DefaultMaxQueryChars
	DefaultMaxTopK        = config.DefaultMaxTopK
	DefaultTopK           = 5
	// DefaultVectorPrior is the vector leg's fusion weight (against the
	// keyword leg's 1) for a model the registry gives none.
	DefaultVectorPrior = 1.0
)

// Searcher runs hybrid search. Fields are read-only after construction:
// Search never writes them, so one Searcher serves concurrent requests.
type Searcher struct {
	Pool *pgxpool.Pool
	// Models, when set, gives each tenant its own embedding model (the
	// query is embedded with it and the vector leg reads only its vectors);
	// nil: every tenant is searched with Embedder, ModelID and VectorPrior.
	Models   Models
	Embedder embed.Embedder
	ModelID  int16
	// VectorPrior is the vector leg's default fusion weight for this model,
	// against the keyword leg's 1, from the model registry
	// (embedding_models.vector_weight): it applies to every tenant that has
	// not calibrated its own weights. 0 = DefaultVectorPrior.
	VectorPrior float64
	// Reranker is optional (nil = off).
	Reranker *rerank.Client
	// ExactThreshold: tenants with at most this many chunks are searched
	// exactly by the vector leg (default 5000: an exact scan costs 2-3 µs per
	// 512-d row here, and HNSW kept recall@20 ≥ 0.993 down to that size;
	// docs/BENCHMARKS.md).
	ExactThreshold int64
	// PerTermLimit is how many of each query term's highest-impact postings
	// the keyword leg reads to set its pruning threshold (default 150). It
	// changes only the leg's speed: the ranking is the exact BM25 top n
	// whatever the value (keyword_search, migration 00015).
	PerTermLimit int
	// PerDocument caps how many chunks of one document come before the
	// other documents' chunks (default 2; see Diversify).
	PerDocument int
	// ParallelBelow: a hybrid search runs its two legs at once on two
	// connections while fewer than this many of the pool's connections are
	// in use (spareConnections); 0 = half the CPUs, at least 1; negative:
	// never.
	ParallelBelow int
	MaxQueryChars int
	MaxTopK       int
	Logger        *slog.Logger
}

func orDefault[T int | int64 | float64](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

func (s *Searcher) exactThreshold() int64 { return orDefault(s.ExactThreshold, DefaultExactThreshold) }

// ExactLimit is the effective ExactThreshold: tenants with at most this
// many chunks are searched exactly.
func (s *Searcher) ExactLimit() int64 { return s.exactThreshold() }

// PerTermCap is the effective PerTermLimit.
func (s *Searcher) PerTermCap() int { return orDefault(s.PerTermLimit, DefaultPerTermLimit) }

// DocumentCap is the effective PerDocument.
func (s *Searcher) DocumentCap() int   { return orDefault(s.PerDocument, DefaultPerDocument) }
func (s *Searcher) maxQueryChars() int { return orDefault(s.MaxQueryChars, DefaultMaxQueryChars) }

// TopKCap is the largest top_k a request may ask for (MaxTopK, or
// DefaultMaxTopK when unset).
func (s *Searcher) TopKCap() int         { return orDefault(s.MaxTopK, DefaultMaxTopK) }
func (s *Searcher) vectorPrior() float64 { return orDefault(s.VectorPrior, DefaultVectorPrior) }
func (s *Searcher) logger() *slog.Logger {
	if s.Logger == nil {
		return slog.Default()
	}
	return s.Logger
}

// Validate checks a request's shape before any work and normalises it (query
// in the form documents are compared in, analyze.Question, and trimmed; top_k
// defaulted): ErrEmptyQuery, ErrQueryTooLong, ErrBadTopK.
func (s *Searcher) Validate(req *Request) error {
	sent := utf8.RuneCountInString(strings.TrimSpace(req.Query))
	req.Query = strings.TrimSpace(analyze.Question(req.Query))
	if req.Query == "" {
		return ErrEmptyQuery
	}
	if n := utf8.RuneCountInString(req.Query); n > s.maxQueryChars() {
		if n != sent {
			// The limit bounds the work on the text searched; the client
			// is told what it sent too (NFC decomposes some characters,
			// U+FB2C into three).
			return fmt.Errorf("%w: %d characters after Unicode normalisation (%d as sent), the limit is %d", ErrQueryTooLong, n, sent, s.maxQueryChars())
		}
		return fmt.Errorf("%w: %d characters, the limit is %d", ErrQueryTooLong, n, s.maxQueryChars())
	}
	if req.TopK == 0 {
		req.TopK = DefaultTopK
	}
	if req.TopK < 1 || req.TopK > s.TopKCap() {
		return fmt.Errorf("%w: top_k must be between 1 and %d (this server's RAGD_MAX_TOP_K)", ErrBadTopK, s.TopKCap())
	}
	return nil
}

// VectorModel is the embedding model a search embeds its query with and
// whose vectors (and only those) its vector leg reads.
type VectorModel struct {
	ID       int16
	Embedder embed.Embedder
	// QueryPrefix is put before the query when it is embedded (e5/bge/
	// nomic-style models are trained with one; "" for most).
	QueryPrefix string
	// Prior is the vector leg's default fusion weight for this model
	// (embedding_models.vector_weight).
	Prior float64
	// Chunks and Embedded are the tenant's chunks and how many of them have
	// a vector of this model; Embedded < Chunks makes the search report
	// Degraded (the vector leg cannot find the rest).
	Chunks, Embedded int64
}

// Models resolves the embedding model of a tenant. Implementations are safe
// for concurrent use (internal/model.Set is the production one).
type Models interface {
	// ForSearch returns the model t's searches use now, with its coverage of
	// t's chunks. Errors: the model cannot be built or read; the search then
	// runs without the vector leg (Degraded).
	ForSearch(ctx context.Context, t tenant.Tenant) (VectorModel, error)
	// Prior is the fusion prior of t's model (DefaultVectorPrior when it
	// cannot be read).
	Prior(t tenant.Tenant) float64
}

// Settings returns the settings a search of tenant t runs with: the
// tenant's (or override's) fields, and for the unset ones the defaults, the
// vector leg's weight being the prior of t's model.
func (s *Searcher) Settings(t tenant.Tenant, override *tenant.Settings) tenant.Settings {
	set := t.Settings
	if override != nil {
		set = *override
	}
	prior := s.vectorPrior()
	if s.Models != nil {
		prior = s.Models.Prior(t)
	}
	return set.EffectiveFor(prior)
}

// model is the VectorModel t's search uses: Models' choice, or the
// Searcher's own model.
func (s *Searcher) model(ctx context.Context, t tenant.Tenant) (VectorModel, error) {
	if s.Models == nil {
		return VectorModel{ID: s.ModelID, Embedder: s.Embedder, Prior: s.vectorPrior()}, nil
	}
	return s.Models.ForSearch(ctx, t)
}

// plan is a validated request with everything the steps need.
type plan struct {
	req                   Request
	set                   tenant.Settings
	useVector, useKeyword bool
	n                     int // candidates per leg
	metadata              []byte
	filtered              bool
	// partialVectors: the model has vectors of only part of the tenant's
	// chunks, so an empty vector leg says nothing of the filters.
	partialVectors bool
	queryVector    []float32
	model          VectorModel
	chunkCount     int64
}

// Search runs req for tenant t: plan → embed → retrieve → fuse → rerank →
// assess → cut. Errors: the Validate errors, ErrInvalidFilter; store errors
// (store.ErrUnavailable when the database is down). A failing embedder or
// reranker does not fail the search: it is skipped and Degraded is set,
// with the reason in DegradedReasons; so is the vector leg when the
// question is mostly in scripts the embedding model does not represent.
func (s *Searcher) Search(ctx context.Context, t tenant.Tenant, req Request) (Response, error) {
	p, err := s.plan(t, req)
	if err != nil {
		return Response{}, err
	}
	p.chunkCount = int64(t.ChunkCount)
	resp := Response{Timings: map[string]float64{}}
	s.pickModel(ctx, t, &p, &resp)
	if err := s.embedQuery(ctx, &p, &resp); err != nil {
		return resp, err
	}
	legs, err := s.retrieve(ctx, t, p, &resp)
	if err != nil {
		return resp, err
	}
	if p.useVector {
		resp.VectorModel = p.model.Embedder.Model()
	}
	start := time.Now()
	results := s.fuse(p, legs)
	resp.Timings["fuse"] = ms(time.Since(start))
	// Assessed after the rerank: the confidence's reasons name what the
	// best passages the caller gets do or do not write (strayName).
	results = s.rerank(ctx, p, results, &resp)
	s.assess(p, legs, results, &resp)
	resp.Results = cut(results, p.req.TopK)
	coverage := answer.Coverage(p.req.Query)
	for i := range resp.Results[:min(len(resp.Results), matchedResults)] {
		r := &resp.Results[i]
		r.MatchHeadingPath, r.MatchAnchor, r.MatchOffset = matchSection(coverage, chunkContent{HeadingPath: r.HeadingPath, Content: r.Content,
			StartOffset: int32(r.StartOffset), EndOffset: int32(r.EndOffset), Anchor: r.Anchor,
			Sections: r.sections, SectionAnchors: r.sectionAnchors, AnchorMarks: r.anchorMarks})
	}
	return resp, nil
}

// Legs reports which legs a search with effective settings set asks for:
// each leg of positive weight, both when both weigh 0. At run time the
// vector leg may still be left out (its model does not represent the
// question's script, or embedding fails); the keyword leg then runs alone.
func Legs(set tenant.Settings) (vector, keyword bool) {
	vector, keyword = *set.VectorWeight > 0, *set.KeywordWeight > 0
	if !vector && !keyword {
		return true, true
	}
	return vector, keyword
}

// plan validates req and decides the legs and their depth.
func (s *Searcher) plan(t tenant.Tenant, req Request) (plan, error) {
	if err := s.Validate(&req); err != nil {
		return plan{}, err
	}
	p := plan{req: req, set: s.Settings(t, req.Settings), metadata: []byte("{}")}
	switch req.Only {
	case LegVector:
		p.useVector = true
	case LegKeyword:
		p.useKeyword = true
	default:
		p.useVector, p.useKeyword = Legs(p.set)
	}
	p.n = max(p.set.Candidates, req.TopK)
	if s.Reranker != nil && !req.NoRerank {
		p.n = max(p.n, rerankDepth)
	}
	if len(req.Metadata) > 0 {
		if store.JSONDepth(req.Metadata) > store.MaxJSONDepth {
			return plan{}, fmt.Errorf("%w: it nests more than %d levels", ErrInvalidFilter, store.MaxJSONDepth)
		}
		var err error
		if p.metadata, err = json.Marshal(req.Metadata); err != nil {
			return plan{}, fmt.Errorf("%w: %v", ErrInvalidFilter, err)
		}
	}
	p.filtered = req.SourceURIPrefix != "" || len(req.Metadata) > 0
	return p, nil
}

// pickModel resolves the tenant's embedding model. A model that cannot be
// resolved drops the vector leg; one that does not cover every chunk of the
// tenant is used but reported (Degraded): never a silent gap.
func (s *Searcher) pickModel(ctx context.Context, t tenant.Tenant, p *plan, resp *Response) {
	m, err := s.model(ctx, t)
	if err != nil {
		if p.useVector {
			s.logger().Warn("search: the tenant's embedding model is unavailable; keyword leg only", "err", err)
			// The reason names no internal error text (it is logged).
			resp.degrade(Degradation{Leg: LegVector, Reason: "the tenant's embedding model could not be loaded"})
			p.useVector, p.useKeyword = false, true
		}
		return
	}
	p.model = m
	p.partialVectors = m.Embedded < m.Chunks
	if p.useVector && m.Embedded < m.Chunks {
		// A share, not counts: the counts include chunks of documents the
		// caller may not read.
		resp.degrade(Degradation{Leg: LegVector, Reason: fmt.Sprintf("the embedding model %s covers %.1f%% of the tenant's chunks; the vector leg cannot find the others",
			m.Embedder.Model(), 100*float64(m.Embedded)/float64(m.Chunks))})
	}
}

// embedQuery embeds the query for the vector leg. A failing embedder drops
// the leg (keyword leg only, Degraded); only a cancelled request fails.
func (s *Searcher) embedQuery(ctx context.Context, p *plan, resp *Response) error {
	if !p.useVector {
		return nil
	}
	emb := p.model.Embedder
	// A search asked for the vector leg alone (an evaluation's ablation)
	// gets no keyword results in its place: the report would show the
	// keyword leg's figures as the vector leg's.
	fallback := p.req.Only != LegVector
	if d, gap := scriptGap(emb, p.req.Query); gap {
		resp.degrade(d)
		p.useVector, p.useKeyword = false, fallback
		return nil
	}
	start := time.Now()
	vecs, err := emb.Embed(ctx, []string{p.model.QueryPrefix + p.req.Query})
	resp.Timings["embed"] = ms(time.Since(start))
	if err == nil && len(vecs) == 1 {
		p.queryVector = vecs[0]
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	s.logger().Warn("search: embedding the query failed; keyword leg only", "err", err)
	resp.degrade(embedFailed(emb.Model(), err))
	p.useVector, p.useKeyword = false, fallback
	return nil
}

// retrieve runs both legs in one round trip inside the tenant transaction.
func (s *Searcher) retrieve(ctx context.Context, t tenant.Tenant, p plan, resp *Response) (legResults, error) {
	var res legResults
	lq := legQuery{model: p.model, tenantID: t.ID, chunkCount: t.ChunkCount, tsConfig: t.TSConfig, n: p.n, vectorN: s.vectorDepth(p.model.Embedder, p.n), k1: p.set.K1, b: *p.set.B,
		filtered: p.filtered, prefix: p.req.SourceURIPrefix, metadata: p.metadata}
	if p.useVector {
		lq.vector = p.queryVector
	}
	res.names = namesOf(p.req.Query)
	if p.useKeyword {
		lq.keywordText = analyze.Query(p.req.Query)
		lq.requiredText = lq.keywordText
		lq.legText = lq.keywordText
		for _, a := range analyze.Alternates(p.req.Query, t.TSConfig) {
			lq.alternates = append(lq.alternates, a)
			lq.keywordText += "\n" + a.Form
			if a.Inflected {
				// Searched only where no readable chunk has the word
				// as written (store.KeywordLegParams.Words).
				lq.words, lq.forms = append(lq.words, a.Word), append(lq.forms, a.Form)
			} else {
				lq.legText += "\n" + a.Form
			}
		}
		lq.ordinary = ordinaryWords(p.req.Query)
		lq.kana = analyze.HasKana(p.req.Query)
		lq.wording = requestWording(p.req.Query)
		_, lq.phrasing = analyze.QuestionLanguage(p.req.Query)
		lq.probes = res.names.probes
		lq.releaseNames, lq.releaseDotted = res.names.releaseNames()
		lq.bareNumbers, lq.bareSpellings = res.names.bareSpellings()
		lq.releases = res.names.releases
		lq.families = res.names.families
	}
	start := time.Now()
	var err error
	if lq.vector != nil && lq.keywordText != "" && s.spareConnections() {
		err = s.retrieveApart(ctx, lq, &res)
		resp.LegsApart = true
	} else {
		err = s.retrieveTogether(ctx, lq, &res)
	}
	if err != nil {
		return res, fmt.Errorf("retrieve: %w", err)
	}
	// "retrieve" is the legs' time together (a single leg's time under
	// that leg's name as well).
	resp.Timings["retrieve"] = ms(time.Since(start))
	switch {
	case p.useVector && !p.useKeyword:
		resp.Timings["vector"] = resp.Timings["retrieve"]
	case p.useKeyword && !p.useVector:
		resp.Timings["keyword"] = resp.Timings["retrieve"]
	}
	creditJoined(res.kw, res.compounds)
	res.vecRead = len(res.vec)
	res.vec = s.representable(p.model.Embedder, res.vec)
	res.vec = res.vec[:min(len(res.vec), p.n)]
	res.ranVector = p.useVector
	res.ranKeyword = p.useKeyword && res.lexemes > 0
	resp.KeywordSkipped = p.useKeyword && res.lexemes == 0
	return res, nil
}

// retrieveTogether runs the legs in one round trip, one tenant transaction.
func (s *Searcher) retrieveTogether(ctx context.Context, q legQuery, out *legResults) error {
	b := &pgx.Batch{}
	if err := s.queueRetrieval(b, q, out); err != nil {
		return err
	}
	var opts []store.BatchOption
	if q.genericPlans() {
		opts = append(opts, store.GenericPlans())
	}
	return store.SendTenantBatch(ctx, s.Pool, q.tenantID, b, opts...)
}

// retrieveApart runs the keyword leg and the vector leg at once, each in
// its own tenant transaction on its own connection: a hybrid search then
// takes about as long as its slower leg instead of both (on the 1M
// benchmark's 43,000-chunk tenants, keyword p95 10.8 ms and vector 8.6 ms
// gave hybrid 18.4 ms in one batch; docs/BENCHMARKS.md). Each transaction
// sets the tenant and the caller's principals itself, so row-level security
// filters both as in one, and both read one snapshot
// (store.SendTenantBatchPair).
func (s *Searcher) retrieveApart(ctx context.Context, q legQuery, out *legResults) error {
	kb, vb := &pgx.Batch{}, &pgx.Batch{}
	// The legs' callbacks write disjoint fields of out.
	s.queueKeyword(kb, q, out)
	if err := s.queueVector(vb, q, false, out); err != nil {
		return err
	}
	return store.SendTenantBatchPair(ctx, s.Pool, q.tenantID, kb, true, vb, false)
}

// spareConnections reports whether a hybrid search may take a second
// connection for its vector leg (retrieveApart): while fewer of the pool's
// connections are in use than ParallelBelow. Under load every core is
// already busy with other searches, and two transactions per search would
// only add their overhead and hold twice the connections.
func (s *Searcher) spareConnections() bool {
	below := s.ParallelBelow
	if below <= 0 {
		below = max(1, runtime.NumCPU()/2)
	}
	return s.ParallelBelow >= 0 && int(s.Pool.Stat().AcquiredConns()) < below
}

// fuse combines the legs into results with their explain fields, best
// first; fused searches are diversified (Diversify), single-leg searches
// (evaluation ablations) keep the leg's raw order.
func (s *Searcher) fuse(p plan, legs legResults) []Result {
	set := p.set
	if p.req.Only != "" {
		// A single-leg search (an evaluation ablation) is the leg's raw order.
		set.DocumentWeight = ptr(0.0)
	}
	fused := Combine(set, scored(legs.vec, p.chunkCount), scored(legs.kw, p.chunkCount))
	content := make(map[uuid.UUID]chunkContent, len(legs.vec)+len(legs.kw))
	vecRank := make(map[uuid.UUID]int, len(legs.vec))
	kwRank := make(map[uuid.UUID]int, len(legs.kw))
	for i, h := range legs.vec {
		content[h.id] = h.chunk
		vecRank[h.id] = i
	}
	for i, h := range legs.kw {
		content[h.id] = h.chunk
		kwRank[h.id] = i
	}
	results := make([]Result, 0, len(fused))
	for _, f := range fused {
		c, ok := content[f.ID]
		if !ok {
			continue
		}
		r := Result{ChunkID: f.ID, DocumentID: c.DocumentID, SourceURI: c.SourceURI, Title: c.Title, HeadingPath: c.HeadingPath,
			Content: c.Content, ChunkIndex: int(c.ChunkIndex), StartOffset: int(c.StartOffset), EndOffset: int(c.EndOffset), Score: f.Score,
			Anchor: c.Anchor, DocumentShare: docShare(c.DocChunks, p.chunkCount),
			sections: c.Sections, sectionAnchors: c.SectionAnchors, anchorMarks: c.AnchorMarks}
		if c.PageStart > 0 {
			r.PageStart, r.PageEnd = ptr(int(c.PageStart)), ptr(int(c.PageEnd))
			if r.Anchor == "" {
				r.Anchor = PageAnchor(int(c.PageStart))
			}
		}
		if i, ok := vecRank[f.ID]; ok {
			r.VectorRank, r.VectorDistance = ptr(i+1), ptr(legs.vec[i].value)
		}
		if i, ok := kwRank[f.ID]; ok {
			r.KeywordRank, r.KeywordScore = ptr(i+1), ptr(legs.kw[i].value)
		}
		results = append(results, r)
	}
	if p.req.Only == "" {
		results = Arrange(p.req.Query, results, s.DocumentCap())
	}
	return results
}

// Combine fuses the legs' candidates (best first) by the method and weights
// in set (an effective configuration: Searcher.Settings). Both the search
// path and the evaluation's in-memory grids call it, so what is tuned is
// what is served.
func Combine(set tenant.Settings, vector, keyword []Scored) []Fused {
	wv, wk := *set.VectorWeight, *set.KeywordWeight
	if len(vector) == 0 || len(keyword) == 0 {
		// One leg ran (an ablation, a failed embedder, a question in a
		// script the model does not represent, a stop-word query): its own
		// order, whatever the weights and the fusion method; a leg the
		// tenant weights 0 runs only when the other could not.
		wv, wk = 1, 1
		if len(vector) == 0 {
			wv = 0
		} else {
			wk = 0
		}
	}
	if set.Fusion == FusionRRF {
		ids := func(hs []Scored) []uuid.UUID {
			out := make([]uuid.UUID, len(hs))
			for i, h := range hs {
				out[i] = h.ID
			}
			return out
		}
		return Fuse(set.RRFK, []Ranking{{Weight: wv, IDs: ids(vector)}, {Weight: wk, IDs: ids(keyword)}})
	}
	return FuseConvex(wv, wk, *set.DocumentWeight, vector, keyword)
}

func scored(hits []legHit, chunkCount int64) []Scored {
	out := make([]Scored, len(hits))
	for i, h := range hits {
		out[i] = Scored{ID: h.id, Doc: h.chunk.DocumentID, Value: h.value, DocShare: docShare(h.chunk.DocChunks, chunkCount)}
	}
	return out
}

// docShare is a document's share of its tenant's chunks (0 when either
// count is unknown).
func docShare(docChunks int32, chunkCount int64) float64 {
	if docChunks <= 0 || chunkCount <= 0 {
		return 0
	}
	return min(1, float64(docChunks)/float64(chunkCount))
}

// rerankDepth is how many fused results the reranker reorders; it also
// sees each leg's first rerankLegDepth candidates wherever fusion put them.
const (
	rerankDepth    = 20
	rerankLegDepth = 5
)

// rerank reorders the fused top rerankDepth, with each leg's best
// candidates, through the reranker when one is configured: a leg that
// fusion weights down for the tenant's model (a weak local model) must not
// hide its best candidates from a model that judges them. A failing
// reranker keeps the fused order (Degraded).
func (s *Searcher) rerank(ctx context.Context, p plan, results []Result, resp *Response) []Result {
	if s.Reranker == nil || p.req.NoRerank || len(results) == 0 {
		return results
	}
	start := time.Now()
	top := results[:min(rerankDepth, len(results)):min(rerankDepth, len(results))]
	for _, r := range results[len(top):] {
		if r.VectorRank != nil && *r.VectorRank <= rerankLegDepth || r.KeywordRank != nil && *r.KeywordRank <= rerankLegDepth {
			top = append(top, r)
		}
	}
	docs := make([]string, len(top))
	for i, r := range top {
		docs[i] = r.HeadingPath + "\n" + r.Content
	}
	scores, err := s.Reranker.Rerank(ctx, p.req.Query, docs)
	resp.Timings["rerank"] = ms(time.Since(start))
	if err != nil {
		s.logger().Warn("search: rerank failed; fused order kept", "err", err)
		resp.degrade(rerankFailed(err))
		return results
	}
	reranked := make([]Result, 0, len(results))
	scored := make(map[uuid.UUID]bool, len(top))
	for _, sc := range scores {
		if sc.Index < 0 || sc.Index >= len(top) || scored[top[sc.Index].ChunkID] {
			continue // out of range, or an index the reranker repeated
		}
		r := top[sc.Index]
		r.RerankScore = ptr(sc.Score)
		reranked = append(reranked, r)
		scored[r.ChunkID] = true
	}
	if len(reranked) == 0 {
		return results
	}
	// A reranker reorders the head it was sent; it does not shorten the
	// list: the fused results it did not score follow in their fused order,
	// so top_k past the reranked depth is still honoured.
	for _, r := range results {
		if !scored[r.ChunkID] {
			reranked = append(reranked, r)
		}
	}
	return reranked
}

// cut keeps the first topK results and numbers them from 1.
func cut(results []Result, topK int) []Result {
	if len(results) > topK {
		results = results[:topK]
	}
	for i := range results {
		results[i].Rank = i + 1
	}
	return results
}

func ptr[T any](v T) *T { return &v }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// PageAnchor is the fragment identifier of page n (1-based) of a PDF,
// "page=n" (RFC 8118, which PDF viewers and browsers follow): a paged
// document's results and citations link to their page as an HTML page's
// link to their section. The chunker marks a chunk's later pages with it.
func PageAnchor(n int) string { return chunk.PageAnchor(n) }

// AnchorPage returns the page a PageAnchor names (chunk.AnchorPage).
func AnchorPage(anchor string) (int, bool) { return chunk.AnchorPage(anchor) }

// IsPageAnchor reports whether anchor is a PageAnchor.
func IsPageAnchor(anchor string) bool {
	_, ok := chunk.AnchorPage(anchor)
	return ok
}

// Link is the address of anchor on the document at sourceURI:
// sourceURI#anchor, or sourceURI alone when there is no anchor or the
// source_uri already names a fragment.
func Link(sourceURI, anchor string) string {
	if anchor == "" || strings.Contains(sourceURI, "#") {
		return sourceURI
	}
	return sourceURI + "#" + anchor
}
