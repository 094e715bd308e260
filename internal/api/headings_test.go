package api_test

import (
	"bytes"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/app"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// productionDeps wires the server as deps does but with the production
// body limit (RAGD_MAX_BODY_BYTES, 10 MiB) and the given request timeout.
func productionDeps(t *testing.T, timeout time.Duration) api.Deps {
	t.Helper()
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.RequestTimeout = timeout
	a, err := app.New(t.Context(), cfg, testdb.App(t), app.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))),
		app.WithEmbedder(localEmbedder(t)))
	if err != nil {
		t.Fatal(err)
	}
	v, err := auth.New(t.Context(), auth.Options{Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	return a.APIDeps(v)
}

// Packing a section's units asks, for every unit it merges, whether the
// unit built so far is only headings by reading each of its blocks again
// (chunk.splitter.small inside pack), so a run of headings without text
// takes time growing faster than the square of its length: Markdown of
// "# h" lines took 0.12 s to chunk at 64 KiB, 0.56 s at 128 KiB and 3.9 s
// at 256 KiB and 26 s at 512 KiB, and Split takes no context, so the
// request's deadline does not stop it: a 512 KiB upload, a twentieth of
// the body limit, holds a core for half a minute past a 3 s deadline (9 MiB
// of alternating HTML <h6> and <h1> took 12 minutes to extract and chunk). Hostile input
// must be answered by its deadline (504) with the server still serving
// (SECURITY.md).
func TestManyEmptyHeadingsEndAtTheDeadline(t *testing.T) {
	t.Parallel()
	const timeout = 3 * time.Second
	d := productionDeps(t, timeout)
	srv, err := api.New(d)
	if err != nil {
		t.Fatal(err)
	}
	tn := testdb.NewTenant(t, "api-headings", "")
	md := []byte(strings.Repeat("# h\n", 512<<10/4))
	body, ct := multipartBody(t, "headings.md", "text/markdown", md, nil)
	r := httptest.NewRequestWithContext(t.Context(), "POST", "/v1/documents/upload", bytes.NewReader(body.Bytes()))
	r.Header.Set("Content-Type", ct)
	r.Header.Set("Authorization", "Bearer "+token(t, tn.ID, auth.RoleEditor))
	done := make(chan int, 1)
	start := time.Now()
	go func() {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		done <- w.Code
	}()
	select {
	case code := <-done:
		t.Logf("status %d after %v", code, time.Since(start).Round(time.Millisecond))
	case <-time.After(timeout + 7*time.Second):
		t.Errorf("a %d KiB Markdown upload of empty headings is still being served %v after it started (deadline %v)",
			len(md)>>10, time.Since(start).Round(time.Second), timeout)
	}
}
