package store

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The store's errors. InTenant and SendTenantBatch translate every error
// they return (Translate): a caller matches these with errors.Is and never
// reads a SQLSTATE. The PostgreSQL error stays in the chain for logs.

// ErrNotFound is returned by a query that reads exactly one row when there
// is none. It is pgx.ErrNoRows itself, so errors.Is matches it whether the
// error comes straight from a generated query (inside InTenant's fn) or
// through InTenant. Whether a missing row means "not found" to a client is
// for the domain package to say, with its own error (tenant.ErrNotFound,
// ingest.ErrNotFound, eval.ErrSetNotFound, …): a missing row nobody expected,
// such as an embedding_models row, is a server fault.
var ErrNotFound = pgx.ErrNoRows

// ErrConflict wraps a unique_violation (SQLSTATE 23505): the write would
// duplicate an existing key, e.g. a tenant slug that is taken.
var ErrConflict = errors.New("store: conflicts with an existing row")

// ErrInvalidValue wraps a check_violation (23514) or a
// string_data_right_truncation (22001): a value the schema does not allow,
// e.g. a malformed tenant slug or a string longer than its column.
var ErrInvalidValue = errors.New("store: value not allowed by the schema")

// ErrInvalidText wraps a character_not_in_repertoire (22021) or an
// untranslatable_character (22P05): text or jsonb that PostgreSQL cannot
// hold, such as U+0000 (NUL) in a string.
var ErrInvalidText = errors.New("store: text PostgreSQL cannot store")

// ErrPermissionDenied wraps an insufficient_privilege (42501): the role may
// not do what the statement asks, e.g. CREATE EXTENSION of an untrusted
// extension without superuser rights, or a write that a row-level security
// policy refuses.
var ErrPermissionDenied = errors.New("store: permission denied")

// ErrUndefinedObject wraps an undefined_table (42P01), undefined_column
// (42703), undefined_function (42883), undefined_object (42704) or
// invalid_schema_name (3F000): the schema lacks what the code reads, i.e.
// the database is not migrated (or by an older binary). Only this error
// calls for `ragd migrate up`; a connection or authentication failure
// does not.
var ErrUndefinedObject = errors.New("store: the schema lacks a table, column or function")

// ErrTransient wraps a deadlock_detected (40P01) or serialization_failure
// (40001): the transaction lost a race with another one and was rolled
// back whole; the same request may succeed when retried.
var ErrTransient = errors.New("store: transaction rolled back by a concurrent one; retry")

// ErrReferenceGone wraps a foreign_key_violation (23503): a row the write
// refers to (its tenant, its document) was deleted by a concurrent
// transaction, e.g. the tenant's deletion; nothing was written.
var ErrReferenceGone = errors.New("store: a row the write refers to was deleted concurrently")

// Translate returns err wrapped with the store's error for what it means:
// ErrUnavailable for a connection failure (IsUnavailable), ErrConflict,
// ErrInvalidValue, ErrInvalidText, ErrPermissionDenied, ErrUndefinedObject,
// ErrTransient or ErrReferenceGone for those PostgreSQL errors. Other
// errors, nil and errors already translated are returned as they are.
// InTenant and SendTenantBatch apply it to the errors they return; a caller
// that runs a generated query directly on a pool (the operator commands on
// the owner pool) applies it to that query's error.
func Translate(err error) error {
	if err == nil || errors.Is(err, ErrUnavailable) {
		return err
	}
	if IsUnavailable(err) {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return translateCode(err)
}

// translateCode wraps a PostgreSQL error (one the server sent, so never a
// provider's) with the store's error for its SQLSTATE.
func translateCode(err error) error {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || errors.Is(err, ErrConflict) || errors.Is(err, ErrInvalidValue) || errors.Is(err, ErrInvalidText) ||
		errors.Is(err, ErrPermissionDenied) || errors.Is(err, ErrUndefinedObject) || errors.Is(err, ErrTransient) ||
		errors.Is(err, ErrReferenceGone) {
		return err
	}
	switch pgErr.Code {
	case "23505":
		return fmt.Errorf("%w: %w", ErrConflict, err)
	case "40P01", "40001":
		return fmt.Errorf("%w: %w", ErrTransient, err)
	case "23503":
		return fmt.Errorf("%w: %w", ErrReferenceGone, err)
	case "23514", "22001":
		return fmt.Errorf("%w: %w", ErrInvalidValue, err)
	case "22021", "22P05":
		return fmt.Errorf("%w: %w", ErrInvalidText, err)
	case "42501":
		return fmt.Errorf("%w: %w", ErrPermissionDenied, err)
	case "42P01", "42703", "42883", "42704", "3F000":
		return fmt.Errorf("%w: %w", ErrUndefinedObject, err)
	}
	return err
}
