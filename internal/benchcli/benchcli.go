// Package benchcli is the ragd-bench command: the benchmark of a synthetic
// multi-tenant corpus (internal/bench) and the HTTP load generator
// (internal/loadgen). It is a command of its own, not a ragd subcommand, so
// the serving binary links neither the benchmark's plotting (gonum/plot and
// its fonts and PDF/EPS/PNG backends) nor httptest's in-process servers:
// ragd stays smaller and carries only code that serving and operating a
// deployment need. Run takes its arguments, environment and streams as
// parameters, like cli.Run, so the commands are testable in-process.
package benchcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"

	"github.com/ragd-dev/ragd/internal/config"
)

// env bundles what a subcommand may touch.
type env struct {
	getenv func(string) string
	stdout io.Writer
	stderr io.Writer
	cfg    config.Config
}

type command struct {
	summary string
	run     func(ctx context.Context, e *env, args []string) error
}

// errUsage marks an error the user can fix by changing the command line; Run
// exits 2 for it.
var errUsage = errors.New("usage")

func usagef(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, a...))
}

func commands() map[string]command {
	return map[string]command{
		"bench": {"benchmark a synthetic multi-tenant corpus: bench [--chunks N --tenants T --json]", runBench},
		"load":  {"drive a running server with mixed traffic at a fixed rate; report latency, errors, RSS", runLoad},
	}
}

// Run executes one ragd-bench subcommand and returns the process exit code:
// 0 on success, 1 on failure, 2 on a usage error. Configuration (database
// URLs, application role, listen address, model directory) comes from the
// same RAGD_* variables as ragd's.
func Run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printHelp(stdout, cmds)
		return 0
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "ragd-bench: unknown command %q\n\n", args[0])
		printHelp(stderr, cmds)
		return 2
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "ragd-bench: configuration: %v\n", err)
		return 2
	}
	e := &env{getenv: getenv, stdout: stdout, stderr: stderr, cfg: cfg}
	if err := cmd.run(ctx, e, args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "ragd-bench %s: %v\n", args[0], err)
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	return 0
}

func printHelp(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "ragd-bench — ragd's benchmark and load generator")
	fmt.Fprintln(w, "\nUsage: ragd-bench <command> [flags]\n\nCommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-6s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nConfiguration comes from ragd's RAGD_* environment variables (`ragd config` prints them).")
}

// newFlags makes a FlagSet that reports errors instead of exiting.
func newFlags(e *env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "Usage: ragd-bench %s\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags; neither command takes positional arguments.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}
