package rerank

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/go-retryablehttp"
)

const (
	defaultRetryWaitMin = 500 * time.Millisecond
	defaultRetryWaitMax = 10 * time.Second
	// maxRetryAfter caps a server's Retry-After so one answer cannot park a
	// request for an hour; the caller's context still bounds the whole call.
	maxRetryAfter = time.Minute
	// errorBodyChars is how much of an error body ends up in StatusError.
	errorBodyChars = 300
)

func endpointURL(baseURL, path string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil {
		return "", fmt.Errorf("rerank: base URL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("rerank: base URL %q must be an absolute http(s) URL", u.Redacted())
	}
	return strings.TrimRight(u.String(), "/") + "/" + path, nil
}

// permanent marks an error found while handling a response as not retryable.
type permanent struct{ err error }

func (p permanent) Error() string { return p.err.Error() }
func (p permanent) Unwrap() error { return p.err }

func newRetryClient(cfg config) *retryablehttp.Client {
	var hc http.Client
	if cfg.httpClient != nil {
		hc = *cfg.httpClient
	}
	hc.Timeout = cfg.timeout
	c := &retryablehttp.Client{
		HTTPClient:   &hc,
		RetryWaitMin: cfg.waitMin,
		RetryWaitMax: cfg.waitMax,
		RetryMax:     cfg.maxRetries,
		CheckRetry:   checkRetry,
		Backoff:      backoff,
		ErrorHandler: errorHandler(cfg.apiKey),
	}
	if cfg.logger != nil {
		c.Logger = cfg.logger // *slog.Logger satisfies retryablehttp.LeveledLogger
	}
	return c
}

// checkRetry is retryablehttp's default policy (transport errors, 429, 5xx
// except 501), except that errors marked permanent by a response handler stop
// the retries.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	var p permanent
	if errors.As(err, &p) {
		return false, nil
	}
	return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
}

// backoff honours Retry-After on 429 and 503 (capped at maxRetryAfter) and
// otherwise waits min·2^attempt capped at max, with "equal jitter" (a uniform
// draw from the upper half) so concurrent callers do not retry in lockstep.
func backoff(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) &&
		resp.Header.Get("Retry-After") != "" {
		d := retryablehttp.DefaultBackoff(min, max, attempt, resp)
		if d > maxRetryAfter {
			d = maxRetryAfter
		}
		return d
	}
	d := retryablehttp.DefaultBackoff(min, max, attempt, nil)
	if d <= 1 {
		return d
	}
	return d/2 + rand.N(d/2+1)
}

// errorHandler builds the error of a request that failed for good: a
// *StatusError when retries ran out on a retryable status, else the last
// transport, handler or context error.
func errorHandler(apiKey string) retryablehttp.ErrorHandler {
	return func(resp *http.Response, err error, tries int) (*http.Response, error) {
		if err == nil && resp != nil {
			err = newStatusError(resp, apiKey)
		} else if resp != nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
			_ = resp.Body.Close()
		}
		if err == nil {
			err = errors.New("request failed")
		}
		var p permanent
		if errors.As(err, &p) {
			err = p.err
		}
		if tries > 1 {
			return nil, fmt.Errorf("giving up after %d attempts: %w", tries, err)
		}
		return nil, err
	}
}

// newStatusError reads the start of resp's body and closes it.
func newStatusError(resp *http.Response, apiKey string) *StatusError {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	_ = resp.Body.Close()
	return &StatusError{StatusCode: resp.StatusCode, Body: snippet(raw, apiKey)}
}

func redact(s, apiKey string) string {
	if apiKey == "" {
		return s
	}
	return strings.ReplaceAll(s, apiKey, "[REDACTED]")
}

// snippet returns the first errorBodyChars bytes of raw (cut at a rune
// boundary, "…" appended when cut), trimmed, with apiKey redacted.
func snippet(raw []byte, apiKey string) string {
	s := redact(string(bytes.TrimSpace(raw)), apiKey)
	if len(s) > errorBodyChars {
		cut := errorBodyChars
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// readLimited reads all of r, failing with ErrBadResponse (permanent) when it
// holds more than limit bytes. A read error (reset, timeout) is returned
// as is, so it is retried.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read response: %w", err)
	}
	if int64(len(raw)) > limit {
		return nil, permanent{fmt.Errorf("%w: body exceeds %d bytes", ErrBadResponse, limit)}
	}
	return raw, nil
}
