package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
)

func runSearch(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "search", `search --tenant <slug> [--json] [--explain] [--top-k N] [--source-uri-prefix P] [--metadata JSON] [--as-subject S] [--as-group G] "query"`)
	slug := fs.String("tenant", "", "tenant slug")
	asJSON := fs.Bool("json", false, "print JSON")
	explain := fs.Bool("explain", false, "show each leg's rank and score")
	topK := fs.Int("top-k", 5, "results to return")
	filter := filterFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	req, err := filter.request(strings.Join(pos, " "), *topK)
	if err != nil {
		return err
	}
	if *slug == "" || len(pos) == 0 {
		return usagef(`search --tenant <slug> "query"`)
	}
	d, err := openDeps(ctx, e)
	if err != nil {
		return err
	}
	defer d.close()
	t, err := d.tenantFor(ctx, e, *slug)
	if err != nil {
		return err
	}
	resp, err := d.searcher.Search(filter.reader(ctx), t, req)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(resp)
	}
	for _, d := range resp.DegradedReasons {
		fmt.Fprintf(e.stdout, "(degraded, %s leg: %s)\n", d.Leg, d.Reason)
	}
	for _, r := range resp.Results {
		heading, anchor, text := r.HeadingPath, r.Anchor, r.Content
		if r.MatchAnchor != "" {
			// The query's words are further down the chunk, in a place
			// of its own: that one is named, linked and shown.
			heading, anchor, text = r.MatchHeadingPath, r.MatchAnchor, r.Content[r.MatchOffset:]
		}
		fmt.Fprintf(e.stdout, "%d. %s\n   %s\n", r.Rank, location(r.Title, heading), search.Link(r.SourceURI, anchor))
		if *explain {
			fmt.Fprintf(e.stdout, "   fused %.4f | vector rank %s dist %s | keyword rank %s bm25 %s\n", r.Score,
				optInt(r.VectorRank), optFloat(r.VectorDistance), optInt(r.KeywordRank), optFloat(r.KeywordScore))
		}
		fmt.Fprintf(e.stdout, "   %s\n", snippet(text, 200))
	}
	if len(resp.Results) == 0 {
		// Silence read as a failure of the command (a fresh user's
		// search under another subject printed nothing at all).
		why := resp.ConfidenceReason
		if why == "" {
			why = "no chunk matches"
		}
		fmt.Fprintf(e.stdout, "(no results: %s)\n", why)
	}
	if *explain {
		stages := make([]string, 0, len(resp.Timings))
		for stage, ms := range resp.Timings {
			stages = append(stages, fmt.Sprintf("%s %.1f ms", stage, ms))
		}
		slices.Sort(stages)
		fmt.Fprintf(e.stdout, "confidence %.3f; %s\n", resp.Confidence, strings.Join(stages, ", "))
	}
	return nil
}

func optInt(p *int) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

func optFloat(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%.4f", *p)
}

func snippet(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// searchFilter holds the document filters that search and ask share.
type searchFilter struct {
	prefix, metadata *string
	subject          *setString
	groups           *stringsFlag
}

// setString is a string flag that records whether it was given: an empty
// --as-subject "" (a script's unset variable) is a person without a usable
// subject, not the operator's every-document view.
type setString struct {
	value string
	set   bool
}

func (s *setString) String() string { return s.value }

func (s *setString) Set(v string) error {
	s.value, s.set = v, true
	return nil
}

// filterFlags defines --source-uri-prefix, --metadata, --as-subject and
// --as-group on fs.
func filterFlags(fs *flag.FlagSet) searchFilter {
	f := searchFilter{
		prefix:   fs.String("source-uri-prefix", "", "only documents whose source_uri starts with this"),
		metadata: fs.String("metadata", "", `only documents whose metadata contains this JSON object, e.g. '{"lang":"en"}'`),
		subject:  &setString{},
		groups:   &stringsFlag{},
	}
	fs.Var(f.subject, "as-subject", "read as this token subject (principal user:<subject>) instead of seeing every document")
	fs.Var(f.groups, "as-group", "read as a member of this group (principal group:<name>; repeatable); with neither --as-… flag, every document is searched")
	return f
}

// reader returns ctx reading as the --as-subject/--as-group person when
// either is given, even empty (no usable principal: tenant-wide documents
// only, as for a token without them), else ctx (every document: operator
// tooling).
func (f searchFilter) reader(ctx context.Context) context.Context {
	if !f.subject.set && len(*f.groups) == 0 {
		return ctx
	}
	p := auth.Principal{Subject: f.subject.value, Groups: *f.groups}
	return store.WithVisibility(ctx, store.AsPrincipals(p.Principals()))
}

// request is the search request for query with the filters. Errors: a usage
// error when --metadata is not a JSON object.
func (f searchFilter) request(query string, topK int) (search.Request, error) {
	req := search.Request{Query: query, TopK: topK, SourceURIPrefix: *f.prefix}
	if *f.metadata != "" {
		var err error
		if req.Metadata, err = ingest.DecodeMetadata([]byte(*f.metadata)); err != nil || req.Metadata == nil {
			return search.Request{}, usagef("--metadata must be a JSON object, got %q", *f.metadata)
		}
	}
	return req, nil
}
