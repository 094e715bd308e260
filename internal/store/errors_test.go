package store_test

import (
	"context"
	"errors"
	"net"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestErrorsTranslated provokes each PostgreSQL error the store translates
// in the real database, as the application role through InTenant and
// SendTenantBatch and as the owner through a generated query plus
// Translate (the operator path), and checks the sentinel callers match on;
// the PostgreSQL error stays in the chain.
func TestErrorsTranslated(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	app, owner := testdb.App(t), testdb.Owner(t)
	tn := testdb.NewTenant(t, "errs", "")
	q := store.New()
	inTenant := func(fn func(tx pgx.Tx) error) error { return store.InTenant(ctx, app, tn.ID, fn) }
	batch := func(sql string, args ...any) error {
		b := &pgx.Batch{}
		b.Queue(sql, args...)
		return store.SendTenantBatch(ctx, app, tn.ID, b)
	}
	sentinels := []error{store.ErrNotFound, store.ErrConflict, store.ErrInvalidValue, store.ErrInvalidText, store.ErrUnavailable, store.ErrPermissionDenied}
	for _, c := range []struct {
		name  string
		err   error
		want  error
		state string // the SQLSTATE kept in the chain ("" for none)
	}{
		{"missing document", inTenant(func(tx pgx.Tx) error {
			_, err := q.GetDocument(ctx, tx, store.GetDocumentParams{TenantID: tn.ID, ID: uuid.New()})
			return err
		}), store.ErrNotFound, ""},
		{"slug taken", store.Translate(func() error {
			_, err := q.CreateTenant(ctx, owner, store.CreateTenantParams{Slug: tn.Slug, Name: "again", TsConfig: "english"})
			return err
		}()), store.ErrConflict, "23505"},
		{"malformed slug", store.Translate(func() error {
			_, err := q.CreateTenant(ctx, owner, store.CreateTenantParams{Slug: "Not A Slug", Name: "x", TsConfig: "english"})
			return err
		}()), store.ErrInvalidValue, "23514"},
		{"malformed set name", inTenant(func(tx pgx.Tx) error {
			_, err := q.InsertEvalSet(ctx, tx, store.InsertEvalSetParams{TenantID: tn.ID, Name: "Bad Name", Sha: []byte{1}, Questions: 0})
			return err
		}), store.ErrInvalidValue, "23514"},
		{"duplicate question", inTenant(func(tx pgx.Tx) error {
			set, err := q.InsertEvalSet(ctx, tx, store.InsertEvalSetParams{TenantID: tn.ID, Name: "dup", Sha: []byte{1}, Questions: 2})
			if err != nil {
				return err
			}
			_, err = q.InsertEvalQuestions(ctx, tx, store.InsertEvalQuestionsParams{TenantID: tn.ID, SetID: set.ID,
				Questions: []byte(`[{"idx": 0, "question": "a"}, {"idx": 0, "question": "b"}]`)})
			return err
		}), store.ErrConflict, "23505"},
		{"NUL in a text parameter", inTenant(func(tx pgx.Tx) error {
			_, err := q.ListSourceURIs(ctx, tx, store.ListSourceURIsParams{TenantID: tn.ID, Prefix: "docs/\x00"})
			return err
		}), store.ErrInvalidText, "22021"},
		{"NUL in jsonb", inTenant(func(tx pgx.Tx) error {
			return q.UpdateTenantSettings(ctx, tx, store.UpdateTenantSettingsParams{ID: tn.ID, Settings: []byte(`{"k": "\u0000"}`)})
		}), store.ErrInvalidText, "22P05"},
		{"NUL in a batch", batch("SELECT $1::text", "a\x00b"), store.ErrInvalidText, "22021"},
		{"the application role registering a model", store.Translate(q.BenchRegisterModel(ctx, app,
			store.BenchRegisterModelParams{Name: "errs-no-right", Dims: 3})), store.ErrPermissionDenied, "42501"},
	} {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.want)
			continue
		}
		for _, s := range sentinels {
			if s != c.want && errors.Is(c.err, s) {
				t.Errorf("%s: %v also matches %v", c.name, c.err, s)
			}
		}
		var pgErr *pgconn.PgError
		if c.state != "" && (!errors.As(c.err, &pgErr) || pgErr.Code != c.state) {
			t.Errorf("%s: %v does not carry SQLSTATE %s", c.name, c.err, c.state)
		}
	}
}

// TestTranslateLeavesOtherErrors: errors that are not the database's pass
// through InTenant as they are (a provider's network failure inside fn is
// not a database outage), Translate does not wrap twice, and an
// unreachable server is ErrUnavailable.
func TestTranslateLeavesOtherErrors(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	tn := testdb.NewTenant(t, "errs", "")
	provider := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	err := store.InTenant(ctx, testdb.App(t), tn.ID, func(pgx.Tx) error { return provider })
	if err != provider {
		t.Errorf("fn's own error came back as %v", err)
	}
	if store.Translate(nil) != nil {
		t.Error("Translate(nil) != nil")
	}
	if err := store.Translate(context.Canceled); err != context.Canceled {
		t.Errorf("Translate(context.Canceled) = %v", err)
	}

	down, err := store.Open(ctx, "postgres://ragd_app:ragd_app@127.0.0.1:1/ragd_test?sslmode=disable&connect_timeout=2", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(down.Close)
	err = store.InTenant(ctx, down, tn.ID, func(pgx.Tx) error { return nil })
	if !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("unreachable server: %v", err)
	}
	if again := store.Translate(err); again != err {
		t.Errorf("translated twice: %v", again)
	}
}
