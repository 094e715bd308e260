package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// ErrRunNotFound is returned by GetRun and Compare for a run id the tenant
// does not have (another tenant's id included).
var ErrRunNotFound = errors.New("eval: run not found")

// DefaultTopK is the depth of a run: the chunks the production path returns
// per question.
const DefaultTopK = 20

// Service is the evaluation API over one database: sets, runs, comparisons,
// tuning and BEIR import. Every method takes the tenant it acts for and works
// inside that tenant's transactions. Safe for concurrent use.
type Service struct {
	pool     *pgxpool.Pool
	searcher *search.Searcher
	log      *slog.Logger
}

// Option configures a Service.
type Option func(*Service)

// WithLogger sets the logger (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// New returns a Service storing through pool (the application role) and
// searching with searcher, the production searcher. Runs use a copy of it
// whose MaxTopK admits the run's depth; nothing else differs.
func New(pool *pgxpool.Pool, searcher *search.Searcher, opts ...Option) *Service {
	s := &Service{pool: pool, searcher: searcher, log: slog.Default()}
	for _, o := range opts {
		o(s)
	}
	return s
}

// LoadOptions tune LoadSet.
type LoadOptions struct {
	// AllowUnknown stores a set whose relevant source_uris name documents the
	// tenant does not have (they are listed in SetInfo.Unknown); by default
	// they are validation problems.
	AllowUnknown bool
	// AllowDuplicates keeps repeated questions (BEIR query sets have some).
	AllowDuplicates bool
}

// LoadSet validates questions and stores them as the next version of the
// tenant's set name; identical questions to the latest version make no new
// version (SetInfo.Unchanged). Errors: ErrInvalidName; *ValidationError
// (ErrInvalidSet) listing empty, over-long or duplicate questions, empty or
// duplicate source_uris and source_uris unknown to the tenant; store errors.
func (s *Service) LoadSet(ctx context.Context, t tenant.Tenant, name string, questions []Question, o LoadOptions) (SetInfo, error) {
	if !ValidName(name) {
		return SetInfo{}, fmt.Errorf("%w: %q (lowercase letters, digits, '.', '_', '-'; at most 100)", ErrInvalidName, name)
	}
	qs := normalize(questions)
	var probs []Problem
	if err := Validate(qs); err != nil {
		var ve *ValidationError
		if !errors.As(err, &ve) {
			return SetInfo{}, err
		}
		for _, p := range ve.Problems {
			if o.AllowDuplicates && p.Code == "duplicate_question" {
				continue
			}
			probs = append(probs, p)
		}
	}
	// Every question must be one the search accepts as it runs it (in the
	// form analyze.Question gives it, within RAGD_MAX_QUERY_CHARS): a
	// question of invisible characters only, or one past the server's
	// limit, was stored, and then every run of the set failed as a whole.
	if s.searcher != nil {
		bad := map[int]bool{}
		for _, p := range probs {
			bad[p.Line] = true
		}
		for i, q := range qs {
			if bad[i+1] {
				continue
			}
			r := search.Request{Query: q.Question}
			switch err := s.searcher.Validate(&r); {
			case errors.Is(err, search.ErrEmptyQuery):
				probs = append(probs, Problem{Line: i + 1, Code: "empty_question", Message: "the question has no visible characters"})
			case errors.Is(err, search.ErrQueryTooLong):
				probs = append(probs, Problem{Line: i + 1, Code: "too_long", Message: strings.TrimPrefix(err.Error(), "search: ")})
			}
		}
		sort.SliceStable(probs, func(a, b int) bool { return probs[a].Line < probs[b].Line })
	}
	uris := map[string]bool{}
	for _, q := range qs {
		for _, u := range q.Relevant {
			uris[u] = true
		}
	}
	all := make([]string, 0, len(uris))
	for u := range uris {
		all = append(all, u)
	}
	sort.Strings(all)
	sha := setSHA(qs)
	payload := make([]map[string]any, len(qs))
	for i, q := range qs {
		payload[i] = map[string]any{"idx": i, "question": q.Question, "relevant": q.Relevant, "category": q.Category}
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return SetInfo{}, err
	}
	var info SetInfo
	q := store.New()
	err = store.InTenant(ctx, s.pool, t.ID, func(tx pgx.Tx) error {
		// A label copied from an answer's link ("…/manual.html#3.4.6")
		// names a section of a document: its document is looked up too,
		// to say so.
		lookup := slices.Clone(all)
		for _, u := range all {
			if base, _, ok := strings.Cut(u, "#"); ok && base != "" {
				lookup = append(lookup, base)
			}
		}
		known, err := q.KnownSourceURIs(ctx, tx, store.KnownSourceURIsParams{TenantID: t.ID, Uris: lookup})
		if err != nil {
			return err
		}
		have := make(map[string]bool, len(known))
		for _, u := range known {
			have[u] = true
		}
		var unknown []string
		for _, u := range all {
			if !have[u] {
				unknown = append(unknown, u)
			}
		}
		if len(unknown) > 0 && !o.AllowUnknown {
			for i, q := range qs {
				for _, u := range q.Relevant {
					if base, _, _ := strings.Cut(u, "#"); !have[u] && base != u && have[base] {
						probs = append(probs, Problem{Line: i + 1, Code: "unknown_source_uri", Message: fmt.Sprintf(
							"unknown source_uri %q: relevant names whole documents (retrieval is scored per document), and %q is one; leave out the #fragment", u, base)})
					} else if !have[u] {
						probs = append(probs, Problem{Line: i + 1, Code: "unknown_source_uri", Message: fmt.Sprintf("unknown source_uri %q (no such document in the tenant)", u)})
					}
				}
			}
		}
		if len(probs) > 0 {
			return &ValidationError{Problems: probs}
		}
		info.Unknown = unknown
		latest, err := q.LatestEvalSet(ctx, tx, store.LatestEvalSetParams{TenantID: t.ID, Name: name})
		if err == nil && slices.Equal(latest.Sha, sha) {
			info = SetInfo{ID: latest.ID, Name: latest.Name, Version: int(latest.Version), Questions: int(latest.Questions),
				CreatedAt: latest.CreatedAt.Time, Unchanged: true, Unknown: unknown}
			return nil
		}
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		row, err := q.InsertEvalSet(ctx, tx, store.InsertEvalSetParams{TenantID: t.ID, Name: name, Sha: sha, Questions: int32(len(qs))})
		if err != nil {
			return err
		}
		if _, err := q.InsertEvalQuestions(ctx, tx, store.InsertEvalQuestionsParams{TenantID: t.ID, SetID: row.ID, Questions: raw}); err != nil {
			return err
		}
		info = SetInfo{ID: row.ID, Name: row.Name, Version: int(row.Version), Questions: int(row.Questions), CreatedAt: row.CreatedAt.Time, Unknown: unknown}
		return nil
	})
	if err != nil {
		return SetInfo{}, err
	}
	return info, nil
}

// Sets lists the latest version of each of the tenant's sets, by name.
func (s *Service) Sets(ctx context.Context, t tenant.Tenant) ([]SetInfo, error) {
	var out []SetInfo
	err := store.InTenant(ctx, s.pool, t.ID, func(tx pgx.Tx) error {
		rows, err := store.New().ListEvalSets(ctx, tx, t.ID)
		for _, r := range rows {
			out = append(out, SetInfo{ID: r.ID, Name: r.Name, Version: int(r.Version), Questions: int(r.Questions), CreatedAt: r.CreatedAt.Time})
		}
		return err
	})
	return out, err
}

// SetQuestions returns a stored set and its questions; version 0 means the
// latest. Errors: ErrSetNotFound.
func (s *Service) SetQuestions(ctx context.Context, t tenant.Tenant, name string, version int) (SetInfo, []Question, error) {
	var info SetInfo
	var qs []Question
	q := store.New()
	err := store.InTenant(ctx, s.pool, t.ID, func(tx pgx.Tx) error {
		var id uuid.UUID
		if version <= 0 {
			r, err := q.LatestEvalSet(ctx, tx, store.LatestEvalSetParams{TenantID: t.ID, Name: name})
			if err != nil {
				return err
			}
			id, info = r.ID, SetInfo{ID: r.ID, Name: r.Name, Version: int(r.Version), Questions: int(r.Questions), CreatedAt: r.CreatedAt.Time}
		} else {
			r, err := q.GetEvalSetVersion(ctx, tx, store.GetEvalSetVersionParams{TenantID: t.ID, Name: name, Version: int32(version)})
			if err != nil {
				return err
			}
			id, info = r.ID, SetInfo{ID: r.ID, Name: r.Name, Version: int(r.Version), Questions: int(r.Questions), CreatedAt: r.CreatedAt.Time}
		}
		rows, err := q.EvalQuestions(ctx, tx, store.EvalQuestionsParams{TenantID: t.ID, SetID: id})
		for _, r := range rows {
			qs = append(qs, Question{Question: r.Question, Relevant: r.Relevant, Category: r.Category})
		}
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		if version > 0 {
			return info, nil, fmt.Errorf("%w: %s version %d", ErrSetNotFound, name, version)
		}
		return info, nil, fmt.Errorf("%w: %s (load one with `ragd eval load`)", ErrSetNotFound, name)
	}
	return info, qs, err
}

// RunOptions tune Run.
type RunOptions struct {
	// Set names the set; Version 0 = the latest.
	Set     string
	Version int
	// TopK is the chunks each search returns (default DefaultTopK).
	TopK int
	// Settings, when set, replaces the tenant's settings for this run (a
	// what-if run: nothing is stored in the tenant; the run's snapshot
	// records them).
	Settings *tenant.Settings
	// Candidates overrides the candidates per leg (0 = the settings').
	// BEIR runs use 100 so that recall@100 sees 100 fused candidates.
	Candidates int
	// Limit evaluates only the first Limit questions (0 = all).
	Limit int
	// Workers is how many questions are in flight (default 1: latency figures
	// are then those of one search on an otherwise idle server).
	Workers int
	// DryRun skips storing the run.
	DryRun bool
	// Progress, when set, is called after each question.
	Progress func(done, total int)
}

// Run evaluates a stored set through the production retrieval path and
// stores the run (unless DryRun). Each question is searched once per leg —
// vector only, keyword only, fused (the tenant's settings, no rerank) and,
// when a reranker is configured, reranked — by Searcher.Search itself, with
// top_k chunks; chunks map to documents by source_uri (DocRanking). The
// top-level metrics are the production path's: reranked if on, else fused.
// Errors: ErrSetNotFound, search errors (wrapped with the question number),
// store errors.
func (s *Service) Run(ctx context.Context, t tenant.Tenant, o RunOptions) (Report, error) {
	info, qs, err := s.SetQuestions(ctx, t, o.Set, o.Version)
	if err != nil {
		return Report{}, err
	}
	if o.Limit > 0 && o.Limit < len(qs) {
		qs = qs[:o.Limit]
	}
	return s.runQuestions(ctx, t, info, qs, o)
}

func (s *Service) runQuestions(ctx context.Context, t tenant.Tenant, info SetInfo, qs []Question, o RunOptions) (Report, error) {
	if o.TopK <= 0 {
		o.TopK = DefaultTopK
	}
	o.Workers = max(o.Workers, 1)
	sr := s.runSearcher(o.TopK)
	prod := t.Settings
	if o.Settings != nil {
		prod = *o.Settings
	}
	if o.Candidates > 0 {
		prod.Candidates = o.Candidates
	}
	ablate := prod
	ablate.VectorWeight, ablate.KeywordWeight = ptr(1.0), ptr(1.0)
	type legRun struct {
		name string
		req  search.Request
	}
	legs := []legRun{
		{LegVector, search.Request{Only: search.LegVector, NoRerank: true, Settings: &ablate}},
		{LegKeyword, search.Request{Only: search.LegKeyword, NoRerank: true, Settings: &ablate}},
		{LegFused, search.Request{NoRerank: true, Settings: &prod}},
	}
	production := LegFused
	if sr.Reranker != nil {
		legs = append(legs, legRun{LegReranked, search.Request{Settings: &prod}})
		production = LegReranked
	}
	r := Report{Set: info, Depth: o.TopK, Production: production, PerQuestion: make([]QuestionResult, len(qs))}
	var mu sync.Mutex
	var firstErr error
	done := 0
	sem := make(chan struct{}, o.Workers)
	var wg sync.WaitGroup
	for i, q := range qs {
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			qr := QuestionResult{Idx: i, Question: q.Question, Relevant: q.Relevant, Category: q.Category, Legs: map[string]LegResult{}}
			for _, leg := range legs {
				req := leg.req
				req.Query, req.TopK = q.Question, o.TopK
				lr, err := searchLeg(ctx, sr, t, req, q.Relevant)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("question %d (%s leg): %w", i+1, leg.name, err)
					}
					mu.Unlock()
					return
				}
				qr.Legs[leg.name] = lr
			}
			mu.Lock()
			r.PerQuestion[i] = qr
			done++
			if o.Progress != nil {
				o.Progress(done, len(qs))
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return Report{}, firstErr
	}
	if err := ctx.Err(); err != nil {
		return Report{}, err
	}
	r.aggregate(*prod.Effective().RefuseBelow)
	cfg, err := s.snapshot(ctx, t, sr, prod, o.TopK)
	if err != nil {
		return Report{}, err
	}
	r.Config = cfg
	if r.Missing, err = s.missingSources(ctx, t, qs); err != nil {
		return Report{}, err
	}
	if o.DryRun {
		r.CreatedAt = time.Now()
		return r, nil
	}
	if err := s.store(ctx, t, &r); err != nil {
		return Report{}, err
	}
	return r, nil
}

// missingSources returns the relevant source_uris of qs that no document of
// the tenant has (that the caller can read), sorted.
func (s *Service) missingSources(ctx context.Context, t tenant.Tenant, qs []Question) ([]string, error) {
	seen := map[string]bool{}
	var all []string
	for _, q := range qs {
		for _, u := range q.Relevant {
			if !seen[u] {
				seen[u] = true
				all = append(all, u)
			}
		}
	}
	if len(all) == 0 {
		return nil, nil
	}
	var known []string
	err := store.InTenant(ctx, s.pool, t.ID, func(tx pgx.Tx) error {
		var err error
		known, err = store.New().KnownSourceURIs(ctx, tx, store.KnownSourceURIsParams{TenantID: t.ID, Uris: all})
		return err
	})
	if err != nil {
		return nil, err
	}
	have := make(map[string]bool, len(known))
	for _, u := range known {
		have[u] = true
	}
	var missing []string
	for _, u := range all {
		if !have[u] {
			missing = append(missing, u)
		}
	}
	sort.Strings(missing)
	return missing, nil
}

// runSearcher is a copy of the production searcher that admits top_k up to
// depth; its defaults are applied once here so concurrent searches only read.
func (s *Service) runSearcher(depth int) *search.Searcher {
	sr := *s.searcher
	sr.MaxTopK = max(sr.MaxTopK, depth)
	_ = sr.Validate(&search.Request{Query: "x", TopK: 1})
	sr.MaxTopK = max(sr.MaxTopK, depth)
	return &sr
}

// searchLeg runs one search and scores it against relevant.
func searchLeg(ctx context.Context, sr *search.Searcher, t tenant.Tenant, req search.Request, relevant []string) (LegResult, error) {
	start := time.Now()
	resp, err := sr.Search(ctx, t, req)
	elapsed := time.Since(start)
	if err != nil {
		return LegResult{}, err
	}
	uris := make([]string, len(resp.Results))
	for i, res := range resp.Results {
		uris[i] = res.SourceURI
	}
	docs := DocRanking(uris)
	return LegResult{Ranks: RelevantRanks(docs, relevant), Top: docs[:min(3, len(docs))], Docs: len(docs),
		LatencyMS: float64(elapsed.Microseconds()) / 1000, Confidence: resp.Confidence, Degraded: resp.Degraded, Signals: resp.Signals}, nil
}

// snapshot records what shaped the run.
func (s *Service) snapshot(ctx context.Context, t tenant.Tenant, sr *search.Searcher, set tenant.Settings, topK int) (Config, error) {
	eff := sr.Settings(t, &set)
	c := Config{Settings: eff, TopK: topK, Candidates: max(eff.Candidates, topK), PerTermLimit: sr.PerTermCap(), PerDocument: sr.DocumentCap(),
		ExactThreshold: sr.ExactThreshold, TSConfig: t.TSConfig, Pipelines: map[string]int64{}}
	switch {
	case sr.Models != nil:
		// The tenant's own model, the one its searches embed with.
		if m, err := sr.Models.ForSearch(ctx, t); err == nil {
			c.EmbeddingModel, c.EmbeddingDims = m.Embedder.Model(), m.Embedder.Dims()
		}
	case sr.Embedder != nil:
		c.EmbeddingModel, c.EmbeddingDims = sr.Embedder.Model(), sr.Embedder.Dims()
	}
	if sr.Reranker != nil {
		c.Reranker = sr.Reranker.Model()
	}
	q := store.New()
	err := store.InTenant(ctx, s.pool, t.ID, func(tx pgx.Tx) error {
		ps, err := q.DocumentPipelines(ctx, tx, t.ID)
		if err != nil {
			return err
		}
		for _, p := range ps {
			c.Pipelines[p.Pipeline] = p.Documents
		}
		st, err := q.GetTenantStats(ctx, tx, t.ID)
		if err != nil {
			return err
		}
		c.Documents, c.Chunks = st.DocumentCount, st.ChunkCount
		return nil
	})
	return c, err
}

// store inserts the run and sets r.ID and r.CreatedAt.
func (s *Service) store(ctx context.Context, t tenant.Tenant, r *Report) error {
	cfg, err := json.Marshal(r.Config)
	if err != nil {
		return err
	}
	sum, err := json.Marshal(summary{Questions: r.Questions, Answerable: r.Answerable, Depth: r.Depth, Production: r.Production,
		Metrics: r.Metrics, Categories: r.Categories, Latency: r.Latency, Misses: r.Misses, Refusal: r.Refusal, Degraded: r.Degraded})
	if err != nil {
		return err
	}
	legs, err := json.Marshal(r.Legs)
	if err != nil {
		return err
	}
	per, err := json.Marshal(r.PerQuestion)
	if err != nil {
		return err
	}
	return store.InTenant(ctx, s.pool, t.ID, func(tx pgx.Tx) error {
		row, err := store.New().InsertEvalRun(ctx, tx, store.InsertEvalRunParams{TenantID: t.ID, SetID: r.Set.ID,
			Config: cfg, Metrics: sum, Legs: legs, PerQuestion: per})
		if err != nil {
			return err
		}
		r.ID, r.CreatedAt = row.ID, row.CreatedAt.Time
		return nil
	})
}

// GetRun returns one of the tenant's runs with its per-question outcomes.
// Errors: ErrRunNotFound (also for another tenant's run), store errors.
func (s *Service) GetRun(ctx context.Context, t tenant.Tenant, id uuid.UUID) (Report, error) {
	var r Report
	err := store.InTenant(ctx, s.pool, t.ID, func(tx pgx.Tx) error {
		row, err := store.New().GetEvalRun(ctx, tx, store.GetEvalRunParams{TenantID: t.ID, ID: id})
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("%w: %s", ErrRunNotFound, id)
		}
		if err != nil {
			return err
		}
		var sum summary
		if err := json.Unmarshal(row.Metrics, &sum); err != nil {
			return fmt.Errorf("run %s metrics: %w", id, err)
		}
		r = Report{ID: row.ID, CreatedAt: row.CreatedAt.Time, Set: SetInfo{ID: row.SetID, Name: row.SetName, Version: int(row.SetVersion), CreatedAt: row.SetCreatedAt.Time},
			Questions: sum.Questions, Answerable: sum.Answerable, Depth: sum.Depth, Production: sum.Production, Metrics: sum.Metrics,
			Categories: sum.Categories, Latency: sum.Latency, Misses: sum.Misses, Refusal: sum.Refusal, Degraded: sum.Degraded}
		r.Set.Questions = sum.Questions
		if err := json.Unmarshal(row.Legs, &r.Legs); err != nil {
			return fmt.Errorf("run %s legs: %w", id, err)
		}
		if err := json.Unmarshal(row.Config, &r.Config); err != nil {
			return fmt.Errorf("run %s config: %w", id, err)
		}
		if err := json.Unmarshal(row.PerQuestion, &r.PerQuestion); err != nil {
			return fmt.Errorf("run %s per-question: %w", id, err)
		}
		return nil
	})
	return r, err
}

// RunSummary is a stored run without its per-question data.
type RunSummary struct {
	ID         uuid.UUID `json:"id"`
	Set        string    `json:"set"`
	SetVersion int       `json:"set_version"`
	CreatedAt  time.Time `json:"created_at"`
	Questions  int       `json:"questions"`
	Production string    `json:"production"`
	Metrics    Metrics   `json:"metrics"`
}

// Runs lists the tenant's latest runs, newest first (at most limit; default 20).
func (s *Service) Runs(ctx context.Context, t tenant.Tenant, limit int) ([]RunSummary, error) {
	if limit <= 0 {
		limit = 20
	}
	var out []RunSummary
	err := store.InTenant(ctx, s.pool, t.ID, func(tx pgx.Tx) error {
		rows, err := store.New().ListEvalRuns(ctx, tx, store.ListEvalRunsParams{TenantID: t.ID, MaxRows: int32(limit)})
		if err != nil {
			return err
		}
		for _, row := range rows {
			var sum summary
			if err := json.Unmarshal(row.Metrics, &sum); err != nil {
				return fmt.Errorf("run %s metrics: %w", row.ID, err)
			}
			out = append(out, RunSummary{ID: row.ID, Set: row.SetName, SetVersion: int(row.SetVersion), CreatedAt: row.CreatedAt.Time,
				Questions: sum.Questions, Production: sum.Production, Metrics: sum.Metrics})
		}
		return nil
	})
	return out, err
}

func ptr[T any](v T) *T { return &v }
