package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/sys/unix"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/migrate"
	"github.com/ragd-dev/ragd/internal/store"
)

// Config is one benchmark run. Zero fields take the defaults of Defaults.
type Config struct {
	// Chunks and Tenants size the corpus; tenant sizes follow a Zipf law with
	// the largest tenant holding LargestShare of the chunks.
	Chunks, Tenants int
	LargestShare    float64
	// Dims of the vectors: 512 is the deployment's model (use-lite, id 1);
	// any other value registers a bench model "bench-<dims>" with its own
	// partial HNSW index.
	Dims int
	// Words per chunk, on average (uniform in [Words/2, 3·Words/2]).
	Words        int
	ChunksPerDoc int
	Seed         uint64
	// Queries per size class and measurement; RefQueries of them also run
	// the reference query (negative: none).
	Queries, RefQueries int
	// Concurrency levels of the latency runs (the first should be 1).
	Concurrency []int
	// Fresh reloads the corpus even if the bench database holds it already.
	Fresh bool
	// Storage, when set ("plain", "main", "external" or "extended"), is the
	// storage of chunk_embeddings.embedding in the bench database for this
	// load (default: as migrated). An experiment switch: 512-dimension
	// vectors exceed the 2 kB TOAST threshold and are stored out of line
	// under pgvector's default.
	Storage string
	// ExactThreshold overrides the Searcher's (0 = ragd's default): tenants
	// with at most this many chunks are searched exactly by the vector leg.
	ExactThreshold int64
	// LoadWorkers write tenants in parallel; LoadBatch chunks per transaction.
	LoadWorkers, LoadBatch int
	// MaxIndexMemoryMB caps maintenance_work_mem for the HNSW build.
	MaxIndexMemoryMB int
	// IngestChunks for the HTTP-embedder pipeline run, IngestLocalChunks for
	// the local-model one; IngestWorkers documents in flight; HTTPDelay per
	// embeddings request. IngestChunks < 0 skips the ingestion runs.
	IngestChunks, IngestLocalChunks, IngestWorkers int
	HTTPDelay                                      time.Duration

	// AdminURL and AppURL are the bench database's owner and application
	// role URLs; MainAdminURL is a database the owner can connect to in order
	// to create the bench database. AppRole is the application role's name.
	AdminURL, AppURL, MainAdminURL, AppRole string
	// ModelDir holds the local model; "" or missing files skip the
	// measurements that need it (API time with embedding, local ingestion).
	ModelDir string
	// Log receives progress lines (default os.Stderr).
	Log io.Writer
}

// Defaults is the small scale: about a minute on two cores.
func Defaults() Config {
	return Config{Chunks: 20000, Tenants: 200, LargestShare: 0.2, Dims: 512, Words: 100, ChunksPerDoc: 20, Seed: 1,
		Queries: 30, RefQueries: 10, Concurrency: []int{1, 8}, LoadWorkers: 2, LoadBatch: 2000, MaxIndexMemoryMB: 4096,
		IngestChunks: 1000, IngestLocalChunks: 200, IngestWorkers: 8, HTTPDelay: 20 * time.Millisecond, AppRole: "ragd_app"}
}

func (c *Config) defaults() {
	d := Defaults()
	set := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	set(&c.Chunks, d.Chunks)
	set(&c.Tenants, d.Tenants)
	set(&c.Dims, d.Dims)
	set(&c.Words, d.Words)
	set(&c.ChunksPerDoc, d.ChunksPerDoc)
	set(&c.Queries, d.Queries)
	set(&c.RefQueries, d.RefQueries)
	set(&c.LoadWorkers, d.LoadWorkers)
	set(&c.LoadBatch, d.LoadBatch)
	set(&c.MaxIndexMemoryMB, d.MaxIndexMemoryMB)
	set(&c.IngestChunks, d.IngestChunks)
	set(&c.IngestLocalChunks, d.IngestLocalChunks)
	set(&c.IngestWorkers, d.IngestWorkers)
	if c.LargestShare == 0 {
		c.LargestShare = d.LargestShare
	}
	if c.Seed == 0 {
		c.Seed = d.Seed
	}
	if len(c.Concurrency) == 0 {
		c.Concurrency = d.Concurrency
	}
	if c.HTTPDelay == 0 {
		c.HTTPDelay = d.HTTPDelay
	}
	if c.AppRole == "" {
		c.AppRole = d.AppRole
	}
	if c.Log == nil {
		c.Log = os.Stderr
	}
}

// ErrConfig is returned by Run for an unusable Config.
var ErrConfig = errors.New("bench: invalid configuration")

// Validate reports the first unusable field (ErrConfig).
func (c Config) Validate() error {
	switch {
	case c.Tenants < 1 || c.Chunks < c.Tenants:
		return fmt.Errorf("%w: need at least one chunk per tenant (chunks %d, tenants %d)", ErrConfig, c.Chunks, c.Tenants)
	case c.Tenants > 9999:
		return fmt.Errorf("%w: at most 9999 tenants", ErrConfig)
	case c.LargestShare <= 0 || c.LargestShare >= 1:
		return fmt.Errorf("%w: the largest tenant's share must be in (0, 1)", ErrConfig)
	case c.Dims < 2 || c.Dims > 2000:
		return fmt.Errorf("%w: dims must be 2..2000 (pgvector's HNSW limit)", ErrConfig)
	case c.Words < 2 || c.ChunksPerDoc < 1 || c.Queries < 1:
		return fmt.Errorf("%w: words ≥ 2, chunks per document ≥ 1, queries ≥ 1", ErrConfig)
	case c.Storage != "" && c.Storage != "plain" && c.Storage != "main" && c.Storage != "external" && c.Storage != "extended":
		return fmt.Errorf("%w: storage must be plain, main, external or extended", ErrConfig)
	case c.AdminURL == "" || c.AppURL == "" || c.MainAdminURL == "":
		return fmt.Errorf("%w: database URLs missing", ErrConfig)
	}
	for _, n := range c.Concurrency {
		if n < 1 || n > 256 {
			return fmt.Errorf("%w: concurrency must be 1..256", ErrConfig)
		}
	}
	return nil
}

// Class is one tenant size class's figures. Latencies in milliseconds.
type Class struct {
	Name string `json:"name"`
	// RowsFraction is the class's mean tenant size as a fraction of all rows.
	RowsFraction float64 `json:"rows_fraction"`
	// Hybrid search SQL time at concurrency 1 (Searcher.Search with a
	// precomputed query vector: the tenant transaction with both legs and
	// the fetch, and fusion).
	HybridP50 float64 `json:"hybrid_p50_ms"`
	HybridP95 float64 `json:"hybrid_p95_ms"`
	HybridP99 float64 `json:"hybrid_p99_ms"`
	// KeywordP95 is the keyword leg alone over the questions and the
	// common-term questions together; KeywordCommonP95 the latter only.
	KeywordP95       float64 `json:"keyword_p95_ms"`
	KeywordCommonP95 float64 `json:"keyword_common_p95_ms"`
	// VectorRecall is the vector leg's mean recall@20 against exact search.
	VectorRecall float64 `json:"vector_recall_at_20"`
	// ShortResults counts vector searches that returned fewer than
	// min(20, tenant rows) rows (must be 0).
	ShortResults int `json:"vector_short_results"`
	Tenants      int `json:"tenants"`
	Rows         int `json:"rows"`
	// VectorPath is the vector leg's strategy for the class's tenants.
	VectorPath string `json:"vector_path"`
	// CPUShare is the share of a core a busy loop got just before the
	// class was measured (the machine is shared).
	CPUShare     float64 `json:"cpu_share"`
	ReferenceP50 float64 `json:"reference_p50_ms"`
	ReferenceP95 float64 `json:"reference_p95_ms"`
	// Speedup is ReferenceP95 / HybridP95.
	Speedup float64 `json:"speedup_vs_reference"`
	// Latency holds every series: sql_c<N>, api_c<N>, api_embed_c<N>,
	// keyword, keyword_common, vector, reference.
	Latency map[string]Latency `json:"latency"`
	// Stages are the mean per-stage timings of the SQL runs (search.Response.Timings).
	Stages map[string]float64 `json:"stages_mean_ms"`
	// Real is the real-question workload.
	Real RealQuestions `json:"real_questions"`

	sqlSamples, refSamples []float64
}

// Machine describes where the run happened.
type Machine struct {
	CPUs     int    `json:"cpus"`
	CPUModel string `json:"cpu_model,omitempty"`
	MemoryGB int    `json:"memory_gb,omitempty"`
	Load     string `json:"load_average,omitempty"`
	// CPUShare is the share of one core a busy loop got at the start and
	// the end of the run (1 = an idle machine; the machine is shared).
	CPUShareStart float64 `json:"cpu_share_start"`
	CPUShareEnd   float64 `json:"cpu_share_end"`
	Postgres      string  `json:"postgres"`
	PGVector      string  `json:"pgvector"`
	Go            string  `json:"go"`
}

// Target is one of ragd's speed and memory targets at 1M chunks (targets
// lists them), as this run measured it.
type Target struct {
	Name   string  `json:"name"`
	Want   string  `json:"want"`
	Got    float64 `json:"got"`
	Unit   string  `json:"unit"`
	Met    bool    `json:"met"`
	Margin string  `json:"margin"`
}

// Report is a run's outcome. The first fields are the names other tools read.
type Report struct {
	Chunks  int     `json:"chunks"`
	Tenants int     `json:"tenants"`
	Classes []Class `json:"classes"`
	// ReferenceP95 is the reference query's p95 over every class's samples;
	// Speedup that over the hybrid SQL p95 over every class's samples.
	ReferenceP95 float64 `json:"reference_p95_ms"`
	Speedup      float64 `json:"speedup_vs_reference"`
	// IngestChunksPerS is the ingestion pipeline with the HTTP embedder that
	// adds 20 ms per request (the production settings).
	IngestChunksPerS float64 `json:"ingest_chunks_per_s"`
	// ServerRSSMB is this process's resident set after the latency runs: it
	// hosts the HTTP API, the searcher and the local model, as `ragd serve`
	// does (plus the benchmark's own questions, a few MB).
	ServerRSSMB float64 `json:"server_rss_mb"`

	ServerPeakRSSMB float64     `json:"server_peak_rss_mb"`
	PostgresPSSMB   float64     `json:"postgres_pss_mb,omitempty"`
	HybridP95       float64     `json:"hybrid_p95_ms"`
	ExactThreshold  int64       `json:"exact_threshold"`
	Dims            int         `json:"dims"`
	Model           string      `json:"model"`
	WordsPerChunk   int         `json:"words_per_chunk"`
	Concurrency     []int       `json:"concurrency"`
	Queries         int         `json:"queries_per_class"`
	Load            LoadStats   `json:"load"`
	Ingest          IngestStats `json:"ingest"`
	Sizes           Sizes       `json:"sizes"`
	Machine         Machine     `json:"machine"`
	Targets         []Target    `json:"targets"`
	Started         time.Time   `json:"started"`
	DurationS       float64     `json:"duration_s"`
	Command         string      `json:"command,omitempty"`
}

// runner is one run's state.
type runner struct {
	cfg          Config
	app, owner   *pgxpool.Pool
	model        model
	sizes        []int
	tenants      []tenantRef
	vocab        *vocabulary
	space        *space
	gen          *gen
	local        *embed.Local
	quiet        *slog.Logger
	logStartedAt time.Time
	schema       int64 // the bench database's migration version
}

func (r *runner) logf(format string, a ...any) {
	fmt.Fprintf(r.cfg.Log, "bench %6.1fs  %s\n", time.Since(r.logStartedAt).Seconds(), fmt.Sprintf(format, a...))
}

// Run generates (or reuses) the corpus in the bench database and measures it.
// Errors: ErrConfig, ErrNoExtension, store.ErrUnavailable, and the first
// failing query (a failed search fails the run rather than skew it).
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cfg.defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, logStartedAt: time.Now(),
		quiet: slog.New(slog.NewTextHandler(cfg.Log, &slog.HandlerOptions{Level: slog.LevelError}))}
	shareStart := cpuShare()
	rep := &Report{Chunks: cfg.Chunks, Tenants: cfg.Tenants, Dims: cfg.Dims, WordsPerChunk: cfg.Words,
		Concurrency: cfg.Concurrency, Queries: cfg.Queries, Started: time.Now().UTC(), ExactThreshold: cfg.ExactThreshold}
	if err := ensureDatabase(ctx, cfg.MainAdminURL, cfg.AdminURL, cfg.AppRole, cfg.Log); err != nil {
		return nil, err
	}
	var err error
	if r.owner, err = store.Open(ctx, cfg.AdminURL, store.Options{MaxConns: 4, Logger: r.quiet}); err != nil {
		return nil, err
	}
	defer r.owner.Close()
	if r.app, err = store.Open(ctx, cfg.AppURL, store.Options{MaxConns: int32(max(10, 2*maxInt(cfg.Concurrency))), Logger: r.quiet}); err != nil {
		return nil, err
	}
	defer r.app.Close()
	if err := store.CheckAppRole(ctx, r.app); err != nil {
		return nil, fmt.Errorf("bench: the application URL must use the application role: %w", err)
	}
	v, err := migrate.Check(ctx, r.owner)
	if err != nil {
		return nil, fmt.Errorf("bench: schema version: %w", err)
	}
	r.schema = v.Database
	if r.model, err = ensureModel(ctx, r.owner, cfg.Dims); err != nil {
		return nil, err
	}
	rep.Model = r.model.name
	if cfg.ModelDir != "" {
		if r.local, err = embed.NewLocal(cfg.ModelDir); err != nil {
			r.logf("local model unavailable (%v): API time with embedding and local ingestion are skipped", err)
			r.local = nil
		}
	}

	r.sizes = tenantSizes(cfg.Chunks, cfg.Tenants, cfg.LargestShare)
	r.vocab = newVocabulary(vocabularySize, cfg.Seed)
	r.space = newSpace(cfg.Dims, r.sizes, cfg.Seed)
	r.gen = &gen{v: r.vocab, s: r.space, words: cfg.Words}

	reused := false
	if !cfg.Fresh {
		if reused, err = r.reuse(ctx); err != nil {
			return nil, err
		}
	}
	if reused {
		r.logf("corpus: reusing %d chunks in %d tenants (--fresh reloads it)", cfg.Chunks, cfg.Tenants)
		rep.Load = LoadStats{Reused: true}
		// A corpus loaded by an older schema may lack its dedicated indexes.
		if err := r.buildIndexes(ctx, &rep.Load); err != nil {
			return nil, err
		}
	} else {
		r.logf("corpus: loading %d chunks (%d dims, ~%d words) in %d tenants, the largest %d chunks, the smallest %d",
			cfg.Chunks, cfg.Dims, cfg.Words, cfg.Tenants, r.sizes[0], r.sizes[len(r.sizes)-1])
		if rep.Load, err = r.load(ctx); err != nil {
			return nil, err
		}
	}

	classes := pickClasses(r.sizes)
	emb := &fixedEmbedder{name: r.model.name, dims: r.model.dims, vecs: map[string][]float32{}}
	r.makeQueries(classes, emb)
	m, err := r.newMeasurer(ctx, classes, emb)
	if err != nil {
		return nil, err
	}
	defer m.close()
	var sqlAll, refAll []float64
	for _, c := range classes {
		cl, err := m.measureClass(ctx, c)
		if err != nil {
			return nil, fmt.Errorf("bench: class %s: %w", c.name, err)
		}
		r.logf("class %-5s (%d tenants, %d rows, %s): hybrid p50/p95 %.1f/%.1f ms, keyword p95 %.1f ms, recall@20 %.3f, reference p95 %.1f ms",
			cl.Name, cl.Tenants, cl.Rows, cl.VectorPath, cl.HybridP50, cl.HybridP95, cl.KeywordP95, cl.VectorRecall, cl.ReferenceP95)
		sqlAll = append(sqlAll, cl.sqlSamples...)
		refAll = append(refAll, cl.refSamples...)
		rep.Classes = append(rep.Classes, cl)
	}
	rep.HybridP95 = summarize(sqlAll, 0).P95
	rep.ReferenceP95 = summarize(refAll, 0).P95
	if rep.HybridP95 > 0 {
		rep.Speedup = rep.ReferenceP95 / rep.HybridP95
	}
	rep.ServerRSSMB, _ = processRSS()
	rep.PostgresPSSMB = postgresPSS()

	if cfg.IngestChunks > 0 {
		if rep.Ingest, err = r.measureIngest(ctx); err != nil {
			return nil, err
		}
		rep.IngestChunksPerS = rep.Ingest.HTTPChunksPerS
	}
	_, rep.ServerPeakRSSMB = processRSS()
	if rep.Sizes, err = sizes(ctx, r.owner); err != nil {
		return nil, err
	}
	rep.Machine = machine()
	rep.Machine.CPUShareStart, rep.Machine.CPUShareEnd = shareStart, cpuShare()
	if rep.Machine.Postgres, rep.Machine.PGVector, err = store.ServerVersions(ctx, r.owner); err != nil {
		return nil, err
	}
	rep.Targets = targets(rep)
	rep.DurationS = time.Since(r.logStartedAt).Seconds()
	return rep, nil
}

func maxInt(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// cpuShare spins one goroutine, locked to its thread, for 300 ms of wall
// time and returns the thread's CPU time over that wall time.
func cpuShare() float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var before, after unix.Rusage
	if unix.Getrusage(unix.RUSAGE_THREAD, &before) != nil {
		return 0
	}
	start := time.Now()
	x := 0
	for time.Since(start) < 300*time.Millisecond {
		for i := range 10000 {
			x += i
		}
	}
	wall := time.Since(start)
	if unix.Getrusage(unix.RUSAGE_THREAD, &after) != nil || x == 0 {
		return 0
	}
	cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
	return min(1, cpu.Seconds()/wall.Seconds())
}

// machine reads the CPU and memory description from /proc (Linux).
func machine() Machine {
	m := Machine{CPUs: runtime.NumCPU(), Go: runtime.Version()}
	if raw, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(raw), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPUModel = strings.TrimSpace(v)
				break
			}
		}
	}
	if raw, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int
		if _, err := fmt.Sscanf(string(raw), "MemTotal: %d kB", &kb); err == nil {
			m.MemoryGB = (kb + 1<<19) >> 20
		}
	}
	if raw, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(raw)); len(f) >= 3 {
			m.Load = strings.Join(f[:3], " ")
		}
	}
	return m
}

// targets compares the run with ragd's targets, stated for 1M chunks on the
// 2-core bench machine (a smaller run only indicates): hybrid SQL p95 ≤ 15 ms
// and vector recall@20 ≥ 0.95 in every size class, ≥ 50× the reference
// query's p95, keyword p95 on common terms ≤ 20 ms in the largest class, and
// the server's RSS ≤ 300 MB.
func targets(rep *Report) []Target {
	var out []Target
	add := func(name, want, unit string, got float64, met bool, margin string) {
		out = append(out, Target{Name: name, Want: want, Got: got, Unit: unit, Met: met, Margin: margin})
	}
	pct := func(got, limit float64) string {
		if limit == 0 {
			return ""
		}
		return fmt.Sprintf("%+.0f%%", 100*(got-limit)/limit)
	}
	if len(rep.Classes) > 0 {
		worst, worstName := 0.0, ""
		minRecall, minName := 2.0, ""
		for _, c := range rep.Classes {
			if c.HybridP95 > worst {
				worst, worstName = c.HybridP95, c.Name
			}
			if c.VectorRecall < minRecall {
				minRecall, minName = c.VectorRecall, c.Name
			}
		}
		add("hybrid SQL p95, worst class ("+worstName+")", "≤ 15 ms", "ms", worst, worst <= 15, pct(worst, 15))
		add("vector recall@20, worst class ("+minName+")", "≥ 0.95", "", minRecall, minRecall >= 0.95, fmt.Sprintf("%+.3f", minRecall-0.95))
		add("speedup over the reference query (p95, all classes)", "≥ 50×", "×", rep.Speedup, rep.Speedup >= 50, pct(rep.Speedup, 50))
		classes := append([]Class(nil), rep.Classes...)
		sort.Slice(classes, func(i, j int) bool { return classes[i].Rows > classes[j].Rows })
		big := classes[0]
		add("keyword p95, common terms, largest class ("+big.Name+")", "≤ 20 ms", "ms", big.KeywordCommonP95, big.KeywordCommonP95 <= 20, pct(big.KeywordCommonP95, 20))
	}
	add("server RSS", "≤ 300 MB", "MB", rep.ServerRSSMB, rep.ServerRSSMB <= 300, pct(rep.ServerRSSMB, 300))
	if rep.Ingest.LocalPassagesPerS > 0 {
		add("local model", "≥ 40 passages/s", "passages/s", rep.Ingest.LocalPassagesPerS, rep.Ingest.LocalPassagesPerS >= 40, pct(rep.Ingest.LocalPassagesPerS, 40))
	}
	if rep.Ingest.HTTPChunksPerS > 0 {
		add("ingestion, HTTP embedder +20 ms", "≥ 300 chunks/s", "chunks/s", rep.Ingest.HTTPChunksPerS, rep.Ingest.HTTPChunksPerS >= 300, pct(rep.Ingest.HTTPChunksPerS, 300))
	}
	return out
}
