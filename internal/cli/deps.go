package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/ask"
	"github.com/ragd-dev/ragd/internal/chunk"
	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/llm"
	"github.com/ragd-dev/ragd/internal/rerank"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// deps are the long-lived pieces shared by serve, ingest, search, ask and eval.
type deps struct {
	pool     *pgxpool.Pool
	embedder embed.Embedder
	modelID  int16
	pipeline *ingest.Pipeline
	searcher *search.Searcher
	asker    *ask.Service
}

// openDeps connects the application-role pool and builds the embedder,
// ingestion pipeline and searcher from the configuration.
func openDeps(ctx context.Context, e *env) (*deps, error) {
	if err := e.cfg.Validate(false); err != nil {
		return nil, usagef("configuration: %v", err)
	}
	pool, err := store.Open(ctx, e.cfg.DatabaseURL, store.Options{MaxConns: int32(e.cfg.MaxConns), Logger: e.log})
	if err != nil {
		return nil, err
	}
	d := &deps{pool: pool}
	if err := d.init(ctx, e); err != nil {
		pool.Close()
		return nil, err
	}
	return d, nil
}

func (d *deps) init(ctx context.Context, e *env) error {
	cfg := e.cfg
	var err error
	if cfg.EmbedBaseURL != "" {
		d.embedder, err = embed.NewOpenAI(cfg.EmbedBaseURL, cfg.EmbedModel, cfg.EmbedDims,
			embed.WithOpenAIAPIKey(cfg.EmbedAPIKey), embed.WithOpenAITimeout(cfg.ProviderTimeout), embed.WithOpenAILogger(e.log),
			embed.WithOpenAIScripts(cfg.EmbedScripts...))
	} else {
		d.embedder, err = embed.NewLocal(cfg.ModelDir)
	}
	if err != nil {
		return err
	}
	m, err := store.New().GetEmbeddingModel(ctx, d.pool, d.embedder.Model())
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("embedding model %q is not registered in the database (run `ragd migrate up`; other models need their own HNSW index)", d.embedder.Model())
	}
	if err != nil {
		return fmt.Errorf("look up embedding model: %w (is the database migrated? run `ragd migrate up`)", err)
	}
	if int(m.Dims) != d.embedder.Dims() {
		return fmt.Errorf("embedding model %q has %d dimensions in the registry but the embedder returns %d", m.Name, m.Dims, d.embedder.Dims())
	}
	d.modelID = m.ID
	if d.pipeline, err = ingest.New(d.pool, d.embedder, d.modelID, ingest.WithLogger(e.log), ingest.WithMaxBytes(int(cfg.MaxBodyBytes)),
		ingest.WithChunkConfig(chunkConfig(cfg)), ingest.WithEmbedText(cfg.EmbedText)); err != nil {
		return err
	}
	d.searcher = &search.Searcher{Pool: d.pool, Embedder: d.embedder, ModelID: d.modelID, VectorPrior: float64(m.VectorWeight), ExactThreshold: cfg.ExactThreshold,
		PerTermLimit: cfg.KeywordPerTerm, MaxQueryChars: cfg.MaxQueryChars, MaxTopK: cfg.MaxTopK, Logger: e.log}
	if cfg.RerankBaseURL != "" {
		if d.searcher.Reranker, err = rerank.New(cfg.RerankBaseURL, cfg.RerankModel, rerank.WithAPIKey(cfg.RerankAPIKey),
			rerank.WithTimeout(cfg.ProviderTimeout), rerank.WithLogger(e.log)); err != nil {
			return err
		}
	}
	var gen *llm.Client
	if cfg.LLMBaseURL != "" {
		if gen, err = llm.New(cfg.LLMBaseURL, cfg.LLMModel, llm.WithAPIKey(cfg.LLMAPIKey), llm.WithTimeout(cfg.ProviderTimeout), llm.WithLogger(e.log)); err != nil {
			return err
		}
	}
	d.asker = &ask.Service{Searcher: d.searcher, Answerer: answer.New(gen, answer.WithLogger(e.log))}
	return nil
}

func (d *deps) close() { d.pool.Close() }

// tenantFor resolves a slug to the tenant (owner pool for the slug lookup,
// then the tenant's own transaction through the application pool).
func (d *deps) tenantFor(ctx context.Context, e *env, slug string) (tenant.Tenant, error) {
	admin, err := store.Open(ctx, e.cfg.AdminDatabaseURL, store.Options{MaxConns: 1, Logger: e.log})
	if err != nil {
		return tenant.Tenant{}, err
	}
	defer admin.Close()
	row, err := tenantBySlug(ctx, admin, slug)
	if err != nil {
		return tenant.Tenant{}, err
	}
	t, err := tenant.Load(ctx, d.pool, row.ID)
	if errors.Is(err, tenant.ErrDisabled) {
		return t, fmt.Errorf("tenant %q is disabled (ragd tenant enable --slug %s)", slug, slug)
	}
	return t, err
}

// chunkConfig is chunk.DefaultConfig with the RAGD_CHUNK_* overrides (0 or
// negative = default).
func chunkConfig(cfg config.Config) chunk.Config {
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
