// Package providertest holds helpers for tests of the HTTP provider clients
// (embedding, chat, rerank) against in-process fake servers.
package providertest

import (
	"net/http"
	"sync/atomic"
)

// CountingTransport counts the HTTP attempts a client starts. Tests of retry
// on timeout count here rather than in the fake server's handler: on a loaded
// machine a short attempt can time out before the handler ever runs.
type CountingTransport struct {
	Base http.RoundTripper // nil means http.DefaultTransport
	n    atomic.Int64
}

// RoundTrip counts the attempt and delegates to Base.
func (c *CountingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	base := c.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}

// Attempts returns the number of attempts started so far.
func (c *CountingTransport) Attempts() int64 { return c.n.Load() }

// Client returns an *http.Client that sends through c.
func (c *CountingTransport) Client() *http.Client { return &http.Client{Transport: c} }
