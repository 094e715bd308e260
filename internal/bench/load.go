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
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"
	"golang.org/x/sync/errgroup"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/vindex"
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
	// The statistics of a tenant loaded with the insert trigger disabled, set
	// based: the same rows chunks_index_insert (db/migrations/00001_init.sql)
	// would have written, except that every posting's impact uses the
	// tenant's final average length (the trigger uses the average at the
	// time of each insert; impact only orders candidates). dl is computed
	// once per chunk (OFFSET 0 keeps the planner from inlining it per
	// posting).
	statsTenantSQL = `INSERT INTO tenant_stats (tenant_id, chunk_count, token_count)
SELECT $1::uuid, count(*), coalesce(sum(tsv_length(tsv)), 0) FROM chunks WHERE tenant_id = $1::uuid`
	statsTermsSQL = `INSERT INTO term_stats (tenant_id, lexeme, df)
SELECT $1::uuid, u.lexeme, count(*) FROM chunks c, unnest(c.tsv) u WHERE c.tenant_id = $1::uuid GROUP BY u.lexeme`
	statsPostingsSQL = `INSERT INTO postings (tenant_id, lexeme, chunk_id, tf, dl, impact)
SELECT c.tenant_id, u.lexeme, c.id, cardinality(u.positions), d.dl,
       cardinality(u.positions)::real /
       (cardinality(u.positions) + 1.2 * (0.25 + 0.75 * d.dl / greatest(s.token_count::real / greatest(s.chunk_count, 1), 1)))
FROM chunks c
CROSS JOIN LATERAL (SELECT greatest(tsv_length(c.tsv), 1) AS dl OFFSET 0) d
JOIN tenant_stats s ON s.tenant_id = c.tenant_id
CROSS JOIN LATERAL unnest(c.tsv) u
WHERE c.tenant_id = $1::uuid`
	// Generic plans for the per-row foreign-key checks of a bulk insert:
	// under the role's force_custom_plan each check is planned again
	// (measured: see docs/BENCHMARKS.md).
	autoPlansSQL = "SELECT set_config('plan_cache_mode', 'auto', true)"
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

// postingsDDL restores what a load drops from postings, in order.
var postingsDDL = []string{
	"ALTER TABLE postings ADD CONSTRAINT postings_pkey PRIMARY KEY (tenant_id, lexeme, chunk_id) INCLUDE (tf, dl)",
	"CREATE INDEX postings_impact ON postings (tenant_id, lexeme, impact DESC) INCLUDE (chunk_id, tf, dl)",
	"ALTER TABLE postings ADD CONSTRAINT postings_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE",
}

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
	if err := setMarker(ctx, r.owner, ""); err != nil {
		return st, err
	}
	if err := r.restoreSchema(ctx); err != nil {
		return st, err
	}
	if err := dropVectorIndexes(ctx, r.owner); err != nil {
		return st, err
	}
	for _, sql := range []string{
		`TRUNCATE tenants, documents, chunks, chunk_embeddings, tenant_stats, term_stats, postings, eval_sets, eval_questions, eval_runs CASCADE`,
		"ALTER TABLE postings DROP CONSTRAINT postings_tenant_id_fkey",
		"DROP INDEX postings_impact",
		"ALTER TABLE postings DROP CONSTRAINT postings_pkey",
		"ALTER TABLE chunks DISABLE TRIGGER chunks_index_insert",
	} {
		if _, err := r.owner.Exec(ctx, sql); err != nil {
			return st, fmt.Errorf("bench: prepare the load (%s): %w", sql, err)
		}
	}
	// The column's storage as migrated; an experiment's storage applies to
	// the rows this load writes and the attribute is put back afterwards.
	var storage string
	if err := r.owner.QueryRow(ctx, `SELECT CASE attstorage WHEN 'p' THEN 'plain' WHEN 'm' THEN 'main' WHEN 'e' THEN 'external' ELSE 'extended' END
		FROM pg_attribute WHERE attrelid = 'chunk_embeddings'::regclass AND attname = 'embedding'`).Scan(&storage); err != nil {
		return st, err
	}
	st.Storage = storage
	if r.cfg.Storage != "" && r.cfg.Storage != storage {
		if _, err := r.owner.Exec(ctx, "ALTER TABLE chunk_embeddings ALTER COLUMN embedding SET STORAGE "+r.cfg.Storage); err != nil {
			return st, err
		}
		st.Storage = r.cfg.Storage
		defer r.owner.Exec(context.WithoutCancel(ctx), "ALTER TABLE chunk_embeddings ALTER COLUMN embedding SET STORAGE "+storage) //nolint:errcheck // reported by the next load's read
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
	if err := r.restoreSchema(ctx); err != nil {
		return st, err
	}
	st.PostingsS = time.Since(start).Seconds()
	if err := r.owner.QueryRow(ctx, "SELECT reltuples::bigint FROM pg_class WHERE relname = 'postings'").Scan(&st.Postings); err != nil {
		return st, err
	}
	r.logf("load: postings indexes and foreign key in %.1f s", st.PostingsS)

	if err := r.buildIndexes(ctx, &st); err != nil {
		return st, err
	}

	start = time.Now()
	if _, err := r.owner.Exec(ctx, "VACUUM (ANALYZE) tenants, documents, chunks, chunk_embeddings, tenant_stats, term_stats, postings"); err != nil {
		return st, fmt.Errorf("bench: vacuum: %w", err)
	}
	st.VacuumS = time.Since(start).Seconds()
	r.logf("load: VACUUM ANALYZE in %.1f s", st.VacuumS)
	if err := r.checkConsistency(ctx); err != nil {
		return st, err
	}
	return st, setMarker(ctx, r.owner, r.fingerprint())
}

// restoreSchema puts back what a load drops (after it, or after a failed
// one): the postings' keys and index, the insert trigger. The HNSW index is
// rebuilt separately.
func (r *runner) restoreSchema(ctx context.Context) error {
	var have []string
	rows, err := r.owner.Query(ctx, `SELECT conname FROM pg_constraint WHERE conrelid = 'postings'::regclass
		UNION ALL SELECT indexname FROM pg_indexes WHERE tablename = 'postings'`)
	if err != nil {
		return err
	}
	if have, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return err
	}
	present := map[string]bool{}
	for _, n := range have {
		present[n] = true
	}
	for i, name := range []string{"postings_pkey", "postings_impact", "postings_tenant_id_fkey"} {
		if !present[name] {
			if _, err := r.owner.Exec(ctx, postingsDDL[i]); err != nil {
				return fmt.Errorf("bench: restore %s: %w", name, err)
			}
		}
	}
	_, err = r.owner.Exec(ctx, "ALTER TABLE chunks ENABLE TRIGGER chunks_index_insert")
	return err
}

// tenantStats writes tenant t's BM25 statistics and postings.
func (r *runner) tenantStats(ctx context.Context, t int) error {
	id := r.tenants[t].id
	return store.InTenant(ctx, r.app, id, func(tx pgx.Tx) error {
		for _, sql := range []string{autoPlansSQL, statsTenantSQL, statsTermsSQL, statsPostingsSQL} {
			args := []any{id}
			if sql == autoPlansSQL {
				args = nil
			}
			if _, err := tx.Exec(ctx, sql, args...); err != nil {
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
	checks := []string{
		`SELECT (SELECT coalesce(max(chunk_count), 0) FROM tenant_stats) = (SELECT count(*) FROM chunks)`,
		`SELECT (SELECT coalesce(max(token_count), 0) FROM tenant_stats) = (SELECT coalesce(sum(tsv_length(tsv)), 0) FROM chunks)`,
		`SELECT (SELECT count(*) FROM postings) = (SELECT coalesce(sum(length(tsv)), 0) FROM chunks)`,
		`SELECT NOT EXISTS (SELECT 1 FROM term_stats t FULL JOIN (SELECT lexeme, count(*) c FROM postings GROUP BY lexeme) p USING (lexeme) WHERE t.df IS DISTINCT FROM p.c)`,
		`SELECT (SELECT count(*) FROM chunk_embeddings) = (SELECT count(*) FROM chunks)`,
	}
	for _, t := range []int{len(r.tenants) - 1, len(r.tenants) / 2} {
		err := store.InTenant(ctx, r.app, r.tenants[t].id, func(tx pgx.Tx) error {
			for _, sql := range checks {
				var ok bool
				if err := tx.QueryRow(ctx, sql).Scan(&ok); err != nil {
					return err
				}
				if !ok {
					return fmt.Errorf("inconsistent statistics: %s", sql)
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

// dropVectorIndexes drops every dedicated HNSW index (a load rebuilds them).
func dropVectorIndexes(ctx context.Context, owner *pgxpool.Pool) error {
	_, err := owner.Exec(ctx, `DO $$
DECLARE r record;
BEGIN
    FOR r IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
             WHERE i.indrelid = 'chunk_embeddings'::regclass AND c.relam = (SELECT oid FROM pg_am WHERE amname = 'hnsw') LOOP
        EXECUTE format('DROP INDEX %I', r.relname);
    END LOOP;
END $$`)
	return err
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

// fingerprint names the corpus a Config generates on a schema version (a
// migration may change how rows are stored or indexed, so a corpus loaded
// under an older schema is loaded again).
func (r *runner) fingerprint() string {
	c := r.cfg
	return fmt.Sprintf("ragd-bench %s schema=%d chunks=%d tenants=%d dims=%d words=%d per-doc=%d seed=%d storage=%s",
		generatorVersion, r.schema, c.Chunks, c.Tenants, c.Dims, c.Words, c.ChunksPerDoc, c.Seed, c.Storage)
}
