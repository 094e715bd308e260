package provider

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/go-retryablehttp"
)

// ErrorBodyBytes is the most of an error body that a StatusError or
// Snippet keeps, in bytes, before "…" is appended.
const ErrorBodyBytes = 300

// errorBodyRead bounds how much of an error body is read at all.
const errorBodyRead = 4 << 10

// StatusError is the error of a request the server answered with a non-2xx
// status that is not retried (4xx other than 429, and 501) or that still failed
// after the last retry (429, 5xx). The client packages return it wrapped and
// re-export it (embed.StatusError, llm.StatusError, rerank.StatusError are
// aliases), so callers find it with errors.As.
type StatusError struct {
	// Client names the ragd client that got the response, e.g. "embed",
	// "llm" or "rerank"; it prefixes Error(). Empty means no prefix.
	Client string
	// StatusCode is the HTTP status of the last response, e.g. 401 or 503.
	StatusCode int
	// Body is the start of the response body (at most ErrorBodyBytes bytes,
	// then "…"), trimmed, with the API key, if it appears, replaced by
	// "[REDACTED]".
	Body string
}

// Error names the client, the status and the truncated body, as in
// "llm: server returned HTTP 503: overloaded"; it never contains the API key.
func (e *StatusError) Error() string {
	prefix := ""
	if e.Client != "" {
		prefix = e.Client + ": "
	}
	if e.Body == "" {
		return fmt.Sprintf("%sserver returned HTTP %d", prefix, e.StatusCode)
	}
	return fmt.Sprintf("%sserver returned HTTP %d: %s", prefix, e.StatusCode, e.Body)
}

// Config holds the settings every provider client takes; the client packages
// embed it in their own option structs and set it with their With...
// options. Validate checks it.
type Config struct {
	// APIKey is sent as "Authorization: Bearer <APIKey>" and redacted from
	// errors. Empty: no Authorization header.
	APIKey string
	// Timeout bounds each attempt (> 0). AttemptClient applies it to the
	// whole attempt, response body included; a client may apply it its own
	// way instead (llm uses it as an idle timeout).
	Timeout time.Duration
	// MaxRetries is how many times a failed attempt is retried (>= 0), so a
	// request makes at most MaxRetries+1 attempts.
	MaxRetries int
	// WaitMin and WaitMax bound the exponential backoff between retries
	// (0 <= WaitMin <= WaitMax); see Backoff.
	WaitMin, WaitMax time.Duration
	// HTTPClient is the caller's client, whose Transport (proxies, custom
	// TLS) and redirect policy the attempts use; nil means the standard
	// transport. It is copied, never changed.
	HTTPClient *http.Client
	// Logger, if not nil, logs each failed attempt and retry (method,
	// redacted URL, status) through retryablehttp.
	Logger *slog.Logger
}

// DefaultConfig returns a Config with the given per-attempt timeout and
// retry count, DefaultWaitMin and DefaultWaitMax, and no key, HTTP client or
// logger.
func DefaultConfig(timeout time.Duration, maxRetries int) Config {
	return Config{Timeout: timeout, MaxRetries: maxRetries, WaitMin: DefaultWaitMin, WaitMax: DefaultWaitMax}
}

// Validate returns an error naming the first out-of-range field: Timeout
// <= 0, a negative MaxRetries, or backoff bounds that break 0 <= WaitMin <=
// WaitMax. The message has no package prefix; callers add theirs.
func (c Config) Validate() error {
	switch {
	case c.Timeout <= 0:
		return fmt.Errorf("timeout must be > 0, got %s", c.Timeout)
	case c.MaxRetries < 0:
		return fmt.Errorf("max retries must be >= 0, got %d", c.MaxRetries)
	case c.WaitMin < 0 || c.WaitMax < c.WaitMin:
		return fmt.Errorf("backoff bounds must satisfy 0 <= min <= max, got %s, %s", c.WaitMin, c.WaitMax)
	}
	return nil
}

// Endpoint joins baseURL, an API root such as "https://api.openai.com/v1/",
// and path, such as "embeddings", into "https://api.openai.com/v1/embeddings".
// Errors: baseURL does not parse, or is not an absolute http or https URL
// with a host. The message has no package prefix and shows baseURL with any
// password redacted.
func Endpoint(baseURL, path string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil {
		return "", fmt.Errorf("base URL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("base URL %q must be an absolute http(s) URL", u.Redacted())
	}
	return strings.TrimRight(u.String(), "/") + "/" + path, nil
}

// Client sends JSON POST requests to a provider with the package's retry
// policy and turns failures into errors that never show the API key. It is
// safe for concurrent use.
type Client struct {
	name   string
	apiKey string
	rc     *retryablehttp.Client
}

// AttemptClient returns a copy of c.HTTPClient (a zero http.Client if nil)
// whose Timeout is c.Timeout, for NewClient.
func (c Config) AttemptClient() *http.Client {
	var hc http.Client
	if c.HTTPClient != nil {
		hc = *c.HTTPClient
	}
	hc.Timeout = c.Timeout
	return &hc
}

// NewClient returns a Client whose errors are prefixed with name (e.g.
// "llm") and whose attempts are made by hc, used as given: its Transport,
// Timeout and redirect policy apply to each attempt (cfg.HTTPClient and
// cfg.Timeout are not consulted; build hc from them, e.g. with
// cfg.AttemptClient). A nil hc means a zero http.Client (the standard
// transport, no timeout). cfg is assumed valid (see Config.Validate).
func NewClient(name string, hc *http.Client, cfg Config) *Client {
	if hc == nil {
		hc = &http.Client{}
	}
	c := &Client{name: name, apiKey: cfg.APIKey}
	c.rc = &retryablehttp.Client{
		HTTPClient:   hc,
		RetryWaitMin: cfg.WaitMin,
		RetryWaitMax: cfg.WaitMax,
		RetryMax:     cfg.MaxRetries,
		CheckRetry:   CheckRetry,
		Backoff:      Backoff,
		ErrorHandler: c.giveUp,
	}
	if cfg.Logger != nil {
		c.rc.Logger = cfg.Logger // *slog.Logger satisfies retryablehttp.LeveledLogger
	}
	return c
}

// Post sends payload as a JSON POST to url, with "Accept: <accept>",
// "User-Agent: ragd" and the API key, retrying as the package doc
// describes. handle is called with each 2xx response and reads its body (the
// Client closes it); its error is retried unless marked by Permanent, so a
// truncated body is retried and a malformed one should not be.
//
// Errors: a *StatusError for a non-2xx status that is not retried or still
// fails after the last retry; handle's error (unwrapped from Permanent);
// the last transport error; the context's error once ctx ends. After more
// than one attempt the error says "giving up after N attempts".
func (c *Client) Post(ctx context.Context, url string, payload []byte, accept string, handle func(*http.Response) error) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, url, payload)
	if err != nil {
		return fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", "ragd")
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	req.SetResponseHandler(func(resp *http.Response) error {
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return Permanent(c.statusError(resp))
		}
		return handle(resp)
	})
	resp, err := c.rc.Do(req)
	if err != nil {
		return err
	}
	_ = resp.Body.Close()
	return nil
}

// giveUp is the retryablehttp.ErrorHandler: it builds the error of a request
// that failed for good, a *StatusError when retries ran out on a retryable
// status, else the last transport, handler or context error.
func (c *Client) giveUp(resp *http.Response, err error, tries int) (*http.Response, error) {
	if err == nil && resp != nil {
		err = c.statusError(resp)
	} else if resp != nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, errorBodyRead))
		_ = resp.Body.Close()
	}
	if err == nil {
		err = errors.New("request failed")
	}
	var p permanentError
	if errors.As(err, &p) {
		err = p.err
	}
	if tries > 1 {
		return nil, fmt.Errorf("giving up after %d attempts: %w", tries, err)
	}
	return nil, err
}

// statusError reads the start of resp's body and closes it.
func (c *Client) statusError(resp *http.Response) *StatusError {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, errorBodyRead))
	_ = resp.Body.Close()
	return &StatusError{Client: c.name, StatusCode: resp.StatusCode, Body: Snippet(raw, c.apiKey)}
}

// Redact returns s with every occurrence of secret replaced by
// "[REDACTED]"; an empty secret leaves s unchanged.
func Redact(s, secret string) string {
	if secret == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, "[REDACTED]")
}

// Snippet returns raw trimmed of surrounding white space, with secret
// redacted (see Redact), and cut to at most ErrorBodyBytes bytes at a rune
// boundary with "…" appended when cut. It is how error bodies and malformed
// responses are quoted in errors.
func Snippet(raw []byte, secret string) string {
	s := Redact(string(bytes.TrimSpace(raw)), secret)
	if len(s) > ErrorBodyBytes {
		cut := ErrorBodyBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// ReadLimited reads all of r. A body of more than limit bytes fails with an
// error that wraps tooLarge (the caller's "malformed response" sentinel) and
// is marked Permanent. A read error (reset, timeout) is wrapped as "read
// response: …" and not marked, so Post retries it.
func ReadLimited(r io.Reader, limit int64, tooLarge error) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read response: %w", err)
	}
	if int64(len(raw)) > limit {
		return nil, Permanent(fmt.Errorf("%w: body exceeds %d bytes", tooLarge, limit))
	}
	return raw, nil
}
