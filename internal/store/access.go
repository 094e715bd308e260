package store

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Document permissions inside a tenant (migration 00017, docs/SECURITY.md):
// every document has an access list of principals ("user:<sub>",
// "group:<name>"; empty = everyone in the tenant), and the policies on
// documents, chunks, chunk_embeddings and postings let a transaction read
// the tenant-wide documents and those whose list shares a principal with
// the transaction's app.principals. A Visibility on the context is how the
// caller says whose transaction it is; InTenant and SendTenantBatch set it
// next to the tenant.

// setTenantSQL scopes a transaction: the tenant, and the principals as a
// text[] literal rendered by PostgreSQL ('*' for every document; '{}' for
// tenant-wide documents only).
const setTenantSQL = `SELECT set_config('app.tenant_id', $1, true),
	set_config('app.principals', CASE WHEN $3::bool THEN '*' ELSE coalesce($2::text[], '{}')::text END, true)`

// setTenantGenericSQL is setTenantSQL that also switches the transaction's
// later statements to generic plans (GenericPlans); customPlansSQL switches
// back.
const (
	setTenantGenericSQL = setTenantSQL + `,
	set_config('plan_cache_mode', 'force_generic_plan', true)`
	customPlansSQL  = `SELECT set_config('plan_cache_mode', 'force_custom_plan', true)`
	genericPlansSQL = `SELECT set_config('plan_cache_mode', 'force_generic_plan', true)`
)

// Visibility is whose documents a tenant transaction reads: every document
// (AllDocuments) or those of a set of principals (AsPrincipals). The zero
// Visibility is AsPrincipals(nil): tenant-wide documents only.
type Visibility struct {
	all        bool
	principals []string
}

// AllDocuments sees every document of the tenant: operator commands, the
// write path's internal maintenance, and the admin role's document
// management routes.
func AllDocuments() Visibility { return Visibility{all: true} }

// AsPrincipals sees the tenant-wide documents and those whose access list
// names one of principals. No principals: tenant-wide documents only.
func AsPrincipals(principals []string) Visibility {
	return Visibility{principals: append([]string{}, principals...)}
}

// All reports whether v sees every document.
func (v Visibility) All() bool { return v.all }

// Principals returns v's principals (none for AllDocuments).
func (v Visibility) Principals() []string { return append([]string{}, v.principals...) }

// Sees reports whether a document with the access list access is visible
// under v: v is AllDocuments, the list is empty, or they share a principal.
// The database decides every read; this is for checks before a write (an
// access list its writer could not read back).
func (v Visibility) Sees(access []string) bool {
	if v.all || len(access) == 0 {
		return true
	}
	for _, a := range access {
		for _, p := range v.principals {
			if a == p {
				return true
			}
		}
	}
	return false
}

type visibilityKey struct{}

// WithVisibility returns ctx carrying v for the tenant transactions started
// with it.
func WithVisibility(ctx context.Context, v Visibility) context.Context {
	return context.WithValue(ctx, visibilityKey{}, v)
}

// VisibilityOf returns ctx's Visibility; without one, tenant-wide documents
// only (fail closed: a context that lost its values never reads a
// restricted document).
func VisibilityOf(ctx context.Context) Visibility {
	v, _ := ctx.Value(visibilityKey{}).(Visibility)
	return v
}

// SetDocumentAccess sets document id's access list to principals (empty =
// everyone in the tenant) inside tx, and reports whether it changed. The
// document's chunks, embeddings and postings follow in the same statement
// (documents_access_sync). Nothing else of the document changes.
//
// Errors: ErrNotFound when tx cannot read the document (absent, another
// tenant's, or hidden from tx's principals).
func SetDocumentAccess(ctx context.Context, tx pgx.Tx, tenant, id uuid.UUID, principals []string) (bool, error) {
	q := New()
	cur, err := q.LockDocumentAccess(ctx, tx, LockDocumentAccessParams{TenantID: tenant, ID: id})
	if err != nil {
		return false, err
	}
	if principals == nil {
		principals = []string{}
	}
	next, err := q.AccessListID(ctx, tx, AccessListIDParams{TenantID: tenant, Principals: principals})
	if err != nil {
		return false, err
	}
	if next == cur {
		return false, nil
	}
	n, err := q.UpdateDocumentAccess(ctx, tx, UpdateDocumentAccessParams{TenantID: tenant, ID: id, AccessID: next})
	if err != nil {
		return false, err
	}
	if n != 1 {
		return false, fmt.Errorf("store: set access of document %s: %d rows updated", id, n)
	}
	return true, nil
}

// DocumentAccess returns the access lists of the documents ids that tx can
// read (sorted; empty = everyone in the tenant), by document id.
func DocumentAccess(ctx context.Context, tx pgx.Tx, tenant uuid.UUID, ids []uuid.UUID) (map[uuid.UUID][]string, error) {
	rows, err := New().DocumentAccessLists(ctx, tx, DocumentAccessListsParams{TenantID: tenant, Ids: ids})
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID][]string, len(rows))
	for _, r := range rows {
		out[r.ID] = r.Access
	}
	return out, nil
}

// Statements of TenantStorage: the transaction's principals, and setting them.
const (
	principalsSQL    = `SELECT coalesce(current_setting('app.principals', true), '')`
	setPrincipalsSQL = `SELECT set_config('app.principals', $1, true)`
)

// TenantStorage is GetTenantStorage inside tx over every document of the
// tenant, whatever tx's principals: a storage quota is the tenant's, so
// documents hidden from the writer count too. tx's principals are restored
// before it returns; on error tx must be rolled back.
func TenantStorage(ctx context.Context, tx pgx.Tx, tenant uuid.UUID, sourceURI string) (GetTenantStorageRow, error) {
	var prev string
	if err := tx.QueryRow(ctx, principalsSQL).Scan(&prev); err != nil {
		return GetTenantStorageRow{}, fmt.Errorf("store: principals: %w", err)
	}
	if _, err := tx.Exec(ctx, setPrincipalsSQL, "*"); err != nil {
		return GetTenantStorageRow{}, fmt.Errorf("store: principals: %w", err)
	}
	st, err := New().GetTenantStorage(ctx, tx, GetTenantStorageParams{TenantID: tenant, SourceUri: sourceURI})
	if err != nil {
		return GetTenantStorageRow{}, err
	}
	if _, err := tx.Exec(ctx, setPrincipalsSQL, prev); err != nil {
		return GetTenantStorageRow{}, fmt.Errorf("store: principals: %w", err)
	}
	return st, nil
}
