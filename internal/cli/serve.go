package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/store"
)

func runServe(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "serve", "serve [--addr host:port]")
	addr := fs.String("addr", e.cfg.Addr, "listen address (default RAGD_ADDR)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	cfg := e.cfg
	cfg.Addr = *addr // the address it listens on is the one checked
	if err := cfg.Validate(true); err != nil {
		return fmt.Errorf("configuration:\n%w", err)
	}
	// The JWT key source first: a misconfiguration fails before any connection.
	verifier, err := auth.FromConfig(ctx, cfg)
	if err != nil {
		return err
	}
	d, err := openDeps(ctx, e)
	if err != nil {
		return err
	}
	defer d.close()
	// Model switches re-embed in the background of the server; they stop
	// (at a batch boundary, resumed by the next run) before the pool closes.
	defer d.app.Switcher.Stop()
	if err := store.CheckAppRole(ctx, d.pool); err != nil {
		return fmt.Errorf("refusing to serve: %w", err)
	}
	srv, err := api.New(d.app.APIDeps(verifier))
	if err != nil {
		return err
	}
	// The PDF engine is compiled in the background, so the first PDF upload
	// does not wait for it (or time out) on a fresh machine.
	go func() {
		if err := extract.PreparePDF(); err != nil {
			e.log.Error("PDF engine unavailable: PDF uploads will fail", "err", err)
		}
	}()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	e.log.Info("serving", "addr", ln.Addr().String(), "model", d.embedder.Model(), "jwt_algorithms", verifier.Methods())
	fmt.Fprintf(e.stdout, "ragd: listening on http://%s\n", ln.Addr())
	// Background ingestion workers: they stop with the server and hand back
	// the documents they hold (a crash leaves them to their leases).
	workers := make(chan struct{})
	wctx, stopWorkers := context.WithCancel(ctx)
	defer stopWorkers()
	if cfg.IngestWorkers > 0 {
		go func() { defer close(workers); d.app.Jobs.Run(wctx) }()
		e.log.Info("ingestion workers", "workers", cfg.IngestWorkers)
	} else {
		close(workers)
	}
	// The event writer outlives the HTTP server by its final flush: it stops
	// after the last request has handed over its event.
	recCtx, stopRec := context.WithCancel(context.WithoutCancel(ctx))
	recDone := make(chan struct{})
	go func() { d.app.Recorder.Run(recCtx); close(recDone) }()
	err = api.Serve(ctx, api.NewHTTPServer(srv, api.LimitsFromConfig(cfg), e.log), ln, api.ShutdownGrace)
	stopWorkers()
	<-workers
	stopRec()
	<-recDone
	e.log.Info("stopped")
	return err
}

func runOpenAPI(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "openapi", "openapi  (prints the OpenAPI 3.1 document as JSON)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	b, err := api.OpenAPIJSON()
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(b)
	return err
}

// tokenActions are runToken's actions.
var tokenActions = []string{"issue"}

func runToken(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] != "issue" {
		return usagef("token issue --tenant <slug> --role reader|editor|admin [--ttl 1h] [--subject S] [--group G]...")
	}
	fs := newFlags(e, "token issue", "token issue --tenant <slug> --role reader|editor|admin [--ttl 1h] [--subject S] [--group G]...")
	slug := fs.String("tenant", "", "tenant slug")
	roleName := fs.String("role", "reader", "reader, editor or admin")
	ttl := fs.Duration("ttl", time.Hour, "validity")
	subject := fs.String("subject", "ragd-dev", "the sub claim (principal user:<subject> of document access lists)")
	var groups stringsFlag
	fs.Var(&groups, "group", "a group of the groups claim (RAGD_JWT_GROUPS_CLAIM; principal group:<name>; repeatable)")
	pos, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	role, err := auth.ParseRole(*roleName)
	if err != nil {
		return usagef("--role must be reader, editor or admin")
	}
	if *ttl <= 0 {
		return usagef("--ttl must be positive")
	}
	if len(e.cfg.JWTSecret) < 32 {
		return errors.New("RAGD_JWT_SECRET (or RAGD_JWT_SECRET_FILE) must hold an HS256 secret of at least 32 bytes to issue development tokens")
	}
	pool, err := store.Open(ctx, e.cfg.AdminDatabaseURL, store.Options{MaxConns: 1, Logger: e.log})
	if err != nil {
		return err
	}
	defer pool.Close()
	t, err := tenantBySlug(ctx, pool, *slug)
	if err != nil {
		return err
	}
	opts := []auth.IssueOption{auth.WithIssuer(e.cfg.JWTIssuer), auth.WithAudience(e.cfg.JWTAudience),
		auth.WithClaimNames(e.cfg.JWTTenantClaim, e.cfg.JWTRoleClaim), auth.WithSubject(*subject)}
	if len(groups) > 0 {
		opts = append(opts, auth.WithGroups(e.cfg.JWTGroupsClaim, groups...))
	}
	tok, err := auth.Issue(e.cfg.JWTSecret, t.ID, role, *ttl, opts...)
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, tok)
	return nil
}
