package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// claimIngestionItem is hand-written: sqlc cannot see the result columns of
// a PL/pgSQL function (it types the row as one opaque value).
const claimIngestionItem = `SELECT tenant_id, batch_id, idx, claim, attempts
FROM claim_ingestion_item(make_interval(secs => $1::float8), $2::int, $3::uuid[])`

// IngestionClaim is one claimed ingestion item: its keys, the claim token the
// worker's updates must carry, and which attempt this is (1 = first).
type IngestionClaim struct {
	TenantID uuid.UUID
	BatchID  uuid.UUID
	Idx      int32
	Claim    uuid.UUID
	Attempts int32
}

// ClaimIngestionItem claims the next ingestion item across tenants through
// claim_ingestion_item (migration 00019: SECURITY DEFINER, per-tenant
// round-robin, FOR UPDATE SKIP LOCKED) with a lease of lease; items that
// already had maxAttempts claims are failed instead. tenants, when not
// empty, limits the search to them. It runs outside any tenant transaction
// (db is the pool): the function returns keys only, and the item is read
// and written afterwards under row-level security. Returns ok=false when
// nothing is claimable. Errors: translated (Translate).
func ClaimIngestionItem(ctx context.Context, db DBTX, lease time.Duration, maxAttempts int, tenants []uuid.UUID) (IngestionClaim, bool, error) {
	var c IngestionClaim
	var only []uuid.UUID
	if len(tenants) > 0 {
		only = tenants
	}
	err := db.QueryRow(ctx, claimIngestionItem, lease.Seconds(), int32(maxAttempts), only).
		Scan(&c.TenantID, &c.BatchID, &c.Idx, &c.Claim, &c.Attempts)
	if errors.Is(err, pgx.ErrNoRows) {
		return IngestionClaim{}, false, nil
	}
	if err != nil {
		return IngestionClaim{}, false, Translate(err)
	}
	return c, true, nil
}
