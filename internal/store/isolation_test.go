package store_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// tenantTables are every table holding tenant data; the catalog test checks
// the list is complete.
var tenantTables = []string{"tenants", "access_lists", "documents", "chunks", "chunk_embeddings", "tenant_stats", "term_stats", "postings", "eval_sets", "eval_questions", "eval_runs",
	"ingestion_batches", "ingestion_items", "ingestion_turns",
	"retrieval_events", "tenant_usage"}

// seed stores one document with two chunks and their embeddings for tenant.
func seed(t *testing.T, pool *pgxpool.Pool, tenant uuid.UUID, uri, text string) (docID uuid.UUID, chunkIDs []uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	q := store.New()
	err := store.InTenant(ctx, pool, tenant, func(tx pgx.Tx) error {
		if err := q.LockTenantStats(ctx, tx, tenant); err != nil {
			return err
		}
		sha := sha256.Sum256([]byte(text))
		doc, err := q.UpsertDocument(ctx, tx, store.UpsertDocumentParams{
			TenantID: tenant, SourceUri: uri, Title: "T " + uri, ContentType: "text/plain",
			ContentSha: sha[:], Pipeline: "test", Metadata: []byte(`{}`), Body: text, ChunkCount: 2,
		})
		if err != nil {
			return err
		}
		docID = doc.ID
		cp := store.InsertChunksParams{TenantID: tenant, DocumentID: doc.ID, TsConfig: "english"}
		ep := store.InsertEmbeddingsParams{TenantID: tenant, ModelID: 1}
		for i := range 2 {
			id := uuid.New()
			chunkIDs = append(chunkIDs, id)
			cp.Ids = append(cp.Ids, id)
			cp.ChunkIndexes = append(cp.ChunkIndexes, int32(i))
			cp.HeadingPaths = append(cp.HeadingPaths, "T")
			cp.Sections = append(cp.Sections, "")
			cp.Contents = append(cp.Contents, fmt.Sprintf("%s part %d", text, i))
			cp.TokenCounts = append(cp.TokenCounts, 3)
			cp.StartOffsets = append(cp.StartOffsets, 0)
			cp.EndOffsets = append(cp.EndOffsets, int32(len(text)))
			cp.Keywords = append(cp.Keywords, "")
			v := make([]float32, 512)
			v[i] = 1
			ep.ChunkIds = append(ep.ChunkIds, id)
			ep.TextShas = append(ep.TextShas, sha[:])
			ep.Embeddings = append(ep.Embeddings, pgvector.NewVector(v))
		}
		if _, err := q.InsertChunks(ctx, tx, cp); err != nil {
			return err
		}
		_, err = q.InsertEmbeddings(ctx, tx, ep)
		return err
	})
	if err != nil {
		t.Fatalf("seed %s: %v", uri, err)
	}
	return docID, chunkIDs
}

// countAll counts the rows visible in every tenant table inside tx.
func countAll(ctx context.Context, tx pgx.Tx) (map[string]int, error) {
	out := map[string]int{}
	for _, tbl := range tenantTables {
		var n int
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM "+tbl).Scan(&n); err != nil {
			return nil, fmt.Errorf("%s: %w", tbl, err)
		}
		out[tbl] = n
	}
	return out, nil
}

func TestTenantCannotSeeOrTouchAnother(t *testing.T) {
	t.Parallel()
	pool := testdb.App(t)
	a := testdb.NewTenant(t, "iso-a", "")
	b := testdb.NewTenant(t, "iso-b", "")
	bDoc, bChunks := seed(t, pool, b.ID, "b://secret", "tenant b secret payroll text")
	seed(t, pool, a.ID, "a://public", "tenant a public text")
	ctx := context.Background()

	err := store.InTenant(ctx, pool, a.ID, func(tx pgx.Tx) error {
		counts, err := countAll(ctx, tx)
		if err != nil {
			return err
		}
		// A sees exactly its own rows: 1 tenant, 1 document, 2 chunks, 2 embeddings, 1 stats row.
		want := map[string]int{"tenants": 1, "documents": 1, "chunks": 2, "chunk_embeddings": 2, "tenant_stats": 1}
		for tbl, n := range want {
			if counts[tbl] != n {
				t.Errorf("tenant A sees %d rows in %s, want %d", counts[tbl], tbl, n)
			}
		}
		for _, tbl := range []string{"documents", "chunks", "chunk_embeddings", "tenant_stats", "term_stats", "postings", "tenants"} {
			var n int
			if err := tx.QueryRow(ctx, "SELECT count(*) FROM "+tbl+" WHERE "+map[bool]string{true: "id", false: "tenant_id"}[tbl == "tenants"]+" = $1", b.ID).Scan(&n); err != nil {
				return err
			}
			if n != 0 {
				t.Errorf("tenant A reads %d of tenant B's rows in %s", n, tbl)
			}
		}
		q := store.New()
		if _, err := q.GetDocument(ctx, tx, store.GetDocumentParams{TenantID: b.ID, ID: bDoc}); !errors.Is(err, pgx.ErrNoRows) {
			t.Errorf("GetDocument(B's id) as A: err = %v, want no rows", err)
		}
		for _, stmt := range []string{
			"UPDATE documents SET title = 'pwned' WHERE id = $1",
			"DELETE FROM documents WHERE id = $1",
			"DELETE FROM chunks WHERE document_id = $1",
		} {
			tag, err := tx.Exec(ctx, stmt, bDoc)
			if err != nil {
				return fmt.Errorf("%s: %w", stmt, err)
			}
			if tag.RowsAffected() != 0 {
				t.Errorf("%q as tenant A affected %d of B's rows", stmt, tag.RowsAffected())
			}
		}
		for _, stmt := range []string{
			"DELETE FROM chunk_embeddings WHERE chunk_id = $1",
			"DELETE FROM postings WHERE chunk_id = $1",
		} {
			tag, err := tx.Exec(ctx, stmt, bChunks[0])
			if err != nil {
				return fmt.Errorf("%s: %w", stmt, err)
			}
			if tag.RowsAffected() != 0 {
				t.Errorf("%q as tenant A affected %d of B's rows", stmt, tag.RowsAffected())
			}
		}
		tag, err := tx.Exec(ctx, "UPDATE tenants SET settings = '{\"x\":1}' WHERE id = $1", b.ID)
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 0 {
			t.Errorf("tenant A updated tenant B's settings")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// B's data is intact.
	err = store.InTenant(ctx, pool, b.ID, func(tx pgx.Tx) error {
		counts, err := countAll(ctx, tx)
		if err != nil {
			return err
		}
		if counts["documents"] != 1 || counts["chunks"] != 2 || counts["chunk_embeddings"] != 2 || counts["postings"] == 0 {
			t.Errorf("tenant B's rows after A's attempts: %v", counts)
		}
		var title string
		if err := tx.QueryRow(ctx, "SELECT title FROM documents WHERE id = $1", bDoc).Scan(&title); err != nil {
			return err
		}
		if title == "pwned" {
			t.Error("tenant A renamed B's document")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestCrossTenantInsertRejected(t *testing.T) {
	t.Parallel()
	pool := testdb.App(t)
	a := testdb.NewTenant(t, "ins-a", "")
	b := testdb.NewTenant(t, "ins-b", "")
	bDoc, bChunks := seed(t, pool, b.ID, "b://doc", "b text")
	ctx := context.Background()
	inserts := map[string]func(tx pgx.Tx) error{
		"documents": func(tx pgx.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO documents (tenant_id, source_uri, content_type, content_sha, pipeline, body) VALUES ($1, 'x://y', 'text/plain', '\x00', 'p', 'x')`, b.ID)
			return err
		},
		"chunks": func(tx pgx.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO chunks (tenant_id, document_id, chunk_index, content, token_count, start_offset, end_offset, ts_config) VALUES ($1, $2, 9, 'x', 1, 0, 1, 'english')`, b.ID, bDoc)
			return err
		},
		"chunk_embeddings": func(tx pgx.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO chunk_embeddings (tenant_id, chunk_id, model_id, text_sha, embedding) VALUES ($1, $2, 1, '\x00', array_fill(0.1::real, ARRAY[512])::vector)`, b.ID, bChunks[0])
			return err
		},
		"postings": func(tx pgx.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO postings (tenant_id, lexeme, chunk_id, tf, dl, impact) VALUES ($1, 'zz', $2, 1, 1, 1)`, b.ID, bChunks[0])
			return err
		},
		"term_stats": func(tx pgx.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO term_stats (tenant_id, lexeme, df) VALUES ($1, 'zz', 1)`, b.ID)
			return err
		},
	}
	for tbl, ins := range inserts {
		err := store.InTenant(ctx, pool, a.ID, ins)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "42501" {
			t.Errorf("insert into %s for tenant B as tenant A: err = %v, want a row-level security violation (42501)", tbl, err)
		}
	}
}

func TestNoTenantSeesNothing(t *testing.T) {
	t.Parallel()
	pool := testdb.App(t)
	a := testdb.NewTenant(t, "none", "")
	seed(t, pool, a.ID, "a://doc", "some text")
	ctx := context.Background()
	for _, setting := range []string{"", "unset"} {
		tx, err := pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if setting != "unset" {
			if _, err := tx.Exec(ctx, "SELECT set_config('app.tenant_id', $1, true)", setting); err != nil {
				t.Fatal(err)
			}
		}
		counts, err := countAll(ctx, tx)
		_ = tx.Rollback(ctx)
		if err != nil {
			t.Fatalf("tenant %q: %v (want 0 rows, no error)", setting, err)
		}
		for tbl, n := range counts {
			if n != 0 {
				t.Errorf("with tenant setting %q, %s shows %d rows, want 0", setting, tbl, n)
			}
		}
	}
	if err := store.InTenant(ctx, pool, uuid.Nil, func(pgx.Tx) error { return nil }); !errors.Is(err, store.ErrNoTenant) {
		t.Errorf("InTenant(uuid.Nil) = %v, want ErrNoTenant", err)
	}
}

// oneConnTwoTenants returns an application-role pool of one connection and
// two new tenants (prefix-a, prefix-b) with one seeded document each (docs:
// tenant id → document id).
func oneConnTwoTenants(t *testing.T, prefix string) (*pgxpool.Pool, []testdb.Tenant, map[uuid.UUID]uuid.UUID) {
	t.Helper()
	pool, err := store.Open(context.Background(), testdb.URL(), store.Options{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	ts := []testdb.Tenant{testdb.NewTenant(t, prefix+"-a", ""), testdb.NewTenant(t, prefix+"-b", "")}
	docs := map[uuid.UUID]uuid.UUID{}
	for _, tn := range ts {
		d, _ := seed(t, testdb.App(t), tn.ID, "x://"+tn.Slug, "text of "+tn.Slug)
		docs[tn.ID] = d
	}
	return pool, ts, docs
}

func TestAlternatingTenantsOnOneConnectionLeakNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, ts, docs := oneConnTwoTenants(t, "alt")
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 1000 {
		tn := ts[rng.IntN(2)]
		err := store.InTenant(ctx, pool, tn.ID, func(tx pgx.Tx) error {
			rows, err := tx.Query(ctx, "SELECT id, tenant_id FROM documents")
			if err != nil {
				return err
			}
			ids, err := pgx.CollectRows(rows, pgx.RowToStructByPos[struct{ ID, Tenant uuid.UUID }])
			if err != nil {
				return err
			}
			if len(ids) != 1 || ids[0].ID != docs[tn.ID] || ids[0].Tenant != tn.ID {
				return fmt.Errorf("iteration %d as %s saw %v", i, tn.Slug, ids)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// Between transactions the pooled connection carries no tenant.
		var v string
		if err := pool.QueryRow(ctx, "SELECT coalesce(current_setting('app.tenant_id', true), '')").Scan(&v); err != nil {
			t.Fatal(err)
		}
		if v != "" {
			t.Fatalf("iteration %d: connection still carries tenant %q after commit", i, v)
		}
	}
	// The pool's release hook destroys a connection that still carries a
	// tenant, so a leak shows as a replaced connection, not as a setting.
	if st := pool.Stat(); st.NewConnsCount() != 1 {
		t.Fatalf("the pool opened %d connections; a leaked tenant setting had one destroyed", st.NewConnsCount())
	}
}

// TestTenantBatchIsOneScopedTransaction: SendTenantBatch's statements run
// as one transaction that sees only the tenant's rows; on one pooled
// connection, alternating tenants and a failing batch leave no tenant behind,
// and a failing batch returns its error and writes nothing.
func TestTenantBatchIsOneScopedTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, ts, docs := oneConnTwoTenants(t, "batch")
	noTenant := func(i int) {
		t.Helper()
		var v string
		if err := pool.QueryRow(ctx, "SELECT coalesce(current_setting('app.tenant_id', true), '')").Scan(&v); err != nil {
			t.Fatal(err)
		}
		if v != "" {
			t.Fatalf("iteration %d: connection still carries tenant %q after the batch", i, v)
		}
	}
	for i := range 200 {
		tn := ts[i%2]
		var x1, x2 int64
		var ids []uuid.UUID
		b := &pgx.Batch{}
		b.Queue("SELECT txid_current()").QueryRow(func(r pgx.Row) error { return r.Scan(&x1) })
		b.Queue("SELECT id FROM documents").Query(func(rows pgx.Rows) (err error) {
			ids, err = pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
			return err
		})
		b.Queue("SELECT txid_current()").QueryRow(func(r pgx.Row) error { return r.Scan(&x2) })
		if err := store.SendTenantBatch(ctx, pool, tn.ID, b); err != nil {
			t.Fatal(err)
		}
		if x1 == 0 || x1 != x2 {
			t.Fatalf("iteration %d: statements ran in transactions %d and %d, want one", i, x1, x2)
		}
		if len(ids) != 1 || ids[0] != docs[tn.ID] {
			t.Fatalf("iteration %d as %s saw documents %v, want [%s]", i, tn.Slug, ids, docs[tn.ID])
		}
		noTenant(i)
	}

	// A failing statement aborts the whole batch: the earlier write is rolled back.
	b := &pgx.Batch{}
	b.Queue("UPDATE documents SET title = 'changed'")
	b.Queue("SELECT 1/0")
	if err := store.SendTenantBatch(ctx, pool, ts[0].ID, b); err == nil {
		t.Fatal("a batch with a division by zero succeeded")
	}
	noTenant(-1)
	var title string
	err := store.InTenant(ctx, pool, ts[0].ID, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, "SELECT title FROM documents").Scan(&title)
	})
	if err != nil || title == "changed" {
		t.Fatalf("after the failed batch: title %q, %v; want the write rolled back", title, err)
	}
	if err := store.SendTenantBatch(ctx, pool, uuid.Nil, &pgx.Batch{}); !errors.Is(err, store.ErrNoTenant) {
		t.Errorf("nil tenant: %v, want ErrNoTenant", err)
	}
	// The pool's release hook destroys a connection that still carries a
	// tenant, so a leak shows as a replaced connection, not as a setting.
	if st := pool.Stat(); st.NewConnsCount() != 1 {
		t.Fatalf("the pool opened %d connections; a leaked tenant setting had one destroyed", st.NewConnsCount())
	}
}

func TestAppRoleSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.App(t)
	var mode string
	if err := pool.QueryRow(ctx, "SHOW plan_cache_mode").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "force_custom_plan" {
		t.Errorf("plan_cache_mode = %q, want force_custom_plan", mode)
	}
	if err := store.CheckAppRole(ctx, pool); err != nil {
		t.Errorf("CheckAppRole(app pool) = %v, want nil", err)
	}
	// The owner role owns the tenant tables: serve must refuse it.
	if err := store.CheckAppRole(ctx, testdb.Owner(t)); !errors.Is(err, store.ErrUnsafeRole) {
		t.Errorf("CheckAppRole(owner pool) = %v, want ErrUnsafeRole", err)
	}
}

func TestCatalogForcesRLSOnEveryTenantTable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.Owner(t)
	rows, err := pool.Query(ctx, `
		SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity,
		       (SELECT count(*) FROM pg_policy p WHERE p.polrelid = c.oid)
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND c.relkind = 'r'
		  AND (EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped)
		       OR c.relname = 'tenants')`)
	if err != nil {
		t.Fatal(err)
	}
	type rel struct {
		name       string
		rls, force bool
		policies   int
	}
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (rel, error) {
		var x rel
		return x, r.Scan(&x.name, &x.rls, &x.force, &x.policies)
	})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range got {
		seen[r.name] = true
		if !r.rls || !r.force || r.policies == 0 {
			t.Errorf("table %s: rls=%v force=%v policies=%d; every tenant table needs FORCE ROW LEVEL SECURITY and a policy", r.name, r.rls, r.force, r.policies)
		}
	}
	for _, tbl := range tenantTables {
		if !seen[tbl] {
			t.Errorf("tenant table %s missing from the catalog check", tbl)
		}
	}
	if len(got) != len(tenantTables) {
		t.Errorf("catalog has %d tenant tables, the isolation tests know %d: add the new one to tenantTables", len(got), len(tenantTables))
	}
	// Every tenant_isolation policy is the fail-closed one.
	prow, err := pool.Query(ctx, `SELECT c.relname, pg_get_expr(p.polqual, p.polrelid), pg_get_expr(p.polwithcheck, p.polrelid)
		FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid WHERE p.polname = 'tenant_isolation'`)
	if err != nil {
		t.Fatal(err)
	}
	defer prow.Close()
	n := 0
	for prow.Next() {
		var name, using, check string
		if err := prow.Scan(&name, &using, &check); err != nil {
			t.Fatal(err)
		}
		n++
		if using != check || (using != "(tenant_id = current_tenant())" && using != "(id = current_tenant())") {
			t.Errorf("%s policy USING %s WITH CHECK %s; want equality with current_tenant() in both", name, using, check)
		}
	}
	if n != len(tenantTables) {
		t.Errorf("%d tenant_isolation policies, want %d", n, len(tenantTables))
	}
	// Every table with an access_id column has the three restrictive
	// document_access policies, on its own column.
	arow, err := pool.Query(ctx, `
		SELECT c.relname, count(p.oid) FILTER (WHERE p.polname LIKE 'document_access_%' AND NOT p.polpermissive
		                                        AND pg_get_expr(p.polqual, p.polrelid) LIKE '%access_id = 0%visible_access_ids()%')
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		LEFT JOIN pg_policy p ON p.polrelid = c.oid
		WHERE n.nspname = 'public' AND c.relkind = 'r'
		  AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'access_id' AND NOT a.attisdropped)
		GROUP BY c.relname ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	type acc struct {
		name string
		n    int
	}
	accs, err := pgx.CollectRows(arow, func(r pgx.CollectableRow) (acc, error) {
		var x acc
		return x, r.Scan(&x.name, &x.n)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range accs {
		if a.n != 3 {
			t.Errorf("table %s has access_id and %d document_access policies, want 3 (select, update, delete)", a.name, a.n)
		}
	}
	if len(accs) != len(accessTables) {
		t.Errorf("%d tables carry access_id, the access tests know %d (%v)", len(accs), len(accessTables), accs)
	}
}

// TestConcurrentSameSourceURI: two ingests of one source_uri at once produce
// one document and no deadlock.
func TestConcurrentSameSourceURI(t *testing.T) {
	t.Parallel()
	pool := testdb.App(t)
	a := testdb.NewTenant(t, "conc", "")
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			q := store.New()
			errs <- store.InTenant(ctx, pool, a.ID, func(tx pgx.Tx) error {
				if err := q.LockTenantStats(ctx, tx, a.ID); err != nil {
					return err
				}
				doc, err := q.UpsertDocument(ctx, tx, store.UpsertDocumentParams{TenantID: a.ID, SourceUri: "same://uri", ContentType: "text/plain",
					ContentSha: []byte{byte(i)}, Pipeline: "p", Metadata: []byte(`{}`), Body: "b", ChunkCount: 1})
				if err != nil {
					return err
				}
				if _, err := q.DeleteChunksByDocument(ctx, tx, store.DeleteChunksByDocumentParams{TenantID: a.ID, DocumentID: doc.ID}); err != nil {
					return err
				}
				_, err = q.InsertChunks(ctx, tx, store.InsertChunksParams{TenantID: a.ID, Ids: []uuid.UUID{uuid.New()}, DocumentID: doc.ID,
					ChunkIndexes: []int32{0}, HeadingPaths: []string{""}, Sections: []string{""}, Contents: []string{fmt.Sprintf("version %d of shared words", i)},
					TokenCounts: []int32{4}, StartOffsets: []int32{0}, EndOffsets: []int32{1}, TsConfig: "english", Keywords: []string{""}})
				return err
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	err := store.InTenant(ctx, pool, a.ID, func(tx pgx.Tx) error {
		c, err := countAll(ctx, tx)
		if err != nil {
			return err
		}
		if c["documents"] != 1 || c["chunks"] != 1 {
			t.Errorf("after 8 concurrent upserts: %d documents, %d chunks; want 1 and 1", c["documents"], c["chunks"])
		}
		var n, df int
		if err := tx.QueryRow(ctx, "SELECT chunk_count FROM tenant_stats").Scan(&n); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, "SELECT df FROM term_stats WHERE lexeme = 'share'").Scan(&df); err != nil {
			return err
		}
		if n != 1 || df != 1 {
			t.Errorf("statistics after concurrent replaces: chunk_count=%d df(share)=%d, want 1 and 1", n, df)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTenantBatchReadsOneSnapshot: every statement of a tenant batch reads
// the same snapshot. The batch counts the tenant's documents, sleeps, and
// counts again; while it sleeps (seen in pg_stat_activity) another
// transaction adds a document and commits. Both counts are the state before
// that commit (at READ COMMITTED the second saw the new document), and the
// next batch sees it.
func TestTenantBatchReadsOneSnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, ts, _ := oneConnTwoTenants(t, "snap")
	tn := ts[0]
	var before, after int
	b := &pgx.Batch{}
	b.Queue("SELECT count(*) FROM documents").QueryRow(func(r pgx.Row) error { return r.Scan(&before) })
	b.Queue("SELECT pg_sleep(0.5)")
	b.Queue("SELECT count(*) FROM documents").QueryRow(func(r pgx.Row) error { return r.Scan(&after) })
	done := make(chan error, 1)
	go func() { done <- store.SendTenantBatch(ctx, pool, tn.ID, b) }()
	// Wait until the batch is in its sleep, then commit a new document.
	app := testdb.App(t)
	for i := 0; ; i++ {
		var sleeping bool
		if err := app.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE wait_event = 'PgSleep' AND query LIKE '%pg_sleep(0.5)%' AND datname = current_database())`).Scan(&sleeping); err != nil {
			t.Fatal(err)
		}
		if sleeping {
			break
		}
		if i > 500 {
			t.Fatal("the batch never reached its sleep")
		}
		time.Sleep(5 * time.Millisecond)
	}
	seed(t, app, tn.ID, "x://snap-new", "committed while the batch slept")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if before != 1 || after != 1 {
		t.Fatalf("one batch counted %d then %d documents; want 1 and 1 (one snapshot)", before, after)
	}
	var now int
	b = &pgx.Batch{}
	b.Queue("SELECT count(*) FROM documents").QueryRow(func(r pgx.Row) error { return r.Scan(&now) })
	if err := store.SendTenantBatch(ctx, pool, tn.ID, b); err != nil || now != 2 {
		t.Fatalf("the next batch counted %d documents, %v; want 2", now, err)
	}
}

// accessTables are the tables whose rows carry their document's access list
// (access_id) under the document_access policies (migration 00017).
var accessTables = []string{"documents", "chunks", "chunk_embeddings", "postings"}

// asAll and asPrincipals are contexts whose tenant transactions read every
// document, or as the given principals.
func asAll() context.Context { return store.WithVisibility(context.Background(), store.AllDocuments()) }

func asPrincipals(ps ...string) context.Context {
	return store.WithVisibility(context.Background(), store.AsPrincipals(ps))
}

// setAccess sets a document's access list as an all-seeing transaction.
func setAccess(t *testing.T, pool *pgxpool.Pool, tenant, doc uuid.UUID, access ...string) {
	t.Helper()
	err := store.InTenant(asAll(), pool, tenant, func(tx pgx.Tx) error {
		_, err := store.SetDocumentAccess(asAll(), tx, tenant, doc, access)
		return err
	})
	if err != nil {
		t.Fatalf("set access of %s to %v: %v", doc, access, err)
	}
}

// visibleDocs returns, per access table, the set of document ids whose rows
// ctx's transaction reads (postings and embeddings mapped to their chunks'
// documents through the all-seeing map chunkDoc).
func visibleDocs(ctx context.Context, tx pgx.Tx, chunkDoc map[uuid.UUID]uuid.UUID) (map[string]map[uuid.UUID]bool, error) {
	out := map[string]map[uuid.UUID]bool{}
	for tbl, sql := range map[string]string{
		"documents":        "SELECT id FROM documents",
		"chunks":           "SELECT id FROM chunks",
		"chunk_embeddings": "SELECT chunk_id FROM chunk_embeddings",
		"postings":         "SELECT DISTINCT chunk_id FROM postings",
	} {
		rows, err := tx.Query(ctx, sql)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tbl, err)
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tbl, err)
		}
		out[tbl] = map[uuid.UUID]bool{}
		for _, id := range ids {
			if tbl != "documents" {
				id = chunkDoc[id]
			}
			out[tbl][id] = true
		}
	}
	return out, nil
}

// TestPrincipalsSeeExactlyTheirDocuments: inside one tenant, each set of
// principals reads, in every access table, exactly the tenant-wide
// documents and those whose list shares one of its principals (overlapping
// groups, a user list, no groups at all), and cannot update or delete the
// others; an access change holds at the next transaction.
func TestPrincipalsSeeExactlyTheirDocuments(t *testing.T) {
	t.Parallel()
	pool := testdb.App(t)
	tn := testdb.NewTenant(t, "acl", "")
	lists := map[string][]string{
		"public": nil,
		"hr":     {"group:hr"},
		"eng":    {"group:eng"},
		"both":   {"group:hr", "group:eng"},
		"alice":  {"user:alice"},
	}
	docs := map[string]uuid.UUID{}
	chunkDoc := map[uuid.UUID]uuid.UUID{}
	for name, access := range lists {
		d, cs := seed(t, pool, tn.ID, "acl://"+name, "shared words and "+name+" words")
		docs[name] = d
		for _, c := range cs {
			chunkDoc[c] = d
		}
		if access != nil {
			setAccess(t, pool, tn.ID, d, access...)
		}
	}
	check := func(label string, ctx context.Context, want ...string) {
		t.Helper()
		wantSet := map[uuid.UUID]bool{}
		for _, w := range want {
			wantSet[docs[w]] = true
		}
		err := store.InTenant(ctx, pool, tn.ID, func(tx pgx.Tx) error {
			got, err := visibleDocs(ctx, tx, chunkDoc)
			if err != nil {
				return err
			}
			for _, tbl := range accessTables {
				for name, id := range docs {
					if got[tbl][id] != wantSet[id] {
						t.Errorf("%s: %s rows of document %s visible = %v, want %v", label, tbl, name, got[tbl][id], wantSet[id])
					}
				}
			}
			// Hidden rows cannot be changed or removed.
			for name, id := range docs {
				if wantSet[id] {
					continue
				}
				for _, stmt := range []string{
					"UPDATE documents SET title = 'pwned' WHERE id = $1",
					"DELETE FROM chunks WHERE document_id = $1",
					"DELETE FROM documents WHERE id = $1",
					"UPDATE documents SET access_id = 0 WHERE id = $1",
				} {
					tag, err := tx.Exec(ctx, stmt, id)
					if err != nil {
						return fmt.Errorf("%s: %w", stmt, err)
					}
					if tag.RowsAffected() != 0 {
						t.Errorf("%s: %q affected hidden document %s", label, stmt, name)
					}
				}
				if _, err := store.SetDocumentAccess(ctx, tx, tn.ID, id, nil); !errors.Is(err, store.ErrNotFound) {
					t.Errorf("%s: SetDocumentAccess of hidden %s: %v, want ErrNotFound", label, name, err)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
	}
	check("no principals", context.Background(), "public")
	check("no groups", asPrincipals("user:bob"), "public")
	check("alice", asPrincipals("user:alice"), "public", "alice")
	check("hr", asPrincipals("user:carol", "group:hr"), "public", "hr", "both")
	check("hr+eng", asPrincipals("user:dave", "group:hr", "group:eng"), "public", "hr", "eng", "both")
	check("all", asAll(), "public", "hr", "eng", "both", "alice")

	// The access change holds at the next transaction, in every table.
	setAccess(t, pool, tn.ID, docs["hr"], "group:eng")
	check("hr after hr→eng", asPrincipals("group:hr"), "public", "both")
	check("eng after hr→eng", asPrincipals("group:eng"), "public", "hr", "eng", "both")
	setAccess(t, pool, tn.ID, docs["alice"])
	check("bob after alice→tenant-wide", asPrincipals("user:bob"), "public", "alice")
}

// TestAccessSettingFailsClosed: a malformed app.principals is an error, not
// rows; '*' is never a principal of a list.
func TestAccessSettingFailsClosed(t *testing.T) {
	t.Parallel()
	pool := testdb.App(t)
	tn := testdb.NewTenant(t, "acl-fc", "")
	d, _ := seed(t, pool, tn.ID, "acl://x", "restricted words")
	setAccess(t, pool, tn.ID, d, "group:x")
	ctx := context.Background()
	err := store.InTenant(ctx, pool, tn.ID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT set_config('app.principals', '{group:x', true)"); err != nil {
			return err
		}
		var n int
		return tx.QueryRow(ctx, "SELECT count(*) FROM documents").Scan(&n)
	})
	if err == nil {
		t.Error("a malformed app.principals read documents; want an error")
	}
	// A list naming "*" is a list like any other: it does not make every
	// document visible to anyone.
	err = store.InTenant(asAll(), pool, tn.ID, func(tx pgx.Tx) error {
		_, err := store.SetDocumentAccess(asAll(), tx, tn.ID, d, []string{"*"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = store.InTenant(asPrincipals("user:mallory"), pool, tn.ID, func(tx pgx.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM documents").Scan(&n); err != nil {
			return err
		}
		if n != 0 {
			t.Errorf("user:mallory sees %d documents of list {*}", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestChunksImmutableButForAccess: the chunks trigger still refuses content
// changes.
func TestChunksImmutableButForAccess(t *testing.T) {
	t.Parallel()
	pool := testdb.App(t)
	tn := testdb.NewTenant(t, "acl-imm", "")
	d, _ := seed(t, pool, tn.ID, "acl://imm", "immutable words")
	err := store.InTenant(asAll(), pool, tn.ID, func(tx pgx.Tx) error {
		_, err := tx.Exec(context.Background(), "UPDATE chunks SET content = 'changed' WHERE document_id = $1", d)
		return err
	})
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "0A000" {
		t.Errorf("updating a chunk's content: %v, want feature_not_supported", err)
	}
}

// TestAccessChangeWhileReading races access changes of one document
// (group:a ↔ group:b) with one-snapshot reads as group:a, group:b and no
// group: every read sees the document's rows in all four tables or in none,
// as its list at that snapshot allows, and the reader without groups never
// sees it.
func TestAccessChangeWhileReading(t *testing.T) {
	t.Parallel()
	pool := testdb.App(t)
	tn := testdb.NewTenant(t, "acl-race", "")
	d, _ := seed(t, pool, tn.ID, "acl://race", "racing words here")
	setAccess(t, pool, tn.ID, d, "group:a")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(done)
		for i := range 40 {
			setAccess(t, pool, tn.ID, d, []string{"group:a", "group:b"}[i%2])
		}
	}()
	var violations, reads, seen int
	var mu sync.Mutex
	for _, who := range [][]string{{"group:a"}, {"group:b"}, nil} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rctx := store.WithVisibility(ctx, store.AsPrincipals(who))
			for {
				select {
				case <-done:
					return
				default:
				}
				var counts [4]int64
				b := &pgx.Batch{}
				for i, tbl := range accessTables {
					b.Queue("SELECT count(*) FROM " + tbl).QueryRow(func(r pgx.Row) error { return r.Scan(&counts[i]) })
				}
				if err := store.SendTenantBatch(rctx, pool, tn.ID, b); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				reads++
				all := counts[0] == 1 && counts[1] == 2 && counts[2] == 2 && counts[3] > 0
				none := counts[0] == 0 && counts[1] == 0 && counts[2] == 0 && counts[3] == 0
				if !all && !none || (all && who == nil) {
					violations++
					t.Errorf("reader %v saw documents/chunks/embeddings/postings %v", who, counts)
				}
				if all {
					seen++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if violations != 0 || reads == 0 || seen == 0 {
		t.Errorf("%d reads, %d saw the document, %d violations", reads, seen, violations)
	}
}

// TestTenantBatchPairReadsOneSnapshot: the two batches of
// SendTenantBatchPair read one snapshot. A document committed after the
// first transaction has taken its snapshot and before the second starts
// (the test's hook) is in neither batch's count; the second transaction
// would count it with a snapshot of its own. Both batches read as the
// caller: the document only group:ops may read is counted for group:ops,
// not for another principal, in either batch.
func TestTenantBatchPairReadsOneSnapshot(t *testing.T) {
	t.Parallel()
	tn := testdb.NewTenant(t, "pair", "")
	app := testdb.App(t)
	pool := pairPool(t)
	seed(t, app, tn.ID, "x://pair-public", "for everyone")
	hidden, _ := seed(t, app, tn.ID, "x://pair-ops", "for the ops group only")
	setAccess(t, app, tn.ID, hidden, "group:ops")
	count := func(ctx context.Context) int {
		var n int
		b := &pgx.Batch{}
		b.Queue("SELECT count(*) FROM documents").QueryRow(func(r pgx.Row) error { return r.Scan(&n) })
		if err := store.SendTenantBatch(ctx, app, tn.ID, b); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for i, who := range []struct {
		ctx  context.Context
		want int // documents the caller reads before the pair
	}{{asPrincipals("user:a", "group:ops"), 2}, {asPrincipals("user:b"), 2}} {
		// The second caller reads the first round's new document, not
		// the ops group's.
		if n := count(who.ctx); n != who.want {
			t.Fatalf("caller %d reads %d documents before the pair, want %d", i, n, who.want)
		}
		var a, b int
		ba, bb := &pgx.Batch{}, &pgx.Batch{}
		ba.Queue("SELECT count(*) FROM documents").QueryRow(func(r pgx.Row) error { return r.Scan(&a) })
		bb.Queue("SELECT count(*) FROM documents").QueryRow(func(r pgx.Row) error { return r.Scan(&b) })
		uri := fmt.Sprintf("x://pair-new-%d", i)
		hooked := false
		ctx := store.WithPairHook(store.WithPairWait(who.ctx, time.Minute), func() {
			hooked = true
			seed(t, app, tn.ID, uri, "committed between the two transactions' starts")
		})
		waitSpare(t, pool)
		if err := store.SendTenantBatchPair(ctx, pool, tn.ID, ba, true, bb, false); err != nil {
			t.Fatal(err)
		}
		if !hooked {
			t.Fatalf("caller %d: the batches ran in one transaction, not as a pair", i)
		}
		if a != who.want || b != who.want {
			t.Fatalf("caller %d: the pair counted %d and %d documents; want %d and %d (one snapshot, the caller's access)", i, a, b, who.want, who.want)
		}
		if n := count(who.ctx); n != who.want+1 {
			t.Fatalf("caller %d: the next batch counted %d documents; want %d", i, n, who.want+1)
		}
	}
}

// TestTenantBatchPairFailure: a failing statement in either batch of a pair
// fails the pair with its error, both transactions end, and the two
// connections go back to the pool usable and without a tenant: a pool of
// two serves 30 failing pairs and then a good one.
func TestTenantBatchPairFailure(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pairPool(t)
	tn := testdb.NewTenant(t, "pairfail", "")
	seed(t, testdb.App(t), tn.ID, "x://pairfail", "one document")
	for i := range 30 {
		a, b := batchPair("SELECT count(*) FROM documents", "SELECT count(*) FROM documents")
		if i%2 == 0 {
			a.Queue("SELECT 1/0")
		} else {
			b.Queue("SELECT 1/0")
		}
		err := store.SendTenantBatchPair(ctx, pool, tn.ID, a, true, b, false)
		if err == nil || !strings.Contains(err.Error(), "division by zero") {
			t.Fatalf("pair %d: %v, want the division by zero", i, err)
		}
	}
	var a, b int
	ba, bb := &pgx.Batch{}, &pgx.Batch{}
	ba.Queue("SELECT count(*) FROM documents").QueryRow(func(r pgx.Row) error { return r.Scan(&a) })
	bb.Queue("SELECT count(*) FROM documents").QueryRow(func(r pgx.Row) error { return r.Scan(&b) })
	if err := store.SendTenantBatchPair(ctx, pool, tn.ID, ba, false, bb, true); err != nil || a != 1 || b != 1 {
		t.Fatalf("after the failures: %d and %d documents, %v; want 1 and 1", a, b, err)
	}
	// No connection carries a tenant outside a transaction.
	var leaked string
	if err := pool.QueryRow(ctx, "SELECT coalesce(current_setting('app.tenant_id', true), '')").Scan(&leaked); err != nil || leaked != "" {
		t.Fatalf("a pooled connection carries tenant %q (%v)", leaked, err)
	}
}

// TestTenantBatchPairCallbackPanic: a callback's panic in either batch of a
// pair reaches the caller's goroutine (where the server's recovery answers
// the request with a 500) instead of ending the process in the pair's own
// goroutine, and the pool goes on serving.
func TestTenantBatchPairCallbackPanic(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pairPool(t)
	tn := testdb.NewTenant(t, "pairpanic", "")
	for _, first := range []bool{true, false} {
		a, b := &pgx.Batch{}, &pgx.Batch{}
		boom := func(pgx.Row) error { panic("boom") }
		fine := func(r pgx.Row) error { var n int; return r.Scan(&n) }
		if first {
			a.Queue("SELECT 1").QueryRow(boom)
			b.Queue("SELECT 1").QueryRow(fine)
		} else {
			a.Queue("SELECT 1").QueryRow(fine)
			b.Queue("SELECT 1").QueryRow(boom)
		}
		hooked := false
		pctx := store.WithPairHook(store.WithPairWait(ctx, time.Minute), func() { hooked = true })
		waitSpare(t, pool)
		got := func() (v any) {
			defer func() { v = recover() }()
			_ = store.SendTenantBatchPair(pctx, pool, tn.ID, a, true, b, false)
			return nil
		}()
		if !hooked {
			t.Fatal("the batches ran in one transaction, not as a pair")
		}
		if got != "boom" {
			t.Fatalf("panic in the %v batch reached the caller as %v, want boom", map[bool]string{true: "first", false: "second"}[first], got)
		}
	}
	a, b := batchPair("SELECT 1", "SELECT 1")
	if err := store.SendTenantBatchPair(ctx, pool, tn.ID, a, true, b, false); err != nil {
		t.Fatalf("after the panics: %v", err)
	}
}

// pairPool is a pool of two connections of the application role, closed
// when the test ends: what SendTenantBatchPair needs, and no more.
func pairPool(t *testing.T) *pgxpool.Pool {
	t.Helper()
	pool, err := store.Open(context.Background(), testdb.URL(), store.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// batchPair is two batches of one statement each.
func batchPair(sqlA, sqlB string) (*pgx.Batch, *pgx.Batch) {
	a, b := &pgx.Batch{}, &pgx.Batch{}
	a.Queue(sqlA)
	b.Queue(sqlB)
	return a, b
}

// waitSpare waits until pool can give SendTenantBatchPair its two
// connections at once (store.spareConn): a released connection is idle
// only after the pool's release check, about one round trip later, and
// until then the pair runs as one transaction.
func waitSpare(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	for range 400 {
		st := pool.Stat()
		if st.IdleConns()+st.MaxConns()-st.TotalConns() >= 2 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the pool never had two connections to spare")
}
