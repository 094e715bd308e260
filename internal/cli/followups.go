package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/ragd-dev/ragd/internal/eval"
	"github.com/ragd-dev/ragd/internal/followup"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// followupPair is one line of a follow-up set: a first question, a
// follow-up that depends on it, and the source_uris that answer the
// follow-up.
type followupPair struct {
	First    string   `json:"first"`
	FollowUp string   `json:"followup"`
	Relevant []string `json:"relevant"`
}

// followupRow is one variant's outcome over the set.
type followupRow struct {
	Variant   string  `json:"variant"`
	Pairs     int     `json:"pairs"`
	Rewritten int     `json:"rewritten"`
	RecallAt5 float64 `json:"recall_at_5"`
	MRRAt5    float64 `json:"mrr_at_5"`
}

// evalFollowups is `ragd eval followups`: recall@5 and MRR@5 of each
// follow-up searched as asked, with the earlier question's terms carried
// (the rewrite without an LLM), and rewritten by the LLM when one is
// configured, through the tenant's production search.
func evalFollowups(ctx context.Context, e *env, d *deps, t tenant.Tenant, path string, asJSON bool, printJSON func(any) error) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var pairs []followupPair
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var p followupPair
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil || p.First == "" || p.FollowUp == "" || len(p.Relevant) == 0 {
			return usagef("%s:%d: want {\"first\", \"followup\", \"relevant\": [source_uri, …]} with all three set", path, line)
		}
		pairs = append(pairs, p)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(pairs) == 0 {
		return usagef("%s has no pairs", path)
	}
	type variant struct {
		name    string
		rewrite func(turns []followup.Turn, q string) followup.Result
	}
	variants := []variant{
		{"as asked", func(_ []followup.Turn, q string) followup.Result { return followup.Result{Question: q} }},
		{"carried terms (no LLM)", followup.CarryTerms},
	}
	if d.app.Rewriter != nil && d.app.Rewriter.LLM != nil {
		variants = append(variants, variant{"LLM rewrite", func(turns []followup.Turn, q string) followup.Result {
			return d.app.Rewriter.Rewrite(ctx, turns, q)
		}})
	}
	var rows []followupRow
	for _, v := range variants {
		row := followupRow{Variant: v.name, Pairs: len(pairs)}
		for _, p := range pairs {
			rw := v.rewrite([]followup.Turn{{Role: "user", Content: p.First}}, p.FollowUp)
			if rw.Method != "" {
				row.Rewritten++
			}
			resp, err := d.searcher.Search(ctx, t, search.Request{Query: rw.Question, TopK: 20})
			if err != nil {
				return fmt.Errorf("%q: %w", rw.Question, err)
			}
			uris := make([]string, len(resp.Results))
			for i, r := range resp.Results {
				uris[i] = r.SourceURI
			}
			ranks := eval.RelevantRanks(eval.DocRanking(uris), p.Relevant)
			row.RecallAt5 += eval.RecallAt(ranks, len(p.Relevant), 5)
			row.MRRAt5 += eval.ReciprocalRankAt(ranks, 5)
		}
		row.RecallAt5 /= float64(len(pairs))
		row.MRRAt5 /= float64(len(pairs))
		rows = append(rows, row)
	}
	if asJSON {
		return printJSON(rows)
	}
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "VARIANT\tPAIRS\tREWRITTEN\tRECALL@5\tMRR@5")
	for _, r := range rows {
		fmt.Fprintf(w, "%s\t%d\t%d\t%.3f\t%.3f\n", r.Variant, r.Pairs, r.Rewritten, r.RecallAt5, r.MRRAt5)
	}
	return w.Flush()
}
