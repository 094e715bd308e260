package cli

import (
	"context"
	"strings"
)

// movedToBench answers `ragd bench` and `ragd load`, which are commands of
// ragd-bench now (internal/benchcli says why), with where to find them
// instead of an unknown-command error. Exit status 2.
func movedToBench(name string) func(context.Context, *env, []string) error {
	return func(_ context.Context, _ *env, args []string) error {
		return usagef("moved to the ragd-bench command: run `ragd-bench %s`, built as bin/ragd-bench by `make build`",
			strings.TrimSpace(name+" "+strings.Join(args, " ")))
	}
}
