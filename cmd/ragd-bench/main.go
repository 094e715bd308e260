// Command ragd-bench is ragd's benchmark and load generator: `ragd-bench
// bench` measures a synthetic multi-tenant corpus, `ragd-bench load` drives
// a running server. Run `ragd-bench help`. It is separate from ragd so the
// serving binary does not link the benchmark's plotting and test servers.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/ragd-dev/ragd/internal/benchcli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := benchcli.Run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
