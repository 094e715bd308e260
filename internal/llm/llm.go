// Package llm is a client for OpenAI-compatible chat completions
// (POST {base_url}/chat/completions), used to generate grounded answers.
//
// It speaks the subset every compatible server implements (OpenAI, Azure
// OpenAI's v1 route, vLLM, Ollama, llama.cpp server, LiteLLM, TGI, Groq,
// Together, ...): "model", "messages", "temperature", "max_tokens" and
// "stream". Complete returns the whole reply; Stream delivers it piece by
// piece from the server-sent events.
//
// Retries (429 with Retry-After, 5xx, transport errors and timeouts) follow
// the policy of package provider. A streamed reply is retried only while
// nothing has been passed to the caller's callback: once a piece of text is
// delivered, a failure ends the call, because the caller cannot take text
// back.
package llm

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/ragd-dev/ragd/internal/provider"
)

// Roles of a chat message.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one chat message: Role is RoleSystem, RoleUser or RoleAssistant.
type Message struct {
	Role    string `json:"role"`    // RoleSystem, RoleUser or RoleAssistant
	Content string `json:"content"` // the message text
}

// Defaults of New; each can be changed with an Option.
const (
	DefaultTemperature = 0.1
	DefaultTimeout     = 120 * time.Second
	DefaultMaxRetries  = 2
)

// ErrNoMessages is returned by Complete and Stream when called without messages.
var ErrNoMessages = errors.New("llm: no messages")

// ErrBadResponse is returned when a 2xx reply is not a usable completion:
// invalid JSON, no choices, an error object instead of choices, an
// unparsable stream event, or a body over the size limit. It is not retried.
var ErrBadResponse = errors.New("llm: malformed completion response")

// ErrStreamInterrupted is returned by Stream when the event stream ends
// before "data: [DONE]" and without a finish_reason. It is retried only if no
// text had been delivered yet.
var ErrStreamInterrupted = errors.New("llm: stream ended before completion")

// ErrTimeout is returned (wrapped) when the server sends no response headers,
// or no further body bytes, within the client's timeout (WithTimeout) after
// the last retry.
var ErrTimeout = errors.New("llm: timed out waiting for the server")

// StatusError is returned (wrapped) when the server answers with a non-2xx
// status that is not retried (4xx other than 429) or that is still failing
// after the last retry (429, 5xx). Use errors.As to inspect it: StatusCode is
// the HTTP status, Body the start of the response body (at most about 300
// bytes) with the API key, if it appears, replaced by "[REDACTED]". Its
// Error() starts "llm: server returned HTTP <status>".
type StatusError = provider.StatusError

// Client calls one chat model of an OpenAI-compatible server. It is safe for
// concurrent use.
type Client struct {
	endpoint    string
	model       string
	apiKey      string
	temperature float64
	maxTokens   int
	client      *provider.Client
}

type config struct {
	provider.Config // API key, timeout, retries, backoff, HTTP client, logger
	temperature     float64
	maxTokens       int
}

// Option configures New.
type Option func(*config)

// WithAPIKey sends key as "Authorization: Bearer <key>". The key never
// appears in errors or logs. Default: no Authorization header.
func WithAPIKey(key string) Option { return func(c *config) { c.APIKey = key } }

// WithTemperature sets the sampling temperature, 0 to 2 (default
// DefaultTemperature: near-deterministic, as grounded answers should be).
func WithTemperature(t float64) Option { return func(c *config) { c.temperature = t } }

// WithMaxTokens caps the reply length in tokens ("max_tokens", >= 0).
// Default 0: the field is omitted and the server's limit applies.
func WithMaxTokens(n int) Option { return func(c *config) { c.maxTokens = n } }

// WithTimeout bounds, per attempt, the wait for the response headers and
// every later wait for more of the body (> 0; default DefaultTimeout). It is
// an idle timeout, not a total one, so a long stream that keeps producing is
// never cut; the caller's context bounds the whole call. A timed-out attempt
// is retried like a transport error (see ErrTimeout).
func WithTimeout(d time.Duration) Option { return func(c *config) { c.Timeout = d } }

// WithMaxRetries sets how many times a failed attempt is retried (>= 0;
// default DefaultMaxRetries). Retried: transport errors and timeouts, 429 and
// 5xx other than 501, and for Stream an interrupted stream before any text
// was delivered.
func WithMaxRetries(n int) Option { return func(c *config) { c.MaxRetries = n } }

// WithBackoff sets the exponential backoff bounds between retries: about
// min·2^i before retry i, capped at max, with jitter (default 500ms and 10s).
// A Retry-After header on 429 or 503 takes precedence (capped at one minute).
func WithBackoff(min, max time.Duration) Option {
	return func(c *config) { c.WaitMin, c.WaitMax = min, max }
}

// WithHTTPClient sets the HTTP client whose Transport, redirect policy and
// Timeout are used (for proxies, custom TLS). Default: the standard transport.
func WithHTTPClient(hc *http.Client) Option { return func(c *config) { c.HTTPClient = hc } }

// WithLogger logs each failed attempt and retry (method, redacted URL,
// status) through l. Default: no logging.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.Logger = l } }

// New returns a client for model at baseURL, the API root without the
// "/chat/completions" suffix (e.g. "https://api.openai.com/v1",
// "http://localhost:11434/v1").
//
// Errors: an invalid baseURL (not http or https, no host), an empty model or
// an out-of-range option value. No request is made.
func New(baseURL, model string, opts ...Option) (*Client, error) {
	cfg := config{Config: provider.DefaultConfig(DefaultTimeout, DefaultMaxRetries), temperature: DefaultTemperature}
	for _, o := range opts {
		o(&cfg)
	}
	endpoint, err := provider.Endpoint(baseURL, "chat/completions")
	if err != nil {
		return nil, fmt.Errorf("llm: %w", err)
	}
	switch {
	case strings.TrimSpace(model) == "":
		return nil, errors.New("llm: model name is empty")
	case cfg.temperature < 0 || cfg.temperature > 2:
		return nil, fmt.Errorf("llm: temperature must be in [0, 2], got %v", cfg.temperature)
	case cfg.maxTokens < 0:
		return nil, fmt.Errorf("llm: max tokens must be >= 0, got %d", cfg.maxTokens)
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("llm: %w", err)
	}
	return &Client{
		endpoint:    endpoint,
		model:       model,
		apiKey:      cfg.APIKey,
		temperature: cfg.temperature,
		maxTokens:   cfg.maxTokens,
		client:      provider.NewClient("llm", attemptClient(cfg), cfg.Config),
	}, nil
}

// Model returns the model name sent with every request.
func (c *Client) Model() string { return c.model }

type chatRequest struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature float64   `json:"temperature"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	Stream      bool      `json:"stream"`
}

type apiError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
	} `json:"choices"`
	Error *apiError `json:"error"`
	Usage *apiUsage `json:"usage"`
}

// apiUsage is the token usage a response reports (counted per tenant
// through provider.CountTokens).
type apiUsage struct {
	TotalTokens int64 `json:"total_tokens"`
}

type streamChunk struct {
	Choices []struct {
		Delta struct {
			Content string `json:"content"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Error *apiError `json:"error"`
	Usage *apiUsage `json:"usage"`
}

// maxResponseBytes bounds a non-streamed reply and a single stream event.
const maxResponseBytes = 8 << 20

// Complete sends messages and returns the content of the first choice, which
// may be empty if the model produced nothing.
//
// Errors: ErrNoMessages; *StatusError; ErrBadResponse; ErrTimeout or a
// transport error after the last retry; the context's error if ctx ends.
func (c *Client) Complete(ctx context.Context, messages []Message) (string, error) {
	if len(messages) == 0 {
		return "", ErrNoMessages
	}
	payload, accept, err := c.encode(messages, false)
	if err != nil {
		return "", err
	}
	var text string
	err = c.client.Post(ctx, c.endpoint, payload, accept, func(resp *http.Response) error {
		raw, err := provider.ReadLimited(resp.Body, maxResponseBytes, ErrBadResponse)
		if err != nil {
			return err
		}
		text, err = c.parseCompletion(ctx, raw)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("llm: %s: complete: %w", c.model, err)
	}
	return text, nil
}

func (c *Client) parseCompletion(ctx context.Context, raw []byte) (string, error) {
	var parsed chatResponse
	if err := json.Unmarshal(raw, &parsed); err != nil {
		return "", provider.Permanent(fmt.Errorf("%w: %v (body starts %q)", ErrBadResponse, err, provider.Snippet(raw, c.apiKey)))
	}
	if parsed.Error != nil {
		return "", provider.Permanent(fmt.Errorf("%w: server error: %s", ErrBadResponse, provider.Redact(parsed.Error.Message, c.apiKey)))
	}
	if len(parsed.Choices) == 0 {
		return "", provider.Permanent(fmt.Errorf("%w: no choices", ErrBadResponse))
	}
	if parsed.Usage != nil {
		provider.CountTokens(ctx, parsed.Usage.TotalTokens)
	}
	return parsed.Choices[0].Message.Content, nil
}

// Stream sends messages with "stream": true and calls onDelta with each
// non-empty piece of the reply's content, in order, as the server-sent events
// arrive ("data: {...choices[0].delta.content}" until "data: [DONE]"). It
// returns the whole reply, the concatenation of the pieces. A server that
// ignores "stream" and answers with plain JSON is handled too: its content is
// delivered as one piece.
//
// Failures before the first piece is delivered are retried (see
// WithMaxRetries); after it they are returned with the text delivered so far.
// If onDelta returns an error, Stream stops reading and returns that error
// (wrapped, for errors.Is) without retrying.
//
// Errors: ErrNoMessages; *StatusError; ErrBadResponse; ErrStreamInterrupted;
// ErrTimeout or a transport error; onDelta's error; the context's error.
func (c *Client) Stream(ctx context.Context, messages []Message, onDelta func(string) error) (string, error) {
	if len(messages) == 0 {
		return "", ErrNoMessages
	}
	payload, accept, err := c.encode(messages, true)
	if err != nil {
		return "", err
	}
	var (
		text      strings.Builder
		delivered bool
	)
	deliver := func(s string) error {
		if s == "" {
			return nil
		}
		delivered = true
		text.WriteString(s)
		if err := onDelta(s); err != nil {
			return provider.Permanent(callbackError{err})
		}
		return nil
	}
	err = c.client.Post(ctx, c.endpoint, payload, accept, func(resp *http.Response) error {
		var err error
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			var raw []byte
			if raw, err = provider.ReadLimited(resp.Body, maxResponseBytes, ErrBadResponse); err == nil {
				var s string
				if s, err = c.parseCompletion(ctx, raw); err == nil {
					err = deliver(s)
				}
			}
		} else {
			err = c.readEvents(ctx, resp.Body, deliver)
		}
		if delivered {
			err = provider.Permanent(err) // text is out: never retry
		}
		return err
	})
	if err != nil {
		var cb callbackError
		if errors.As(err, &cb) {
			return text.String(), fmt.Errorf("llm: stream callback: %w", cb.err)
		}
		return text.String(), fmt.Errorf("llm: %s: stream: %w", c.model, err)
	}
	return text.String(), nil
}

// callbackError carries the error of Stream's onDelta out of the retry loop.
type callbackError struct{ err error }

func (e callbackError) Error() string { return e.err.Error() }
func (e callbackError) Unwrap() error { return e.err }

// readEvents parses a text/event-stream body: "data:" lines are joined per
// event (blank line ends an event), comments and other fields are ignored.
// Each event's JSON chunk has its first choice's delta content passed to
// deliver; "[DONE]" ends the stream.
func (c *Client) readEvents(ctx context.Context, body io.Reader, deliver func(string) error) error {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 0, 64<<10), maxResponseBytes)
	var (
		data     strings.Builder
		hasData  bool
		finished bool
	)
	// dispatch handles one complete event; it reports true on [DONE].
	dispatch := func() (bool, error) {
		if !hasData {
			return false, nil
		}
		payload := data.String()
		data.Reset()
		hasData = false
		if strings.TrimSpace(payload) == "[DONE]" {
			return true, nil
		}
		var chunk streamChunk
		if err := json.Unmarshal([]byte(payload), &chunk); err != nil {
			return false, provider.Permanent(fmt.Errorf("%w: stream event: %v (event starts %q)", ErrBadResponse, err, provider.Snippet([]byte(payload), c.apiKey)))
		}
		if chunk.Error != nil {
			return false, fmt.Errorf("llm: error event in stream: %s", provider.Redact(chunk.Error.Message, c.apiKey))
		}
		if chunk.Usage != nil {
			// Sent by servers asked for it (stream_options) or that always
			// report it, in the last chunk.
			provider.CountTokens(ctx, chunk.Usage.TotalTokens)
		}
		if len(chunk.Choices) == 0 {
			return false, nil // e.g. a trailing usage chunk
		}
		if chunk.Choices[0].FinishReason != nil && *chunk.Choices[0].FinishReason != "" {
			finished = true
		}
		return false, deliver(chunk.Choices[0].Delta.Content)
	}
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" {
			done, err := dispatch()
			if err != nil || done {
				return err
			}
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		if field != "data" {
			continue // comment (":") or event/id/retry field
		}
		if hasData {
			data.WriteByte('\n')
		}
		data.WriteString(strings.TrimPrefix(value, " "))
		hasData = true
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read stream: %w", err)
	}
	// Be lenient with a last event that lacks its terminating blank line.
	if done, err := dispatch(); err != nil || done {
		return err
	}
	if finished {
		return nil
	}
	return ErrStreamInterrupted
}

// encode returns the request body for messages and the Accept header for it.
func (c *Client) encode(messages []Message, stream bool) (payload []byte, accept string, err error) {
	payload, err = json.Marshal(chatRequest{
		Model:       c.model,
		Messages:    messages,
		Temperature: c.temperature,
		MaxTokens:   c.maxTokens,
		Stream:      stream,
	})
	if err != nil {
		return nil, "", fmt.Errorf("llm: encode request: %w", err)
	}
	if stream {
		return payload, "text/event-stream", nil
	}
	return payload, "application/json", nil
}
