package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/traffic"
)

// TrafficSetName is the evaluation set `eval run --from-traffic` stores the
// rated questions of recent traffic as (a new version when they change).
const TrafficSetName = "traffic"

// evalCandidates is `ragd eval candidates`: the recorded questions worth
// labelling, and optionally their export as an evaluation set to label.
func evalCandidates(ctx context.Context, e *env, pool *pgxpool.Pool, t tenant.Tenant, o *evalOpts, printJSON func(any) error) error {
	if o.days < 1 {
		return usagef("--days must be at least 1")
	}
	cs, err := traffic.Candidates(ctx, pool, t.ID, time.Now().AddDate(0, 0, -o.days), max(o.minAsked, 1))
	if err != nil {
		return err
	}
	if o.export != "" {
		n, hashed, err := exportCandidates(o.export, cs)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "eval candidates: %d questions written to %s to label", n, o.export)
		if hashed > 0 {
			fmt.Fprintf(e.stderr, " (%d left out: the tenant keeps only their hashes)", hashed)
		}
		fmt.Fprintln(e.stderr, "; relevant holds the source named right by feedback, else the top retrieved sources to keep or delete (category unlabelled-*)")
	}
	shown := cs
	if o.limit > 0 && len(shown) > o.limit {
		shown = shown[:o.limit]
	}
	if o.asJSON {
		return printJSON(shown)
	}
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "REASON\tASKED\tREFUSED\tHELPFUL\tUNHELPFUL\tQUESTION\tRETRIEVED\tRIGHT")
	for _, c := range shown {
		q := c.Question
		if q == "" {
			q = "sha256:" + c.QuestionSHA[:16]
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n", c.Reason, c.Asked, c.Refused, c.Helpful, c.Unhelpful, clip(q, 80),
			clip(strings.Join(c.Retrieved[:min(3, len(c.Retrieved))], " "), 100), strings.Join(c.RightSources, " "))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%d candidates from the last %d days (%d shown)\n", len(cs), o.days, len(shown))
	return nil
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// candidateQuestions turns candidates into evaluation questions: relevant
// is the feedback's right sources when given (category traffic-rated),
// otherwise the top three retrieved sources for a person to keep or delete
// (category unlabelled-<reason>). Questions kept only as hashes are left
// out (hashed counts them), and a question repeated with other spacing or
// case is kept once.
func candidateQuestions(cs []traffic.Candidate, ratedOnly bool) (qs []eval.Question, hashed int) {
	seen := map[string]bool{}
	for _, c := range cs {
		if c.Question == "" {
			hashed++
			continue
		}
		key := eval.QuestionKey(c.Question)
		if seen[key] || utf8.RuneCountInString(c.Question) > eval.MaxQuestionChars {
			continue
		}
		q := eval.Question{Question: c.Question, Relevant: c.RightSources, Category: "traffic-rated"}
		if len(c.RightSources) == 0 {
			if ratedOnly {
				continue
			}
			q.Relevant, q.Category = c.Retrieved[:min(3, len(c.Retrieved))], eval.UnlabelledPrefix+c.Reason
		}
		seen[key] = true
		qs = append(qs, q)
	}
	return qs, hashed
}

func exportCandidates(path string, cs []traffic.Candidate) (n, hashed int, err error) {
	qs, hashed := candidateQuestions(cs, false)
	f, err := os.Create(path)
	if err != nil {
		return 0, hashed, err
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for _, q := range qs {
		if q.Relevant == nil {
			q.Relevant = []string{}
		}
		if err := enc.Encode(q); err != nil {
			f.Close()
			return 0, hashed, err
		}
	}
	return len(qs), hashed, f.Close()
}

// loadTrafficSet stores the questions of the last days of traffic whose
// feedback named the right source as the set TrafficSetName (unknown
// source_uris allowed: a document may have been removed since) and
// returns it. Errors: no such question.
func loadTrafficSet(ctx context.Context, e *env, svc *eval.Service, pool *pgxpool.Pool, t tenant.Tenant, days int) (eval.SetInfo, error) {
	cs, err := traffic.Candidates(ctx, pool, t.ID, time.Now().AddDate(0, 0, -days), 1)
	if err != nil {
		return eval.SetInfo{}, err
	}
	qs, _ := candidateQuestions(cs, true)
	if len(qs) == 0 {
		return eval.SetInfo{}, fmt.Errorf("no question of the last %d days of %s's traffic has feedback naming the right source (POST /v1/events/{id}/feedback with source_uri)", days, t.Slug)
	}
	info, err := svc.LoadSet(ctx, t, TrafficSetName, qs, eval.LoadOptions{AllowUnknown: true})
	if err != nil {
		return info, err
	}
	fmt.Fprintf(e.stderr, "eval: %d rated questions of the last %d days as set %s version %d\n", len(qs), days, info.Name, info.Version)
	return info, nil
}
