package benchcli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/ragd-dev/ragd/internal/bench"
	"github.com/ragd-dev/ragd/internal/embed"
)

// runBench is `ragd-bench bench`: it parses the flags into a bench.Config,
// runs it and writes the reports.
func runBench(ctx context.Context, e *env, args []string) error {
	d := bench.Defaults()
	fs := newFlags(e, "bench", "bench [--chunks N] [--tenants T] [--dims D] [--json] [--out DIR] [--fresh]")
	chunks := fs.Int("chunks", d.Chunks, "chunks in the synthetic corpus")
	tenants := fs.Int("tenants", d.Tenants, "tenants (Zipf sizes, the largest --largest-share of the chunks)")
	largest := fs.Float64("largest-share", d.LargestShare, "the largest tenant's share of the chunks, in (0, 1)")
	dims := fs.Int("dims", d.Dims, "vector dimensions (512 = the use-lite model; others register a bench model)")
	words := fs.Int("words", d.Words, "words per chunk, on average")
	queries := fs.Int("queries", d.Queries, "questions per size class and measurement")
	refQueries := fs.Int("ref-queries", d.RefQueries, "questions per size class for the reference query")
	conc := fs.String("concurrency", "1,8", "comma-separated client concurrencies")
	seed := fs.Uint64("seed", d.Seed, "corpus and question seed")
	fresh := fs.Bool("fresh", false, "reload the corpus even if the bench database holds it")
	storage := fs.String("storage", "", "experiment: chunk_embeddings.embedding storage for the loaded rows (plain|main|external|extended; default as migrated)")
	exact := fs.Int64("exact-threshold", 0, "experiment: the vector leg's ExactThreshold (0 = ragd's default)")
	ingestChunks := fs.Int("ingest-chunks", d.IngestChunks, "chunks ingested through the pipeline with the HTTP embedder (-1 skips ingestion)")
	loadWorkers := fs.Int("load-workers", d.LoadWorkers, "parallel writers during the load")
	maxMem := fs.Int("max-index-memory-mb", d.MaxIndexMemoryMB, "cap of maintenance_work_mem for the HNSW build (MB)")
	db := fs.String("db", "ragd_bench", "bench database (created if missing; the vector extension needs a superuser once)")
	out := fs.String("out", "bin/bench", `directory for report.json, report.md and latency.svg ("" = none)`)
	asJSON := fs.Bool("json", false, "print the JSON report on stdout")
	cpuProfile := fs.String("cpuprofile", "", "experiment: write the bench process's CPU profile (the server side of every search: fusion, answerability) to this file")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	var concs []int
	for _, s := range strings.Split(*conc, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return usagef("--concurrency must list positive integers, e.g. 1,8")
		}
		concs = append(concs, n)
	}
	if *chunks < 1 || *tenants < 1 || *chunks < *tenants {
		return usagef("--chunks must be at least --tenants, both positive")
	}
	if !(*largest > 0 && *largest < 1) {
		return usagef("--largest-share must be in (0, 1), e.g. 0.2")
	}
	admin, err := bench.WithDatabase(e.cfg.AdminDatabaseURL, *db)
	if err != nil {
		return err
	}
	app, err := bench.WithDatabase(e.cfg.DatabaseURL, *db)
	if err != nil {
		return err
	}
	cfg := bench.Config{Chunks: *chunks, Tenants: *tenants, LargestShare: *largest, Dims: *dims, Words: *words, Queries: *queries, RefQueries: *refQueries,
		Concurrency: concs, Seed: *seed, Fresh: *fresh, Storage: *storage, ExactThreshold: *exact, IngestChunks: *ingestChunks, LoadWorkers: *loadWorkers, MaxIndexMemoryMB: *maxMem,
		AdminURL: admin, AppURL: app, MainAdminURL: e.cfg.AdminDatabaseURL, AppRole: e.cfg.AppRole,
		ModelDir: embed.DefaultModelDir(e.getenv), Log: e.stderr}
	if *refQueries == 0 {
		cfg.RefQueries = -1 // the flag's 0 means none; the Config's 0 means the default
	}
	rep, err := bench.Run(ctx, cfg)
	if err != nil {
		return err
	}
	rep.Command = strings.TrimSpace("ragd-bench bench " + strings.Join(args, " "))
	if *out != "" {
		if err := bench.WriteFiles(rep, *out); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "bench: wrote %s/report.json, report.md, latency.svg\n", *out)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return bench.WriteMarkdown(e.stdout, rep)
}
