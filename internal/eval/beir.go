package eval

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// ErrBEIRLayout is returned by ImportBEIR and ReadBEIR when the directory is
// not in the BEIR layout (corpus.jsonl[.gz], queries*.jsonl, qrels/<split>.tsv)
// or a file in it is malformed.
var ErrBEIRLayout = errors.New("eval: not a BEIR dataset")

// BEIRDepth is the depth of BEIR runs: top_k and candidates per leg, so that
// Recall@100 is measured as BEIR measures it.
const BEIRDepth = 100

// BEIRDoc is one corpus line.
type BEIRDoc struct {
	ID    string `json:"_id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Content is what ragd ingests for the document: title, a blank line, text.
func (d BEIRDoc) Content() string {
	if d.Title == "" {
		return d.Text
	}
	return d.Title + "\n\n" + d.Text
}

// BEIRQuery is one query with its relevant corpus ids (qrels score > 0).
type BEIRQuery struct {
	ID       string
	Text     string
	Relevant []string
}

// ReadBEIRCorpus streams dir's corpus.jsonl or corpus.jsonl.gz to fn.
// Errors: ErrBEIRLayout (wrapped with the file and line), read errors, fn's.
func ReadBEIRCorpus(dir string, fn func(BEIRDoc) error) error {
	path := ""
	for _, name := range []string{"corpus.jsonl", "corpus.jsonl.gz"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			path = filepath.Join(dir, name)
			break
		}
	}
	if path == "" {
		return fmt.Errorf("%w: %s has no corpus.jsonl or corpus.jsonl.gz", ErrBEIRLayout, dir)
	}
	return readJSONL(path, func(line int, raw []byte) error {
		var d BEIRDoc
		if err := json.Unmarshal(raw, &d); err != nil || d.ID == "" {
			return fmt.Errorf("%w: %s line %d: want {\"_id\", \"title\", \"text\"}", ErrBEIRLayout, path, line)
		}
		return fn(d)
	})
}

// ReadBEIRQueries returns the queries of split that have at least one
// relevant document in qrels/<split>.tsv, in the order of the queries file
// (queries.jsonl, queries-<split>.jsonl, or the directory's only
// queries*.jsonl[.gz]). Relevance is binary: score > 0. Errors: ErrBEIRLayout.
func ReadBEIRQueries(dir, split string) ([]BEIRQuery, error) {
	qrelsPath := filepath.Join(dir, "qrels", split+".tsv")
	rel, order, err := readQrels(qrelsPath)
	if err != nil {
		return nil, err
	}
	qpath, err := queriesFile(dir, split)
	if err != nil {
		return nil, err
	}
	var out []BEIRQuery
	seen := map[string]bool{}
	err = readJSONL(qpath, func(line int, raw []byte) error {
		var q struct {
			ID   string `json:"_id"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(raw, &q); err != nil || q.ID == "" {
			return fmt.Errorf("%w: %s line %d: want {\"_id\", \"text\"}", ErrBEIRLayout, qpath, line)
		}
		if r := rel[q.ID]; len(r) > 0 && !seen[q.ID] {
			seen[q.ID] = true
			out = append(out, BEIRQuery{ID: q.ID, Text: q.Text, Relevant: r})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, id := range order {
		if len(rel[id]) > 0 && !seen[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: %d queries of %s are not in %s (first: %s)", ErrBEIRLayout, len(missing), qrelsPath, qpath, missing[0])
	}
	return out, nil
}

func queriesFile(dir, split string) (string, error) {
	for _, name := range []string{"queries.jsonl", "queries-" + split + ".jsonl", "queries.jsonl.gz", "queries-" + split + ".jsonl.gz"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return filepath.Join(dir, name), nil
		}
	}
	m, _ := filepath.Glob(filepath.Join(dir, "queries*.jsonl*"))
	if len(m) == 1 {
		return m[0], nil
	}
	return "", fmt.Errorf("%w: %s has no queries.jsonl (or queries-%s.jsonl)", ErrBEIRLayout, dir, split)
}

// readQrels reads query-id, corpus-id, score lines (a header line is
// skipped); it returns the relevant ids per query and the query order.
func readQrels(path string) (map[string][]string, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrBEIRLayout, err)
	}
	defer f.Close()
	rel := map[string][]string{}
	dup := map[[2]string]bool{}
	var order []string
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if line == 1 && fields[0] == "query-id" {
			continue
		}
		if len(fields) != 3 {
			return nil, nil, fmt.Errorf("%w: %s line %d: want query-id, corpus-id, score", ErrBEIRLayout, path, line)
		}
		score, err := strconv.Atoi(fields[2])
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %s line %d: score %q is not an integer", ErrBEIRLayout, path, line, fields[2])
		}
		if _, ok := rel[fields[0]]; !ok {
			rel[fields[0]] = nil
			order = append(order, fields[0])
		}
		if score > 0 && !dup[[2]string{fields[0], fields[1]}] {
			dup[[2]string{fields[0], fields[1]}] = true
			rel[fields[0]] = append(rel[fields[0]], fields[1])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	return rel, order, nil
}

// readJSONL calls fn for every non-blank line of path (gzip when it ends in .gz).
func readJSONL(path string, fn func(line int, raw []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBEIRLayout, err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return fmt.Errorf("%w: %s: %v", ErrBEIRLayout, path, err)
		}
		defer gz.Close()
		r = gz
	}
	br := bufio.NewReaderSize(r, 1<<20)
	for line := 1; ; line++ {
		raw, err := br.ReadBytes('\n')
		if len(strings.TrimSpace(string(raw))) > 0 {
			if ferr := fn(line, raw); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
}

// BEIROptions tune ImportBEIR.
type BEIROptions struct {
	// Dir is the dataset directory.
	Dir string
	// Split names qrels/<split>.tsv (default "test").
	Split string
	// Limit evaluates the first Limit queries only (0 = all); the corpus is
	// always ingested whole so figures stay comparable.
	Limit int
	// Workers is the number of documents ingested concurrently (default 2).
	Workers int
	// SkipIngest evaluates without (re)ingesting the corpus.
	SkipIngest bool
	// SetName is the evaluation set the queries are stored as (default
	// "beir-<split>").
	SetName string
	// TopK is the depth (default BEIRDepth: top_k and candidates 100).
	TopK int
	// Settings, when set, replaces the tenant's settings for the run (the
	// candidates are still TopK).
	Settings *tenant.Settings
	// DryRun does not store the run.
	DryRun bool
	// Progress, when set, reports ingestion ("ingest") and evaluation ("eval").
	Progress func(stage string, done, total int)
}

// IngestSummary counts what ImportBEIR's ingestion did.
type IngestSummary struct {
	Documents int           `json:"documents"`
	Added     int           `json:"added"`
	Updated   int           `json:"updated"`
	Unchanged int           `json:"unchanged"`
	Failed    int           `json:"failed"`
	Chunks    int           `json:"chunks"`
	Embedded  int           `json:"embedded"`
	Elapsed   time.Duration `json:"elapsed_ns"`
	Failures  []string      `json:"failures,omitempty"`
}

// BEIRResult is the outcome of ImportBEIR.
type BEIRResult struct {
	Ingest *IngestSummary `json:"ingest,omitempty"`
	Report Report         `json:"report"`
}

// ImportBEIR ingests a BEIR dataset into tenant t and evaluates it: every
// corpus document goes through p.Upsert as text/plain with title = title,
// content = title + "\n\n" + text and source_uri = _id (idempotent: unchanged
// documents are skipped); the split's queries become the set "beir-<split>"
// with their qrels as labels; the run has top_k and candidates BEIRDepth, so
// nDCG@10, Recall@100 and MRR@10 are computed as BEIR computes them (binary
// relevance, per leg). Documents that fail to ingest are counted in
// IngestSummary and the evaluation goes on without them. Errors: ErrBEIRLayout,
// Run's errors.
func (s *Service) ImportBEIR(ctx context.Context, t tenant.Tenant, p *ingest.Pipeline, o BEIROptions) (BEIRResult, error) {
	if o.Split == "" {
		o.Split = "test"
	}
	if o.SetName == "" {
		o.SetName = "beir-" + strings.ToLower(o.Split)
	}
	if o.TopK <= 0 {
		o.TopK = BEIRDepth
	}
	queries, err := ReadBEIRQueries(o.Dir, o.Split)
	if err != nil {
		return BEIRResult{}, err
	}
	var res BEIRResult
	if !o.SkipIngest {
		sum, err := s.ingestBEIR(ctx, t, p, o)
		res.Ingest = &sum
		if err != nil {
			return res, err
		}
		if sum.Failed > 0 {
			// Reported in the result; the figures then cover fewer documents.
			s.log.Warn("eval beir: documents failed to ingest", "failed", sum.Failed, "documents", sum.Documents, "first", sum.Failures[0])
		}
	}
	qs := make([]Question, len(queries))
	for i, q := range queries {
		qs[i] = Question{Question: q.Text, Relevant: q.Relevant}
	}
	info, err := s.LoadSet(ctx, t, o.SetName, qs, LoadOptions{AllowDuplicates: true})
	if err != nil {
		return res, fmt.Errorf("store the %s queries as set %s: %w", o.Split, o.SetName, err)
	}
	if o.Limit > 0 && o.Limit < len(qs) {
		qs = qs[:o.Limit]
	}
	ro := RunOptions{TopK: o.TopK, Candidates: o.TopK, Settings: o.Settings, DryRun: o.DryRun}
	if o.Progress != nil {
		ro.Progress = func(done, total int) { o.Progress("eval", done, total) }
	}
	res.Report, err = s.runQuestions(ctx, t, info, qs, ro)
	return res, err
}

func (s *Service) ingestBEIR(ctx context.Context, t tenant.Tenant, p *ingest.Pipeline, o BEIROptions) (IngestSummary, error) {
	start := time.Now()
	var docs []BEIRDoc
	if err := ReadBEIRCorpus(o.Dir, func(d BEIRDoc) error { docs = append(docs, d); return nil }); err != nil {
		return IngestSummary{}, err
	}
	sum := IngestSummary{Documents: len(docs)}
	workers := o.Workers
	if workers <= 0 {
		workers = 2
	}
	jobs := make(chan BEIRDoc)
	var mu sync.Mutex
	var wg sync.WaitGroup
	done := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range jobs {
				out, err := p.Upsert(ctx, t, ingest.Document{SourceURI: d.ID, Title: d.Title, ContentType: "text/plain", Content: []byte(d.Content())})
				mu.Lock()
				done++
				if err != nil {
					sum.Failed++
					sum.Failures = append(sum.Failures, d.ID+": "+err.Error())
				} else {
					switch out.Status {
					case ingest.StatusAdded:
						sum.Added++
					case ingest.StatusUpdated:
						sum.Updated++
					case ingest.StatusUnchanged:
						sum.Unchanged++
					}
					sum.Chunks += out.Chunks
					sum.Embedded += out.Embedded
				}
				if o.Progress != nil {
					o.Progress("ingest", done, len(docs))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, d := range docs {
		select {
		case jobs <- d:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	sort.Strings(sum.Failures)
	sum.Elapsed = time.Since(start)
	return sum, ctx.Err()
}
