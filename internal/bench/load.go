package bench

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"
	"golang.org/x/sync/errgroup"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/vindex"
)

// LoadStats describes a corpus load.
type LoadStats struct {
	Reused bool `json:"reused"`
	// Seconds for the rows (documents, chunks, embeddings), the keyword
	// statistics and postings (set-based, per tenant), the postings indexes,
	// the dedicated HNSW indexes' builds, and VACUUM ANALYZE.
	RowsS     float64 `json:"rows_s"`
	StatsS    float64 `json:"stats_s"`
	PostingsS float64 `json:"postings_indexes_s"`
	IndexS    float64 `json:"index_s"`
	// Indexes is the number of dedicated HNSW indexes built.
	Indexes    int     `json:"indexes"`
	VacuumS    float64 `json:"vacuum_s"`
	ChunksPerS float64 `json:"chunks_per_s"` // rows and statistics
	Postings   int64   `json:"postings"`
	// Storage of the embedding column the rows were written with.
	Storage string `json:"embedding_storage"`
	Workers int    `json:"workers"`
}

// tenantRef is a corpus tenant.
type tenantRef struct {
	slug string
	id   uuid.UUID
	rows int
}

func tenantSlug(i int) string { return fmt.Sprintf("bench-%04d", i+1) }

// load empties the bench database and loads the corpus, the way a bulk load
// should: indexes that are cheaper to build than to maintain are dropped
// (the model's HNSW index, the postings' two btrees and foreign key) and
// the chunks' insert trigger is disabled; then, per tenant and in parallel
// (one tenant per worker at a time), the rows are written in batches and
// the tenant's keyword statistics and postings are computed in three
// set-based statements; then the indexes are rebuilt, the trigger enabled,
// and VACUUM ANALYZE run. A failed load leaves no marker, so the next run
// loads again (and first restores whatever this one dropped).
func (r *runner) load(ctx context.Context) (LoadStats, error) {
	st := LoadStats{Workers: r.cfg.LoadWorkers}
	if err := store.SetBenchCorpusMarker(ctx, r.owner, ""); err != nil {
		return st, err
	}
	if err := store.RestoreBenchSchema(ctx, r.owner); err != nil {
		return st, err
	}
	if err := store.DropAllVectorIndexes(ctx, r.owner); err != nil {
		return st, err
	}
	if err := store.PrepareBenchLoad(ctx, r.owner); err != nil {
		return st, fmt.Errorf("bench: %w", err)
	}
	// The column's storage as migrated; an experiment's storage applies to
	// the rows this load writes and the attribute is put back afterwards.
	storage, err := store.EmbeddingStorage(ctx, r.owner)
	if err != nil {
		return st, err
	}
	st.Storage = storage
	if r.cfg.Storage != "" && r.cfg.Storage != storage {
		if err := store.SetEmbeddingStorage(ctx, r.owner, r.cfg.Storage); err != nil {
			return st, err
		}
		st.Storage = r.cfg.Storage
		defer store.SetEmbeddingStorage(context.WithoutCancel(ctx), r.owner, storage) //nolint:errcheck // reported by the next load's read
	}
	created, err := store.New().BenchCreateTenants(ctx, r.owner, store.BenchCreateTenantsParams{Name: "ragd bench corpus", Tenants: int32(len(r.sizes))})
	if err != nil {
		return st, fmt.Errorf("bench: create tenants: %w", err)
	}
	ids := map[string]uuid.UUID{}
	for _, row := range created {
		ids[row.Slug] = row.ID
	}
	r.tenants = make([]tenantRef, len(r.sizes))
	for i, n := range r.sizes {
		r.tenants[i] = tenantRef{slug: tenantSlug(i), id: ids[tenantSlug(i)], rows: n}
	}

	start := time.Now()
	var done atomic.Int64
	var statsNS atomic.Int64
	var mu sync.Mutex
	lastReport := time.Now()
	g, gctx := errgroup.WithContext(ctx)
	next := make(chan int)
	g.Go(func() error {
		defer close(next)
		for t := range r.tenants { // largest first: the long jobs start early
			select {
			case next <- t:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	for range r.cfg.LoadWorkers {
		g.Go(func() error {
			for t := range next {
				if err := r.loadTenant(gctx, t, func(n int) {
					total := done.Add(int64(n))
					mu.Lock()
					defer mu.Unlock()
					if time.Since(lastReport) > 15*time.Second {
						lastReport = time.Now()
						r.logf("load: %d/%d chunks (%.0f chunks/s)", total, r.cfg.Chunks, float64(total)/time.Since(start).Seconds())
					}
				}); err != nil {
					return fmt.Errorf("bench: load %s: %w", r.tenants[t].slug, err)
				}
				t0 := time.Now()
				if err := r.tenantStats(gctx, t); err != nil {
					return fmt.Errorf("bench: statistics of %s: %w", r.tenants[t].slug, err)
				}
				statsNS.Add(int64(time.Since(t0)))
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return st, err
	}
	elapsed := time.Since(start).Seconds()
	st.StatsS = time.Duration(statsNS.Load()).Seconds() / float64(r.cfg.LoadWorkers)
	st.RowsS = elapsed - st.StatsS
	st.ChunksPerS = float64(r.cfg.Chunks) / elapsed
	r.logf("load: %d chunks with statistics in %.1f s (%.0f chunks/s; statistics ≈ %.1f s of it)", r.cfg.Chunks, elapsed, st.ChunksPerS, st.StatsS)

	start = time.Now()
	if err := store.RestoreBenchSchema(ctx, r.owner); err != nil {
		return st, fmt.Errorf("bench: %w", err)
	}
	st.PostingsS = time.Since(start).Seconds()
	if st.Postings, err = store.PostingsEstimate(ctx, r.owner); err != nil {
		return st, err
	}
	r.logf("load: postings indexes and foreign key in %.1f s", st.PostingsS)

	if err := r.buildIndexes(ctx, &st); err != nil {
		return st, err
	}

	start = time.Now()
	if err := store.VacuumAnalyzeCorpus(ctx, r.owner); err != nil {
		return st, fmt.Errorf("bench: vacuum: %w", err)
	}
	st.VacuumS = time.Since(start).Seconds()
	r.logf("load: VACUUM ANALYZE in %.1f s", st.VacuumS)
	if err := r.checkConsistency(ctx); err != nil {
		return st, err
	}
	return st, store.SetBenchCorpusMarker(ctx, r.owner, r.fingerprint())
}

// tenantStats writes tenant t's BM25 statistics and postings.
func (r *runner) tenantStats(ctx context.Context, t int) error {
	id := r.tenants[t].id
	return store.InTenant(ctx, r.app, id, func(tx pgx.Tx) error {
		q := store.New()
		if err := q.UseAutoPlans(ctx, tx); err != nil {
			return err
		}
		for _, step := range []func(context.Context, store.DBTX, uuid.UUID) error{q.BenchStatsTenant, q.BenchStatsTerms, q.BenchStatsPostings} {
			if err := step(ctx, tx, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// checkConsistency verifies, for the smallest tenant and the class
// tenants' neighbours, what ingestion's tests verify: the statistics equal
// what the chunks hold (the bulk path must build the same rows as the
// trigger).
func (r *runner) checkConsistency(ctx context.Context) error {
	for _, t := range []int{len(r.tenants) - 1, len(r.tenants) / 2} {
		err := store.InTenant(ctx, r.app, r.tenants[t].id, func(tx pgx.Tx) error {
			c, err := store.New().BenchCheckStatistics(ctx, tx)
			if err != nil {
				return err
			}
			for _, check := range []struct {
				ok   bool
				what string
			}{{c.ChunkCountOk, "tenant_stats.chunk_count"}, {c.TokenCountOk, "tenant_stats.token_count"}, {c.PostingsOk, "postings count"},
				{c.DfOk, "term_stats.df"}, {c.EmbeddingsOk, "embeddings count"}} {
				if !check.ok {
					return fmt.Errorf("inconsistent statistics: %s differs from the chunks", check.what)
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("bench: check %s: %w", r.tenants[t].slug, err)
		}
	}
	return nil
}

// buildIndexes builds the dedicated HNSW indexes of the tenants above the
// exact threshold, as `ragd tenant index` does, but without CONCURRENTLY (no
// writers during a load) and with Config.MaxIndexMemoryMB as the memory cap.
func (r *runner) buildIndexes(ctx context.Context, st *LoadStats) error {
	start := time.Now()
	changes, err := vindex.Ensure(ctx, r.owner, vindex.Options{Threshold: r.cfg.ExactThreshold, MaxMemoryMB: r.cfg.MaxIndexMemoryMB})
	if err != nil {
		return fmt.Errorf("bench: vector indexes: %w", err)
	}
	if len(changes) == 0 {
		return nil
	}
	st.IndexS += time.Since(start).Seconds()
	st.Indexes += len(changes)
	r.logf("load: %d dedicated HNSW indexes built in %.1f s", len(changes), time.Since(start).Seconds())
	return nil
}

// loadTenant writes tenant t's rows in batches of whole documents.
func (r *runner) loadTenant(ctx context.Context, t int, progress func(int)) error {
	tn := r.tenants[t]
	perDoc := r.cfg.ChunksPerDoc
	batch := max(perDoc, r.cfg.LoadBatch/perDoc*perDoc)
	for from := 0; from < tn.rows; from += batch {
		to := min(tn.rows, from+batch)
		rows := r.gen.chunks(r.cfg.Seed, t, from, to)
		var (
			docIDs, chunkIDs, chunkDocs        []uuid.UUID
			uris, titles, bodies               []string
			docShas, chunkShas                 [][]byte
			docCounts, indexes, tokens, starts []int32
			ends                               []int32
			headings, contents                 []string
			vectors                            []pgvector.Vector
		)
		for d := from; d < to; d += perDoc {
			id := uuid.Must(uuid.NewV7())
			var body strings.Builder
			n := min(to, d+perDoc) - d
			for i := d; i < d+n; i++ {
				c := rows[i-from]
				if i > d {
					body.WriteString("\n\n")
				}
				starts = append(starts, int32(body.Len()))
				body.WriteString(c.content)
				ends = append(ends, int32(body.Len()))
				chunkIDs = append(chunkIDs, uuid.Must(uuid.NewV7()))
				chunkDocs = append(chunkDocs, id)
				indexes = append(indexes, int32(i-d))
				headings = append(headings, rows[d-from].heading+" > "+c.heading)
				contents = append(contents, c.content)
				tokens = append(tokens, int32(c.tokens))
				chunkShas = append(chunkShas, c.sha)
				vectors = append(vectors, pgvector.NewVector(c.vector))
			}
			sum := sha256.Sum256([]byte(body.String()))
			docIDs = append(docIDs, id)
			uris = append(uris, fmt.Sprintf("bench://%s/doc/%d", tn.slug, d/perDoc))
			titles = append(titles, rows[d-from].heading)
			docShas = append(docShas, sum[:])
			bodies = append(bodies, body.String())
			docCounts = append(docCounts, int32(n))
		}
		err := store.InTenant(ctx, r.app, tn.id, func(tx pgx.Tx) error {
			q := store.New()
			if err := q.UseAutoPlans(ctx, tx); err != nil {
				return err
			}
			if err := q.BenchLoadDocuments(ctx, tx, store.BenchLoadDocumentsParams{TenantID: tn.id, Ids: docIDs, SourceUris: uris, Titles: titles,
				ContentShas: docShas, Bodies: bodies, ChunkCounts: docCounts}); err != nil {
				return fmt.Errorf("documents: %w", err)
			}
			if err := q.BenchLoadChunks(ctx, tx, store.BenchLoadChunksParams{TenantID: tn.id, Ids: chunkIDs, DocumentIds: chunkDocs, ChunkIndexes: indexes,
				HeadingPaths: headings, Contents: contents, TokenCounts: tokens, StartOffsets: starts, EndOffsets: ends}); err != nil {
				return fmt.Errorf("chunks: %w", err)
			}
			if err := q.BenchLoadEmbeddings(ctx, tx, store.BenchLoadEmbeddingsParams{TenantID: tn.id, ChunkIds: chunkIDs, ModelID: r.model.id,
				TextShas: chunkShas, Embeddings: vectors}); err != nil {
				return fmt.Errorf("embeddings: %w", err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		progress(to - from)
	}
	return nil
}

// reuse finds the corpus tenants of a previous load with this fingerprint.
func (r *runner) reuse(ctx context.Context) (bool, error) {
	m, err := store.BenchCorpusMarker(ctx, r.owner)
	if err != nil || m != r.fingerprint() {
		return false, err
	}
	rows, err := store.New().ListTenants(ctx, r.owner)
	if err != nil {
		return false, err
	}
	ids := map[string]uuid.UUID{}
	for _, t := range rows {
		ids[t.Slug] = t.ID
	}
	r.tenants = make([]tenantRef, len(r.sizes))
	for i, n := range r.sizes {
		id, ok := ids[tenantSlug(i)]
		if !ok {
			return false, nil
		}
		r.tenants[i] = tenantRef{slug: tenantSlug(i), id: id, rows: n}
	}
	return true, nil
}

// fingerprint names the corpus a Config generates on a schema version (a
// migration may change how rows are stored or indexed, so a corpus loaded
// under an older schema is loaded again).
func (r *runner) fingerprint() string {
	c := r.cfg
	return fmt.Sprintf("ragd-bench %s schema=%d chunks=%d tenants=%d dims=%d words=%d per-doc=%d seed=%d storage=%s",
		generatorVersion, r.schema, c.Chunks, c.Tenants, c.Dims, c.Words, c.ChunksPerDoc, c.Seed, c.Storage)
}
