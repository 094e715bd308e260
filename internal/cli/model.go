package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"text/tabwriter"

	"github.com/ragd-dev/ragd/internal/model"
	"github.com/ragd-dev/ragd/internal/store"
)

// runModel is `ragd model register|list|show|retire`: the embedding model
// registry, as the owner role. A model's API key is configuration
// (RAGD_EMBED_API_KEYS), never registered.
// modelActions are runModel's actions (the switch below handles each).
var modelActions = []string{"register", "list", "show", "retire"}

func runModel(ctx context.Context, e *env, args []string) error {
	const usage = "model register --name <name> --dims <n> [--provider openai-compatible|local] [--endpoint <url>] " +
		"[--query-prefix <s>] [--document-prefix <s>] [--max-input-tokens <n>] [--vector-weight <w>] | model list [--json] | model show <name> | model retire <name>"
	if len(args) == 0 {
		return usagef("%s", usage)
	}
	action, args := args[0], args[1:]
	if !slices.Contains(modelActions, action) {
		return usagef("unknown model action %q (%s)", action, usage)
	}
	fs := newFlags(e, "model "+action, usage)
	name := fs.String("name", "", "model name, as the API knows it (register, show, retire)")
	dims := fs.Int("dims", 0, "vector dimensions, 1-2000 (register)")
	provider := fs.String("provider", model.ProviderOpenAI, "local (use-lite) or openai-compatible (register)")
	endpoint := fs.String("endpoint", "", "API root, e.g. http://localhost:11434/v1; empty = RAGD_EMBED_BASE_URL (register)")
	qp := fs.String("query-prefix", "", `put before each query, e.g. "query: " for e5 models (register)`)
	dp := fs.String("document-prefix", "", `put before each chunk, e.g. "passage: " for e5 models (register)`)
	maxTok := fs.Int("max-input-tokens", 0, "most tokens the model reads; longer chunks are cut (register; 0 = no cut)")
	weight := fs.Float64("vector-weight", 1, "the vector leg's fusion prior against the keyword leg's 1 (register)")
	asJSON := fs.Bool("json", false, "print JSON (list)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *name == "" && len(pos) == 1 {
		*name = pos[0]
	}
	pool, err := store.Open(ctx, e.cfg.AdminDatabaseURL, store.Options{MaxConns: 2, Logger: e.log})
	if err != nil {
		return err
	}
	defer pool.Close()
	printModel := func(m model.Model) error {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	}
	switch action {
	case "register":
		m, err := model.Register(ctx, pool, model.Registration{Name: *name, Provider: *provider, Dims: *dims, Endpoint: *endpoint,
			QueryPrefix: *qp, DocumentPrefix: *dp, MaxInputTokens: *maxTok, VectorWeight: *weight})
		switch {
		case errors.Is(err, model.ErrInvalid):
			return usagef("%v", err)
		case errors.Is(err, store.ErrConflict):
			return fmt.Errorf("model %q is registered already (`ragd model show %s`)", *name, *name)
		case err != nil:
			return err
		}
		return printModel(m)
	case "list":
		ms, err := model.List(ctx, pool)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(e.stdout).Encode(ms)
		}
		w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tNAME\tPROVIDER\tDIMS\tSTATUS\tENDPOINT")
		for _, m := range ms {
			ep := m.Endpoint
			if ep == "" && m.Provider == model.ProviderOpenAI {
				ep = "(RAGD_EMBED_BASE_URL)"
			}
			fmt.Fprintf(w, "%d\t%s\t%s\t%d\t%s\t%s\n", m.ID, m.Name, m.Provider, m.Dims, m.Status, ep)
		}
		return w.Flush()
	case "show", "retire":
		if *name == "" {
			return usagef("model %s <name>", action)
		}
		var m model.Model
		if action == "show" {
			m, err = model.ByName(ctx, pool, *name)
		} else {
			m, err = model.SetStatus(ctx, pool, *name, model.StatusRetired)
		}
		if err != nil {
			return err
		}
		return printModel(m)
	}
	return usagef("unknown model action %q (%s)", action, usage)
}
