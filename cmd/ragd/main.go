// Command ragd is the multi-tenant RAG backend: server, operator CLI,
// ingestion, search and evaluation in one binary (the benchmark and the load
// generator are ragd-bench's). Run `ragd help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/ragd-dev/ragd/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
