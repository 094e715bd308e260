package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// evalSignals is `eval signals`: each question's answerability signals on
// the tenant, as tab-separated values. Questions come from the tenant's set
// (--set), another tenant's set (--from SLUG:SET, all unanswerable here)
// or a file (--questions FILE, labels as in the file unless --foreign).
func evalSignals(ctx context.Context, e *env, d *deps, svc *eval.Service, o *evalOpts) error {
	slug, setName, from, questions, foreign, limit := o.slug, o.setName, o.from, o.questionsPath, o.foreign, o.limit
	t, err := d.tenantFor(ctx, e, slug)
	if err != nil {
		return err
	}
	var qs []eval.Question
	source := ""
	switch {
	case questions != "":
		f, err := os.Open(questions)
		if err != nil {
			return err
		}
		qs, err = eval.ParseJSONL(f)
		f.Close()
		if err != nil {
			return describeSetError(questions, err)
		}
		source = questions
		if i := strings.LastIndexByte(source, '/'); i >= 0 {
			source = source[i+1:]
		}
	case from != "":
		other, set, ok := strings.Cut(from, ":")
		if !ok || other == "" || set == "" {
			return usagef("--from wants SLUG:SET, got %q", from)
		}
		ot, err := d.tenantFor(ctx, e, other)
		if err != nil {
			return err
		}
		if _, qs, err = svc.SetQuestions(ctx, ot, set, 0); err != nil {
			return err
		}
		foreign = foreign || other != slug
		source = from
	default:
		set, err := defaultSet(ctx, svc, t, setName)
		if err != nil {
			return err
		}
		if _, qs, err = svc.SetQuestions(ctx, t, set, 0); err != nil {
			return err
		}
		source = slug + ":" + set
	}
	if limit > 0 && limit < len(qs) {
		qs = qs[:limit]
	}
	rows, err := svc.Signals(ctx, t, qs, eval.SignalOptions{Foreign: foreign, Source: source, Progress: func(done, total int) {
		if done%100 == 0 || done == total {
			fmt.Fprintf(e.stderr, "eval signals: %d/%d\n", done, total)
		}
	}})
	if err != nil {
		return err
	}
	if o.asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	return eval.WriteSignals(e.stdout, rows, o.header)
}

func readSignalFiles(paths []string) ([]eval.SignalRow, error) {
	var all []eval.SignalRow
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		rows, err := eval.ReadSignals(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		all = append(all, rows...)
	}
	return all, nil
}

// evalFitAnswerability is `eval fit-answerability`: fit the default
// answerability model on signal files of public data, report each
// signal's AUC, a leave-one-tenant-out check and the model as Go, then
// evaluate it on held-out files (never fitted on).
func evalFitAnswerability(e *env, fit, heldOut []string) error {
	rows, err := readSignalFiles(fit)
	if err != nil {
		return err
	}
	m, err := eval.FitAnswerModel(rows, eval.AnswerFitL2)
	if err != nil {
		return err
	}
	out := e.stdout
	conf, ans := confidences(m, rows)
	threshold := eval.ThresholdForFalseRefusal(conf, ans, eval.MaxFalseRefusal)
	fmt.Fprintf(out, "fit on %d rows (%s)\n\n", len(rows), classCounts(ans))
	printSignalAUCs(out, rows)

	fmt.Fprintln(out, "\nleave one tenant out (fit on the others, threshold at 5% of their answerable refused):")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "held out\trows\tAUC\tthreshold\tunanswerable refused\tanswerable refused")
	for _, ten := range tenants(rows) {
		var train, test []eval.SignalRow
		for _, r := range rows {
			if r.Tenant == ten {
				test = append(test, r)
			} else {
				train = append(train, r)
			}
		}
		mm, err := eval.FitAnswerModel(train, eval.AnswerFitL2)
		if err != nil {
			fmt.Fprintf(tw, "%s\t%d\t(%v)\n", ten, len(test), err)
			continue
		}
		tc, ta := confidences(mm, train)
		th := eval.ThresholdForFalseRefusal(tc, ta, eval.MaxFalseRefusal)
		c, a := confidences(mm, test)
		p := eval.RefusalAt(c, a, th)
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.2f\t%s\t%s\n", ten, len(test), eval.AUC(c, a), th, pct(p.Recall, a, false), pct(p.FalseRefusal, a, true))
	}
	tw.Flush()

	fmt.Fprintf(out, "\nmodel (in-sample AUC %.3f; %s refuses 5%% of the answerable rows):\n\n", eval.AUC(conf, ans), "threshold")
	fmt.Fprintf(out, "var DefaultAnswerModel = AnswerModel{\n\tBias: %.4f,\n\t// %s\n\tWeights: []float64{", m.Bias, strings.Join(search.AnswerFeatures, ", "))
	for i, w := range m.Weights {
		if i > 0 {
			fmt.Fprint(out, ", ")
		}
		fmt.Fprintf(out, "%.4f", w)
	}
	fmt.Fprintf(out, "},\n}\n\nDefaultRefuseBelow = %.2f\n", threshold)
	// The held-out evaluation reads the model as the code holds it (4
	// decimals), so its figures are the server's; the code's current model
	// is shown next to it.
	m = roundModel(m)
	for _, p := range heldOut {
		hrows, err := readSignalFiles([]string{p})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "\nheld out: %s\n", p)
		printSignalAUCs(out, hrows)
		fmt.Fprint(out, "this fit: ")
		printHeldOut(out, m, threshold, hrows)
		fmt.Fprint(out, "the code's current model: ")
		printHeldOut(out, search.DefaultAnswerModel, tenant.DefaultRefuseBelow, hrows)
	}
	return nil
}

func roundModel(m search.AnswerModel) search.AnswerModel {
	r := func(x float64) float64 { return math.Round(x*1e4) / 1e4 }
	out := search.AnswerModel{Bias: r(m.Bias), Weights: make([]float64, len(m.Weights))}
	for i, w := range m.Weights {
		out.Weights[i] = r(w)
	}
	return out
}

func confidences(m search.AnswerModel, rows []eval.SignalRow) ([]float64, []bool) {
	c, a := make([]float64, len(rows)), make([]bool, len(rows))
	for i, r := range rows {
		c[i], a[i] = m.Confidence(r.Signals), r.Answerable
	}
	return c, a
}

func tenants(rows []eval.SignalRow) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rows {
		if !seen[r.Tenant] {
			seen[r.Tenant] = true
			out = append(out, r.Tenant)
		}
	}
	sort.Strings(out)
	return out
}

func classCounts(ans []bool) string {
	var p int
	for _, a := range ans {
		if a {
			p++
		}
	}
	return fmt.Sprintf("%d answerable, %d unanswerable", p, len(ans)-p)
}

// pct prints a rate with its count over the answerable (or unanswerable)
// questions.
func pct(rate float64, ans []bool, answerable bool) string {
	n := 0
	for _, a := range ans {
		if a == answerable {
			n++
		}
	}
	return fmt.Sprintf("%.1f%% (%d of %d)", 100*rate, int(math.Round(rate*float64(n))), n)
}

// printSignalAUCs prints each feature's AUC overall and per tenant (AUC
// above 0.5: larger values go with answerable questions).
func printSignalAUCs(out io.Writer, rows []eval.SignalRow) {
	ts := tenants(rows)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "signal (ROC AUC)\tall\t%s\n", strings.Join(ts, "\t"))
	feats := append(append([]string(nil), search.AnswerFeatures...), "vector_similarity", "vector_z", "missing_names", "names")
	value := func(r eval.SignalRow, i int) float64 {
		if i < len(search.AnswerFeatures) {
			return r.Signals.Features()[i]
		}
		switch feats[i] {
		case "vector_similarity":
			return r.Signals.VectorSimilarity
		case "vector_z":
			return r.Signals.VectorZ
		case "missing_names":
			return float64(r.Signals.MissingNames)
		}
		return float64(r.Signals.Names)
	}
	for i, f := range feats {
		line := []string{f}
		for _, ten := range append([]string{""}, ts...) {
			var v []float64
			var a []bool
			for _, r := range rows {
				if ten == "" || r.Tenant == ten {
					v, a = append(v, value(r, i)), append(a, r.Answerable)
				}
			}
			line = append(line, fmt.Sprintf("%.3f", eval.AUC(v, a)))
		}
		fmt.Fprintln(tw, strings.Join(line, "\t"))
	}
	tw.Flush()
}

// printHeldOut reports the model on held-out rows: AUC and the operating
// points (the default threshold, and the best threshold at ≤ 5% false
// refusals, an oracle only a calibration could find) with bootstrap
// intervals.
func printHeldOut(out io.Writer, m search.AnswerModel, threshold float64, rows []eval.SignalRow) {
	c, a := confidences(m, rows)
	rec, fr, auc := eval.BootstrapRefusal(c, a, threshold)
	fmt.Fprintf(out, "model AUC %.3f (95%% %.3f–%.3f), %s\n", eval.AUC(c, a), auc.Lower, auc.Upper, classCounts(a))
	p := eval.RefusalAt(c, a, threshold)
	fmt.Fprintf(out, "at the default threshold %.2f: unanswerable refused %s (95%% %.0f–%.0f%%), answerable refused %s (95%% %.1f–%.1f%%)\n",
		threshold, pct(p.Recall, a, false), 100*rec.Lower, 100*rec.Upper, pct(p.FalseRefusal, a, true), 100*fr.Lower, 100*fr.Upper)
	if cal, ok := eval.Calibrate(c, a, threshold); ok {
		best := cal.Chosen
		fmt.Fprintf(out, "best threshold in hindsight (≤ 5%% answerable refused): %.3f refuses %s of unanswerable, %s of answerable\n",
			best.Threshold, pct(best.Recall, a, false), pct(best.FalseRefusal, a, true))
		fmt.Fprint(out, "ROC (threshold: unanswerable refused / answerable refused):")
		for _, t := range []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7} {
			q := eval.RefusalAt(c, a, t)
			fmt.Fprintf(out, " %.1f: %.0f%%/%.1f%%", t, 100*q.Recall, 100*q.FalseRefusal)
		}
		fmt.Fprintln(out)
	}
}

// printAnswerCalibration prints a tenant's cross-validated refusal
// calibration: each procedure held out, and what is kept.
func printAnswerCalibration(w io.Writer, a *eval.AnswerCalibration) {
	fmt.Fprintf(w, "refusal calibration held out (%d folds; %d unanswerable, %d answerable):\n", a.Folds, a.Unanswerable, a.Answerable)
	for _, p := range a.Procedures {
		th := ""
		if len(p.Thresholds) > 0 {
			th = "; fold thresholds " + floats(p.Thresholds)
		}
		if len(p.L2s) > 0 {
			th += ", penalties " + floats(p.L2s)
		}
		fmt.Fprintf(w, "  %-9s refuses %d of %d unanswerable (%.0f%%) and %d of %d answerable (%.1f%%)%s\n", p.Name,
			p.RefusedUnanswerable, a.Unanswerable, 100*p.Recall, p.RefusedAnswerable, a.Answerable, 100*p.FalseRefusal, th)
	}
	fmt.Fprintf(w, "  kept: %s — %s\n", a.Chosen, a.Reason)
}
