package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/model"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// ShutdownGrace is how long Serve waits for in-flight requests after its
// context ends.
const ShutdownGrace = 30 * time.Second

// NewHTTPServer returns an http.Server for h with timeouts that bound slow
// clients: headers within 10 s, the whole request and response within the
// request timeout plus a margin (huma sets per-operation body read
// deadlines; the handler's context ends at the request timeout).
func NewHTTPServer(h http.Handler, l Limits, log *slog.Logger) *http.Server {
	l.defaults()
	if log == nil {
		log = slog.Default()
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       l.RequestTimeout + 10*time.Second,
		WriteTimeout:      l.RequestTimeout + 10*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// Serve serves srv on ln until ctx ends, then shuts down gracefully: it stops
// accepting, lets in-flight requests finish (at most grace), and returns nil.
// Errors: the listener's failure, or the shutdown's when grace passes with
// requests still running.
func Serve(ctx context.Context, srv *http.Server, ln net.Listener, grace time.Duration) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
		return fmt.Errorf("api: shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// OpenAPIJSON returns the OpenAPI 3.1 document of every route the server can
// register, indented, as committed in
// openapi/openapi.json. It needs no database.
func OpenAPIJSON() ([]byte, error) {
	// Zero values only make the optional routes register; never called.
	s := newServer(Deps{Asker: specAsker{}, Evaluator: (*eval.Service)(nil), Jobs: (*job.Service)(nil), Models: new(model.Set), Switcher: new(model.Switcher)})
	b, err := json.MarshalIndent(s.api.OpenAPI(), "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// specAsker only makes OpenAPIJSON register /v1/answer; it is never called.
type specAsker struct{}

func (specAsker) Ask(context.Context, tenant.Tenant, search.Request, func(string) error) (AskResult, error) {
	return AskResult{}, errors.New("api: specAsker is not an answerer")
}
