package api_test

import (
	"math/rand/v2"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// Found by h-break8.

// TestHBreak8UploadNamedDotDotIsRefused: a file part named "." (or "/")
// without a source_uri is refused with 422 "source_uri is required when
// the file has no name", but one named ".." (curl -F 'file=@t.md;filename=..')
// was stored as a document whose source_uri is "..": the parent-directory
// name is no more a file name than ".", and a source_uri of ".." reads as
// a path trick in every listing, log and citation.
func TestHBreak8UploadNamedDotDotIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	for _, name := range []string{".", "..", "docs/..", `..\..`} {
		body, ct := multipartBody(t, name, "text/markdown", []byte("# Title\n\nSome text about widgets.\n"), nil)
		r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", body)
		r.Header.Set("Content-Type", ct)
		r.Header.Set("Authorization", "Bearer "+ed)
		w := httptest.NewRecorder()
		b.srv.ServeHTTP(w, r)
		if w.Code != 422 {
			t.Errorf("file named %q without a source_uri: %d %s, want 422 (no file name)", name, w.Code, w.Body.String())
		}
	}
}

// TestHBreak8UploadAnswersAtItsDeadline: RAGD_REQUEST_TIMEOUT promises a
// 504 when a request's deadline passes, but the deadline is only a
// context, and extraction other than PDF's never looks at it. An 800 KB
// Markdown file of "*a_ " repeated (quadratic for the Markdown parser)
// uploaded to ragd serve got no response at all for 300 s (curl gave up),
// with the default 60 s timeout, while a core stayed busy. Here: a 64 KB
// one (about 2.5 s of parsing) under a 300 ms deadline must be answered
// with 504 well before the parse would end.
func TestHBreak8UploadAnswersAtItsDeadline(t *testing.T) {
	t.Parallel()
	b := setup(t, func(d *api.Deps) { d.Limits.RequestTimeout = 300 * time.Millisecond })
	ed := token(t, b.a.ID, auth.RoleEditor)
	body, ct := multipartBody(t, "slow.md", "text/markdown", []byte(strings.Repeat("*a_ ", 16000)), nil)
	r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", body)
	r.Header.Set("Content-Type", ct)
	r.Header.Set("Authorization", "Bearer "+ed)
	w := httptest.NewRecorder()
	start := time.Now()
	b.srv.ServeHTTP(w, r)
	took := time.Since(start)
	t.Logf("status %d after %v", w.Code, took)
	// The Markdown parser's quadratic case is now read as text
	// (extract.markdownRisky), in milliseconds: the upload is stored, or,
	// on a machine slow enough, answered 504 at its deadline; either way
	// within moments, not after the seconds of parsing it took.
	if took > 1500*time.Millisecond {
		t.Errorf("the response came %v after the request, its deadline being 300 ms (status %d)", took, w.Code)
	}
	if w.Code != 200 && w.Code != 201 && w.Code != 504 {
		t.Errorf("status %d %s, want the document stored or 504", w.Code, w.Body.String())
	}
}

// TestHBreak8LargestAcceptedUploadCanBeStored: POST /v1/documents/upload
// accepts bodies up to RAGD_MAX_BODY_BYTES (10 MiB), but a 9.6 MB plain
// text (or HTML page, or <pre>) of ordinary words always ends in 504 at
// RAGD_REQUEST_TIMEOUT (60 s): its 9,143 chunks take 90 s to embed on a
// 2-core machine (`ragd ingest` of the same file: 1m31s, 100 chunks/s).
// Nothing says so until the minute has passed, and nothing is stored. A
// document the route accepts should be stored within its deadline, or be
// refused at once (413 naming the ingestion jobs route) rather than after
// a minute of a core's work. Slow (about a minute); skipped with -short.
func TestHBreak8LargestAcceptedUploadCanBeStored(t *testing.T) {
	if testing.Short() {
		t.Skip("a minute of embedding")
	}
	t.Parallel()
	srv, err := api.New(productionDeps(t, time.Minute)) // ragd serve's defaults: 10 MiB, 60 s
	if err != nil {
		t.Fatal(err)
	}
	tn := testdb.NewTenant(t, "api-hbreak8-big", "")
	ed := token(t, tn.ID, auth.RoleEditor)
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa", "lambda", "sigma"}
	var text strings.Builder
	rng := rand.New(rand.NewPCG(8, 8)) // every chunk its own text: no embedding cache hits
	for i := 0; text.Len() < 9_500_000; i++ {
		text.WriteString(words[rng.IntN(len(words))])
		if i%150 == 149 {
			text.WriteString(".\n\n")
		} else {
			text.WriteByte(' ')
		}
	}
	body, ct := multipartBody(t, "big.txt", "text/plain", []byte(text.String()), nil)
	r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", body)
	r.Header.Set("Content-Type", ct)
	r.Header.Set("Authorization", "Bearer "+ed)
	w := httptest.NewRecorder()
	start := time.Now()
	srv.ServeHTTP(w, r)
	took := time.Since(start)
	t.Logf("%d bytes: status %d after %v: %.300s", text.Len(), w.Code, took, w.Body.String())
	switch {
	case w.Code == 413:
		if !strings.Contains(w.Body.String(), "/v1/ingest/jobs") || took > 20*time.Second {
			t.Errorf("refused after %v without naming the ingestion jobs route: %s", took, w.Body.String())
		}
	case w.Code/100 != 2:
		t.Errorf("a %d-byte text under the 10 MiB limit: %d after %v; want it stored, or refused at once naming the jobs route", text.Len(), w.Code, took)
	}
}
