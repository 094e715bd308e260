package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/ragd-dev/ragd/internal/provider"
	"golang.org/x/sync/errgroup"
)

// ErrDimensionMismatch is returned by (*OpenAI).Embed when the server returns a
// vector whose length differs from the dims given to NewOpenAI. It usually
// means the configured model name or dimension does not match the deployed
// model; retrying does not help.
var ErrDimensionMismatch = errors.New("embed: vector dimension mismatch")

// ErrModelMismatch is returned by (*OpenAI).Embed when the response's
// "model" field names another model than the one requested: its vectors are
// not comparable with the stored ones (a proxy or server serving a
// different model under the configured name). Accepted as the same model:
// the exact name, the name with an Ollama ":latest" tag, and the name
// without (or with) an organisation prefix ("BAAI/bge-small-en-v1.5" for
// "bge-small-en-v1.5"). A response without the field is accepted. Not
// retried.
var ErrModelMismatch = errors.New("embed: the server answered with another model")

// ErrBadResponse is returned by (*OpenAI).Embed when the server answers 2xx
// but the body is not a usable embeddings response: invalid JSON, a missing,
// duplicate or out-of-range index, the wrong number of vectors, a zero vector
// (which has no direction to normalise) or a body larger than the client's
// limit. Such responses are not retried.
var ErrBadResponse = errors.New("embed: malformed embeddings response")

// StatusError is returned (wrapped) by (*OpenAI).Embed when the server answers
// with a non-2xx status that is not retried (4xx other than 429) or that is
// still failing after the last retry (429, 5xx). Use errors.As to inspect it:
// StatusCode is the HTTP status, Body the start of the response body (at most
// about 300 bytes) with the API key, if it appears, replaced by "[REDACTED]".
// Its Error() starts "embed: server returned HTTP <status>".
type StatusError = provider.StatusError

// Defaults of NewOpenAI; each can be changed with an OpenAIOption.
const (
	DefaultOpenAIBatchSize     = 64               // texts per request
	DefaultOpenAIMaxConcurrent = 4                // requests in flight per Embed call
	DefaultOpenAITimeout       = 60 * time.Second // per HTTP attempt
	DefaultOpenAIMaxRetries    = 3                // retries after the first attempt
)

// OpenAI is an Embedder for any server that speaks the OpenAI embeddings API
// (OpenAI, Azure OpenAI's v1 route, vLLM, Ollama, LiteLLM, TEI's /v1 route,
// llama.cpp server, ...): POST {baseURL}/embeddings with
// {"model", "input": [...]} and optionally "dimensions"; the response is
// {"data": [{"index", "embedding": [...]}]}.
//
// Embed splits the texts into batches, sends up to MaxConcurrent batches at a
// time, retries 429 (honouring Retry-After), 5xx and transport errors with
// exponential backoff and jitter (the policy of package provider), checks every
// vector has Dims() components and L2-normalises it. An OpenAI is safe for
// concurrent use.
type OpenAI struct {
	endpoint      string
	model         string
	dims          int
	apiKey        string
	batchSize     int
	maxConcurrent int
	sendDims      bool
	scripts       []string
	client        *provider.Client
}

var _ Embedder = (*OpenAI)(nil)

type openAIConfig struct {
	provider.Config // API key, timeout, retries, backoff, HTTP client, logger
	batchSize       int
	maxConcurrent   int
	sendDims        bool
	scripts         []string
}

// OpenAIOption configures NewOpenAI.
type OpenAIOption func(*openAIConfig)

// WithOpenAIAPIKey sends key as "Authorization: Bearer <key>". The key never
// appears in errors or logs. Default: no Authorization header.
func WithOpenAIAPIKey(key string) OpenAIOption {
	return func(c *openAIConfig) { c.APIKey = key }
}

// WithOpenAIBatchSize sets how many texts go into one request (>= 1; default
// DefaultOpenAIBatchSize). OpenAI accepts up to 2048 inputs per request;
// self-hosted servers often accept far fewer.
func WithOpenAIBatchSize(n int) OpenAIOption {
	return func(c *openAIConfig) { c.batchSize = n }
}

// WithOpenAIMaxConcurrent bounds the requests one Embed call has in flight (>= 1;
// default DefaultOpenAIMaxConcurrent).
func WithOpenAIMaxConcurrent(n int) OpenAIOption {
	return func(c *openAIConfig) { c.maxConcurrent = n }
}

// WithOpenAITimeout bounds each HTTP attempt, response body included (> 0; default
// DefaultOpenAITimeout). A timed-out attempt is retried like a transport
// error; the caller's context bounds the whole call, retries included.
func WithOpenAITimeout(d time.Duration) OpenAIOption {
	return func(c *openAIConfig) { c.Timeout = d }
}

// WithOpenAIMaxRetries sets how many times a failed attempt is retried (>= 0;
// default DefaultOpenAIMaxRetries), so a request makes at most n+1 attempts.
// Retried: transport errors and timeouts, 429, and 5xx other than 501.
func WithOpenAIMaxRetries(n int) OpenAIOption {
	return func(c *openAIConfig) { c.MaxRetries = n }
}

// WithOpenAIBackoff sets the exponential backoff bounds between retries: the wait
// before retry i is about min·2^i, capped at max, with jitter (default 500ms
// and 10s). A Retry-After header on 429 or 503 takes precedence (capped at one
// minute). Tests use small values.
func WithOpenAIBackoff(min, max time.Duration) OpenAIOption {
	return func(c *openAIConfig) { c.WaitMin, c.WaitMax = min, max }
}

// WithOpenAIHTTPClient sets the HTTP client whose Transport is used (for proxies,
// custom TLS). Its Timeout is overridden by WithOpenAITimeout. Default: a pooled
// client of the standard transport.
func WithOpenAIHTTPClient(hc *http.Client) OpenAIOption {
	return func(c *openAIConfig) { c.HTTPClient = hc }
}

// WithOpenAILogger logs each failed attempt and retry (method, redacted URL, status)
// through l. Default: no logging.
func WithOpenAILogger(l *slog.Logger) OpenAIOption {
	return func(c *openAIConfig) { c.Logger = l }
}

// WithOpenAIDimensionsParam sends the configured dims as the request's "dimensions"
// field, for models that can shorten their vectors (OpenAI
// text-embedding-3-*). Default: the field is omitted, because several
// OpenAI-compatible servers reject it.
func WithOpenAIDimensionsParam() OpenAIOption {
	return func(c *openAIConfig) { c.sendDims = true }
}

// WithOpenAIScripts declares the Unicode scripts (keys of unicode.Scripts,
// e.g. "Latin", "Cyrillic") the model represents, for an English-only or
// otherwise limited model; questions mostly in other scripts then skip the
// vector leg (see ScriptLimited). Default: every script, as for the
// multilingual models such APIs usually serve. Unknown names are refused by
// NewOpenAI.
func WithOpenAIScripts(scripts ...string) OpenAIOption {
	return func(c *openAIConfig) { c.scripts = slices.Clone(scripts) }
}

// NewOpenAI returns an OpenAI-compatible embeddings client for model, whose
// vectors have dims components. baseURL is the API root without the
// "/embeddings" suffix, e.g. "https://api.openai.com/v1" or
// "http://localhost:11434/v1".
//
// Errors: an invalid baseURL (not http or https, no host), an empty model,
// dims < 1 or an out-of-range option value. No request is made.
func NewOpenAI(baseURL, model string, dims int, opts ...OpenAIOption) (*OpenAI, error) {
	cfg := openAIConfig{
		Config:        provider.DefaultConfig(DefaultOpenAITimeout, DefaultOpenAIMaxRetries),
		batchSize:     DefaultOpenAIBatchSize,
		maxConcurrent: DefaultOpenAIMaxConcurrent,
	}
	for _, o := range opts {
		o(&cfg)
	}
	endpoint, err := provider.Endpoint(baseURL, "embeddings")
	if err != nil {
		return nil, fmt.Errorf("embed: openai: %w", err)
	}
	switch {
	case strings.TrimSpace(model) == "":
		return nil, errors.New("embed: openai: model name is empty")
	case dims < 1:
		return nil, fmt.Errorf("embed: openai: dims must be >= 1, got %d", dims)
	case cfg.batchSize < 1:
		return nil, fmt.Errorf("embed: openai: batch size must be >= 1, got %d", cfg.batchSize)
	case cfg.maxConcurrent < 1:
		return nil, fmt.Errorf("embed: openai: max concurrent must be >= 1, got %d", cfg.maxConcurrent)
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("embed: openai: %w", err)
	}
	if err := ValidateScripts(cfg.scripts); err != nil {
		return nil, err
	}
	return &OpenAI{
		endpoint:      endpoint,
		model:         model,
		dims:          dims,
		apiKey:        cfg.APIKey,
		batchSize:     cfg.batchSize,
		maxConcurrent: cfg.maxConcurrent,
		sendDims:      cfg.sendDims,
		scripts:       cfg.scripts,
		client:        provider.NewClient("embed", openaiHTTPClient(cfg), cfg.Config),
	}, nil
}

// Model returns the model name given to NewOpenAI; it is sent as "model".
func (o *OpenAI) Model() string { return o.model }

// Dims returns the vector length given to NewOpenAI.
func (o *OpenAI) Dims() int { return o.dims }

// Scripts returns the scripts given with WithOpenAIScripts; empty (the
// default) means every script.
func (o *OpenAI) Scripts() []string { return slices.Clone(o.scripts) }

// Embed returns one unit-L2-norm vector of length Dims() per text, in input
// order. An empty texts slice returns an empty result without a request.
//
// Errors: ErrEmptyInput (with the text's index) if a text is empty or only
// whitespace, before any request; ErrDimensionMismatch; ErrBadResponse;
// *StatusError for a non-retryable status or retries exhausted; transport and
// timeout errors after the last retry; the context's error if ctx ends. The
// first failing batch cancels the others and no partial result is returned.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			return nil, fmt.Errorf("embed: text %d: %w", i, ErrEmptyInput)
		}
	}
	out := make([][]float32, len(texts))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(o.maxConcurrent)
	skipped := false
	for start := 0; start < len(texts); start += o.batchSize {
		if gctx.Err() != nil {
			skipped = true // a batch failed or ctx ended: launch nothing more
			break
		}
		end := min(start+o.batchSize, len(texts))
		g.Go(func() error {
			vecs, err := o.embedBatch(gctx, texts[start:end])
			if err != nil {
				return fmt.Errorf("embed: %s: texts %d..%d: %w", o.model, start, end-1, err)
			}
			copy(out[start:end], vecs)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if skipped { // no batch failed, so ctx ended
		return nil, fmt.Errorf("embed: %s: %w", o.model, ctx.Err())
	}
	return out, nil
}

type embeddingsRequest struct {
	Model      string   `json:"model"`
	Input      []string `json:"input"`
	Dimensions int      `json:"dimensions,omitempty"`
}

type embeddingsResponse struct {
	Model string `json:"model"`
	Data  []struct {
		Index     *int      `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// embedBatch sends one request and returns len(batch) normalised vectors.
func (o *OpenAI) embedBatch(ctx context.Context, batch []string) ([][]float32, error) {
	body := embeddingsRequest{Model: o.model, Input: batch}
	if o.sendDims {
		body.Dimensions = o.dims
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	// A float prints as at most ~25 bytes of JSON; allow generous slack.
	limit := int64(len(batch))*int64(o.dims)*32 + 1<<20
	var parsed embeddingsResponse
	err = o.client.Post(ctx, o.endpoint, payload, "application/json", func(resp *http.Response) error {
		raw, err := provider.ReadLimited(resp.Body, limit, ErrBadResponse)
		if err != nil {
			return err // truncated transfer: transient, retried
		}
		if err := json.Unmarshal(raw, &parsed); err != nil {
			return provider.Permanent(fmt.Errorf("%w: %v (body starts %q)", ErrBadResponse, err, provider.Snippet(raw, o.apiKey)))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}

	if !sameModel(o.model, parsed.Model) {
		return nil, fmt.Errorf("%w: asked for %q, the response says %q", ErrModelMismatch, o.model, parsed.Model)
	}
	if len(parsed.Data) != len(batch) {
		return nil, fmt.Errorf("%w: %d vectors for %d inputs", ErrBadResponse, len(parsed.Data), len(batch))
	}
	vecs := make([][]float32, len(batch))
	for i, d := range parsed.Data {
		if d.Index == nil || *d.Index < 0 || *d.Index >= len(batch) {
			return nil, fmt.Errorf("%w: data[%d] has a missing or out-of-range index", ErrBadResponse, i)
		}
		idx := *d.Index
		if vecs[idx] != nil {
			return nil, fmt.Errorf("%w: index %d appears twice", ErrBadResponse, idx)
		}
		if len(d.Embedding) != o.dims {
			return nil, fmt.Errorf("%w: input %d has %d components, want %d", ErrDimensionMismatch, idx, len(d.Embedding), o.dims)
		}
		if !openaiNormalize(d.Embedding) {
			return nil, fmt.Errorf("%w: input %d has a zero vector", ErrBadResponse, idx)
		}
		vecs[idx] = d.Embedding
	}
	return vecs, nil
}

// sameModel reports whether a response's model field names the requested
// model (see ErrModelMismatch).
func sameModel(asked, got string) bool {
	if got == "" || got == asked {
		return true
	}
	base := func(s string) string {
		s = strings.TrimSuffix(s, ":latest")
		if i := strings.LastIndex(s, "/"); i >= 0 {
			s = s[i+1:]
		}
		return s
	}
	return base(got) == base(asked)
}

// openaiNormalize scales v to unit L2 norm in place; it reports false for a zero
// (or non-finite) vector, which cannot be normalised.
func openaiNormalize(v []float32) bool {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	norm := math.Sqrt(sum)
	if norm == 0 || math.IsInf(norm, 0) || math.IsNaN(norm) {
		return false
	}
	for i, x := range v {
		v[i] = float32(float64(x) / norm)
	}
	return true
}

// openaiHTTPClient returns the client for each attempt: a copy of the one
// given with WithOpenAIHTTPClient, or one pooling enough idle connections for
// maxConcurrent batches, with the per-attempt timeout.
func openaiHTTPClient(cfg openAIConfig) *http.Client {
	hc := cfg.AttemptClient()
	if cfg.HTTPClient == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = max(cfg.maxConcurrent, 2)
		hc.Transport = t
	}
	return hc
}
