package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"

	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/llm"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// evalOpts holds the values of every eval action's flags; each action's
// FlagSet (evalFlags) defines only the flags that action reads, so a flag
// of another action is a usage error rather than silently ignored.
type evalOpts struct {
	slug, setName, name, plotPath, candidates, split, checksPath, checkSplit  string
	version, topK, limit, workers, folds, minQuestions                        int
	asJSON, allowUnknown, perQuestion, noStore, bm25, dryRun, noIngest, judge bool
	what                                                                      whatIf
	// signals and fit-answerability
	from, questionsPath string
	foreign, header     bool
	evaluate            []string
	// candidates and run --from-traffic
	days, minAsked, fromTraffic int
	export                      string
}

// evalAction is one eval subcommand: its usage line and its flags.
type evalAction struct {
	name, usage string
	flags       func(fs *flag.FlagSet, o *evalOpts)
}

// localEvalActions read files only (no database, no tenant), so they take
// neither --tenant nor --json.
var localEvalActions = map[string]bool{"fit-answerability": true}

// evalActions lists the eval subcommands in the order of the usage text.
var evalActions = []evalAction{
	{"load", "eval load    --tenant <slug> --name NAME [--allow-unknown] [--json] FILE.jsonl", func(fs *flag.FlagSet, o *evalOpts) {
		fs.StringVar(&o.name, "name", "", "set name")
		fs.BoolVar(&o.allowUnknown, "allow-unknown", false, "store a set whose source_uris name missing documents")
	}},
	{"run", "eval run     --tenant <slug> [--set NAME | --from-traffic DAYS] [--version N] [--top-k 20] [--limit N] [--workers N] [--no-store]\n" +
		"               [--json] [--per-question] [--plot out.svg|png]\n" +
		"               [--fusion convex|rrf] [--vector-weight W] [--keyword-weight W] [--document-weight W] [--rrf-k K] [--k1 K1] [--b B]\n" +
		"               [--refuse-below T]  (what-if settings)", func(fs *flag.FlagSet, o *evalOpts) {
		setFlags(fs, o)
		fs.IntVar(&o.topK, "top-k", 0, "chunks per search (default 20)")
		fs.IntVar(&o.limit, "limit", 0, "first N questions only")
		fs.IntVar(&o.workers, "workers", 0, "questions in flight (default 1)")
		fs.BoolVar(&o.noStore, "no-store", false, "do not store the run")
		fs.IntVar(&o.fromTraffic, "from-traffic", 0, "evaluate the questions of the last N days of traffic whose feedback named the right source (stored as set \"traffic\")")
		reportFlags(fs, o)
		whatIfFlags(fs, &o.what)
	}},
	{"candidates", "eval candidates --tenant <slug> [--days 30] [--min-asked 2] [--limit 50] [--export FILE.jsonl] [--json]\n" +
		"               (frequent, refused and badly rated questions of recorded traffic, with what was retrieved; --export writes them as a set to label)",
		func(fs *flag.FlagSet, o *evalOpts) {
			fs.IntVar(&o.days, "days", 30, "traffic of the last N days")
			fs.IntVar(&o.minAsked, "min-asked", 2, "questions neither refused nor rated count when asked at least this often")
			fs.IntVar(&o.limit, "limit", 50, "candidates to print (the export has all)")
			fs.StringVar(&o.export, "export", "", "write the candidates as evaluation JSON Lines (question, relevant, category) to this file")
		}},
	{"followups", "eval followups --tenant <slug> [--json] FILE.jsonl\n" +
		"               (recall@5 of follow-up questions as asked, with the earlier question's terms carried, and LLM-rewritten when configured;\n" +
		"               each line {\"first\", \"followup\", \"relevant\": [source_uri, …]})", nil},
	{"compare", "eval compare --tenant <slug> [--json] RUN_A RUN_B      (run ids, or \"latest\" / \"previous\")", nil},
	{"tune", "eval tune    --tenant <slug> [--set NAME] [--version N] [--top-k 20] [--limit N] [--bm25] [--candidates 20,50,100]\n" +
		"               [--folds 5] [--min-questions 30] [--dry-run] [--json]", func(fs *flag.FlagSet, o *evalOpts) {
		setFlags(fs, o)
		fs.IntVar(&o.topK, "top-k", 0, "chunks per search (default 20)")
		fs.IntVar(&o.limit, "limit", 0, "first N questions only")
		fs.BoolVar(&o.bm25, "bm25", false, "also sweep BM25 k1 {0.9,1.2} × b {0.4,0.75}")
		fs.StringVar(&o.candidates, "candidates", "", "comma-separated candidates per leg to try (default the tenant's)")
		fs.BoolVar(&o.dryRun, "dry-run", false, "report without storing the settings")
		fs.IntVar(&o.folds, "folds", eval.DefaultFolds, "cross-validation folds")
		fs.IntVar(&o.minQuestions, "min-questions", eval.MinTuneQuestions, "fewest answerable questions before a tuned configuration may replace the default")
	}},
	{"beir", "eval beir    --tenant <slug> [--split train|test] [--limit N] [--top-k 100] [--workers N] [--no-ingest] [--no-store]\n" +
		"               [--json] [--per-question] [--plot F] [what-if settings] DIR", func(fs *flag.FlagSet, o *evalOpts) {
		fs.StringVar(&o.split, "split", "test", "qrels split: qrels/<split>.tsv")
		fs.IntVar(&o.limit, "limit", 0, "first N questions only")
		fs.IntVar(&o.topK, "top-k", 0, "chunks per search (default 100)")
		fs.IntVar(&o.workers, "workers", 0, "documents ingested in parallel (default 2)")
		fs.BoolVar(&o.noIngest, "no-ingest", false, "evaluate without (re)ingesting the corpus")
		fs.BoolVar(&o.noStore, "no-store", false, "do not store the run")
		reportFlags(fs, o)
		whatIfFlags(fs, &o.what)
	}},
	{"sets", "eval sets    --tenant <slug> [--json]", nil},
	{"runs", "eval runs    --tenant <slug> [--limit 20] [--json]", func(fs *flag.FlagSet, o *evalOpts) {
		fs.IntVar(&o.limit, "limit", 0, "runs to list (default 20)")
	}},
	{"show", "eval show    --tenant <slug> [--json] [--per-question] [--plot F] RUN", reportFlags},
	{"answers", "eval answers --tenant <slug> [--set NAME [--version N] | --checks FILE.jsonl [--check-split S]] [--limit N] [--judge] [--json]\n" +
		"               (answer checks: refusal, citations, key terms of an answer-check set; LLM judge)", func(fs *flag.FlagSet, o *evalOpts) {
		setFlags(fs, o)
		fs.IntVar(&o.limit, "limit", 0, "first N questions only")
		fs.StringVar(&o.checksPath, "checks", "", "answer-check set (JSON Lines with answer_terms) instead of a stored set")
		fs.StringVar(&o.checkSplit, "check-split", "", "only the checks with this split label, e.g. held_out (with --checks)")
		fs.BoolVar(&o.judge, "judge", false, "also judge each answer SUPPORTED/UNSUPPORTED with the configured LLM")
	}},
	{"signals", "eval signals --tenant <slug> [--set NAME | --from SLUG:SET | --questions FILE.jsonl] [--foreign] [--header] [--limit N] [--json]\n" +
		"               (each question's answerability signals under the default settings, tab-separated or JSON)", func(fs *flag.FlagSet, o *evalOpts) {
		fs.StringVar(&o.setName, "set", "", "evaluation set (default: the tenant's only set)")
		fs.StringVar(&o.from, "from", "", "questions of another tenant's set, SLUG:SET (unanswerable here)")
		fs.StringVar(&o.questionsPath, "questions", "", "questions from a JSON Lines file")
		fs.BoolVar(&o.foreign, "foreign", false, "every question is unanswerable on this tenant")
		fs.BoolVar(&o.header, "header", false, "print the column names first")
		fs.IntVar(&o.limit, "limit", 0, "first N questions only")
	}},
	{"fit-answerability", "eval fit-answerability [--evaluate HELD_OUT.tsv]... FIT.tsv...\n" +
		"               (fit the default answerability model on signal files of public data; AUCs, held-out operating points)", func(fs *flag.FlagSet, o *evalOpts) {
		fs.Func("evaluate", "held-out signal file to evaluate the fitted model on, never fitted on (repeatable)", func(v string) error {
			o.evaluate = append(o.evaluate, v)
			return nil
		})
	}},
}

// evalActionNames are the names of evalActions, in their order.
func evalActionNames() []string {
	names := make([]string, len(evalActions))
	for i, a := range evalActions {
		names[i] = a.name
	}
	return names
}

// evalUsage is the usage text of `ragd eval`: one line per action.
var evalUsage = func() string {
	names := make([]string, len(evalActions))
	lines := make([]string, len(evalActions))
	for i, a := range evalActions {
		names[i], lines[i] = a.name, "  "+a.usage
	}
	return "eval " + strings.Join(names, "|") + " --tenant <slug> ...\n" + strings.Join(lines, "\n")
}()

// setFlags are the flags that choose a stored evaluation set.
func setFlags(fs *flag.FlagSet, o *evalOpts) {
	fs.StringVar(&o.setName, "set", "", "evaluation set (default: the tenant's only set)")
	fs.IntVar(&o.version, "version", 0, "set version (default latest)")
}

// reportFlags are the output flags of the actions that print a run's report.
func reportFlags(fs *flag.FlagSet, o *evalOpts) {
	fs.StringVar(&o.plotPath, "plot", "", "write recall@k curves per leg to this .svg or .png")
	fs.BoolVar(&o.perQuestion, "per-question", false, "include per-question results in --json")
}

// whatIfFlags are the what-if settings of eval run and eval beir: the run
// uses them instead of the tenant's stored settings.
func whatIfFlags(fs *flag.FlagSet, what *whatIf) {
	fs.Func("vector-weight", "what-if: run with this vector weight instead of the tenant's", what.set("vector-weight"))
	fs.Func("keyword-weight", "what-if: keyword weight", what.set("keyword-weight"))
	fs.Func("rrf-k", "what-if: RRF k", what.set("rrf-k"))
	fs.Func("document-weight", "what-if: document weight of convex fusion", what.set("document-weight"))
	fs.Func("fusion", "what-if: fusion method, convex or rrf", func(v string) error {
		if v != "convex" && v != "rrf" {
			return fmt.Errorf("want convex or rrf, got %q", v)
		}
		what.fusion = v
		return nil
	})
	fs.Func("k1", "what-if: BM25 k1", what.set("k1"))
	fs.Func("b", "what-if: BM25 b", what.set("b"))
	fs.Func("refuse-below", "what-if: refusal threshold", what.set("refuse-below"))
}

// evalFlags returns the FlagSet of eval action (--tenant and --json, which
// every action takes, and the action's own flags) and the values it fills;
// ok is false for an unknown action.
func evalFlags(e *env, action string) (fs *flag.FlagSet, o *evalOpts, ok bool) {
	for _, a := range evalActions {
		if a.name != action {
			continue
		}
		o = &evalOpts{}
		fs = newFlags(e, "eval "+action, a.usage)
		if !localEvalActions[a.name] {
			fs.StringVar(&o.slug, "tenant", "", "tenant slug")
			fs.BoolVar(&o.asJSON, "json", false, "print JSON")
		}
		if a.flags != nil {
			a.flags(fs, o)
		}
		return fs, o, true
	}
	return nil, nil, false
}

func runEval(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		return usagef("%s", evalUsage)
	}
	action, args := args[0], args[1:]
	fs, o, ok := evalFlags(e, action)
	if !ok {
		return usagef("unknown eval action %q\n%s", action, evalUsage)
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if action == "fit-answerability" {
		if len(pos) == 0 {
			return usagef("eval fit-answerability [--evaluate HELD_OUT.tsv]... FIT.tsv...")
		}
		return evalFitAnswerability(e, pos, o.evaluate)
	}
	if o.slug == "" {
		return usagef("eval %s needs --tenant <slug>", action)
	}
	d, err := openDeps(ctx, e)
	if err != nil {
		return err
	}
	defer d.close()
	t, err := d.tenantFor(ctx, e, o.slug)
	if err != nil {
		return err
	}
	svc := eval.New(d.pool, d.searcher, eval.WithLogger(e.log))
	override := o.what.apply(t.Settings)
	out := e.stdout
	printJSON := func(v any) error {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	progress := func(what string) func(done, total int) {
		every := 50
		return func(done, total int) {
			if done%every == 0 || done == total {
				fmt.Fprintf(e.stderr, "eval: %s %d/%d\n", what, done, total)
			}
		}
	}

	switch action {
	case "answers":
		var j *llm.Client
		if o.judge {
			if e.cfg.LLMBaseURL == "" {
				return usagef("--judge needs an LLM: set RAGD_LLM_BASE_URL and RAGD_LLM_MODEL")
			}
			if j, err = llm.New(e.cfg.LLMBaseURL, e.cfg.LLMModel, llm.WithAPIKey(e.cfg.LLMAPIKey), llm.WithTimeout(e.cfg.ProviderTimeout)); err != nil {
				return err
			}
		}
		var r eval.AnswerReport
		set := o.checksPath
		if o.checksPath != "" {
			f, err := os.Open(o.checksPath)
			if err != nil {
				return err
			}
			checks, ignored, err := eval.ParseAnswerChecksIgnored(f)
			f.Close()
			if err != nil {
				return describeSetError(o.checksPath, err)
			}
			if len(ignored) > 0 {
				fmt.Fprintf(os.Stderr, "eval answers: ignored fields ragd does not read: %s\n", ignored)
			}
			if o.checkSplit != "" {
				var splits []string
				for _, c := range checks {
					if !slices.Contains(splits, c.Split) {
						splits = append(splits, c.Split)
					}
				}
				if !slices.Contains(splits, o.checkSplit) {
					// A misspelt split ran no check and passed.
					return usagef("--check-split %q: no check of %s has that split (its splits: %q)", o.checkSplit, o.checksPath, splits)
				}
				checks = slices.DeleteFunc(checks, func(c eval.AnswerCheck) bool { return c.Split != o.checkSplit })
			}
			if o.limit > 0 && o.limit < len(checks) {
				checks = checks[:o.limit]
			}
			if r, err = eval.CheckAnswerSet(ctx, d.asker, t, checks, j); err != nil {
				return err
			}
		} else {
			if set, err = defaultSet(ctx, svc, t, o.setName); err != nil {
				return err
			}
			_, qs, err := svc.SetQuestions(ctx, t, set, o.version)
			if err != nil {
				return err
			}
			if o.limit > 0 && o.limit < len(qs) {
				qs = qs[:o.limit]
			}
			if r, err = eval.CheckAnswers(ctx, d.asker, t, qs, j); err != nil {
				return err
			}
		}
		if o.asJSON {
			return printJSON(r)
		}
		fmt.Fprintf(out, "answer checks on %s: %d questions (%d answerable, %d unanswerable)\n", set, r.Questions, r.Answerable, r.Unanswerable)
		fmt.Fprintf(out, "  refused exactly when it should: %d of %d (%.2f); refused %d, of them answerable %d\n",
			r.RefusalCorrect, r.Questions, r.RefusalAccuracy, r.Refused, r.FalseRefusals)
		fmt.Fprintf(out, "  answered: %d, with at least one valid citation: %d, with an invalid citation: %d\n", r.Answered, r.WithCitation, r.InvalidCitations)
		if r.TermChecked > 0 {
			fmt.Fprintf(out, "  key-term hits: %d of %d answerable (%.2f)\n", r.TermHits, r.TermChecked, r.TermHitRate)
			if r.PageChecked > 0 {
				fmt.Fprintf(out, "  first citation on a labelled page: %d of %d\n", r.PageHits, r.PageChecked)
			}
			splits := make([]string, 0, len(r.BySplit))
			for k := range r.BySplit {
				splits = append(splits, k)
			}
			sort.Strings(splits)
			for _, k := range splits {
				sp := r.BySplit[k]
				name := k
				if name == "" {
					name = "(no split)"
				}
				fmt.Fprintf(out, "    %s: %d of %d (%.2f)\n", name, sp.Hits, sp.Checked, sp.HitRate)
			}
		}
		if r.Judged > 0 {
			fmt.Fprintf(out, "  LLM judge: %d of %d supported by their cited sources\n", r.Supported, r.Judged)
		}
		for _, f := range r.Failures {
			fmt.Fprintf(out, "  FAIL #%d %s: %q — %s\n", f.Index+1, f.Check, f.Question, f.Detail)
		}
		return nil

	case "signals":
		return evalSignals(ctx, e, d, svc, o)

	case "load":
		if o.name == "" || len(pos) != 1 {
			return usagef("eval load --tenant <slug> --name NAME FILE.jsonl")
		}
		f, err := os.Open(pos[0])
		if err != nil {
			return err
		}
		defer f.Close()
		qs, ignored, err := eval.ParseJSONLIgnored(f)
		if err != nil {
			return describeSetError(pos[0], err)
		}
		if len(ignored) > 0 {
			fmt.Fprintf(os.Stderr, "eval load: ignored fields ragd does not read (it reads question, relevant, category): %s\n", ignored)
		}
		info, err := svc.LoadSet(ctx, t, o.name, qs, eval.LoadOptions{AllowUnknown: o.allowUnknown})
		if err != nil {
			return describeSetError(pos[0], err)
		}
		if o.asJSON {
			return printJSON(info)
		}
		ans := 0
		for _, q := range qs {
			if q.Answerable() {
				ans++
			}
		}
		verb := "stored as"
		if info.Unchanged {
			verb = "unchanged: already stored as"
		}
		fmt.Fprintf(out, "set %s: %d questions (%d answerable, %d unanswerable) %s version %d\n", info.Name, info.Questions, ans,
			info.Questions-ans, verb, info.Version)
		for _, u := range info.Unknown {
			fmt.Fprintf(out, "  WARNING unknown source_uri %s\n", u)
		}
		return nil

	case "candidates":
		return evalCandidates(ctx, e, d.pool, t, o, printJSON)

	case "followups":
		if len(pos) != 1 {
			return usagef("eval followups --tenant <slug> FILE.jsonl")
		}
		return evalFollowups(ctx, e, d, t, pos[0], o.asJSON, printJSON)

	case "run":
		if o.fromTraffic > 0 {
			if o.setName != "" {
				return usagef("--from-traffic and --set exclude each other")
			}
			info, err := loadTrafficSet(ctx, e, svc, d.pool, t, o.fromTraffic)
			if err != nil {
				return err
			}
			o.setName, o.version = info.Name, info.Version
		}
		set, err := defaultSet(ctx, svc, t, o.setName)
		if err != nil {
			return err
		}
		r, err := svc.Run(ctx, t, eval.RunOptions{Set: set, Version: o.version, TopK: o.topK, Limit: o.limit, Workers: o.workers,
			Settings: override, DryRun: o.noStore, Progress: progress("questions")})
		if err != nil {
			return err
		}
		return reportOut(e, r, o.asJSON, o.perQuestion, o.plotPath)

	case "show":
		if len(pos) != 1 {
			return usagef("eval show --tenant <slug> RUN")
		}
		id, err := resolveRun(ctx, svc, t, pos[0])
		if err != nil {
			return err
		}
		r, err := svc.GetRun(ctx, t, id)
		if err != nil {
			return err
		}
		return reportOut(e, r, o.asJSON, o.perQuestion, o.plotPath)

	case "compare":
		if len(pos) != 2 {
			return usagef("eval compare --tenant <slug> RUN_A RUN_B")
		}
		a, err := resolveRun(ctx, svc, t, pos[0])
		if err != nil {
			return err
		}
		b, err := resolveRun(ctx, svc, t, pos[1])
		if err != nil {
			return err
		}
		c, err := svc.Compare(ctx, t, a, b)
		if err != nil {
			return err
		}
		if o.asJSON {
			return printJSON(c)
		}
		printComparison(out, c)
		return nil

	case "tune":
		if o.folds < 2 || o.folds > 100 {
			return usagef("--folds wants an integer 2-100, got %d", o.folds)
		}
		if o.minQuestions < 1 {
			return usagef("--min-questions wants a positive integer, got %d", o.minQuestions)
		}
		set, err := defaultSet(ctx, svc, t, o.setName)
		if err != nil {
			return err
		}
		var cands []int
		if o.candidates != "" {
			for _, f := range strings.Split(o.candidates, ",") {
				n, err := strconv.Atoi(strings.TrimSpace(f))
				if err != nil || n < 1 || n > 1000 {
					return usagef("--candidates wants comma-separated integers 1-1000, got %q", o.candidates)
				}
				cands = append(cands, n)
			}
		}
		res, err := svc.Tune(ctx, t, eval.TuneOptions{Set: set, Version: o.version, TopK: o.topK, Candidates: cands, BM25: o.bm25,
			Folds: o.folds, MinQuestions: o.minQuestions, Limit: o.limit, DryRun: o.dryRun, Progress: func(stage string, done, total int) { progress(stage)(done, total) }})
		if err != nil {
			return err
		}
		if o.asJSON {
			return printJSON(res)
		}
		printTune(out, res)
		return nil

	case "beir":
		if len(pos) != 1 {
			return usagef("eval beir --tenant <slug> [--split train|test] DIR")
		}
		res, err := svc.ImportBEIR(ctx, t, d.pipeline, eval.BEIROptions{Dir: pos[0], Split: o.split, Limit: o.limit, Workers: o.workers,
			SkipIngest: o.noIngest, TopK: o.topK, Settings: override, DryRun: o.noStore,
			Progress: func(stage string, done, total int) {
				every := 50
				if stage == "ingest" {
					every = 250
				}
				if done%every == 0 || done == total {
					fmt.Fprintf(e.stderr, "eval beir: %s %d/%d\n", stage, done, total)
				}
			}})
		if res.Ingest != nil && !o.asJSON {
			s := res.Ingest
			fmt.Fprintf(out, "ingest: %d documents: %d added, %d updated, %d unchanged, %d failed; %d chunks (%d embedded) in %s\n",
				s.Documents, s.Added, s.Updated, s.Unchanged, s.Failed, s.Chunks, s.Embedded, s.Elapsed.Round(time.Second))
			for i, f := range s.Failures {
				if i == 10 {
					fmt.Fprintf(out, "  … %d more\n", len(s.Failures)-10)
					break
				}
				fmt.Fprintf(out, "  FAILED %s\n", f)
			}
		}
		if err != nil {
			return err
		}
		if o.asJSON {
			if !o.perQuestion {
				res.Report.PerQuestion = nil
			}
			return printJSON(res)
		}
		return reportOut(e, res.Report, false, false, o.plotPath)

	case "sets":
		sets, err := svc.Sets(ctx, t)
		if err != nil {
			return err
		}
		if o.asJSON {
			return printJSON(sets)
		}
		tw := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tVERSION\tQUESTIONS\tCREATED")
		for _, s := range sets {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", s.Name, s.Version, s.Questions, s.CreatedAt.Format(time.RFC3339))
		}
		return tw.Flush()

	case "runs":
		runs, err := svc.Runs(ctx, t, o.limit)
		if err != nil {
			return err
		}
		if o.asJSON {
			return printJSON(runs)
		}
		tw := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "RUN\tSET\tQUESTIONS\tRECALL@5\tMRR@10\tNDCG@10\tCREATED")
		for _, r := range runs {
			fmt.Fprintf(tw, "%s\t%s v%d\t%d\t%.3f\t%.3f\t%.3f\t%s\n", r.ID, r.Set, r.SetVersion, r.Questions, r.Metrics.Recall5,
				r.Metrics.MRR10, r.Metrics.NDCG10, r.CreatedAt.Format(time.RFC3339))
		}
		return tw.Flush()
	}
	return usagef("unknown eval action %q\n%s", action, evalUsage)
}

// defaultSet is name, or the tenant's only set when name is empty.
func defaultSet(ctx context.Context, svc *eval.Service, t tenant.Tenant, name string) (string, error) {
	if name != "" {
		return name, nil
	}
	sets, err := svc.Sets(ctx, t)
	if err != nil {
		return "", err
	}
	switch len(sets) {
	case 0:
		return "", fmt.Errorf("tenant %s has no evaluation set (ragd eval load --tenant %s --name NAME FILE.jsonl)", t.Slug, t.Slug)
	case 1:
		return sets[0].Name, nil
	}
	names := make([]string, len(sets))
	for i, s := range sets {
		names[i] = s.Name
	}
	return "", usagef("tenant %s has several sets (%s): choose one with --set", t.Slug, strings.Join(names, ", "))
}

// resolveRun accepts a run id, "latest" or "previous".
func resolveRun(ctx context.Context, svc *eval.Service, t tenant.Tenant, ref string) (uuid.UUID, error) {
	if id, err := uuid.Parse(ref); err == nil {
		return id, nil
	}
	n := map[string]int{"latest": 0, "previous": 1}
	i, ok := n[ref]
	if !ok {
		return uuid.Nil, usagef("%q is not a run id, \"latest\" or \"previous\"", ref)
	}
	runs, err := svc.Runs(ctx, t, 2)
	if err != nil {
		return uuid.Nil, err
	}
	if len(runs) <= i {
		return uuid.Nil, fmt.Errorf("%w: tenant %s has %d run(s)", eval.ErrRunNotFound, t.Slug, len(runs))
	}
	return runs[i].ID, nil
}

func describeSetError(file string, err error) error {
	var ve *eval.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d problem(s):", file, len(ve.Problems))
	unknown := false
	for _, p := range ve.Problems {
		fmt.Fprintf(&b, "\n  line %d: %s", p.Line, p.Message)
		unknown = unknown || p.Code == "unknown_source_uri"
	}
	if unknown {
		// The usual cause is a page ingest left out on purpose (a Sphinx
		// build's _modules/ source listings, its generated index and
		// search pages): its output says SKIPPED and why.
		b.WriteString("\n  a relevant page that is not a document of the tenant: check the spelling against `ragd search` sources; " +
			"a page ingest skipped (its output lists SKIPPED files and why) can be ingested with --include, " +
			"or the set loaded with --allow-unknown, which scores such pages as misses")
	}
	return errors.New(b.String())
}

func reportOut(e *env, r eval.Report, asJSON, perQuestion bool, plotPath string) error {
	if plotPath != "" {
		if err := eval.WritePlot(r, plotPath); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "eval: wrote %s\n", plotPath)
	}
	if asJSON {
		if !perQuestion {
			r.PerQuestion = nil
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	printReport(e.stdout, r)
	return nil
}

func printReport(w io.Writer, r eval.Report) {
	id := "(not stored)"
	if r.ID != uuid.Nil {
		id = r.ID.String()
	}
	fmt.Fprintf(w, "run %s — set %s v%d: %d questions (%d answerable), top_k %d, production = %s\n",
		id, r.Set.Name, r.Set.Version, r.Questions, r.Answerable, r.Depth, r.Production)
	s := r.Config.Settings
	fusion := "rrf k " + fmt.Sprint(s.RRFK)
	if s.Fusion != "rrf" {
		fusion = "convex, document weight " + fptr(s.DocumentWeight)
	}
	fmt.Fprintf(w, "config: fusion %s, vector weight %s, keyword weight %s, bm25 k1 %g b %s, candidates %d, model %s, %d documents / %d chunks\n",
		fusion, fptr(s.VectorWeight), fptr(s.KeywordWeight), s.K1, fptr(s.B), r.Config.Candidates, r.Config.EmbeddingModel,
		r.Config.Documents, r.Config.Chunks)
	if n := len(r.Missing); n > 0 {
		fmt.Fprintf(w, "WARNING: %d of the set's relevant source_uris are in no document of the tenant now (first: %s): their questions count as misses; ingest them again, or load the set with its labels changed\n",
			n, r.Missing[0])
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "leg\trecall@1\trecall@5\trecall@10\trecall@20\trecall@100\tmrr@10\tndcg@10\thit rate\tp50 ms\tp95 ms\t")
	cell := func(v float64, k int) string {
		if k > r.Depth {
			return "-"
		}
		return fmt.Sprintf("%.3f", v)
	}
	for _, leg := range r.LegNames() {
		m := r.Legs[leg]
		label := leg
		if leg == r.Production {
			label += " *"
		}
		l := r.Latency[leg]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%.3f\t%.3f\t%.3f\t%.1f\t%.1f\t\n", label, cell(m.Recall1, 1), cell(m.Recall5, 5),
			cell(m.Recall10, 10), cell(m.Recall20, 20), cell(m.Recall100, 100), m.MRR10, m.NDCG10, m.HitRate, l.P50, l.P95)
	}
	tw.Flush()
	fmt.Fprintf(w, "* production path; recall@k beyond top_k shown as -; hit rate = a relevant document in the top %d\n", r.Depth)
	if len(r.Categories) > 0 {
		n := map[string]int{}
		for _, q := range r.PerQuestion {
			if len(q.Relevant) > 0 {
				n[q.Category]++
			}
		}
		cats := make([]string, 0, len(r.Categories))
		for c := range r.Categories {
			cats = append(cats, c)
		}
		sort.Strings(cats)
		tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "category (production)\tquestions\trecall@1\trecall@5\trecall@10\tmrr@10\tndcg@10\t")
		for _, c := range cats {
			m := r.Categories[c]
			fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t\n", c, n[c], m.Recall1, m.Recall5, m.Recall10, m.MRR10, m.NDCG10)
		}
		tw.Flush()
	}
	if r.Degraded > 0 {
		fmt.Fprintf(w, "WARNING %d searches were degraded (a leg skipped or failed, or the reranker failed)\n", r.Degraded)
	}
	for i, m := range r.Misses {
		if i == 50 {
			fmt.Fprintf(w, "… and %d more misses (--json lists them all)\n", len(r.Misses)-50)
			break
		}
		fmt.Fprintf(w, "MISS #%d %q: want %s; got %s\n", m.Idx+1, snippet(m.Question, 100), strings.Join(m.Relevant, ", "),
			strings.Join(m.Top, ", "))
	}
	if c := r.Refusal; c != nil {
		fmt.Fprintf(w, "refusal (%d unanswerable, %d answerable): current threshold %.4f refuses %.0f%% of unanswerable, %.0f%% of answerable (precision %.2f)\n",
			c.Unanswerable, c.Answerable, c.Current.Threshold, 100*c.Current.Recall, 100*c.Current.FalseRefusal, c.Current.Precision)
		if f := c.Found; c.Answerable > 0 && f != nil {
			// The refusals that lose an answer, told apart from those of
			// questions whose answer the search had not found anyway.
			refused := int(math.Round(c.Current.FalseRefusal * float64(c.Answerable)))
			share := 0.0
			if f.Answerable > 0 {
				share = float64(f.Current) / float64(f.Answerable)
			}
			fmt.Fprintf(w, "  of the %d answerable refused, %d had a relevant document among their first %d documents (%.0f%% of the %d that had one); the search had found no answer for the other %d\n",
				refused, f.Current, f.Depth, 100*share, f.Answerable, refused-f.Current)
		}
		if c.Answerable == 0 {
			fmt.Fprintf(w, "  %s\n", c.Rule)
		} else {
			// In hindsight, on the questions it is chosen on: what
			// calibration stores is decided on held-out folds (eval tune),
			// and a small set keeps the default however this line reads.
			fmt.Fprintf(w, "  in hindsight on this set (not applied), threshold %.4f would refuse %.0f%% of unanswerable, %.0f%% of answerable (precision %.2f); %s\n",
				c.Chosen.Threshold, 100*c.Chosen.Recall, 100*c.Chosen.FalseRefusal, c.Chosen.Precision, c.Rule)
		}
	}
}

func printComparison(w io.Writer, c eval.Comparison) {
	fmt.Fprintf(w, "A %s (set %s v%d, %s)\nB %s (set %s v%d, %s)\n", c.A.ID, c.A.Set, c.A.SetVersion, c.A.CreatedAt.Format(time.RFC3339),
		c.B.ID, c.B.Set, c.B.SetVersion, c.B.CreatedAt.Format(time.RFC3339))
	for _, warn := range c.Warnings {
		fmt.Fprintf(w, "WARNING: %s\n", warn)
	}
	for _, ch := range c.ConfigChanges {
		fmt.Fprintf(w, "config %s: %s → %s\n", ch.Field, ch.A, ch.B)
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "leg\tmetric\tA\tB\tdelta\t")
	for _, d := range c.Deltas {
		mark := ""
		if d.Delta < -1e-9 {
			mark = "  worse"
		}
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%.3f\t%+.3f%s\t\n", d.Leg, d.Metric, d.A, d.B, d.Delta, mark)
	}
	tw.Flush()
	fmt.Fprintf(w, "questions: %d worse, %d better, %d unchanged, %d unmatched\n", len(c.Worse), c.Better, c.Same, c.Unmatched)
	for _, q := range c.Worse {
		fmt.Fprintf(w, "WORSE %q: ndcg@10 %.3f → %.3f, first relevant rank %s → %s\n", snippet(q.Question, 100), q.NDCGA, q.NDCGB,
			rankStr(q.RankA), rankStr(q.RankB))
	}
}

func printTune(w io.Writer, r eval.TuneResult) {
	fmt.Fprintf(w, "tune on set %s v%d: %d questions (%d answerable), top_k %d, %d grid points, %d-fold cross-validation, in %s\n",
		r.Set.Name, r.Set.Version, r.Questions, r.Answerable, r.TopK, len(r.Grid), r.CV.Folds, r.Elapsed.Round(time.Millisecond))
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "#\tlegs\tfusion\tvector w\tkeyword w\tdoc w / rrf k\tk1\tb\tcand\tndcg@10\trecall@5\tmrr@10\trecall@20\tfolds chose\t")
	for i, g := range eval.SortedGrid(r.Grid) {
		s := g.Settings
		k := fusionParam(s)
		label := g.Legs()
		if g.Default {
			label += " (default)"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%g\t%s\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%d\t\n", i+1, label, s.Fusion, fptr(s.VectorWeight),
			fptr(s.KeywordWeight), k, s.K1, fptr(s.B), s.Candidates, g.Metrics.NDCG10, g.Metrics.Recall5, g.Metrics.MRR10,
			g.Metrics.Recall20, g.FoldsChosen)
	}
	tw.Flush()
	fmt.Fprintln(w, "(metrics in-sample: every point scored on the questions it is chosen on)")
	fmt.Fprintf(w, "best on the whole set: %s; default: %s; best single leg: %s\n", pointStr(r.Best), pointStr(r.Default), pointStr(r.BestSingleLeg))
	fmt.Fprintf(w, "cross-validated (fold sizes %v; each fold scored by the point chosen on the others):\n", r.CV.FoldSizes)
	fmt.Fprintf(w, "  held-out ndcg@10 %.4f recall@5 %.4f mrr@10 %.4f; default on the same questions %.4f %.4f %.4f\n",
		r.CV.HeldOut.NDCG10, r.CV.HeldOut.Recall5, r.CV.HeldOut.MRR10, r.CV.Default.NDCG10, r.CV.Default.Recall5, r.CV.Default.MRR10)
	for _, d := range r.CV.Differences {
		fmt.Fprintf(w, "  held-out − default: %s\n", d)
	}
	if r.Adoption.Adopt {
		fmt.Fprintf(w, "decision: adopt %s: %s\n", pointStr(r.Chosen), r.Adoption.Reason)
	} else {
		fmt.Fprintf(w, "decision: keep the default: %s\n", r.Adoption.Reason)
	}
	v := "reproduces the in-memory fusion exactly"
	if !r.Verified {
		v = "DIFFERS from the in-memory fusion"
	}
	fmt.Fprintf(w, "production path with these settings: ndcg@10 %.4f recall@5 %.4f — %s\n", r.Production.NDCG10, r.Production.Recall5, v)
	if c := r.Refusal; c != nil {
		fmt.Fprintf(w, "refusal: threshold %.4f refuses %.0f%% of %d unanswerable and %.0f%% of %d answerable in-sample (precision %.2f); %s\n",
			c.Chosen.Threshold, 100*c.Chosen.Recall, c.Unanswerable, 100*c.Chosen.FalseRefusal, c.Answerable, c.Chosen.Precision, c.Rule)
	}
	if a := r.Answerability; a != nil {
		printAnswerCalibration(w, a)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	switch {
	case r.Stored && r.Adoption.Adopt:
		fmt.Fprintln(w, "stored as the tenant's settings; `ragd eval run` records a run with them")
	case r.Stored:
		// Keeping the default stores no fusion of the tenant's own: said
		// as "stored as the tenant's settings" after "keep the default",
		// a new user looked for settings and found none.
		fmt.Fprintln(w, "stored: the tenant keeps the default fusion (no fusion settings of its own); `ragd eval run` records a run with it")
	default:
		fmt.Fprintln(w, "dry run: settings not stored")
	}
}

// pointStr describes a grid point and its in-sample nDCG@10 and recall@5.
func pointStr(g eval.GridPoint) string {
	s := g.Settings
	return fmt.Sprintf("%s (%s, vector %s, keyword %s, %s, k1 %g, b %s, candidates %d) ndcg@10 %.4f recall@5 %.4f", g.Legs(),
		s.Fusion, fptr(s.VectorWeight), fptr(s.KeywordWeight), fusionParamName(s), s.K1, fptr(s.B), s.Candidates, g.Metrics.NDCG10, g.Metrics.Recall5)
}

// fusionParam is the fusion method's own parameter of effective settings s:
// the document weight (convex) or RRF's k.
func fusionParam(s tenant.Settings) string {
	if s.Fusion == "rrf" {
		return fmt.Sprintf("k %g", s.RRFK)
	}
	return "doc " + fptr(s.DocumentWeight)
}

func fusionParamName(s tenant.Settings) string {
	if s.Fusion == "rrf" {
		return fmt.Sprintf("rrf k %g", s.RRFK)
	}
	return "document weight " + fptr(s.DocumentWeight)
}

func floats(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%.4f", x)
	}
	return strings.Join(parts, ", ")
}

func fptr(p *float64) string {
	if p == nil {
		return "-"
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}

func rankStr(r int) string {
	if r == 0 {
		return "none"
	}
	return strconv.Itoa(r)
}

// whatIf collects the what-if settings flags of eval run and eval beir:
// numbers by flag name, and the fusion method.
type whatIf struct {
	nums   map[string]float64
	fusion string
}

func (w *whatIf) set(name string) func(string) error {
	return func(v string) error {
		// ParseFloat accepts "NaN" and "Inf", which would fuse every score
		// into NaN; b and the refusal threshold are shares, at most 1 (as
		// PATCH /v1/tenant/settings checks).
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return fmt.Errorf("want a finite non-negative number, got %q", v)
		}
		if (name == "b" || name == "refuse-below") && f > 1 {
			return fmt.Errorf("want a number between 0 and 1, got %q", v)
		}
		if w.nums == nil {
			w.nums = map[string]float64{}
		}
		w.nums[name] = f
		return nil
	}
}

// apply returns base with the flags given, or nil when none was.
func (w whatIf) apply(base tenant.Settings) *tenant.Settings {
	if len(w.nums) == 0 && w.fusion == "" {
		return nil
	}
	s := base
	if w.fusion != "" {
		s.Fusion = w.fusion
	}
	for name, v := range w.nums {
		switch name {
		case "document-weight":
			s.DocumentWeight = &v
		case "vector-weight":
			s.VectorWeight = &v
		case "keyword-weight":
			s.KeywordWeight = &v
		case "rrf-k":
			s.RRFK = v
		case "k1":
			s.K1 = v
		case "b":
			s.B = &v
		case "refuse-below":
			s.RefuseBelow = &v
		}
	}
	return &s
}
