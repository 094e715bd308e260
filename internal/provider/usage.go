package provider

import (
	"context"
	"sync/atomic"
)

type tokensKey struct{}

// WithTokenCounter returns a context whose provider calls add the tokens
// their responses report (an OpenAI-compatible "usage.total_tokens") to n:
// how a request's provider usage reaches the per-tenant usage counters
// without every layer between the handler and the client passing it on.
func WithTokenCounter(ctx context.Context, n *atomic.Int64) context.Context {
	return context.WithValue(ctx, tokensKey{}, n)
}

// CountTokens adds n tokens to ctx's counter, if it has one.
func CountTokens(ctx context.Context, n int64) {
	if c, ok := ctx.Value(tokensKey{}).(*atomic.Int64); ok && n > 0 {
		c.Add(n)
	}
}
