package benchcli

import (
	"context"
	"time"

	"github.com/ragd-dev/ragd/internal/loadgen"
)

// runLoad is `ragd-bench load`: it parses the flags into a loadgen.Config
// and runs it. Exit status 1 when any request got a 5xx or failed in
// transport.
func runLoad(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "load", "load --url URL --token JWT [--rate 100] [--duration 1m] [--mix 80,15,5] [--seed-docs N] [--queries FILE]")
	base := fs.String("url", "http://"+e.cfg.Addr, "server base URL")
	token := fs.String("token", "", "bearer token of an editor (ingest needs it); or RAGD_LOAD_TOKEN")
	rate := fs.Float64("rate", 100, "requests per second")
	dur := fs.Duration("duration", time.Minute, "how long to drive traffic")
	mix := fs.String("mix", "80,15,5", "percent of search,answer,ingest")
	every := fs.Duration("report", 10*time.Second, "report interval")
	seedDocs := fs.Int("seed-docs", 0, "first write this many generated documents (an empty tenant has nothing to search)")
	queries := fs.String("queries", "", "questions: a file with one per line, or a .jsonl evaluation set's \"question\" fields (default: 200 generated natural-language questions about the --seed-docs documents)")
	maxInflight := fs.Int("max-inflight", 256, "requests in flight at most; beyond it a scheduled request is dropped")
	markdown := fs.Bool("markdown", false, "print the summary as a Markdown table")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *token == "" {
		*token = e.getenv("RAGD_LOAD_TOKEN")
	}
	shares, err := loadgen.ParseMix(*mix)
	switch {
	case err != nil:
		return usagef("--mix: %v", err)
	case *token == "":
		return usagef("--token (or RAGD_LOAD_TOKEN) is required: ragd token issue --tenant <slug> --role editor")
	case *rate <= 0 || *rate > 10000:
		return usagef("--rate must be in (0, 10000]")
	case *maxInflight < 1:
		return usagef("--max-inflight must be >= 1")
	case *every <= 0:
		return usagef("--report must be positive")
	}
	qs := loadgen.GeneratedQuestions(200, 1)
	if *queries != "" {
		if qs, err = loadgen.ReadQuestions(*queries); err != nil {
			return err
		}
		if len(qs) == 0 {
			return usagef("--queries %s has no questions", *queries)
		}
	}
	sum, err := loadgen.Run(ctx, loadgen.Config{BaseURL: *base, Token: *token, Rate: *rate, Duration: *dur, Mix: shares, Every: *every,
		SeedDocs: *seedDocs, Questions: qs, MaxInflight: *maxInflight, Out: e.stdout})
	if err != nil || *dur <= 0 {
		return err
	}
	sum.Print(e.stdout, *markdown)
	return sum.Err()
}
