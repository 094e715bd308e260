// Package app wires ragd's request path from the configuration and an
// application-role pool: embedder → ingestion pipeline → searcher (with the
// optional reranker) → answerer (LLM or extractive) → ask service →
// evaluation service → background ingestion jobs, and the api.Deps that
// `ragd serve` serves with.
//
// It is the one place this wiring exists. `ragd serve` and the other CLI
// commands build through New, and so do the API and reliability test
// harnesses: a test that replaces a provider does it at the provider
// boundary (WithEmbedder, WithLLM, WithReranker with production clients
// pointed at in-process HTTP servers), never by assembling its own searcher
// or answerer, so what the tests run is what production runs.
package app

import (
	"context"
	"log/slog"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/ask"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/chunk"
	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/followup"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/llm"
	"github.com/ragd-dev/ragd/internal/model"
	"github.com/ragd-dev/ragd/internal/rerank"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/traffic"
	"github.com/ragd-dev/ragd/internal/vindex"
)

// ErrModelNotRegistered: the embedder's model has no embedding_models row.
// Migrations register only the local model (use-lite); another model must be
// registered by the operator (`ragd model register`, as the error's text
// says) before anything is embedded with it.
var ErrModelNotRegistered = model.ErrNotRegistered

// App is ragd's wired request path. Fields are read-only after New.
type App struct {
	Pool     *pgxpool.Pool  // the application-role pool New was given
	Embedder embed.Embedder // the server's default model
	ModelID  int16          // Embedder's embedding_models id
	// Models holds every model the tenants use (Embedder's and the others,
	// built on first use) and picks each tenant's.
	Models *model.Set
	// Switcher runs tenants' model switches (re-embed, flip) in the
	// background; the server kicks it for each request's tenant.
	Switcher  *model.Switcher
	Pipeline  *ingest.Pipeline
	Searcher  *search.Searcher
	Asker     *ask.Service
	Evaluator *eval.Service
	// Jobs are the background ingestion jobs; `ragd serve` runs their
	// workers (Jobs.Run) when RAGD_INGEST_WORKERS > 0.
	Jobs *job.Service
	// Rewriter makes follow-up questions standalone (with the LLM when one
	// is configured).
	Rewriter *followup.Rewriter
	// Recorder buffers retrieval events and usage counters; its writer
	// (Recorder.Run) is started by whoever serves requests.
	Recorder *traffic.Recorder

	cfg config.Config
	log *slog.Logger
}

// Option adjusts New.
type Option func(*options)

type options struct {
	log      *slog.Logger
	embedder embed.Embedder
	gen      *llm.Client
	genSet   bool
	reranker *rerank.Client
	rrSet    bool
}

// WithLogger sets the logger of every component (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// WithEmbedder uses e instead of the embedder the configuration describes
// (the local model at RAGD_MODEL_DIR, or the API at RAGD_EMBED_BASE_URL):
// a model already loaded (the local model takes about 2 s to load), or a
// client with its own retry policy. Its model must be registered.
func WithEmbedder(e embed.Embedder) Option { return func(o *options) { o.embedder = e } }

// WithLLM uses gen (nil: extractive answers) instead of the chat client
// RAGD_LLM_BASE_URL describes.
func WithLLM(gen *llm.Client) Option { return func(o *options) { o.gen, o.genSet = gen, true } }

// WithReranker uses r (nil: no rerank) instead of the client
// RAGD_RERANK_BASE_URL describes.
func WithReranker(r *rerank.Client) Option { return func(o *options) { o.reranker, o.rrSet = r, true } }

// New builds the request path on pool (the application role) from cfg:
// the embedder and its registry row, the ingestion pipeline (chunking from
// RAGD_CHUNK_*, body limit, embedded text), the searcher (exact threshold,
// keyword per-term limit, query and top_k limits, reranker), the answerer
// (LLM or extractive), the ask service and the evaluation service. It reads
// the embedding model registry and nothing else. Errors: an embedder that
// cannot be built (model files, bad URL), ErrModelNotRegistered, a registry
// row whose dimensions differ from the embedder's, an unreadable registry
// (the database is not migrated).
func New(ctx context.Context, cfg config.Config, pool *pgxpool.Pool, opts ...Option) (*App, error) {
	o := options{log: slog.Default()}
	for _, opt := range opts {
		opt(&o)
	}
	a := &App{Pool: pool, Embedder: o.embedder, cfg: cfg, log: o.log}
	var err error
	if a.Embedder == nil {
		if cfg.EmbedBaseURL != "" {
			a.Embedder, err = embed.NewOpenAI(cfg.EmbedBaseURL, cfg.EmbedModel, cfg.EmbedDims,
				embed.WithOpenAIAPIKey(cfg.EmbedAPIKey), embed.WithOpenAITimeout(cfg.ProviderTimeout), embed.WithOpenAILogger(o.log),
				embed.WithOpenAIScripts(cfg.EmbedScripts...))
		} else {
			a.Embedder, err = embed.NewLocal(cfg.ModelDir)
		}
		if err != nil {
			return nil, err
		}
	}
	if a.Models, err = model.NewSet(ctx, pool, cfg, a.Embedder, o.log); err != nil {
		return nil, err
	}
	a.ModelID = a.Models.Default().ID
	prior := a.Models.Default().VectorWeight
	sw := model.OptionsFromConfig(cfg)
	sw.Logger = o.log
	sw.IndexReady = func(ctx context.Context, tenantID uuid.UUID, modelID int16, vectors int64) (bool, error) {
		// The application role cannot build indexes: `ragd tenant index`
		// (or `ragd tenant set-model --wait`) builds the target's.
		if vectors <= cfg.ExactThreshold {
			return true, nil
		}
		return vindex.Built(ctx, pool, tenantID, modelID)
	}
	a.Switcher = model.NewSwitcher(a.Models, pool, sw)
	if a.Pipeline, err = ingest.New(pool, a.Embedder, a.ModelID, ingest.WithLogger(o.log), ingest.WithMaxBytes(int(cfg.MaxBodyBytes)),
		ingest.WithQuota(ingest.Quota{Documents: cfg.QuotaDocuments, Chunks: cfg.QuotaChunks, Bytes: cfg.QuotaBytes}),
		ingest.WithChunkConfig(ChunkConfig(cfg)), ingest.WithEmbedText(cfg.EmbedText), ingest.WithModels(a.Models)); err != nil {
		return nil, err
	}
	a.Searcher = &search.Searcher{Pool: pool, Models: a.Models, Embedder: a.Embedder, ModelID: a.ModelID, VectorPrior: prior, ExactThreshold: cfg.ExactThreshold,
		PerTermLimit: cfg.KeywordPerTerm, MaxQueryChars: cfg.MaxQueryChars, MaxTopK: cfg.MaxTopK, Logger: o.log}
	switch {
	case o.rrSet:
		a.Searcher.Reranker = o.reranker
	case cfg.RerankBaseURL != "":
		if a.Searcher.Reranker, err = rerank.New(cfg.RerankBaseURL, cfg.RerankModel, rerank.WithAPIKey(cfg.RerankAPIKey),
			rerank.WithTimeout(cfg.ProviderTimeout), rerank.WithLogger(o.log)); err != nil {
			return nil, err
		}
	}
	gen := o.gen
	if !o.genSet && cfg.LLMBaseURL != "" {
		if gen, err = llm.New(cfg.LLMBaseURL, cfg.LLMModel, llm.WithAPIKey(cfg.LLMAPIKey), llm.WithTimeout(cfg.ProviderTimeout),
			llm.WithLogger(o.log)); err != nil {
			return nil, err
		}
	}
	a.Asker = &ask.Service{Searcher: a.Searcher, Answerer: answer.New(gen, answer.WithLogger(o.log))}
	a.Rewriter = &followup.Rewriter{LLM: gen, MaxChars: cfg.MaxQueryChars, Log: o.log}
	a.Evaluator = eval.New(pool, a.Searcher, eval.WithLogger(o.log))
	a.Recorder = traffic.New(pool, cfg.EventBuffer, traffic.WithLogger(o.log))
	rec := a.Recorder
	a.Jobs = job.New(pool, a.Pipeline, job.Options{Workers: cfg.IngestWorkers, Lease: cfg.IngestLease, DocumentTimeout: cfg.IngestDocumentTimeout, Logger: o.log,
		OnStored: func(id uuid.UUID, n int) { rec.Count(id, traffic.EmbeddedChunks, int64(n)) }})
	return a, nil
}

// APIDeps are the dependencies `ragd serve` gives api.New: this App's
// pipeline, searcher, ask service (through Asker), evaluation service and jobs,
// the verifier, and the request limits of the configuration.
func (a *App) APIDeps(v *auth.Verifier) api.Deps {
	return api.Deps{Pool: a.Pool, Verifier: v, Searcher: a.Searcher, Ingester: a.Pipeline, Asker: Asker{a.Asker},
		Evaluator: a.Evaluator, Jobs: a.Jobs, Embedder: a.Embedder, Models: a.Models, Switcher: a.Switcher, Logger: a.log, Limits: api.LimitsFromConfig(a.cfg),
		Recorder: a.Recorder, Rewriter: a.Rewriter}
}

// Asker serves POST /v1/answer with an ask.Service (api.Asker).
type Asker struct{ Service *ask.Service }

// Ask answers through the ask service and shapes its Response as an
// api.AskResult, stage timings included. Errors: those of ask.Service.Ask.
func (a Asker) Ask(ctx context.Context, t tenant.Tenant, req search.Request, onDelta func(string) error) (api.AskResult, error) {
	r, err := a.Service.Ask(ctx, t, req, onDelta)
	if err != nil {
		return api.AskResult{}, err
	}
	out := api.AskResult{Answer: r.Answer, Refused: r.Refused, RefusalReason: r.RefusalReason, Confidence: r.Confidence,
		ConfidenceReason: r.ConfidenceReason, MissingTerms: r.MissingTerms, Mode: r.Mode, Degraded: r.Degraded,
		Citations: r.Citations, Sources: r.Sources, Timings: r.Timings, Retrieved: r.Retrieved, RefuseBelow: r.RefuseBelow}
	for _, d := range r.DegradedReasons {
		out.DegradedReasons = append(out.DegradedReasons, api.Degradation{Leg: string(d.Leg), Reason: d.Reason})
	}
	return out, nil
}

// ChunkConfig is chunk.DefaultConfig with the RAGD_CHUNK_* overrides (0 or
// negative = default).
func ChunkConfig(cfg config.Config) chunk.Config {
	c := chunk.DefaultConfig()
	if cfg.ChunkTargetTokens > 0 {
		c.TargetTokens = cfg.ChunkTargetTokens
		c.MinTokens = min(c.MinTokens, c.TargetTokens/4)
		c.MaxTokens = max(c.TargetTokens, c.TargetTokens*3/2)
		c.OverlapTokens = min(c.OverlapTokens, c.TargetTokens/2)
	}
	if cfg.ChunkMaxTokens > 0 {
		c.MaxTokens = max(cfg.ChunkMaxTokens, c.TargetTokens)
	}
	if cfg.ChunkOverlap >= 0 {
		c.OverlapTokens = min(cfg.ChunkOverlap, c.TargetTokens/2)
	}
	return c
}
