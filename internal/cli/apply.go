package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/provision"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/vindex"
)

// runTenantApply: `ragd tenant apply tenants/<slug>` applies the manifest
// (provision.Apply: tenant row, sources, indexes, evaluation set) and prints
// its progress and the evaluation summary.
func runTenantApply(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "tenant apply", tenantUsage("apply"))
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("%s", tenantUsage("apply"))
	}
	dir, err := manifestDir(pos[0])
	if err != nil {
		return err
	}
	slug := filepath.Base(dir)
	m, err := provision.ReadManifest(dir)
	if err != nil {
		return err
	}
	admin, err := store.Open(ctx, e.cfg.AdminDatabaseURL, store.Options{MaxConns: 2, Logger: e.log})
	if err != nil {
		return err
	}
	defer admin.Close()
	d, err := openDeps(ctx, e)
	if err != nil {
		return err
	}
	defer d.close()
	err = provision.Apply(ctx, admin, d.app, e.cfg, dir, m, provision.Hooks{
		Tenant: func(id uuid.UUID, slug string, created bool) {
			fmt.Fprintf(e.stdout, "tenant %s %s (%s)\n", slug, map[bool]string{true: "created", false: "exists"}[created], id)
		},
		Progress: func(total int) ingest.Progress { return progressFor(e, total) },
		Source: func(src provision.Source, files int, walked []ingest.Failure, sum ingest.Summary) {
			// Counted as ragd ingest counts them: a directory left out
			// whole is no file, an entry standing for several files
			// counts them.
			dirs, grouped := skippedDirs(walked)
			fmt.Fprintf(e.stdout, "source %s: %d files: %d added, %d updated, %d unchanged, %d deleted, %d skipped, %d refused, %d failed; %d chunks (%d embedded) in %s\n",
				src.Path, files+len(walked)-dirs+grouped, sum.Added, sum.Updated, sum.Unchanged, sum.Deleted, sum.Skipped-dirs+grouped, sum.Refused, sum.Failed,
				sum.Chunks, sum.Embedded, sum.Elapsed.Round(1e6))
			if dirs > 0 {
				fmt.Fprintf(e.stdout, "left out %d directories with all they hold (listed below)\n", dirs)
			}
			printNotIngested(e, sum)
		},
		IndexWait: func() { indexWait(e) },
		Indexes:   func(changes []vindex.Change, _ error) { printIndexChanges(e, changes, false) },
		SetLoaded: func(info eval.SetInfo) {
			fmt.Fprintf(e.stdout, "evaluation set %s: %d questions, version %d\n", info.Name, info.Questions, info.Version)
		},
		Tuned: func(res eval.TuneResult) { printApplyTune(e, res) },
		Ran:   func(r eval.Report) { printReport(e.stdout, r) },
	})
	var setErr *provision.SetError
	switch {
	case errors.Is(err, tenant.ErrDisabled):
		return fmt.Errorf("tenant %q is disabled (ragd tenant enable --slug %s)", slug, slug)
	case errors.As(err, &setErr):
		var ve *eval.ValidationError
		if errors.As(setErr.Err, &ve) {
			return describeSetError(setErr.Path, setErr.Err)
		}
	}
	return err
}

// printApplyTune prints the calibration of `tenant apply` (a manifest with
// eval.tune).
func printApplyTune(e *env, res eval.TuneResult) {
	g := res.CV.Difference("ndcg@10")
	if res.Adoption.Adopt {
		fmt.Fprintf(e.stdout, "calibrated fusion: adopted %s; %s\n", pointStr(res.Chosen), res.Adoption.Reason)
	} else {
		fmt.Fprintf(e.stdout, "calibrated fusion: kept the default %s; %s\n", pointStr(res.Chosen), res.Adoption.Reason)
	}
	fmt.Fprintf(e.stdout, "  cross-validated held-out ndcg@10 %.3f vs default %.3f (%s)\n", res.CV.HeldOut.NDCG10, res.CV.Default.NDCG10, g)
	if c := res.Refusal; c != nil {
		fmt.Fprintf(e.stdout, "calibrated refusal: threshold %.3f refuses %.0f%% of %d unanswerable and %.0f%% of %d answerable; %s\n",
			c.Chosen.Threshold, 100*c.Chosen.Recall, c.Unanswerable, 100*c.Chosen.FalseRefusal, c.Answerable, c.Rule)
	}
	if a := res.Answerability; a != nil {
		printAnswerCalibration(e.stdout, a)
	}
}

// manifestDir is the tenant directory that `tenant apply` names: the
// directory itself (tenants/<slug>), or the directory of its manifest
// (tenants/<slug>/tenant.yaml). The slug is the directory's name, so a
// manifest under another file name is a usage error that says so.
func manifestDir(arg string) (string, error) {
	p := filepath.Clean(arg)
	st, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		return p, nil
	}
	if filepath.Base(p) != "tenant.yaml" {
		return "", usagef("%s is a file: want a tenant directory (tenants/<slug>, named after the tenant's slug, holding tenant.yaml) or its tenant.yaml", arg)
	}
	return filepath.Dir(p), nil
}
