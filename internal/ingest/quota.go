package ingest

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// ErrQuotaExceeded: the write would take the tenant past one of its storage
// quotas (Quota); nothing was stored. Its text names the quota, e.g.
// "ingest: quota exceeded: max_documents 2", and never the tenant's counts
// (a writer may not see every document those counts include).
var ErrQuotaExceeded = errors.New("ingest: quota exceeded")

// Quota is a tenant's storage quotas; 0 = unlimited.
type Quota struct {
	Documents int64 // documents (source_uris)
	Chunks    int64 // chunks
	Bytes     int64 // bytes of extracted text (documents.body)
}

// set reports whether any quota is set.
func (q Quota) set() bool { return q.Documents > 0 || q.Chunks > 0 || q.Bytes > 0 }

// QuotaOf is t's effective quotas: its own (tenant.Limits, set by `ragd
// tenant limits`) over defaults (the server's RAGD_QUOTA_*).
func QuotaOf(t tenant.Tenant, defaults Quota) Quota {
	q := defaults
	if l := t.Settings.Limits; l != nil {
		if l.MaxDocuments != nil {
			q.Documents = *l.MaxDocuments
		}
		if l.MaxChunks != nil {
			q.Chunks = *l.MaxChunks
		}
		if l.MaxBytes != nil {
			q.Bytes = *l.MaxBytes
		}
	}
	return q
}

// WithQuota sets the storage quotas of tenants without their own (default:
// none). Every write of the pipeline enforces its tenant's quotas
// (QuotaOf), whoever writes: the API, ingestion jobs and the operator CLI.
func WithQuota(q Quota) Option { return func(p *Pipeline) { p.quota = q } }

// quotaBefore is the early check of a full write to sourceURI, before any
// extraction or embedding is spent on it: a new source_uri when the tenant
// holds its document quota, any write when it holds its chunk quota. It
// reads counts without a lock, so it may let through a write that a
// concurrent one makes excessive: quotaAfter, in the write's transaction,
// decides. Errors: ErrQuotaExceeded, store errors.
func (p *Pipeline) quotaBefore(ctx context.Context, t tenant.Tenant, q Quota, sourceURI string) error {
	if q.Documents <= 0 && q.Chunks <= 0 {
		return nil
	}
	var st store.GetTenantStorageRow
	err := store.InTenant(ctx, p.pool, t.ID, func(tx pgx.Tx) error {
		var err error
		st, err = store.TenantStorage(ctx, tx, t.ID, sourceURI)
		return err
	})
	if err != nil {
		return fmt.Errorf("ingest %s: store: %w", sourceURI, err)
	}
	return quotaExceeded(q, st.ExistingBytes < 0 && st.Documents >= q.Documents, st.Chunks, 0) // bytes: after extraction
}

// quotaAfter is the deciding check, inside the write's transaction tx once
// its chunks are inserted: their statistics trigger holds the tenant_stats
// row lock that serialises the tenant's writers until COMMIT (migration
// 00008), so the counts read here include every write committed before
// this one and no concurrent write can pass the same check against the same
// counts. inserted says the write added a document; added and removed are
// its chunks inserted and the ones it replaced. The quotas are those of
// checkQuota in the API: a new document past the document quota; any write
// once the tenant holds its chunk quota (a document's chunks are known only
// after chunking, so a write may pass it by one document's chunks); stored
// text past the byte quota.
func quotaAfter(ctx context.Context, tx pgx.Tx, t tenant.Tenant, q Quota, sourceURI string, inserted bool, added, removed int64) error {
	st, err := store.TenantStorage(ctx, tx, t.ID, sourceURI)
	if err != nil {
		return err
	}
	return quotaExceeded(q, inserted && st.Documents > q.Documents, st.Chunks-added+removed, st.Bytes)
}

// quotaExceeded returns ErrQuotaExceeded naming the first quota broken:
// overDocs, chunksBefore (the tenant's chunks before the write) at the chunk
// quota, bytesAfter past the byte quota.
func quotaExceeded(q Quota, overDocs bool, chunksBefore, bytesAfter int64) error {
	switch {
	case q.Documents > 0 && overDocs:
		return fmt.Errorf("%w: max_documents %d", ErrQuotaExceeded, q.Documents)
	case q.Chunks > 0 && chunksBefore >= q.Chunks:
		return fmt.Errorf("%w: max_chunks %d", ErrQuotaExceeded, q.Chunks)
	case q.Bytes > 0 && bytesAfter > q.Bytes:
		return fmt.Errorf("%w: max_bytes %d", ErrQuotaExceeded, q.Bytes)
	}
	return nil
}
