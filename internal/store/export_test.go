package store

import (
	"context"
	"time"
)

// WithPairHook returns ctx carrying h, which SendTenantBatchPair calls after
// a's snapshot is exported and before b's transaction starts.
func WithPairHook(ctx context.Context, h func()) context.Context {
	return context.WithValue(ctx, pairHookKey{}, h)
}

// WithPairWait returns ctx carrying d, how long SendTenantBatchPair waits
// for its second connection in place of spareWait: a test whose pool has
// two connections to spare (waitSpare) then sees the pair run as a pair
// however long a dial or a ping takes under the race detector.
func WithPairWait(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, pairWaitKey{}, d)
}
