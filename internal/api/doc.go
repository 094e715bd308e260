// Package api is ragd's HTTP API: huma v2 operations on a net/http ServeMux,
// documented by a generated OpenAPI 3.1 document (/openapi.json, committed as
// openapi/openapi.json and checked for drift by `make check`).
//
// # Authentication and tenancy, three layers that each fail closed
//
//  1. Router level: every request whose path is /v1 or under /v1/ must carry
//     "Authorization: Bearer <JWT>". The token is verified (internal/auth)
//     and its tenant is loaded with tenant.Load — by the token's tenant id
//     only, inside that tenant's row-level-security transaction — before the
//     request reaches any route. No tenant id is ever read from a path, query
//     or body. Missing/invalid token or unknown tenant → 401; disabled tenant
//     → 403. This layer does not depend on how an operation was declared, so
//     an operation that forgets its security declaration is still protected.
//  2. Operation level: a huma middleware reads the minimum role an operation
//     declares in its Metadata (reader < editor < admin). An operation that
//     declares nothing requires admin; one not marked public but reached
//     without a principal gets 401. Too low a role → 403.
//  3. Data level: handlers take the tenant from the request context and every
//     query runs in store.InTenant, so PostgreSQL's row-level security scopes
//     it; another tenant's document id is simply "no rows", which the
//     handler reports as not found → 404 (a missing row the handler did not
//     expect, such as an unregistered embedding model, is a 500).
//
// # Errors
//
// Every error body is an RFC 9457 problem (application/problem+json) with the
// request id. Handlers return plain Go errors; one function (classify) maps
// them to statuses. Database errors reach it as the store's sentinels
// (store.ErrConflict → 409, store.ErrInvalidValue and store.ErrInvalidText →
// 422, store.ErrUnavailable → 503), never as SQLSTATEs, and store.ErrNotFound
// is not a 404 unless a handler or domain package says so. huma.NewError is replaced (once, at package init, as huma
// documents) so that huma's own errors — validation, body limits, panics in
// marshalling — have the same shape, and so that no 5xx ever carries internal
// text: the detail is logged with the request id and the client gets a
// generic message quoting that id. A client that hung up (its request's
// context canceled) is recorded as 499, not as a server error.
package api
