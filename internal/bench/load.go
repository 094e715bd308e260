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
)

// The loader's SQL. It is the one place outside sqlc where ragd data is
// written, and only into the dedicated bench database: one statement per
// table for a whole batch of documents (store.InsertChunks takes one
// document per statement), inside the tenant's transaction so row-level
// security checks every row and the statement-level triggers build the
// postings and BM25 statistics exactly as ingestion does. COPY is refused
// under row-level security.
const (
	loadDocumentsSQL = `INSERT INTO documents (tenant_id, id, source_uri, title, content_type, content_sha, pipeline, body, chunk_count)
SELECT $1::uuid, unnest($2::uuid[]), unnest($3::text[]), unnest($4::text[]), 'text/plain', unnest($5::bytea[]), 'bench', unnest($6::text[]), unnest($7::int[])`
	loadChunksSQL = `INSERT INTO chunks (tenant_id, id, document_id, chunk_index, heading_path, content, token_count, start_offset, end_offset, ts_config)
SELECT $1::uuid, unnest($2::uuid[]), unnest($3::uuid[]), unnest($4::int[]), unnest($5::text[]), unnest($6::text[]), unnest($7::int[]),
       unnest($8::int[]), unnest($9::int[]), 'english'`
	loadEmbeddingsSQL = `INSERT INTO chunk_embeddings (tenant_id, chunk_id, model_id, text_sha, embedding)
SELECT $1::uuid, unnest($2::uuid[]), $3::smallint, unnest($4::bytea[]), unnest($5::vector[])`
	// Generic plans for the per-row foreign-key checks of a bulk insert:
	// under the role's force_custom_plan each check is planned again
	// (measured: see docs/BENCHMARKS.md).
	autoPlansSQL = "SELECT set_config('plan_cache_mode', 'auto', true)"
)

// LoadStats describes a corpus load.
type LoadStats struct {
	Reused bool `json:"reused"`
	// Seconds for the rows (with their postings and statistics, built by the
	// triggers), the HNSW build, and VACUUM ANALYZE.
	RowsS       float64 `json:"rows_s"`
	IndexS      float64 `json:"index_s"`
	VacuumS     float64 `json:"vacuum_s"`
	ChunksPerS  float64 `json:"chunks_per_s"` // rows only
	Workers     int     `json:"workers"`
	IndexMemory string  `json:"maintenance_work_mem"`
}

// tenantRef is a corpus tenant.
type tenantRef struct {
	slug string
	id   uuid.UUID
	rows int
}

func tenantSlug(i int) string { return fmt.Sprintf("bench-%04d", i+1) }

// load empties the bench database and loads the corpus: tenants, then rows
// per tenant in batches (workers in parallel, one tenant per worker at a
// time so no two writers contend for one tenant's statistics), then the HNSW
// index in one build, then VACUUM ANALYZE.
func (r *runner) load(ctx context.Context) (LoadStats, error) {
	st := LoadStats{Workers: r.cfg.LoadWorkers}
	if err := setMarker(ctx, r.owner, ""); err != nil {
		return st, err
	}
	if _, err := r.owner.Exec(ctx, `TRUNCATE tenants, documents, chunks, chunk_embeddings, tenant_stats, term_stats, postings,
		eval_sets, eval_questions, eval_runs CASCADE`); err != nil {
		return st, fmt.Errorf("bench: empty the bench database: %w", err)
	}
	// The HNSW graph is built once after the load: inserting into it row by
	// row costs several times more.
	if _, err := r.owner.Exec(ctx, "DROP INDEX IF EXISTS "+pgx.Identifier{r.model.index}.Sanitize()); err != nil {
		return st, err
	}
	rows, err := r.owner.Query(ctx, `INSERT INTO tenants (slug, name)
		SELECT format('bench-%s', lpad(i::text, 4, '0')), $1 FROM generate_series(1, $2::int) i RETURNING id, slug`,
		"ragd bench corpus", len(r.sizes))
	if err != nil {
		return st, fmt.Errorf("bench: create tenants: %w", err)
	}
	ids := map[string]uuid.UUID{}
	for rows.Next() {
		var id uuid.UUID
		var slug string
		if err := rows.Scan(&id, &slug); err != nil {
			rows.Close()
			return st, err
		}
		ids[slug] = id
	}
	if err := rows.Err(); err != nil {
		return st, err
	}
	r.tenants = make([]tenantRef, len(r.sizes))
	for i, n := range r.sizes {
		r.tenants[i] = tenantRef{slug: tenantSlug(i), id: ids[tenantSlug(i)], rows: n}
	}

	start := time.Now()
	var done atomic.Int64
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
					if time.Since(lastReport) > 10*time.Second {
						lastReport = time.Now()
						r.logf("load: %d/%d chunks (%.0f chunks/s)", total, r.cfg.Chunks, float64(total)/time.Since(start).Seconds())
					}
				}); err != nil {
					return fmt.Errorf("bench: load %s: %w", r.tenants[t].slug, err)
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return st, err
	}
	st.RowsS = time.Since(start).Seconds()
	st.ChunksPerS = float64(r.cfg.Chunks) / st.RowsS
	r.logf("load: %d chunks in %.1f s (%.0f chunks/s)", r.cfg.Chunks, st.RowsS, st.ChunksPerS)

	start = time.Now()
	st.IndexMemory = r.indexMemory()
	if err := r.buildIndex(ctx, st.IndexMemory); err != nil {
		return st, err
	}
	st.IndexS = time.Since(start).Seconds()
	r.logf("load: HNSW index built in %.1f s (maintenance_work_mem %s)", st.IndexS, st.IndexMemory)

	start = time.Now()
	if _, err := r.owner.Exec(ctx, "VACUUM (ANALYZE) tenants, documents, chunks, chunk_embeddings, tenant_stats, term_stats, postings"); err != nil {
		return st, fmt.Errorf("bench: vacuum: %w", err)
	}
	st.VacuumS = time.Since(start).Seconds()
	r.logf("load: VACUUM ANALYZE in %.1f s", st.VacuumS)
	return st, setMarker(ctx, r.owner, r.fingerprint())
}

// indexMemory sizes maintenance_work_mem for an in-memory HNSW build: about
// the vectors plus the graph's neighbour lists (m = 16), with a margin;
// at least 64 MB, at most Config.MaxIndexMemoryMB.
func (r *runner) indexMemory() string {
	perRow := float64(r.model.dims*4 + 8 + 2*16*10 + 16*10 + 64)
	mb := int(1.3 * perRow * float64(r.cfg.Chunks) / (1 << 20))
	return fmt.Sprintf("%dMB", min(r.cfg.MaxIndexMemoryMB, max(64, mb)))
}

func (r *runner) buildIndex(ctx context.Context, mem string) error {
	conn, err := r.owner.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // no-op after commit
	// Leader + one worker: two processes for two cores.
	for _, sql := range []string{"SET LOCAL maintenance_work_mem = '" + mem + "'", "SET LOCAL max_parallel_maintenance_workers = 1", r.model.ddl} {
		if _, err := tx.Exec(ctx, sql); err != nil {
			return fmt.Errorf("bench: build index: %w", err)
		}
	}
	return tx.Commit(ctx)
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
			if _, err := tx.Exec(ctx, autoPlansSQL); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, loadDocumentsSQL, tn.id, docIDs, uris, titles, docShas, bodies, docCounts); err != nil {
				return fmt.Errorf("documents: %w", err)
			}
			if _, err := tx.Exec(ctx, loadChunksSQL, tn.id, chunkIDs, chunkDocs, indexes, headings, contents, tokens, starts, ends); err != nil {
				return fmt.Errorf("chunks: %w", err)
			}
			if _, err := tx.Exec(ctx, loadEmbeddingsSQL, tn.id, chunkIDs, r.model.id, chunkShas, vectors); err != nil {
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
	m, err := marker(ctx, r.owner)
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

// fingerprint names the corpus a Config generates.
func (r *runner) fingerprint() string {
	c := r.cfg
	return fmt.Sprintf("ragd-bench %s chunks=%d tenants=%d dims=%d words=%d per-doc=%d seed=%d",
		generatorVersion, c.Chunks, c.Tenants, c.Dims, c.Words, c.ChunksPerDoc, c.Seed)
}
