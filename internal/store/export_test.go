package store

import "context"

// WithPairHook returns ctx carrying h, which SendTenantBatchPair calls after
// a's snapshot is exported and before b's transaction starts.
func WithPairHook(ctx context.Context, h func()) context.Context {
	return context.WithValue(ctx, pairHookKey{}, h)
}
