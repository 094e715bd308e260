package api

import (
	"context"
	"errors"
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

// A package's prefix is left out where it opens the message or one of its
// wrapped parts, not where the same words are the message's own: a job's
// "invalid job: the archive is not …" had read "invalid the archive is not …".
func TestClientTextKeepsTheMessagesOwnWords(t *testing.T) {
	for in, want := range map[string]string{
		"job: invalid job: the archive is not a zip, tar or tar.gz file": "invalid job: the archive is not a zip, tar or tar.gz file",
		"ingest: extract: no text to extract":                            "no text to extract",
		"search: invalid input: top_k must be 1-100":                     "top_k must be 1-100",
		"a job: search: failed":                                          "a job: failed",
	} {
		if got := clientText(errors.New(in)); got != want {
			t.Errorf("clientText(%q) = %q, want %q", in, got, want)
		}
	}
}
