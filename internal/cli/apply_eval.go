package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// applyEval loads the manifest's evaluation set (a new version only when it
// changed), calibrates fusion and the refusal threshold on it when tune is
// set (only when the set or the corpus changed since the last calibration is
// not tracked: tuning is cheap, a few seconds per hundred questions), runs it
// through the production path and prints the summary.
func applyEval(ctx context.Context, e *env, d *deps, t tenant.Tenant, dir, set, path string, tune bool) error {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("evaluation set: %w", err)
	}
	defer f.Close()
	qs, err := eval.ParseJSONL(f)
	if err != nil {
		return describeSetError(path, err)
	}
	svc := eval.New(d.pool, d.searcher, eval.WithLogger(e.log))
	info, err := svc.LoadSet(ctx, t, set, qs, eval.LoadOptions{})
	if err != nil {
		return describeSetError(path, err)
	}
	fmt.Fprintf(e.stdout, "evaluation set %s: %d questions, version %d\n", info.Name, info.Questions, info.Version)
	if tune {
		res, err := svc.Tune(ctx, t, eval.TuneOptions{Set: set})
		if err != nil {
			return fmt.Errorf("eval tune: %w", err)
		}
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
		if t, err = tenant.Load(ctx, d.pool, t.ID); err != nil {
			return err
		}
	}
	r, err := svc.Run(ctx, t, eval.RunOptions{Set: set})
	if err != nil {
		return fmt.Errorf("eval run: %w", err)
	}
	printReport(e.stdout, r)
	return nil
}
