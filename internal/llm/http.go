package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// attemptClient returns the client for each attempt: a copy of the one given
// with WithHTTPClient (or a zero one), its own Timeout kept, its transport
// wrapped in an idleTimeoutTransport of the configured timeout.
func attemptClient(cfg config) *http.Client {
	var hc http.Client
	if cfg.HTTPClient != nil {
		hc = *cfg.HTTPClient
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	hc.Transport = &idleTimeoutTransport{base: base, timeout: cfg.Timeout}
	return &hc
}

// idleTimeoutTransport cancels an attempt when the server sends no response
// headers, or no further body bytes while the reader waits, for timeout.
// Unlike http.Client.Timeout it does not cut a long stream that keeps
// producing, and the time the caller spends between reads does not count.
type idleTimeoutTransport struct {
	base    http.RoundTripper
	timeout time.Duration
}

var errIdle = errors.New("idle timeout")

func (t *idleTimeoutTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancelCause(req.Context())
	timer := time.AfterFunc(t.timeout, func() { cancel(errIdle) })
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	timer.Stop()
	if err != nil {
		timedOut := errors.Is(context.Cause(ctx), errIdle)
		cancel(nil)
		if timedOut {
			return nil, fmt.Errorf("%w: no response headers within %s", ErrTimeout, t.timeout)
		}
		return nil, err
	}
	resp.Body = &idleBody{rc: resp.Body, ctx: ctx, cancel: cancel, timeout: t.timeout}
	return resp, nil
}

// idleBody arms a timer for the duration of each Read.
type idleBody struct {
	rc      io.ReadCloser
	ctx     context.Context
	cancel  context.CancelCauseFunc
	timeout time.Duration
	closed  atomic.Bool
}

func (b *idleBody) Read(p []byte) (int, error) {
	timer := time.AfterFunc(b.timeout, func() { b.cancel(errIdle) })
	n, err := b.rc.Read(p)
	timer.Stop()
	if err != nil && errors.Is(context.Cause(b.ctx), errIdle) {
		return n, fmt.Errorf("%w: no data for %s", ErrTimeout, b.timeout)
	}
	return n, err
}

func (b *idleBody) Close() error {
	err := b.rc.Close()
	if b.closed.CompareAndSwap(false, true) {
		b.cancel(nil)
	}
	return err
}
