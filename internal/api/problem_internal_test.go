package api

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
)

// TestFailTranslation: each error is translated once, by what it means for
// the caller: a client that hung up is not a server fault (499, no
// Retry-After); a cancellation the client did not cause is one (500); a
// missing row the handler did not translate is a server fault, not "not
// found"; the domain packages' ErrNotFound is a 404; the store's sentinels
// have their statuses (the store's own tests provoke them in the database,
// the hostile tests of package reliability send NULs over HTTP).
func TestFailTranslation(t *testing.T) {
	hungUp, cancel := context.WithCancel(context.Background())
	cancel()
	live := context.Background()
	for _, tc := range []struct {
		name       string
		ctx        context.Context
		err        error
		status     int
		retryAfter bool
	}{
		{"client hung up", hungUp, fmt.Errorf("retrieve: %w", context.Canceled), StatusClientClosedRequest, false},
		{"cancelled inside the server", live, fmt.Errorf("retrieve: %w", context.Canceled), http.StatusInternalServerError, false},
		{"deadline", live, context.DeadlineExceeded, http.StatusGatewayTimeout, false},
		{"untranslated missing row", live, fmt.Errorf("look up embedding model: %w", store.ErrNotFound), http.StatusInternalServerError, false},
		{"untranslated pgx missing row", live, pgx.ErrNoRows, http.StatusInternalServerError, false},
		{"unique violation", live, fmt.Errorf("store eval set: %w", store.ErrConflict), http.StatusConflict, false},
		{"check violation", live, fmt.Errorf("%w: x", store.ErrInvalidValue), http.StatusUnprocessableEntity, false},
		{"NUL in text", live, fmt.Errorf("%w: x", store.ErrInvalidText), http.StatusUnprocessableEntity, false},
		{"document not found", live, fmt.Errorf("delete: %w", ingest.ErrNotFound), http.StatusNotFound, false},
		{"handler's not found", live, errNotFound, http.StatusNotFound, false},
		{"database unavailable", live, store.ErrUnavailable, http.StatusServiceUnavailable, true},
	} {
		p, ok := fail(tc.ctx, tc.err, "document").(*Problem)
		if !ok {
			t.Fatalf("%s: fail returned %T", tc.name, p)
		}
		if p.Status != tc.status || (p.GetHeaders().Get("Retry-After") != "") != tc.retryAfter || p.Title == "" {
			t.Errorf("%s: %d %q (Retry-After %q), want %d (Retry-After %v)", tc.name, p.Status, p.Title,
				p.GetHeaders().Get("Retry-After"), tc.status, tc.retryAfter)
		}
	}
}
