// Package rerank scores (query, document) pairs with a cross-encoder served
// behind the common /rerank HTTP API, to reorder retrieval candidates.
//
// One request shape covers Cohere, Jina, Infinity, vLLM, llama.cpp server and
// LiteLLM: POST {base_url}/rerank with {"model", "query", "documents",
// "top_n"}, answered by {"results": [{"index", "relevance_score"}]}. Hugging
// Face text-embeddings-inference (TEI) names the documents "texts" and
// answers with a bare array [{"index", "score"}]; select it with
// WithDialect(DialectTEI). The response parser accepts both shapes (and
// either score field) whatever the dialect.
//
// Cross-encoder scores are pointwise, one per (query, document) pair, so
// scores from separate requests are comparable; that is what lets
// WithBatchSize split a long candidate list over several requests.
package rerank

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/ragd-dev/ragd/internal/provider"
)

// Result is the relevance of one document: Index is its position in the
// docs passed to Rerank, Score the model's relevance score (higher is more
// relevant; the scale depends on the model and server, commonly 0..1).
type Result struct {
	Index int     // position in the docs passed to Rerank
	Score float64 // relevance; higher is more relevant
}

// Dialect selects the request shape.
type Dialect int

const (
	// DialectCohere sends {"model", "query", "documents", "top_n"}: Cohere,
	// Jina, Infinity, vLLM, llama.cpp server, LiteLLM. The default.
	DialectCohere Dialect = iota
	// DialectTEI sends {"query", "texts"} for Hugging Face
	// text-embeddings-inference, which ignores "model" and has no "top_n".
	DialectTEI
)

// Defaults of New; each can be changed with an Option.
const (
	DefaultTimeout    = 30 * time.Second // per HTTP attempt
	DefaultMaxRetries = 2                // retries after the first attempt
)

// ErrEmptyQuery is returned by Rerank when the query is empty or only
// whitespace: there is nothing to score the documents against.
var ErrEmptyQuery = errors.New("rerank: empty query")

// ErrBadResponse is returned by Rerank when the server answers 2xx but the
// body is not a usable rerank response: invalid JSON, a missing, duplicate or
// out-of-range index, a missing score, or too few results. It is not retried.
var ErrBadResponse = errors.New("rerank: malformed rerank response")

// StatusError is returned (wrapped) by Rerank when the server answers with a
// non-2xx status that is not retried (4xx other than 429) or that is still
// failing after the last retry (429, 5xx). Use errors.As to inspect it:
// StatusCode is the HTTP status, Body the start of the response body (at
// most about 300 bytes) with the API key, if it appears, replaced by
// "[REDACTED]". Its Error() starts "rerank: server returned HTTP <status>".
// TEI answers 413 or 422 when a request holds more texts than its
// --max-client-batch-size; see WithBatchSize.
type StatusError = provider.StatusError

// Client calls one reranking model. It is safe for concurrent use.
type Client struct {
	endpoint  string
	model     string
	apiKey    string
	dialect   Dialect
	topN      int
	batchSize int
	client    *provider.Client
}

type config struct {
	provider.Config // API key, timeout, retries, backoff, HTTP client, logger
	dialect         Dialect
	topN            int
	batchSize       int
}

// Option configures New.
type Option func(*config)

// WithAPIKey sends key as "Authorization: Bearer <key>". The key never
// appears in errors or logs. Default: no Authorization header.
func WithAPIKey(key string) Option { return func(c *config) { c.APIKey = key } }

// WithDialect selects the request shape (default DialectCohere).
func WithDialect(d Dialect) Option { return func(c *config) { c.dialect = d } }

// WithTopN makes Rerank return only the n best results (>= 0; default 0:
// all). With DialectCohere and a single request, n is also sent as "top_n".
func WithTopN(n int) Option { return func(c *config) { c.topN = n } }

// WithBatchSize splits the documents into requests of at most n documents
// (>= 0; default 0: one request for all). Set it to the server's limit, e.g.
// TEI's --max-client-batch-size (32 by default) or Cohere's 1000.
func WithBatchSize(n int) Option { return func(c *config) { c.batchSize = n } }

// WithTimeout bounds each HTTP attempt, response body included (> 0; default
// DefaultTimeout). A timed-out attempt is retried like a transport error; the
// caller's context bounds the whole call.
func WithTimeout(d time.Duration) Option { return func(c *config) { c.Timeout = d } }

// WithMaxRetries sets how many times a failed attempt is retried (>= 0;
// default DefaultMaxRetries). Retried: transport errors and timeouts, 429 and
// 5xx other than 501.
func WithMaxRetries(n int) Option { return func(c *config) { c.MaxRetries = n } }

// WithBackoff sets the exponential backoff bounds between retries: about
// min·2^i before retry i, capped at max, with jitter (default 500ms and 10s).
// A Retry-After header on 429 or 503 takes precedence (capped at one minute).
func WithBackoff(min, max time.Duration) Option {
	return func(c *config) { c.WaitMin, c.WaitMax = min, max }
}

// WithHTTPClient sets the HTTP client whose Transport is used (for proxies,
// custom TLS). Its Timeout is overridden by WithTimeout. Default: the
// standard transport.
func WithHTTPClient(hc *http.Client) Option { return func(c *config) { c.HTTPClient = hc } }

// WithLogger logs each failed attempt and retry (method, redacted URL,
// status) through l. Default: no logging.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.Logger = l } }

// New returns a client for model at baseURL, the API root without the
// "/rerank" suffix (e.g. "https://api.cohere.com/v2",
// "https://api.jina.ai/v1", "http://tei:8080").
//
// Errors: an invalid baseURL (not http or https, no host), an empty model
// with DialectCohere, an unknown dialect or an out-of-range option value. No
// request is made.
func New(baseURL, model string, opts ...Option) (*Client, error) {
	cfg := config{Config: provider.DefaultConfig(DefaultTimeout, DefaultMaxRetries)}
	for _, o := range opts {
		o(&cfg)
	}
	endpoint, err := provider.Endpoint(baseURL, "rerank")
	if err != nil {
		return nil, fmt.Errorf("rerank: %w", err)
	}
	switch {
	case cfg.dialect != DialectCohere && cfg.dialect != DialectTEI:
		return nil, fmt.Errorf("rerank: unknown dialect %d", cfg.dialect)
	case cfg.dialect == DialectCohere && strings.TrimSpace(model) == "":
		return nil, errors.New("rerank: model name is empty")
	case cfg.topN < 0:
		return nil, fmt.Errorf("rerank: top n must be >= 0, got %d", cfg.topN)
	case cfg.batchSize < 0:
		return nil, fmt.Errorf("rerank: batch size must be >= 0, got %d", cfg.batchSize)
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("rerank: %w", err)
	}
	return &Client{
		endpoint:  endpoint,
		model:     model,
		apiKey:    cfg.APIKey,
		dialect:   cfg.dialect,
		topN:      cfg.topN,
		batchSize: cfg.batchSize,
		client:    provider.NewClient("rerank", cfg.AttemptClient(), cfg.Config),
	}, nil
}

// Model returns the model name given to New.
func (c *Client) Model() string { return c.model }

// Rerank scores every document against query and returns the results sorted
// by Score, highest first (ties by Index), truncated to WithTopN's n if set.
// Each Index refers to docs. No docs returns an empty result without a
// request. Batches (WithBatchSize) are sent one after another.
//
// Errors: ErrEmptyQuery; *StatusError; ErrBadResponse; transport and timeout
// errors after the last retry; the context's error if ctx ends. No partial
// result is returned.
func (c *Client) Rerank(ctx context.Context, query string, docs []string) ([]Result, error) {
	if strings.TrimSpace(query) == "" {
		return nil, ErrEmptyQuery
	}
	if len(docs) == 0 {
		return []Result{}, nil
	}
	size := len(docs)
	if c.batchSize > 0 && c.batchSize < size {
		size = c.batchSize
	}
	// top_n can be delegated only when one request sees every document.
	sendTopN := 0
	if size == len(docs) && c.topN > 0 && c.topN < len(docs) {
		sendTopN = c.topN
	}
	out := make([]Result, 0, len(docs))
	for start := 0; start < len(docs); start += size {
		end := min(start+size, len(docs))
		res, err := c.rerankBatch(ctx, query, docs[start:end], sendTopN)
		if err != nil {
			return nil, fmt.Errorf("rerank: %s: documents %d..%d: %w", c.model, start, end-1, err)
		}
		for _, r := range res {
			out = append(out, Result{Index: start + r.Index, Score: r.Score})
		}
	}
	slices.SortFunc(out, func(a, b Result) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Index, b.Index)
	})
	if c.topN > 0 && len(out) > c.topN {
		out = out[:c.topN]
	}
	return out, nil
}

type cohereRequest struct {
	Model     string   `json:"model,omitempty"`
	Query     string   `json:"query"`
	Documents []string `json:"documents"`
	TopN      int      `json:"top_n,omitempty"`
}

type teiRequest struct {
	Query string   `json:"query"`
	Texts []string `json:"texts"`
}

// rawResult accepts both score field names.
type rawResult struct {
	Index          *int     `json:"index"`
	RelevanceScore *float64 `json:"relevance_score"`
	Score          *float64 `json:"score"`
}

func (c *Client) rerankBatch(ctx context.Context, query string, docs []string, topN int) ([]Result, error) {
	var body any = cohereRequest{Model: c.model, Query: query, Documents: docs, TopN: topN}
	if c.dialect == DialectTEI {
		body = teiRequest{Query: query, Texts: docs}
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	limit := int64(len(docs))*256 + 1<<20 // results only, unless the server echoes documents
	for _, d := range docs {
		limit += int64(len(d)) * 2
	}
	var raws []rawResult
	err = c.client.Post(ctx, c.endpoint, payload, "application/json", func(resp *http.Response) error {
		raw, err := provider.ReadLimited(resp.Body, limit, ErrBadResponse)
		if err != nil {
			return err
		}
		if raws, err = parseResults(raw); err != nil {
			return provider.Permanent(fmt.Errorf("%w: %v (body starts %q)", ErrBadResponse, err, provider.Snippet(raw, c.apiKey)))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}

	want := len(docs)
	if topN > 0 {
		want = topN
	}
	if len(raws) < want || len(raws) > len(docs) {
		return nil, fmt.Errorf("%w: %d results for %d documents", ErrBadResponse, len(raws), len(docs))
	}
	seen := make([]bool, len(docs))
	out := make([]Result, len(raws))
	for i, r := range raws {
		if r.Index == nil || *r.Index < 0 || *r.Index >= len(docs) {
			return nil, fmt.Errorf("%w: result %d has a missing or out-of-range index", ErrBadResponse, i)
		}
		if seen[*r.Index] {
			return nil, fmt.Errorf("%w: index %d appears twice", ErrBadResponse, *r.Index)
		}
		seen[*r.Index] = true
		score := r.RelevanceScore
		if score == nil {
			score = r.Score
		}
		if score == nil {
			return nil, fmt.Errorf("%w: result %d has no relevance_score or score", ErrBadResponse, i)
		}
		out[i] = Result{Index: *r.Index, Score: *score}
	}
	return out, nil
}

// parseResults decodes either {"results": [...]} or a bare array.
func parseResults(raw []byte) ([]rawResult, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var arr []rawResult
		err := json.Unmarshal(trimmed, &arr)
		return arr, err
	}
	var obj struct {
		Results *[]rawResult `json:"results"`
	}
	if err := json.Unmarshal(trimmed, &obj); err != nil {
		return nil, err
	}
	if obj.Results == nil {
		return nil, errors.New(`no "results" array`)
	}
	return *obj.Results, nil
}
