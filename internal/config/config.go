// Package config reads ragd's one configuration struct from RAGD_* environment
// variables. Secrets also accept a _FILE variant holding a path to read
// (Docker/Kubernetes secrets). Validate reports every problem at once, in
// words an operator can act on.
package config

import (
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Config is the whole of ragd's configuration. Zero values are never used: Load
// fills defaults.
type Config struct {
	DatabaseURL      string // RAGD_DATABASE_URL: the application role (RLS applies)
	AdminDatabaseURL string // RAGD_ADMIN_DATABASE_URL: the owner role (migrations, operator CLI)
	AppRole          string // RAGD_APP_ROLE: application role name granted by migrations
	Addr             string // RAGD_ADDR: listen address of ragd serve
	MaxConns         int    // RAGD_DB_MAX_CONNS: pool size (0 = pgx default)

	JWTSecret      string        // RAGD_JWT_SECRET(_FILE): HS256 secret (development)
	JWTPublicKeys  string        // RAGD_JWT_PUBLIC_KEYS(_FILE): PEM public keys (RS256/ES256/EdDSA)
	JWKSURL        string        // RAGD_JWKS_URL: JWKS endpoint of an OIDC provider
	JWTIssuer      string        // RAGD_JWT_ISSUER: required iss when set
	JWTAudience    string        // RAGD_JWT_AUDIENCE: required aud when set
	JWTTenantClaim string        // RAGD_JWT_TENANT_CLAIM: claim holding the tenant id or slug
	JWTRoleClaim   string        // RAGD_JWT_ROLE_CLAIM: claim holding reader|editor|admin
	JWTGroupsClaim string        // RAGD_JWT_GROUPS_CLAIM: claim holding the caller's groups (JSON array of strings)
	JWTLeeway      time.Duration // RAGD_JWT_LEEWAY: clock skew allowed on exp/nbf/iat

	ModelDir     string   // RAGD_MODEL_DIR: USE-lite model files
	EmbedBaseURL string   // RAGD_EMBED_BASE_URL: OpenAI-compatible embeddings API (empty = local model)
	EmbedModel   string   // RAGD_EMBED_MODEL
	EmbedDims    int      // RAGD_EMBED_DIMS
	EmbedAPIKey  string   // RAGD_EMBED_API_KEY(_FILE)
	EmbedScripts []string // RAGD_EMBED_SCRIPTS: Unicode scripts the API model represents (empty = every script)
	// RAGD_EMBED_API_KEYS(_FILE): keys of registered API models other than
	// RAGD_EMBED_MODEL, as name=key pairs separated by commas.
	EmbedAPIKeys map[string]string
	// RAGD_REEMBED_RATE: texts per second a model switch's re-embed sends
	// to one model (0 = unlimited).
	ReembedRate float64
	// RAGD_REEMBED_BATCH: chunks per re-embed batch (one embedding call,
	// one transaction).
	ReembedBatch int
	// RAGD_MODEL_GRACE: how long the replaced model's vectors are kept
	// after a switch (a rollback within it re-embeds nothing).
	ModelGrace      time.Duration
	LLMBaseURL      string        // RAGD_LLM_BASE_URL: OpenAI-compatible chat completions (empty = extractive answers)
	LLMModel        string        // RAGD_LLM_MODEL
	LLMAPIKey       string        // RAGD_LLM_API_KEY(_FILE)
	RerankBaseURL   string        // RAGD_RERANK_BASE_URL: /rerank API (empty = no rerank)
	RerankModel     string        // RAGD_RERANK_MODEL
	RerankAPIKey    string        // RAGD_RERANK_API_KEY(_FILE)
	ProviderTimeout time.Duration // RAGD_PROVIDER_TIMEOUT: per call to an embedding/LLM/rerank API

	ChunkTargetTokens int    // RAGD_CHUNK_TARGET_TOKENS: chunk size packing aims for (words)
	ChunkMaxTokens    int    // RAGD_CHUNK_MAX_TOKENS: hard chunk size limit (words)
	ChunkOverlap      int    // RAGD_CHUNK_OVERLAP_TOKENS: overlap between windows (words)
	EmbedText         string // RAGD_EMBED_TEXT: heading+content (default) or content
	// RAGD_EXACT_THRESHOLD: tenants with at most this many chunks are searched
	// exactly; larger ones get a dedicated HNSW index (ragd tenant index).
	ExactThreshold int64
	// RAGD_KEYWORD_PER_TERM: highest-impact postings per query term the
	// keyword leg reads to set its pruning threshold (speed only; the
	// ranking is exact whatever the value).
	KeywordPerTerm int

	MaxBodyBytes   int64         // RAGD_MAX_BODY_BYTES: request body limit
	MaxQueryChars  int           // RAGD_MAX_QUERY_CHARS: longest question or search query
	MaxTopK        int           // RAGD_MAX_TOP_K: largest top_k accepted
	RequestTimeout time.Duration // RAGD_REQUEST_TIMEOUT: per-request deadline
	// RAGD_INGEST_WORKERS: documents of background ingestion jobs one
	// `ragd serve` processes at once (0 = this server works no jobs).
	IngestWorkers     int
	IngestJobMaxBytes int64 // RAGD_INGEST_JOB_MAX_BYTES: largest job (body of POST /v1/ingest/jobs, bytes stored)
	IngestJobMaxFiles int   // RAGD_INGEST_JOB_MAX_FILES: most documents in one job
	// RAGD_INGEST_LEASE: how long a worker's claim on a job's document
	// lasts unrenewed: how soon a dead server's documents are taken again.
	IngestLease time.Duration
	// RAGD_INGEST_DOCUMENT_TIMEOUT: the longest a job's document may take
	// to extract, embed and store; past it the document fails for good.
	IngestDocumentTimeout time.Duration
	LogLevel              string // RAGD_LOG_LEVEL: debug|info|warn|error

	// Per-tenant request rates in requests per second (0 = unlimited), the
	// defaults of tenants without their own (settings.limits); token
	// buckets hold RateBurst of the rate.
	RateQuery float64       // RAGD_RATE_QUERY: search and answer
	RateWrite float64       // RAGD_RATE_WRITE: document writes
	RateAdmin float64       // RAGD_RATE_ADMIN: every other /v1 route
	RateBurst time.Duration // RAGD_RATE_BURST: bucket size, in seconds of the rate
	// Admission control per server: at most MaxInFlight /v1 requests are
	// served at once (0 = 4 × the pool size), at most MaxQueued wait for a
	// slot, each at most QueueWait; beyond that, 503 with Retry-After.
	MaxInFlight int           // RAGD_MAX_INFLIGHT
	MaxQueued   int           // RAGD_MAX_QUEUED
	QueueWait   time.Duration // RAGD_QUEUE_WAIT
	// Storage quotas of tenants without their own (0 = unlimited).
	QuotaDocuments int64 // RAGD_QUOTA_DOCUMENTS
	QuotaChunks    int64 // RAGD_QUOTA_CHUNKS
	QuotaBytes     int64 // RAGD_QUOTA_BYTES: extracted text bytes
	// MetricsToken, when set, is the bearer token GET /metrics requires.
	MetricsToken string // RAGD_METRICS_TOKEN(_FILE)
	// EventBuffer is how many retrieval events wait in memory for the
	// background writer; beyond it new events are dropped and counted
	// (0 turns event recording off).
	EventBuffer int // RAGD_EVENT_BUFFER
}

// Defaults for a machine set up by `make setup` (development credentials).
const (
	DefaultDatabaseURL      = "postgres://ragd_app:ragd_app@127.0.0.1:5432/ragd?sslmode=disable"
	DefaultAdminDatabaseURL = "postgres://ragd_owner:ragd_owner@127.0.0.1:5432/ragd?sslmode=disable"
	DefaultAddr             = "127.0.0.1:8080"
)

// Defaults of the retrieval and request limits: what Load takes when the
// variable is unset, and the fallback of every package that takes the value
// as a zero-means-default field (api.Limits, vindex.Options,
// ingest.DefaultMaxBytes, search.Searcher). Each is measured or argued where
// it is used: docs/BENCHMARKS.md (the exact threshold), docs/EVAL.md (the
// keyword leg's per-term limit).
const (
	// DefaultExactThreshold (RAGD_EXACT_THRESHOLD): tenants with at most
	// this many chunks of a model are searched exactly; larger ones get a
	// dedicated HNSW index.
	DefaultExactThreshold = 5000
	// DefaultKeywordPerTerm (RAGD_KEYWORD_PER_TERM): highest-impact postings
	// per query term the keyword leg reads to set its pruning threshold.
	DefaultKeywordPerTerm = 150
	// DefaultMaxBodyBytes (RAGD_MAX_BODY_BYTES): the largest request body,
	// and so the largest document.
	DefaultMaxBodyBytes = 10 << 20
	// DefaultMaxQueryChars (RAGD_MAX_QUERY_CHARS): the longest question or
	// search query, in characters.
	DefaultMaxQueryChars = 4000
	// DefaultMaxTopK (RAGD_MAX_TOP_K): the largest top_k accepted.
	DefaultMaxTopK = 50
	// DefaultRequestTimeout (RAGD_REQUEST_TIMEOUT): each request's deadline.
	DefaultRequestTimeout = 60 * time.Second
	// DefaultProviderTimeout (RAGD_PROVIDER_TIMEOUT): each call to an
	// embedding, LLM or rerank API.
	DefaultProviderTimeout = 30 * time.Second
	// DefaultReembedRate (RAGD_REEMBED_RATE): texts per second a re-embed
	// sends to one model, well under common API rate limits.
	DefaultReembedRate = 200
	// DefaultReembedBatch (RAGD_REEMBED_BATCH): chunks per re-embed batch.
	DefaultReembedBatch = 64
	// DefaultModelGrace (RAGD_MODEL_GRACE): how long a replaced model's
	// vectors are kept after a switch.
	DefaultModelGrace = 24 * time.Hour
	// DefaultIngestWorkers (RAGD_INGEST_WORKERS): documents in flight per
	// server, as `ragd ingest --workers` (embedding is the bottleneck and
	// the machine's cores are shared with queries).
	DefaultIngestWorkers = 2
	// DefaultIngestJobMaxBytes (RAGD_INGEST_JOB_MAX_BYTES): the largest
	// job. Its bytes wait in PostgreSQL (bytea) until each document is
	// stored, so this bounds the queue's disk use per job.
	DefaultIngestJobMaxBytes = 256 << 20
	// DefaultIngestJobMaxFiles (RAGD_INGEST_JOB_MAX_FILES): the most
	// documents (files or archive entries) in one job.
	DefaultIngestJobMaxFiles = 10000
	// DefaultIngestLease (RAGD_INGEST_LEASE): a worker renews its claim
	// every third of it, so it only needs to outlast pauses (GC, a slow
	// database round trip), and it is how long a crashed server's
	// documents wait.
	DefaultIngestLease = 2 * time.Minute
	// DefaultIngestDocumentTimeout (RAGD_INGEST_DOCUMENT_TIMEOUT): as
	// job.DefaultDocumentTimeout.
	DefaultIngestDocumentTimeout = 15 * time.Minute
	// DefaultRateQuery (RAGD_RATE_QUERY), DefaultRateWrite
	// (RAGD_RATE_WRITE), DefaultRateAdmin (RAGD_RATE_ADMIN): requests per
	// second per tenant and route class. Ten times what one 2-core server
	// serves (about 100 searches/s, docs/BENCHMARKS.md): by default a
	// single tenant is bounded by admission control, and the rate only
	// stops a runaway client; the operator sets a tenant's real rate with
	// `ragd tenant limits`.
	DefaultRateQuery = 1000
	DefaultRateWrite = 1000
	DefaultRateAdmin = 1000
	// DefaultRateBurst (RAGD_RATE_BURST): a bucket holds two seconds of
	// its rate.
	DefaultRateBurst = 2 * time.Second
	// DefaultMaxQueued (RAGD_MAX_QUEUED) and DefaultQueueWait
	// (RAGD_QUEUE_WAIT): the admission queue.
	DefaultMaxQueued = 256
	DefaultQueueWait = 5 * time.Second
	// DefaultEventBuffer (RAGD_EVENT_BUFFER): retrieval events waiting for
	// the background writer (about 2 KB each).
	DefaultEventBuffer = 10000
)

// Load reads the configuration through getenv (os.Getenv in production). A
// _FILE variable is read from disk when the plain one is empty. Errors: a
// value that does not parse, or an unreadable _FILE; call Validate for the
// semantic checks.
func Load(getenv func(string) string) (Config, error) {
	l := loader{getenv: getenv}
	c := Config{
		DatabaseURL:           l.str("RAGD_DATABASE_URL", DefaultDatabaseURL),
		AdminDatabaseURL:      l.str("RAGD_ADMIN_DATABASE_URL", DefaultAdminDatabaseURL),
		AppRole:               l.str("RAGD_APP_ROLE", "ragd_app"),
		Addr:                  l.str("RAGD_ADDR", DefaultAddr),
		MaxConns:              l.int("RAGD_DB_MAX_CONNS", 0),
		JWTSecret:             l.secret("RAGD_JWT_SECRET"),
		JWTPublicKeys:         l.secret("RAGD_JWT_PUBLIC_KEYS"),
		JWKSURL:               l.str("RAGD_JWKS_URL", ""),
		JWTIssuer:             l.str("RAGD_JWT_ISSUER", ""),
		JWTAudience:           l.str("RAGD_JWT_AUDIENCE", ""),
		JWTTenantClaim:        l.str("RAGD_JWT_TENANT_CLAIM", "tenant_id"),
		JWTRoleClaim:          l.str("RAGD_JWT_ROLE_CLAIM", "role"),
		JWTGroupsClaim:        l.str("RAGD_JWT_GROUPS_CLAIM", "groups"),
		JWTLeeway:             l.dur("RAGD_JWT_LEEWAY", 30*time.Second),
		ModelDir:              l.str("RAGD_MODEL_DIR", defaultModelDir(getenv)),
		EmbedBaseURL:          l.str("RAGD_EMBED_BASE_URL", ""),
		EmbedModel:            l.str("RAGD_EMBED_MODEL", ""),
		EmbedDims:             l.int("RAGD_EMBED_DIMS", 0),
		EmbedAPIKey:           l.secret("RAGD_EMBED_API_KEY"),
		EmbedScripts:          l.list("RAGD_EMBED_SCRIPTS"),
		EmbedAPIKeys:          l.pairs("RAGD_EMBED_API_KEYS"),
		ReembedRate:           l.float("RAGD_REEMBED_RATE", DefaultReembedRate),
		ReembedBatch:          l.int("RAGD_REEMBED_BATCH", DefaultReembedBatch),
		ModelGrace:            l.dur("RAGD_MODEL_GRACE", DefaultModelGrace),
		LLMBaseURL:            l.str("RAGD_LLM_BASE_URL", ""),
		LLMModel:              l.str("RAGD_LLM_MODEL", ""),
		LLMAPIKey:             l.secret("RAGD_LLM_API_KEY"),
		RerankBaseURL:         l.str("RAGD_RERANK_BASE_URL", ""),
		RerankModel:           l.str("RAGD_RERANK_MODEL", ""),
		RerankAPIKey:          l.secret("RAGD_RERANK_API_KEY"),
		ProviderTimeout:       l.dur("RAGD_PROVIDER_TIMEOUT", DefaultProviderTimeout),
		ChunkTargetTokens:     l.int("RAGD_CHUNK_TARGET_TOKENS", 0),
		ChunkMaxTokens:        l.int("RAGD_CHUNK_MAX_TOKENS", 0),
		ChunkOverlap:          l.int("RAGD_CHUNK_OVERLAP_TOKENS", -1),
		EmbedText:             l.str("RAGD_EMBED_TEXT", "heading+content"),
		ExactThreshold:        int64(l.int("RAGD_EXACT_THRESHOLD", DefaultExactThreshold)),
		KeywordPerTerm:        l.int("RAGD_KEYWORD_PER_TERM", DefaultKeywordPerTerm),
		MaxBodyBytes:          int64(l.int("RAGD_MAX_BODY_BYTES", DefaultMaxBodyBytes)),
		MaxQueryChars:         l.int("RAGD_MAX_QUERY_CHARS", DefaultMaxQueryChars),
		MaxTopK:               l.int("RAGD_MAX_TOP_K", DefaultMaxTopK),
		RequestTimeout:        l.dur("RAGD_REQUEST_TIMEOUT", DefaultRequestTimeout),
		IngestWorkers:         l.int("RAGD_INGEST_WORKERS", DefaultIngestWorkers),
		IngestJobMaxBytes:     int64(l.int("RAGD_INGEST_JOB_MAX_BYTES", DefaultIngestJobMaxBytes)),
		IngestJobMaxFiles:     l.int("RAGD_INGEST_JOB_MAX_FILES", DefaultIngestJobMaxFiles),
		IngestLease:           l.dur("RAGD_INGEST_LEASE", DefaultIngestLease),
		IngestDocumentTimeout: l.dur("RAGD_INGEST_DOCUMENT_TIMEOUT", DefaultIngestDocumentTimeout),
		LogLevel:              l.str("RAGD_LOG_LEVEL", "info"),
		RateQuery:             l.float("RAGD_RATE_QUERY", DefaultRateQuery),
		RateWrite:             l.float("RAGD_RATE_WRITE", DefaultRateWrite),
		RateAdmin:             l.float("RAGD_RATE_ADMIN", DefaultRateAdmin),
		RateBurst:             l.dur("RAGD_RATE_BURST", DefaultRateBurst),
		MaxInFlight:           l.int("RAGD_MAX_INFLIGHT", 0),
		MaxQueued:             l.int("RAGD_MAX_QUEUED", DefaultMaxQueued),
		QueueWait:             l.dur("RAGD_QUEUE_WAIT", DefaultQueueWait),
		QuotaDocuments:        int64(l.int("RAGD_QUOTA_DOCUMENTS", 0)),
		QuotaChunks:           int64(l.int("RAGD_QUOTA_CHUNKS", 0)),
		QuotaBytes:            int64(l.int("RAGD_QUOTA_BYTES", 0)),
		MetricsToken:          l.secret("RAGD_METRICS_TOKEN"),
		EventBuffer:           l.int("RAGD_EVENT_BUFFER", DefaultEventBuffer),
	}
	return c, errors.Join(l.errs...)
}

func defaultModelDir(getenv func(string) string) string {
	home := getenv("HOME")
	if home == "" {
		home = "."
	}
	return home + "/.cache/ragd/models/use-lite"
}

// ValidateAddr checks the listen address (RAGD_ADDR, or serve's --addr
// put in its place): host:port or :port. "18482" alone had passed `ragd
// config` and failed serve ("missing port in address"). Only serve and
// `ragd config` check it: no other command listens.
func (c Config) ValidateAddr() error {
	if _, port, err := net.SplitHostPort(c.Addr); err != nil || port == "" {
		return fmt.Errorf("RAGD_ADDR must be host:port or :port (e.g. 127.0.0.1:8080, :8080), got %q", c.Addr)
	}
	return nil
}

// Validate checks the configuration for a command; server=true adds what
// `ragd serve` needs (a JWT key source). Every problem is reported.
func (c Config) Validate(server bool) error {
	var errs []error
	for name, u := range map[string]string{"RAGD_DATABASE_URL": c.DatabaseURL, "RAGD_ADMIN_DATABASE_URL": c.AdminDatabaseURL} {
		if p, err := url.Parse(u); err != nil || (p.Scheme != "postgres" && p.Scheme != "postgresql") {
			errs = append(errs, fmt.Errorf("%s must be a postgres:// URL", name))
		}
	}
	for name, u := range map[string]string{"RAGD_EMBED_BASE_URL": c.EmbedBaseURL, "RAGD_LLM_BASE_URL": c.LLMBaseURL, "RAGD_RERANK_BASE_URL": c.RerankBaseURL, "RAGD_JWKS_URL": c.JWKSURL} {
		if u == "" {
			continue
		}
		if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			errs = append(errs, fmt.Errorf("%s must be an http(s) URL, got %q", name, u))
		}
	}
	if c.EmbedBaseURL != "" && (c.EmbedModel == "" || c.EmbedDims <= 0) {
		errs = append(errs, errors.New("RAGD_EMBED_BASE_URL needs RAGD_EMBED_MODEL and RAGD_EMBED_DIMS"))
	}
	if server {
		if err := c.ValidateAddr(); err != nil {
			errs = append(errs, err)
		}
	}
	for _, sc := range c.EmbedScripts {
		if _, ok := unicode.Scripts[sc]; !ok || sc == "Common" || sc == "Inherited" {
			errs = append(errs, fmt.Errorf("RAGD_EMBED_SCRIPTS: %q is not a Unicode script name (e.g. Latin, Cyrillic, Han, Hiragana, Katakana, Hangul)", sc))
		}
	}
	if len(c.EmbedScripts) > 0 && c.EmbedBaseURL == "" {
		errs = append(errs, errors.New("RAGD_EMBED_SCRIPTS applies to RAGD_EMBED_BASE_URL models only (the local model represents Latin)"))
	}
	if c.ReembedRate < 0 {
		errs = append(errs, fmt.Errorf("RAGD_REEMBED_RATE must be >= 0 (0 = unlimited), got %g", c.ReembedRate))
	}
	if c.ReembedBatch < 1 || c.ReembedBatch > 2048 {
		errs = append(errs, fmt.Errorf("RAGD_REEMBED_BATCH must be in 1..2048, got %d", c.ReembedBatch))
	}
	if c.ModelGrace < 0 {
		errs = append(errs, fmt.Errorf("RAGD_MODEL_GRACE must be >= 0, got %s", c.ModelGrace))
	}
	if c.LLMBaseURL != "" && c.LLMModel == "" {
		errs = append(errs, errors.New("RAGD_LLM_BASE_URL needs RAGD_LLM_MODEL"))
	}
	if c.RerankBaseURL != "" && c.RerankModel == "" {
		errs = append(errs, errors.New("RAGD_RERANK_BASE_URL needs RAGD_RERANK_MODEL"))
	}
	if server {
		if c.JWTSecret == "" && c.JWTPublicKeys == "" && c.JWKSURL == "" {
			errs = append(errs, errors.New("no JWT key: set RAGD_JWT_SECRET (development), RAGD_JWT_PUBLIC_KEYS or RAGD_JWKS_URL"))
		}
		if c.JWTSecret != "" && len(c.JWTSecret) < 32 {
			errs = append(errs, errors.New("RAGD_JWT_SECRET must be at least 32 bytes"))
		}
	}
	if c.MaxBodyBytes < 1024 {
		errs = append(errs, errors.New("RAGD_MAX_BODY_BYTES must be at least 1024"))
	}
	if c.ExactThreshold < 1 {
		errs = append(errs, errors.New("RAGD_EXACT_THRESHOLD must be at least 1"))
	}
	if c.KeywordPerTerm < 10 || c.KeywordPerTerm > 10000 {
		// The postings read to set the keyword leg's pruning threshold:
		// 10,000 per term is already seconds per search on a large tenant.
		errs = append(errs, fmt.Errorf("RAGD_KEYWORD_PER_TERM must be in 10..10000, got %d", c.KeywordPerTerm))
	}
	if c.IngestWorkers < 0 || c.IngestWorkers > 64 {
		errs = append(errs, fmt.Errorf("RAGD_INGEST_WORKERS must be in 0..64, got %d", c.IngestWorkers))
	}
	if c.IngestJobMaxBytes < c.MaxBodyBytes {
		errs = append(errs, fmt.Errorf("RAGD_INGEST_JOB_MAX_BYTES (%d) must be at least RAGD_MAX_BODY_BYTES (%d)", c.IngestJobMaxBytes, c.MaxBodyBytes))
	}
	if c.IngestLease < time.Second || c.IngestLease > time.Hour {
		errs = append(errs, fmt.Errorf("RAGD_INGEST_LEASE must be between 1s and 1h, got %s", c.IngestLease))
	}
	if c.IngestDocumentTimeout < time.Second || c.IngestDocumentTimeout > 24*time.Hour {
		errs = append(errs, fmt.Errorf("RAGD_INGEST_DOCUMENT_TIMEOUT must be between 1s and 24h, got %s", c.IngestDocumentTimeout))
	}
	if c.IngestJobMaxFiles < 1 || c.IngestJobMaxFiles > 1000000 {
		errs = append(errs, fmt.Errorf("RAGD_INGEST_JOB_MAX_FILES must be in 1..1000000, got %d", c.IngestJobMaxFiles))
	}
	if c.MaxQueryChars < 16 {
		errs = append(errs, fmt.Errorf("RAGD_MAX_QUERY_CHARS must be at least 16, got %d", c.MaxQueryChars))
	}
	if c.MaxTopK < 1 || c.MaxTopK > 1000 {
		errs = append(errs, fmt.Errorf("RAGD_MAX_TOP_K must be in 1..1000, got %d", c.MaxTopK))
	}
	switch c.EmbedText {
	case "heading+content", "content":
	default:
		errs = append(errs, fmt.Errorf("RAGD_EMBED_TEXT must be heading+content or content, got %q", c.EmbedText))
	}
	if c.ChunkTargetTokens > 0 && c.ChunkMaxTokens > 0 && c.ChunkMaxTokens < c.ChunkTargetTokens {
		errs = append(errs, fmt.Errorf("RAGD_CHUNK_MAX_TOKENS (%d) must be at least RAGD_CHUNK_TARGET_TOKENS (%d)", c.ChunkMaxTokens, c.ChunkTargetTokens))
	}
	for name, v := range map[string]float64{"RAGD_RATE_QUERY": c.RateQuery, "RAGD_RATE_WRITE": c.RateWrite, "RAGD_RATE_ADMIN": c.RateAdmin} {
		if v < 0 || v > 1e6 {
			errs = append(errs, fmt.Errorf("%s must be in 0..1000000 requests per second (0 = unlimited), got %g", name, v))
		}
	}
	if c.MaxInFlight < 0 || c.MaxQueued < 0 {
		errs = append(errs, errors.New("RAGD_MAX_INFLIGHT and RAGD_MAX_QUEUED must not be negative"))
	}
	if c.QuotaDocuments < 0 || c.QuotaChunks < 0 || c.QuotaBytes < 0 {
		errs = append(errs, errors.New("RAGD_QUOTA_DOCUMENTS, RAGD_QUOTA_CHUNKS and RAGD_QUOTA_BYTES must not be negative (0 = unlimited)"))
	}
	if c.EventBuffer < 0 {
		errs = append(errs, errors.New("RAGD_EVENT_BUFFER must not be negative (0 = no retrieval events)"))
	}
	if c.MetricsToken != "" && len(c.MetricsToken) < 16 {
		errs = append(errs, errors.New("RAGD_METRICS_TOKEN must be at least 16 bytes"))
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("RAGD_LOG_LEVEL must be debug|info|warn|error, got %q", c.LogLevel))
	}
	return errors.Join(errs...)
}

// Redacted returns the configuration as name=value lines in a stable order,
// secrets and URL passwords replaced by "***". Used by `ragd config`.
func (c Config) Redacted() []string {
	red := func(s string) string {
		if s == "" {
			return ""
		}
		return "***"
	}
	redURL := func(s string) string {
		u, err := url.Parse(s)
		if err != nil || u.User == nil {
			return s
		}
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "***")
		}
		return strings.Replace(u.String(), "%2A%2A%2A", "***", 1)
	}
	return []string{
		"RAGD_DATABASE_URL=" + redURL(c.DatabaseURL),
		"RAGD_ADMIN_DATABASE_URL=" + redURL(c.AdminDatabaseURL),
		"RAGD_APP_ROLE=" + c.AppRole,
		"RAGD_ADDR=" + c.Addr,
		"RAGD_DB_MAX_CONNS=" + strconv.Itoa(c.MaxConns),
		"RAGD_JWT_SECRET=" + red(c.JWTSecret),
		"RAGD_JWT_PUBLIC_KEYS=" + red(c.JWTPublicKeys),
		"RAGD_JWKS_URL=" + c.JWKSURL,
		"RAGD_JWT_ISSUER=" + c.JWTIssuer,
		"RAGD_JWT_AUDIENCE=" + c.JWTAudience,
		"RAGD_JWT_TENANT_CLAIM=" + c.JWTTenantClaim,
		"RAGD_JWT_ROLE_CLAIM=" + c.JWTRoleClaim,
		"RAGD_JWT_GROUPS_CLAIM=" + c.JWTGroupsClaim,
		"RAGD_JWT_LEEWAY=" + c.JWTLeeway.String(),
		"RAGD_MODEL_DIR=" + c.ModelDir,
		"RAGD_EMBED_BASE_URL=" + c.EmbedBaseURL,
		"RAGD_EMBED_MODEL=" + c.EmbedModel,
		"RAGD_EMBED_DIMS=" + strconv.Itoa(c.EmbedDims),
		"RAGD_EMBED_API_KEY=" + red(c.EmbedAPIKey),
		"RAGD_EMBED_SCRIPTS=" + strings.Join(c.EmbedScripts, ","),
		"RAGD_EMBED_API_KEYS=" + redPairs(c.EmbedAPIKeys),
		"RAGD_REEMBED_RATE=" + strconv.FormatFloat(c.ReembedRate, 'g', -1, 64),
		"RAGD_REEMBED_BATCH=" + strconv.Itoa(c.ReembedBatch),
		"RAGD_MODEL_GRACE=" + c.ModelGrace.String(),
		"RAGD_LLM_BASE_URL=" + c.LLMBaseURL,
		"RAGD_LLM_MODEL=" + c.LLMModel,
		"RAGD_LLM_API_KEY=" + red(c.LLMAPIKey),
		"RAGD_RERANK_BASE_URL=" + c.RerankBaseURL,
		"RAGD_RERANK_MODEL=" + c.RerankModel,
		"RAGD_RERANK_API_KEY=" + red(c.RerankAPIKey),
		"RAGD_PROVIDER_TIMEOUT=" + c.ProviderTimeout.String(),
		"RAGD_CHUNK_TARGET_TOKENS=" + strconv.Itoa(c.ChunkTargetTokens),
		"RAGD_CHUNK_MAX_TOKENS=" + strconv.Itoa(c.ChunkMaxTokens),
		"RAGD_CHUNK_OVERLAP_TOKENS=" + strconv.Itoa(c.ChunkOverlap),
		"RAGD_EMBED_TEXT=" + c.EmbedText,
		"RAGD_EXACT_THRESHOLD=" + strconv.FormatInt(c.ExactThreshold, 10),
		"RAGD_KEYWORD_PER_TERM=" + strconv.Itoa(c.KeywordPerTerm),
		"RAGD_MAX_BODY_BYTES=" + strconv.FormatInt(c.MaxBodyBytes, 10),
		"RAGD_MAX_QUERY_CHARS=" + strconv.Itoa(c.MaxQueryChars),
		"RAGD_MAX_TOP_K=" + strconv.Itoa(c.MaxTopK),
		"RAGD_REQUEST_TIMEOUT=" + c.RequestTimeout.String(),
		"RAGD_INGEST_WORKERS=" + strconv.Itoa(c.IngestWorkers),
		"RAGD_INGEST_JOB_MAX_BYTES=" + strconv.FormatInt(c.IngestJobMaxBytes, 10),
		"RAGD_INGEST_JOB_MAX_FILES=" + strconv.Itoa(c.IngestJobMaxFiles),
		"RAGD_INGEST_LEASE=" + c.IngestLease.String(),
		"RAGD_INGEST_DOCUMENT_TIMEOUT=" + c.IngestDocumentTimeout.String(),
		"RAGD_LOG_LEVEL=" + c.LogLevel,
		"RAGD_RATE_QUERY=" + strconv.FormatFloat(c.RateQuery, 'g', -1, 64),
		"RAGD_RATE_WRITE=" + strconv.FormatFloat(c.RateWrite, 'g', -1, 64),
		"RAGD_RATE_ADMIN=" + strconv.FormatFloat(c.RateAdmin, 'g', -1, 64),
		"RAGD_RATE_BURST=" + c.RateBurst.String(),
		"RAGD_MAX_INFLIGHT=" + strconv.Itoa(c.MaxInFlight),
		"RAGD_MAX_QUEUED=" + strconv.Itoa(c.MaxQueued),
		"RAGD_QUEUE_WAIT=" + c.QueueWait.String(),
		"RAGD_QUOTA_DOCUMENTS=" + strconv.FormatInt(c.QuotaDocuments, 10),
		"RAGD_QUOTA_CHUNKS=" + strconv.FormatInt(c.QuotaChunks, 10),
		"RAGD_QUOTA_BYTES=" + strconv.FormatInt(c.QuotaBytes, 10),
		"RAGD_METRICS_TOKEN=" + red(c.MetricsToken),
		"RAGD_EVENT_BUFFER=" + strconv.Itoa(c.EventBuffer),
	}
}

type loader struct {
	getenv func(string) string
	errs   []error
}

func (l *loader) str(name, def string) string {
	if v := strings.TrimSpace(l.getenv(name)); v != "" {
		return v
	}
	return def
}

func (l *loader) secret(name string) string {
	path := l.getenv(name + "_FILE")
	if v := l.getenv(name); v != "" {
		if path != "" {
			// Which one the operator meant is unknown: a file meant to
			// rotate a key would be silently ignored.
			l.errs = append(l.errs, fmt.Errorf("%s and %s_FILE are both set: set one of them", name, name))
		}
		return v
	}
	if path == "" {
		return ""
	}
	b, err := os.ReadFile(path)
	if err != nil {
		l.errs = append(l.errs, fmt.Errorf("%s_FILE: %w", name, err))
		return ""
	}
	return strings.TrimRight(string(b), "\r\n")
}

// pairs reads a secret of comma-separated name=value pairs (the value may
// contain "="; names and values are trimmed). A pair without "=" is an error.
func (l *loader) pairs(name string) map[string]string {
	raw := l.secret(name)
	if strings.TrimSpace(raw) == "" {
		return nil
	}
	out := map[string]string{}
	for _, item := range strings.Split(raw, ",") {
		if item = strings.TrimSpace(item); item == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		if !ok || strings.TrimSpace(k) == "" || strings.TrimSpace(v) == "" {
			l.errs = append(l.errs, fmt.Errorf("%s: want name=key pairs separated by commas", name))
			return nil
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out
}

// redPairs prints the names of a pairs secret, the values redacted.
func redPairs(m map[string]string) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k+"=***")
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}

// list reads a comma-separated variable: its non-empty items, trimmed.
func (l *loader) list(name string) []string {
	var out []string
	for _, item := range strings.Split(l.str(name, ""), ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

func (l *loader) int(name string, def int) int {
	v := strings.TrimSpace(l.getenv(name))
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		l.errs = append(l.errs, fmt.Errorf("%s must be an integer, got %q", name, v))
		return def
	}
	return n
}

func (l *loader) float(name string, def float64) float64 {
	v := strings.TrimSpace(l.getenv(name))
	if v == "" {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		l.errs = append(l.errs, fmt.Errorf("%s must be a number, got %q", name, v))
		return def
	}
	return f
}

func (l *loader) dur(name string, def time.Duration) time.Duration {
	v := strings.TrimSpace(l.getenv(name))
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		l.errs = append(l.errs, fmt.Errorf("%s must be a positive duration like 30s, got %q", name, v))
		return def
	}
	return d
}
