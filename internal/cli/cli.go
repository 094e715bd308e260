// Package cli implements the ragd subcommands. Run takes its arguments,
// environment and streams as parameters, so every subcommand is testable
// in-process the way sqlc's CLI is.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sort"
	"strings"

	"github.com/ragd-dev/ragd/internal/config"
	"github.com/ragd-dev/ragd/internal/store"
)

// env bundles what a subcommand may touch.
type env struct {
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	cfg    config.Config
	log    *slog.Logger
}

type command struct {
	summary string
	// actions are the command's subcommands, read from the tables their
	// command dispatches through (tenantActions, evalActions, …), so that
	// `ragd help` lists every one of them.
	actions []string
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
		"migrate": {"apply schema migrations (owner role)", migrateActions, runMigrate},
		"tenant":  {"manage tenants (owner role)", actionNames(tenantActions()), runTenant},
		"model":   {"the embedding model registry (owner role)", modelActions, runModel},
		"config":  {"print the effective configuration, secrets redacted", nil, runConfig},
		"serve":   {"serve the HTTP API on RAGD_ADDR (application role)", nil, runServe},
		"openapi": {"print the OpenAPI 3.1 document of the HTTP API (JSON)", nil, runOpenAPI},
		"token":   {"issue an HS256 development token (--tenant <slug> --role <role> [--ttl 1h])", tokenActions, runToken},
		"ingest":  {"ingest files or directories into a tenant", nil, runIngest},
		"search":  {"hybrid search over a tenant's documents", nil, runSearch},
		"eval":    {"evaluate retrieval and answers", evalActionNames(), runEval},
		"ask":     {"answer a question from a tenant's documents, with citations", nil, runAsk},
		"bench":   {"moved: `ragd-bench bench` (bin/ragd-bench)", nil, movedToBench("bench")},
		"load":    {"moved: `ragd-bench load` (bin/ragd-bench)", nil, movedToBench("load")},
	}
}

// Run executes one ragd subcommand and returns the process exit code: 0 on
// success, 1 on failure, 2 on a usage error.
func Run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printHelp(stdout, cmds)
		return 0
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "ragd: unknown command %q\n\n", args[0])
		printHelp(stderr, cmds)
		return 2
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "ragd: configuration: %v\n", err)
		return 2
	}
	level := map[string]slog.Level{"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError}[cfg.LogLevel]
	e := &env{getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr, cfg: cfg,
		log: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))}
	if args[0] != "serve" {
		// Operator commands print tenants' text (answers, chunks, titles,
		// evaluation categories) to a terminal: a control character in a
		// document must not reach it (ESC sequences set the window title,
		// write the clipboard, hide text).
		e.stdout = terminalSafe{stdout}
		// Operator commands read and write every document of a tenant
		// (ingest replaces restricted documents, eval and tune measure the
		// whole corpus); ask and search can run as a person with
		// --as-subject/--as-group. The server never inherits this: each of
		// its requests reads as its caller.
		ctx = store.WithVisibility(ctx, store.AllDocuments())
	}
	if err := cmd.run(ctx, e, args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "ragd %s: %v\n", args[0], err)
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	return 0
}

func printHelp(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "ragd — multi-tenant retrieval-augmented generation on PostgreSQL + pgvector")
	fmt.Fprintln(w, "\nUsage: ragd <command> [flags] [args]\n\nCommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := cmds[n]
		fmt.Fprintf(w, "  %-9s %s\n", n, c.summary)
		if len(c.actions) > 0 {
			fmt.Fprintf(w, "  %-9s   %s %s\n", "", n, strings.Join(c.actions, "|"))
		}
	}
	fmt.Fprintln(w, "\n`ragd <command> [<action>] --help` shows a command's flags.")
	fmt.Fprintln(w, "Configuration comes from RAGD_* environment variables; `ragd config` prints it.")
}

// newFlags makes a FlagSet that reports errors instead of exiting.
func newFlags(e *env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "Usage: ragd %s\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags allowing them after positional arguments too
// (`ragd search "q" --json`).
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func runConfig(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "config", "config")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, strings.Join(e.cfg.Redacted(), "\n"))
	if err := errors.Join(e.cfg.Validate(false), e.cfg.ValidateAddr()); err != nil {
		fmt.Fprintf(e.stdout, "\n# problems:\n%v\n", err)
		return errors.New("the settings above have problems")
	}
	return nil
}

// terminalSafe writes through to w with the control characters that a
// terminal acts on replaced by U+FFFD: C0 but tab and newline, DEL, and C1
// (U+0080–U+009F, CSI and OSC among them, which terminals act on in UTF-8
// too). A C1 character split across two writes is not recognised; the
// CLI writes whole strings.
type terminalSafe struct{ w io.Writer }

func (t terminalSafe) Write(p []byte) (int, error) {
	if !slices.ContainsFunc(p, func(c byte) bool { return terminalControl(c) || c == 0xC2 }) {
		return t.w.Write(p)
	}
	out := make([]byte, 0, len(p)+8)
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case terminalControl(c):
			out = append(out, "\uFFFD"...)
		case c == 0xC2 && i+1 < len(p) && p[i+1] >= 0x80 && p[i+1] <= 0x9F:
			out = append(out, "\uFFFD"...)
			i++
		default:
			out = append(out, c)
		}
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

func terminalControl(c byte) bool { return c < 0x20 && c != '\n' && c != '\t' || c == 0x7f }
