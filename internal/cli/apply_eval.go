package cli

import (
	"context"
	"fmt"

	"github.com/ragd-dev/ragd/internal/tenant"
)

// applyEval loads, tunes and runs the tenant's evaluation set.
// TEMPORARY: replaced when internal/eval lands (lead).
func applyEval(_ context.Context, e *env, _ *deps, t tenant.Tenant, dir, set, path string, tune bool) error {
	fmt.Fprintf(e.stdout, "evaluation for %s: not wired yet (%s/%s, set %s, tune %v)\n", t.Slug, dir, path, set, tune)
	return nil
}
