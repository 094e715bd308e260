package search

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"
	pgxvec "github.com/pgvector/pgvector-go/pgx"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
	"github.com/ragd-dev/ragd/internal/vindex"
)

// TestDedicatedIndexIsWalked: for a tenant above the threshold with its
// dedicated index (built by vindex.Ensure, as `ragd tenant index` builds it),
// the production vector statement is planned on that index whatever the
// statistics say, and returns its nearest rows.
func TestDedicatedIndexIsWalked(t *testing.T) {
	ctx := context.Background()
	owner, app := testdb.Owner(t), testdb.App(t)
	tt := testdb.NewTenant(t, "vindex-walk", "")
	name := vindex.Name(tt.ID, 1)
	t.Cleanup(func() {
		if err := vindex.DropTenant(context.WithoutCancel(ctx), owner, tt.ID); err != nil {
			t.Errorf("drop indexes: %v", err)
		}
	})
	testdb.FillVectors(t, tt.ID, 120)
	done, err := vindex.Ensure(ctx, owner, vindex.Options{Threshold: 100, Tenant: tt.ID, Concurrently: true})
	if err != nil || len(done) != 1 || done[0].Index != name {
		t.Fatalf("index run: %+v, %v; want %s built", done, err, name)
	}
	// The production vector SQL uses it, and finds what an exact scan finds.
	tn, err := tenant.Load(ctx, app, tt.ID)
	if err != nil {
		t.Fatal(err)
	}
	// The plan must not depend on the statistics: planned on whatever the
	// table has now, on fresh ones (without setupSQL's enable_sort = off a
	// fresh ANALYZE made it a sequential scan and a sort for this 120-row
	// tenant when the table held little else), and under cost settings by
	// which reading and sorting the tenant's rows is free, the cheapest any
	// statistics could make that plan (without enable_sort = off that
	// state always picks the scan and sort).
	q := randomQuery(1)
	if plan := explainVector(t, app, tt.ID, q, 20, 1); !walks(plan, name) {
		t.Errorf("the vector query does not walk %s:\n%s", name, plan)
	}
	if _, err := owner.Exec(ctx, "ANALYZE chunk_embeddings"); err != nil {
		t.Fatal(err)
	}
	if plan := explainVector(t, app, tt.ID, q, 20, 1); !walks(plan, name) {
		t.Errorf("after ANALYZE chunk_embeddings, the vector query does not walk %s:\n%s", name, plan)
	}
	freeScans := []string{"SET LOCAL seq_page_cost = 0", "SET LOCAL cpu_tuple_cost = 0",
		"SET LOCAL cpu_operator_cost = 0", "SET LOCAL cpu_index_tuple_cost = 0"}
	if plan := explainVector(t, app, tt.ID, q, 20, 1, freeScans...); !walks(plan, name) {
		t.Errorf("with scans and sorts costed at 0, the vector query does not walk %s:\n%s", name, plan)
	}
	got, want := searchAboveThreshold(t, app, tn, q)
	if len(got) != 20 || recallAt(got, want) < 0.95 {
		t.Errorf("HNSW path: %d results, recall@20 %.2f against exact; want 20 and ≥ 0.95", len(got), recallAt(got, want))
	}
	// In the production batch (both legs, the keyword statements on generic
	// plans) the walk still takes the index: its settings switch back to
	// custom plans. On a generic plan it would not (the control), since only
	// a plan with the tenant id as a constant proves the index's predicate.
	if n := indexScansInBatch(t, app, tn, q, name, false); n < 1 {
		t.Errorf("production retrieval batch: %d scans of %s, want at least 1", n, name)
	}
	if n := indexScansInBatch(t, app, tn, q, name, true); n != 0 {
		t.Errorf("control, the walk forced onto a generic plan: %d scans of %s, want 0 (else this test cannot tell)", n, name)
	}
}

// indexScansInBatch sends the retrieval batch queueRetrieval builds for tn
// (both legs; ExactThreshold 100, so the walk) as Search sends it, and
// returns how many scans of index the transaction made. genericWalk forces
// the walk onto a generic plan (the control).
func indexScansInBatch(t *testing.T, app *pgxpool.Pool, tn tenant.Tenant, q []float32, index string, genericWalk bool) int64 {
	t.Helper()
	s := &Searcher{Embedder: fixedDims{&scaleEmbedder{}, 512}, ModelID: 1, ExactThreshold: 100, PerTermLimit: 150}
	lq := legQuery{model: VectorModel{ID: 1, Embedder: s.Embedder}, tenantID: tn.ID, chunkCount: tn.ChunkCount, vector: q, vectorN: 20,
		keywordText: "vacuum analyze", tsConfig: "english", n: 20, k1: 0.9, b: 0.4, metadata: []byte("{}")}
	b := &pgx.Batch{}
	if err := s.queueRetrieval(b, lq, &legResults{}); err != nil {
		t.Fatal(err)
	}
	// The backend's scan counter, read right before and right after the
	// walk (it also holds scans of earlier transactions not yet reported).
	const scansSQL = "SELECT pg_stat_get_xact_numscans($1::regclass)"
	var before, after int64
	walk := b.QueuedQueries[len(b.QueuedQueries)-1]
	b.QueuedQueries = b.QueuedQueries[:len(b.QueuedQueries)-1]
	if genericWalk {
		b.Queue("SELECT set_config('plan_cache_mode', 'force_generic_plan', true)")
	}
	b.Queue(scansSQL, index).QueryRow(func(r pgx.Row) error { return r.Scan(&before) })
	b.QueuedQueries = append(b.QueuedQueries, walk)
	b.Queue(scansSQL, index).QueryRow(func(r pgx.Row) error { return r.Scan(&after) })
	if err := store.SendTenantBatch(context.Background(), app, tn.ID, b, store.GenericPlans()); err != nil {
		t.Fatal(err)
	}
	return after - before
}

// randomQuery is a reproducible 512-dimension query vector.
func randomQuery(seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, seed+1))
	q := make([]float32, 512)
	for i := range q {
		q[i] = float32(r.Float64() - 0.5)
	}
	return q
}

// fixedDims gives a scaleEmbedder another dimension count.
type fixedDims struct {
	*scaleEmbedder
	dims int
}

func (f fixedDims) Model() string { return "use-lite" }
func (f fixedDims) Dims() int     { return f.dims }

// TestAboveThresholdWithoutIndexIsExact: a tenant that outgrew the exact
// threshold before `ragd tenant index` ran is still answered right — the HNSW
// query finds no index of its own and scans the tenant exactly.
func TestAboveThresholdWithoutIndexIsExact(t *testing.T) {
	ctx := context.Background()
	app := testdb.App(t)
	tt := testdb.NewTenant(t, "vindex-none", "")
	testdb.FillVectors(t, tt.ID, 120)
	tn, err := tenant.Load(ctx, app, tt.ID)
	if err != nil {
		t.Fatal(err)
	}
	q := randomQuery(3)
	got, want := searchAboveThreshold(t, app, tn, q)
	if len(got) != 20 || recallAt(got, want) != 1 {
		t.Errorf("no dedicated index yet: %d results, recall@20 %.2f against exact; want 20 and 1.0", len(got), recallAt(got, want))
	}
}

// searchAboveThreshold runs the production vector search for tn (120 chunks,
// as tenant.Load read it) with ExactThreshold 100, checks that it sent the
// HNSW statement, and returns the result ids and the exact top 20.
func searchAboveThreshold(t *testing.T, app *pgxpool.Pool, tn tenant.Tenant, q []float32) (got, want []uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	if tn.ChunkCount != 120 {
		t.Fatalf("tenant.Load: chunk count %d, want 120 (it picks the vector plan)", tn.ChunkCount)
	}
	emb := &scaleEmbedder{}
	traced, sent := tracedPool(t)
	s := &Searcher{Pool: traced, Embedder: fixedDims{emb, 512}, ModelID: 1, ExactThreshold: 100}
	resp, err := s.Search(ctx, tn, Request{Query: emb.set(q), TopK: 20, Only: LegVector})
	if err != nil {
		t.Fatal(err)
	}
	hnsw, err := store.VectorLegSQL(store.VectorHNSW, 512, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(*sent, hnsw) {
		t.Errorf("Search of a tenant above the threshold did not send the HNSW statement; sent:\n%s", strings.Join(*sent, "\n--\n"))
	}
	if want, err = scaleExact(ctx, app, tn, 1, q, 20); err != nil {
		t.Fatal(err)
	}
	for _, res := range resp.Results {
		got = append(got, res.ChunkID)
	}
	return got, want
}

// explainVector runs the production HNSW statement for tenant under
// EXPLAIN ANALYZE (n results) after the settings queueRetrieval sends
// before it, in one transaction as in the batch, and returns the plan.
// The statements in before (planner cost settings) run first.
func explainVector(t *testing.T, app *pgxpool.Pool, tenantID uuid.UUID, q []float32, n int, modelID int16, before ...string) string {
	t.Helper()
	ctx := context.Background()
	var plan []string
	err := store.InTenant(ctx, app, tenantID, func(tx pgx.Tx) error {
		for _, sql := range before {
			if _, err := tx.Exec(ctx, sql); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, store.VectorSettingsSQL, strconv.Itoa(hnswEfSearch(n))); err != nil {
			return err
		}
		hnsw, err := store.VectorLegSQL(store.VectorHNSW, len(q), modelID)
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, "EXPLAIN (ANALYZE, COSTS OFF) "+hnsw,
			pgvector.NewVector(q), tenantID, n, 2*n)
		if err != nil {
			return err
		}
		plan, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "\n")
}

// walks reports whether plan executed an index scan on index.
func walks(plan, index string) bool {
	for _, line := range strings.Split(plan, "\n") {
		if strings.Contains(line, "using "+index+" ") && !strings.Contains(line, "never executed") {
			return true
		}
	}
	return false
}

// TestRetrievalPlanByChunkCount: the vector leg walks HNSW only for a tenant
// loaded with more chunks than ExactThreshold, and sets the walk's settings
// (enable_sort off included) in the same batch right before it, after the
// keyword statements, so that no other statement is planned under them.
// The keyword statements run on generic plans (the batch is sent with
// store.GenericPlans); the vector leg switches back to custom plans (the
// exact scan with its own statement, the walk with its settings).
func TestRetrievalPlanByChunkCount(t *testing.T) {
	s := &Searcher{Embedder: fixedDims{&scaleEmbedder{}, 512}, ModelID: 1, ExactThreshold: 5000, PerTermLimit: 150}
	for _, tc := range []struct {
		count int64
		want  store.VectorPlan
	}{{0, store.VectorExact}, {5000, store.VectorExact}, {5001, store.VectorHNSW}, {200000, store.VectorHNSW}} {
		b := &pgx.Batch{}
		q := legQuery{model: VectorModel{ID: s.ModelID, Embedder: s.Embedder}, tenantID: uuid.New(), chunkCount: tc.count, vector: randomQuery(1), keywordText: "vacuum", tsConfig: "english", n: 20}
		if err := s.queueRetrieval(b, q, &legResults{}); err != nil {
			t.Fatal(err)
		}
		var sqls []string
		for _, qq := range b.QueuedQueries {
			sqls = append(sqls, qq.SQL)
		}
		if !q.genericPlans() {
			t.Errorf("chunk count %d: a batch with the keyword leg is not sent on generic plans", tc.count)
		}
		want := []string{store.KeywordTermsSQL, store.KeywordLegSQL, store.CustomPlansSQL}
		if tc.want == store.VectorHNSW {
			want[2] = store.VectorSettingsSQL
		}
		vector, err := store.VectorLegSQL(tc.want, 512, 1)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, vector)
		if !slices.Equal(sqls, want) {
			t.Errorf("chunk count %d: batch\n%s\nwant\n%s", tc.count, strings.Join(sqls, "\n--\n"), strings.Join(want, "\n--\n"))
		}
		if tc.want == store.VectorHNSW {
			setup := b.QueuedQueries[len(b.QueuedQueries)-2]
			if !strings.Contains(setup.SQL, "set_config('enable_sort', 'off', true)") || !strings.Contains(setup.SQL, "set_config('jit', 'off', true)") ||
				!strings.Contains(setup.SQL, "set_config('plan_cache_mode', 'force_custom_plan', true)") ||
				!slices.Equal(setup.Arguments, []any{"100"}) {
				t.Errorf("chunk count %d: HNSW settings %q %v, want enable_sort and jit off, custom plans (transaction-local) and ef_search 100 for n = 20",
					tc.count, setup.SQL, setup.Arguments)
			}
		}
	}
	// A query vector of the wrong size is refused before anything is sent.
	b := &pgx.Batch{}
	if err := s.queueRetrieval(b, legQuery{model: VectorModel{ID: s.ModelID, Embedder: s.Embedder}, vector: make([]float32, 3), n: 20}, &legResults{}); err == nil || b.Len() != 0 {
		t.Errorf("3-d query vector: err %v, %d statements queued", err, b.Len())
	}
}

// tracedPool is an application-role pool like store.Open's that records the
// SQL of every batched statement it sends.
func tracedPool(t *testing.T) (*pgxpool.Pool, *[]string) {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(testdb.URL())
	if err != nil {
		t.Fatal(err)
	}
	rec := &batchRecorder{}
	cfg.MaxConns = 2
	cfg.ConnConfig.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	cfg.ConnConfig.Tracer = rec
	cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error { return pgxvec.RegisterTypes(ctx, c) }
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool, &rec.sql
}

// batchRecorder is a pgx tracer that keeps the SQL of batched statements.
type batchRecorder struct{ sql []string }

func (r *batchRecorder) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}
func (r *batchRecorder) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (r *batchRecorder) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return ctx
}
func (r *batchRecorder) TraceBatchQuery(_ context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	r.sql = append(r.sql, d.SQL)
}
func (r *batchRecorder) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}
