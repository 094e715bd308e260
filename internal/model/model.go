// Package model is the embedding models' lifecycle: the registry
// (embedding_models: how each model is served, its prefixes and status),
// the set of embedders a process holds (the local model and any number of
// API models, each built on first use from its registry row and the
// configuration), each tenant's active model, and the blue/green switch of
// a tenant from one model to another (switch.go).
//
// Vectors of two models are never compared: a search embeds its query with
// the tenant's active model and its vector leg reads only that model's
// vectors (search.VectorModel); a write embeds with the active model and,
// during a switch, with the target model too (ingest.Models).
package model

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// Providers.
const (
	// ProviderLocal is the in-process USE-lite model (RAGD_MODEL_DIR).
	ProviderLocal = "local"
	// ProviderOpenAI is any server speaking the OpenAI embeddings API.
	ProviderOpenAI = "openai-compatible"
)

// Statuses.
const (
	StatusActive  = "active"
	StatusRetired = "retired"
)

// ErrNotRegistered: no embedding_models row has the name (or id).
var ErrNotRegistered = errors.New("embedding model is not registered")

// ErrRetired: a tenant cannot switch to a retired model.
var ErrRetired = errors.New("embedding model is retired")

// ErrInvalid: a registration's fields are out of range; the error says which.
var ErrInvalid = errors.New("invalid embedding model")

// Model is one registry row.
type Model struct {
	ID       int16  `json:"id"`
	Name     string `json:"name"`
	Provider string `json:"provider"`
	Dims     int    `json:"dims"`
	Distance string `json:"distance"`
	// Endpoint is the API root of an openai-compatible model ("" =
	// RAGD_EMBED_BASE_URL). Its key is configuration, never stored.
	Endpoint       string `json:"endpoint,omitempty"`
	QueryPrefix    string `json:"query_prefix,omitempty"`
	DocumentPrefix string `json:"document_prefix,omitempty"`
	// MaxInputTokens is the most tokens the model reads (0: unknown); longer
	// texts are cut before they are sent to an API model.
	MaxInputTokens int `json:"max_input_tokens,omitempty"`
	// VectorWeight is the vector leg's fusion prior against the keyword
	// leg's 1.
	VectorWeight float64   `json:"vector_weight"`
	Status       string    `json:"status"`
	CreatedAt    time.Time `json:"created_at"`
}

func fromRow(r store.GetEmbeddingModelByIDRow) Model {
	return Model{ID: r.ID, Name: r.Name, Provider: r.Provider, Dims: int(r.Dims), Distance: r.Distance, Endpoint: r.Endpoint,
		QueryPrefix: r.QueryPrefix, DocumentPrefix: r.DocumentPrefix, MaxInputTokens: int(r.MaxInputTokens),
		VectorWeight: float64(r.VectorWeight), Status: r.Status, CreatedAt: r.CreatedAt.Time}
}

// Registration is what `ragd model register` stores.
type Registration struct {
	Name           string
	Provider       string // ProviderLocal or ProviderOpenAI
	Dims           int
	Endpoint       string
	QueryPrefix    string
	DocumentPrefix string
	MaxInputTokens int
	// VectorWeight is the fusion prior; 0 = 1 (as much as the keyword leg).
	VectorWeight float64
}

// MaxDims is the most dimensions a model may have: vectors are stored
// inline in their row (migration 00004, for the scans' speed), and a row
// holds about 2,030 single-precision dimensions; pgvector's HNSW over
// halfvec would index up to 4,000.
const MaxDims = 2000

// Register adds a model to the registry (owner is the owner role's pool).
// Errors: ErrInvalid (with the field), store.ErrConflict when the name is
// taken.
func Register(ctx context.Context, owner store.DBTX, r Registration) (Model, error) {
	if r.VectorWeight == 0 {
		r.VectorWeight = 1
	}
	switch {
	case r.Name == "" || len(r.Name) > 200 || strings.ContainsAny(r.Name, " \t\r\n") || !utf8.ValidString(r.Name):
		return Model{}, fmt.Errorf("%w: the name must be 1-200 bytes without spaces", ErrInvalid)
	case r.Provider != ProviderLocal && r.Provider != ProviderOpenAI:
		return Model{}, fmt.Errorf("%w: provider must be %s or %s", ErrInvalid, ProviderLocal, ProviderOpenAI)
	case r.Provider == ProviderLocal && r.Name != embed.LocalModelName:
		return Model{}, fmt.Errorf("%w: the local provider serves only %s", ErrInvalid, embed.LocalModelName)
	case r.Dims < 1 || r.Dims > MaxDims:
		return Model{}, fmt.Errorf("%w: dims must be 1-%d (vectors are stored inline in their row)", ErrInvalid, MaxDims)
	case r.Endpoint != "" && r.Provider == ProviderLocal:
		return Model{}, fmt.Errorf("%w: a local model has no endpoint", ErrInvalid)
	case r.Endpoint != "" && !validEndpoint(r.Endpoint):
		return Model{}, fmt.Errorf("%w: the endpoint must be an http(s) URL without credentials (the key goes in RAGD_EMBED_API_KEYS)", ErrInvalid)
	case len(r.QueryPrefix) > 200 || len(r.DocumentPrefix) > 200:
		return Model{}, fmt.Errorf("%w: prefixes are at most 200 bytes", ErrInvalid)
	case r.MaxInputTokens < 0 || r.MaxInputTokens > 1000000:
		return Model{}, fmt.Errorf("%w: max input tokens must be 0-1000000", ErrInvalid)
	case r.VectorWeight <= 0 || r.VectorWeight > 100:
		return Model{}, fmt.Errorf("%w: the vector weight must be in (0, 100]", ErrInvalid)
	}
	row, err := store.New().RegisterEmbeddingModel(ctx, owner, store.RegisterEmbeddingModelParams{Name: r.Name, Dims: int32(r.Dims),
		Provider: r.Provider, Endpoint: r.Endpoint, QueryPrefix: r.QueryPrefix, DocumentPrefix: r.DocumentPrefix,
		MaxInputTokens: int32(r.MaxInputTokens), VectorWeight: float32(r.VectorWeight)})
	if err != nil {
		return Model{}, store.Translate(err)
	}
	return fromRow(store.GetEmbeddingModelByIDRow(row)), nil
}

// validEndpoint: an absolute http(s) URL with a host and no user info.
func validEndpoint(u string) bool {
	rest, ok := strings.CutPrefix(u, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(u, "http://")
	}
	host, _, _ := strings.Cut(rest, "/")
	return ok && host != "" && !strings.Contains(host, "@") && !strings.ContainsAny(u, " \t\r\n") && len(u) <= 2048
}

// List returns the registry in id order.
func List(ctx context.Context, db store.DBTX) ([]Model, error) {
	rows, err := store.New().ListRegisteredModels(ctx, db)
	if err != nil {
		return nil, err
	}
	out := make([]Model, len(rows))
	for i, r := range rows {
		out[i] = fromRow(store.GetEmbeddingModelByIDRow(r))
	}
	return out, nil
}

// ByName returns the model registered as name. Errors: ErrNotRegistered.
func ByName(ctx context.Context, db store.DBTX, name string) (Model, error) {
	r, err := store.New().GetEmbeddingModel(ctx, db, name)
	if errors.Is(err, store.ErrNotFound) {
		return Model{}, fmt.Errorf("%w: %q (`ragd model list` shows the registry; `ragd model register` adds one)", ErrNotRegistered, name)
	}
	if err != nil {
		return Model{}, err
	}
	return fromRow(store.GetEmbeddingModelByIDRow(r)), nil
}

// ByID returns the model with id. Errors: ErrNotRegistered.
func ByID(ctx context.Context, db store.DBTX, id int16) (Model, error) { return byID(ctx, db, id) }

// byID returns the model with id. Errors: ErrNotRegistered.
func byID(ctx context.Context, db store.DBTX, id int16) (Model, error) {
	r, err := store.New().GetEmbeddingModelByID(ctx, db, id)
	if errors.Is(err, store.ErrNotFound) {
		return Model{}, fmt.Errorf("%w: id %d", ErrNotRegistered, id)
	}
	if err != nil {
		return Model{}, err
	}
	return fromRow(r), nil
}

// SetStatus retires (or reactivates) the model registered as name. A
// retired model keeps serving the tenants on it; no tenant can switch to
// it. Errors: ErrNotRegistered.
func SetStatus(ctx context.Context, owner store.DBTX, name, status string) (Model, error) {
	r, err := store.New().SetEmbeddingModelStatus(ctx, owner, store.SetEmbeddingModelStatusParams{Name: name, Status: status})
	if errors.Is(err, store.ErrNotFound) {
		return Model{}, fmt.Errorf("%w: %q", ErrNotRegistered, name)
	}
	if err != nil {
		return Model{}, err
	}
	return fromRow(store.GetEmbeddingModelByIDRow(r)), nil
}

// Set holds the embedders of one process, keyed by registry id: the
// server's default model (given to NewSet) and every other model, built on
// first use from its registry row and the configuration. Safe for
// concurrent use.
type Set struct {
	pool *pgxpool.Pool
	cfg  config.Config
	log  *slog.Logger
	def  Model
	// CoverageTTL is how long a tenant's coverage of a model is reused by
	// searches (default 5 s): coverage is a count over the tenant's vectors.
	CoverageTTL time.Duration

	mu   sync.Mutex
	rows map[int16]Model
	embs map[int16]embed.Embedder
	cov  map[covKey]covEntry
}

type covKey struct {
	tenant uuid.UUID
	model  int16
}

type covEntry struct {
	at               time.Time
	chunks, embedded int64
}

// DefaultName is the registry name of the server's default model:
// RAGD_EMBED_MODEL with RAGD_EMBED_BASE_URL, else the local model.
func DefaultName(cfg config.Config) string {
	if cfg.EmbedBaseURL != "" {
		return cfg.EmbedModel
	}
	return embed.LocalModelName
}

// NewSet returns the set whose default model is def's (the server's
// default: RAGD_EMBED_MODEL, or the local model); def nil: the model
// DefaultName names, its embedder built on first use (operator commands
// that may embed nothing). pool reads the registry and, in tenant
// transactions, coverage. Errors: ErrNotRegistered with the command that
// registers the default model; a registry row whose dimensions differ from
// def's; an unreadable registry.
func NewSet(ctx context.Context, pool *pgxpool.Pool, cfg config.Config, def embed.Embedder, log *slog.Logger) (*Set, error) {
	if log == nil {
		log = slog.Default()
	}
	name, dims := DefaultName(cfg), cfg.EmbedDims
	if def != nil {
		name, dims = def.Model(), def.Dims()
	}
	m, err := ByName(ctx, pool, name)
	if errors.Is(err, ErrNotRegistered) {
		return nil, fmt.Errorf("%w: %q (migrations register only %s): as the owner role, run "+
			"`ragd model register --name %s --dims %d --provider %s%s`; then ingest, or switch a tenant to it with `ragd tenant set-model`",
			ErrNotRegistered, name, embed.LocalModelName, name, dims, ProviderOpenAI, endpointFlag(cfg.EmbedBaseURL))
	}
	if err = store.Translate(err); errors.Is(err, store.ErrUndefinedObject) {
		// Only a missing table means an unmigrated database: a wrong
		// password or an unreachable server must not send the operator
		// to migrations.
		return nil, fmt.Errorf("look up embedding model: %w (is the database migrated? run `ragd migrate up`)", err)
	}
	if err != nil {
		return nil, fmt.Errorf("look up embedding model: %w", err)
	}
	s := &Set{pool: pool, cfg: cfg, log: log, def: m, CoverageTTL: 5 * time.Second,
		rows: map[int16]Model{m.ID: m}, embs: map[int16]embed.Embedder{}, cov: map[covKey]covEntry{}}
	if def != nil {
		if m.Dims != def.Dims() {
			return nil, fmt.Errorf("embedding model %q has %d dimensions in the registry but the embedder returns %d", m.Name, m.Dims, def.Dims())
		}
		s.embs[m.ID] = def
	}
	return s, nil
}

func endpointFlag(u string) string {
	if u == "" {
		return ""
	}
	return " --endpoint " + u
}

// Default is the server's default model.
func (s *Set) Default() Model { return s.def }

// Resolve maps a tenant's model id (0: the default) to a registry id.
func (s *Set) Resolve(id int16) int16 {
	if id == 0 {
		return s.def.ID
	}
	return id
}

// Get returns model id (0: the default) and its embedder, built on first
// use: the local model from RAGD_MODEL_DIR, an API model at its endpoint
// (or RAGD_EMBED_BASE_URL) with its key from RAGD_EMBED_API_KEYS (or
// RAGD_EMBED_API_KEY for the configured model). Errors: ErrNotRegistered;
// an embedder that cannot be built.
func (s *Set) Get(ctx context.Context, id int16) (Model, embed.Embedder, error) {
	id = s.Resolve(id)
	s.mu.Lock()
	m, okRow := s.rows[id]
	e, okEmb := s.embs[id]
	s.mu.Unlock()
	if okRow && okEmb {
		return m, e, nil
	}
	if !okRow {
		var err error
		if m, err = byID(ctx, s.pool, id); err != nil {
			return Model{}, nil, err
		}
	}
	e, err := s.build(m)
	if err != nil {
		return Model{}, nil, fmt.Errorf("embedding model %s: %w", m.Name, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if prev, ok := s.embs[id]; ok { // built concurrently: keep one
		return s.rows[id], prev, nil
	}
	s.rows[id], s.embs[id] = m, e
	return m, e, nil
}

// build makes m's embedder.
func (s *Set) build(m Model) (embed.Embedder, error) {
	if m.Provider == ProviderLocal {
		s.mu.Lock()
		for _, e := range s.embs {
			if e.Model() == m.Name { // loaded already (about 2 s to load)
				s.mu.Unlock()
				return e, nil
			}
		}
		s.mu.Unlock()
		return embed.NewLocal(s.cfg.ModelDir)
	}
	endpoint := m.Endpoint
	if endpoint == "" {
		endpoint = s.cfg.EmbedBaseURL
	}
	if endpoint == "" {
		return nil, errors.New("no endpoint: register it with --endpoint or set RAGD_EMBED_BASE_URL")
	}
	key := s.cfg.EmbedAPIKeys[m.Name]
	if key == "" && endpoint == s.cfg.EmbedBaseURL {
		// The configured key goes only to the configured API.
		key = s.cfg.EmbedAPIKey
	}
	opts := []embed.OpenAIOption{embed.WithOpenAIAPIKey(key), embed.WithOpenAILogger(s.log)}
	if s.cfg.ProviderTimeout > 0 {
		opts = append(opts, embed.WithOpenAITimeout(s.cfg.ProviderTimeout))
	}
	if m.Name == s.cfg.EmbedModel && len(s.cfg.EmbedScripts) > 0 {
		opts = append(opts, embed.WithOpenAIScripts(s.cfg.EmbedScripts...))
	}
	return embed.NewOpenAI(endpoint, m.Name, m.Dims, opts...)
}

// inTenant is store.InTenant seeing every document of the tenant: a
// model's lifecycle (coverage, re-embedding, the flip, dropping vectors)
// concerns all of the tenant's chunks, whatever the access lists of their
// documents and whoever started it. Read under a caller's visibility, the
// chunks it cannot see counted as uncovered (every search degraded), were
// never re-embedded, and a switch never reached 100 %.
func inTenant(ctx context.Context, db store.Beginner, tenantID uuid.UUID, fn func(pgx.Tx) error) error {
	return store.InTenant(store.WithVisibility(ctx, store.AllDocuments()), db, tenantID, fn)
}

// Coverage returns how many of tenant's chunks there are and how many have
// a vector of model id, read in the tenant's transaction (one snapshot).
// Coverage is the tenant's, whoever asks: both counts include the chunks of
// documents hidden from ctx's principals (tenant_stats counts every chunk,
// so vectors counted under the caller's access list fell short of it for
// anyone who reads less than everything: searches were reported degraded
// and a switch never flipped). Callers that show counts to a person must
// not show these (docs/SECURITY.md).
func Coverage(ctx context.Context, db store.Beginner, tenantID uuid.UUID, id int16) (chunks, embedded int64, err error) {
	err = inTenant(ctx, db, tenantID, func(tx pgx.Tx) error {
		r, err := store.New().ModelCoverage(ctx, tx, store.ModelCoverageParams{TenantID: tenantID, ModelID: id})
		chunks, embedded = r.Chunks, r.Embedded
		return err
	})
	return chunks, embedded, err
}

// ForSearch returns t's active model with its coverage of t's chunks (read
// at most every CoverageTTL per tenant and model). It implements
// search.Models.
func (s *Set) ForSearch(ctx context.Context, t tenant.Tenant) (search.VectorModel, error) {
	m, e, err := s.Get(ctx, t.ModelID)
	if err != nil {
		return search.VectorModel{}, err
	}
	k := covKey{t.ID, m.ID}
	s.mu.Lock()
	c, ok := s.cov[k]
	s.mu.Unlock()
	if !ok || time.Since(c.at) > s.CoverageTTL {
		c.chunks, c.embedded, err = Coverage(ctx, s.pool, t.ID, m.ID)
		if err != nil {
			return search.VectorModel{}, err
		}
		c.at = time.Now()
		s.mu.Lock()
		if len(s.cov) > 100000 { // bound the cache; it refills on demand
			clear(s.cov)
		}
		s.cov[k] = c
		s.mu.Unlock()
	}
	return search.VectorModel{ID: m.ID, Embedder: e, QueryPrefix: m.QueryPrefix, Prior: m.VectorWeight, Chunks: c.chunks, Embedded: c.embedded}, nil
}

// Prior is the fusion prior of t's active model (search.DefaultVectorPrior
// when its row cannot be read). It implements search.Models.
func (s *Set) Prior(t tenant.Tenant) float64 {
	id := s.Resolve(t.ModelID)
	s.mu.Lock()
	m, ok := s.rows[id]
	s.mu.Unlock()
	if !ok {
		var err error
		if m, err = byID(context.Background(), s.pool, id); err != nil {
			return search.DefaultVectorPrior
		}
		s.mu.Lock()
		s.rows[id] = m
		s.mu.Unlock()
	}
	return m.VectorWeight
}

// ForWrite returns the models a document write must embed with: the
// active model and, during a switch, the target. It implements
// ingest.Models.
func (s *Set) ForWrite(ctx context.Context, active, target int16) ([]ingest.WriteModel, error) {
	ids := []int16{s.Resolve(active)}
	if target != 0 && s.Resolve(target) != ids[0] {
		ids = append(ids, target)
	}
	out := make([]ingest.WriteModel, 0, len(ids))
	for _, id := range ids {
		m, e, err := s.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, ingest.WriteModel{ID: m.ID, Embedder: e, Prefix: m.DocumentPrefix, MaxChars: m.maxChars()})
	}
	return out, nil
}

// maxChars bounds the text sent to an API model: about four characters a
// token (the usual estimate for English BPE vocabularies), so that a long
// chunk is cut rather than refused. The local model cuts its own input.
func (m Model) maxChars() int {
	if m.Provider == ProviderLocal || m.MaxInputTokens <= 0 {
		return 0
	}
	return 4 * m.MaxInputTokens
}
