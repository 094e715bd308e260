package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/sync/errgroup"
)

// ErrDimensionMismatch is returned by (*OpenAI).Embed when the server returns a
// vector whose length differs from the dims given to NewOpenAI. It usually
// means the configured model name or dimension does not match the deployed
// model; retrying does not help.
var ErrDimensionMismatch = errors.New("embed: vector dimension mismatch")

// ErrBadResponse is returned by (*OpenAI).Embed when the server answers 2xx
// but the body is not a usable embeddings response: invalid JSON, a missing,
// duplicate or out-of-range index, the wrong number of vectors, a zero vector
// (which has no direction to normalise) or a body larger than the client's
// limit. Such responses are not retried.
var ErrBadResponse = errors.New("embed: malformed embeddings response")

// StatusError is returned (wrapped) by (*OpenAI).Embed when the server answers
// with a non-2xx status that is not retried (4xx other than 429) or that is
// still failing after the last retry (429, 5xx). Use errors.As to inspect it.
type StatusError struct {
	// StatusCode is the HTTP status of the last response, e.g. 401 or 503.
	StatusCode int
	// Body is the start of the response body (at most about 300 bytes), with
	// the API key, if it appears, replaced by "[REDACTED]".
	Body string
}

// Error names the status and the truncated body; it never contains the API key.
func (e *StatusError) Error() string {
	if e.Body == "" {
		return fmt.Sprintf("embed: server returned HTTP %d", e.StatusCode)
	}
	return fmt.Sprintf("embed: server returned HTTP %d: %s", e.StatusCode, e.Body)
}

// Defaults of NewOpenAI; each can be changed with an OpenAIOption.
const (
	DefaultOpenAIBatchSize     = 64               // texts per request
	DefaultOpenAIMaxConcurrent = 4                // requests in flight per Embed call
	DefaultOpenAITimeout       = 60 * time.Second // per HTTP attempt
	DefaultOpenAIMaxRetries    = 3                // retries after the first attempt
)

const (
	openaiRetryWaitMin = 500 * time.Millisecond
	openaiRetryWaitMax = 10 * time.Second
	// openaiMaxRetryAfter caps a server's Retry-After so one answer cannot park a
	// request for an hour; the caller's context still bounds the whole call.
	openaiMaxRetryAfter = time.Minute
	// openaiErrorBodyChars is how much of an error body ends up in StatusError.
	openaiErrorBodyChars = 300
)

// OpenAI is an Embedder for any server that speaks the OpenAI embeddings API
// (OpenAI, Azure OpenAI's v1 route, vLLM, Ollama, LiteLLM, TEI's /v1 route,
// llama.cpp server, ...): POST {baseURL}/embeddings with
// {"model", "input": [...]} and optionally "dimensions"; the response is
// {"data": [{"index", "embedding": [...]}]}.
//
// Embed splits the texts into batches, sends up to MaxConcurrent batches at a
// time, retries 429 (honouring Retry-After), 5xx and transport errors with
// exponential backoff and jitter (hashicorp/go-retryablehttp), checks every
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
	client        *retryablehttp.Client
}

var _ Embedder = (*OpenAI)(nil)

type openAIConfig struct {
	apiKey        string
	batchSize     int
	maxConcurrent int
	timeout       time.Duration
	maxRetries    int
	waitMin       time.Duration
	waitMax       time.Duration
	httpClient    *http.Client
	logger        *slog.Logger
	sendDims      bool
}

// OpenAIOption configures NewOpenAI.
type OpenAIOption func(*openAIConfig)

// WithOpenAIAPIKey sends key as "Authorization: Bearer <key>". The key never
// appears in errors or logs. Default: no Authorization header.
func WithOpenAIAPIKey(key string) OpenAIOption {
	return func(c *openAIConfig) { c.apiKey = key }
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
	return func(c *openAIConfig) { c.timeout = d }
}

// WithOpenAIMaxRetries sets how many times a failed attempt is retried (>= 0;
// default DefaultOpenAIMaxRetries), so a request makes at most n+1 attempts.
// Retried: transport errors and timeouts, 429, and 5xx other than 501.
func WithOpenAIMaxRetries(n int) OpenAIOption {
	return func(c *openAIConfig) { c.maxRetries = n }
}

// WithOpenAIBackoff sets the exponential backoff bounds between retries: the wait
// before retry i is about min·2^i, capped at max, with jitter (default 500ms
// and 10s). A Retry-After header on 429 or 503 takes precedence (capped at one
// minute). Tests use small values.
func WithOpenAIBackoff(min, max time.Duration) OpenAIOption {
	return func(c *openAIConfig) { c.waitMin, c.waitMax = min, max }
}

// WithOpenAIHTTPClient sets the HTTP client whose Transport is used (for proxies,
// custom TLS). Its Timeout is overridden by WithOpenAITimeout. Default: a pooled
// client of the standard transport.
func WithOpenAIHTTPClient(hc *http.Client) OpenAIOption {
	return func(c *openAIConfig) { c.httpClient = hc }
}

// WithOpenAILogger logs each failed attempt and retry (method, redacted URL, status)
// through l. Default: no logging.
func WithOpenAILogger(l *slog.Logger) OpenAIOption {
	return func(c *openAIConfig) { c.logger = l }
}

// WithOpenAIDimensionsParam sends the configured dims as the request's "dimensions"
// field, for models that can shorten their vectors (OpenAI
// text-embedding-3-*). Default: the field is omitted, because several
// OpenAI-compatible servers reject it.
func WithOpenAIDimensionsParam() OpenAIOption {
	return func(c *openAIConfig) { c.sendDims = true }
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
		batchSize:     DefaultOpenAIBatchSize,
		maxConcurrent: DefaultOpenAIMaxConcurrent,
		timeout:       DefaultOpenAITimeout,
		maxRetries:    DefaultOpenAIMaxRetries,
		waitMin:       openaiRetryWaitMin,
		waitMax:       openaiRetryWaitMax,
	}
	for _, o := range opts {
		o(&cfg)
	}
	endpoint, err := openaiEndpoint(baseURL, "embeddings")
	if err != nil {
		return nil, err
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
	case cfg.timeout <= 0:
		return nil, fmt.Errorf("embed: openai: timeout must be > 0, got %s", cfg.timeout)
	case cfg.maxRetries < 0:
		return nil, fmt.Errorf("embed: openai: max retries must be >= 0, got %d", cfg.maxRetries)
	case cfg.waitMin < 0 || cfg.waitMax < cfg.waitMin:
		return nil, fmt.Errorf("embed: openai: backoff bounds must satisfy 0 <= min <= max, got %s, %s", cfg.waitMin, cfg.waitMax)
	}
	return &OpenAI{
		endpoint:      endpoint,
		model:         model,
		dims:          dims,
		apiKey:        cfg.apiKey,
		batchSize:     cfg.batchSize,
		maxConcurrent: cfg.maxConcurrent,
		sendDims:      cfg.sendDims,
		client:        newOpenAIRetryClient(cfg),
	}, nil
}

// Model returns the model name given to NewOpenAI; it is sent as "model".
func (o *OpenAI) Model() string { return o.model }

// Dims returns the vector length given to NewOpenAI.
func (o *OpenAI) Dims() int { return o.dims }

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
	Data []struct {
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
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, o.endpoint, payload)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	openaiSetHeaders(req.Header, o.apiKey)

	// A float prints as at most ~25 bytes of JSON; allow generous slack.
	limit := int64(len(batch))*int64(o.dims)*32 + 1<<20
	var parsed embeddingsResponse
	req.SetResponseHandler(func(resp *http.Response) error {
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return openaiPermanent{newOpenAIStatusError(resp, o.apiKey)}
		}
		raw, err := openaiReadLimited(resp.Body, limit)
		if err != nil {
			return err // truncated transfer: transient, retried
		}
		if err := json.Unmarshal(raw, &parsed); err != nil {
			return openaiPermanent{fmt.Errorf("%w: %v (body starts %q)", ErrBadResponse, err, openaiSnippet(raw, o.apiKey))}
		}
		return nil
	})
	resp, err := o.client.Do(req)
	if err != nil {
		return nil, err
	}
	_ = resp.Body.Close()

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

// --- HTTP plumbing shared by the OpenAI client ---

func openaiEndpoint(baseURL, path string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil {
		return "", fmt.Errorf("embed: openai: base URL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("embed: openai: base URL %q must be an absolute http(s) URL", u.Redacted())
	}
	return strings.TrimRight(u.String(), "/") + "/" + path, nil
}

func openaiSetHeaders(h http.Header, apiKey string) {
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	h.Set("User-Agent", "ragd")
	if apiKey != "" {
		h.Set("Authorization", "Bearer "+apiKey)
	}
}

// openaiPermanent marks an error found while handling a response as not retryable.
type openaiPermanent struct{ err error }

func (p openaiPermanent) Error() string { return p.err.Error() }
func (p openaiPermanent) Unwrap() error { return p.err }

func newOpenAIRetryClient(cfg openAIConfig) *retryablehttp.Client {
	var hc http.Client
	if cfg.httpClient != nil {
		hc = *cfg.httpClient
	} else {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = max(cfg.maxConcurrent, 2)
		hc.Transport = t
	}
	hc.Timeout = cfg.timeout
	c := &retryablehttp.Client{
		HTTPClient:   &hc,
		RetryWaitMin: cfg.waitMin,
		RetryWaitMax: cfg.waitMax,
		RetryMax:     cfg.maxRetries,
		CheckRetry:   openaiCheckRetry,
		Backoff:      openaiBackoff,
		ErrorHandler: openaiErrorHandler(cfg.apiKey),
	}
	if cfg.logger != nil {
		c.Logger = cfg.logger // *slog.Logger satisfies retryablehttp.LeveledLogger
	}
	return c
}

// openaiCheckRetry is retryablehttp's default policy (transport errors, 429, 5xx
// except 501), except that errors marked permanent by a response handler stop
// the retries.
func openaiCheckRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	var p openaiPermanent
	if errors.As(err, &p) {
		return false, nil
	}
	return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
}

// openaiBackoff honours Retry-After on 429 and 503 (capped at openaiMaxRetryAfter) and
// otherwise waits min·2^attempt capped at max, with "equal jitter" (a uniform
// draw from the upper half) so concurrent batches do not retry in lockstep.
func openaiBackoff(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) &&
		resp.Header.Get("Retry-After") != "" {
		return openaiMinDuration(retryablehttp.DefaultBackoff(min, max, attempt, resp), openaiMaxRetryAfter)
	}
	d := retryablehttp.DefaultBackoff(min, max, attempt, nil)
	if d <= 1 {
		return d
	}
	return d/2 + rand.N(d/2+1)
}

func openaiMinDuration(a, b time.Duration) time.Duration {
	if a < b {
		return a
	}
	return b
}

// openaiErrorHandler builds the error of a request that failed for good: a
// *StatusError when retries ran out on a retryable status, else the last
// transport, handler or context error.
func openaiErrorHandler(apiKey string) retryablehttp.ErrorHandler {
	return func(resp *http.Response, err error, tries int) (*http.Response, error) {
		if err == nil && resp != nil {
			err = newOpenAIStatusError(resp, apiKey)
		} else if resp != nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
			_ = resp.Body.Close()
		}
		if err == nil {
			err = errors.New("request failed")
		}
		var p openaiPermanent
		if errors.As(err, &p) {
			err = p.err
		}
		if tries > 1 {
			return nil, fmt.Errorf("giving up after %d attempts: %w", tries, err)
		}
		return nil, err
	}
}

// newOpenAIStatusError reads the start of resp's body and closes it.
func newOpenAIStatusError(resp *http.Response, apiKey string) *StatusError {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	_ = resp.Body.Close()
	return &StatusError{StatusCode: resp.StatusCode, Body: openaiSnippet(raw, apiKey)}
}

// openaiSnippet returns the first openaiErrorBodyChars bytes of raw (cut at a rune
// boundary, "…" appended when cut), trimmed, with apiKey redacted.
func openaiSnippet(raw []byte, apiKey string) string {
	s := string(bytes.TrimSpace(raw))
	if apiKey != "" {
		s = strings.ReplaceAll(s, apiKey, "[REDACTED]")
	}
	if len(s) > openaiErrorBodyChars {
		cut := openaiErrorBodyChars
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// openaiReadLimited reads all of r, failing with ErrBadResponse (permanent) when it
// holds more than limit bytes.
func openaiReadLimited(r io.Reader, limit int64) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read response: %w", err)
	}
	if int64(len(raw)) > limit {
		return nil, openaiPermanent{fmt.Errorf("%w: body exceeds %d bytes", ErrBadResponse, limit)}
	}
	return raw, nil
}
