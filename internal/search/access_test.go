package search

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
	"github.com/ragd-dev/ragd/internal/vindex"
)

// TestVectorLegUnderAccess: a principal who may read 10 % (and 1 %) of a
// tenant above the exact threshold gets a full top-k from the vector leg
// through the tenant's dedicated HNSW index (the iterative scan keeps
// walking past the rows the access policy filters out), with recall@20 ≥
// 0.9 against the exact ranking of what it may read; and no chunk it may
// not read. 2,000 chunks in 200 documents; every tenth document is
// group:g10's, two documents group:g1's, the rest group:rest's.
func TestVectorLegUnderAccess(t *testing.T) {
	ctx := context.Background()
	owner, app := testdb.Owner(t), testdb.App(t)
	tt := testdb.NewTenant(t, "vindex-acl", "")
	name := vindex.Name(tt.ID, 1)
	t.Cleanup(func() {
		if err := vindex.DropTenant(context.WithoutCancel(ctx), owner, tt.ID); err != nil {
			t.Errorf("drop indexes: %v", err)
		}
	})
	all := store.WithVisibility(ctx, store.AllDocuments())
	err := store.InTenant(all, app, tt.ID, func(tx pgx.Tx) error {
		for _, sql := range []string{
			`INSERT INTO documents (tenant_id, source_uri, content_type, content_sha, pipeline, body, chunk_count, access_id)
			 SELECT $1, 'acl://' || g, 'text/plain', '\x00'::bytea, 'fill', 'a', 10,
			        access_list_id($1, CASE WHEN g % 10 = 0 THEN '{group:g10}' WHEN g IN (3, 7) THEN '{group:g1}' ELSE '{group:rest}' END::text[])
			 FROM generate_series(0, 199) g`,
			`INSERT INTO chunks (tenant_id, document_id, chunk_index, content, token_count, start_offset, end_offset, ts_config)
			 SELECT $1, d.id, k, 'a', 1, 0, 1, 'english' FROM documents d, generate_series(0, 9) k WHERE d.tenant_id = $1`,
			`INSERT INTO chunk_embeddings (tenant_id, chunk_id, model_id, text_sha, embedding)
			 SELECT c.tenant_id, c.id, 1, decode(md5(c.id::text), 'hex'),
			        ARRAY(SELECT random() - 0.5 FROM generate_series(1, 512) WHERE c.chunk_index >= 0)::vector
			 FROM chunks c WHERE c.tenant_id = $1`,
		} {
			if _, err := tx.Exec(all, sql, tt.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if done, err := vindex.Ensure(ctx, owner, vindex.Options{Threshold: 100, Tenant: tt.ID, Concurrently: true}); err != nil || len(done) != 1 {
		t.Fatalf("index run: %+v, %v", done, err)
	}
	tn, err := tenant.Load(ctx, app, tt.ID)
	if err != nil {
		t.Fatal(err)
	}
	emb := &scaleEmbedder{}
	s := &Searcher{Pool: app, Embedder: fixedDims{emb, 512}, ModelID: 1, ExactThreshold: 100}
	for _, v := range []struct {
		group string
		docs  int
	}{{"group:g10", 20}, {"group:g1", 2}} {
		rctx := store.WithVisibility(ctx, store.AsPrincipals([]string{"user:u", v.group}))
		var sum float64
		for qi := range 10 {
			q := randomQuery(uint64(100 + qi))
			resp, err := s.Search(rctx, tn, Request{Query: emb.set(q), TopK: 20, Only: LegVector})
			if err != nil {
				t.Fatal(err)
			}
			want, err := scaleExact(rctx, app, tn, 1, q, 20)
			if err != nil {
				t.Fatal(err)
			}
			var got []uuid.UUID
			for _, r := range resp.Results {
				got = append(got, r.ChunkID)
				if !strings.HasPrefix(r.SourceURI, "acl://") {
					t.Fatalf("result %+v", r)
				}
				n, _ := strconv.Atoi(strings.TrimPrefix(r.SourceURI, "acl://"))
				if (v.group == "group:g10" && n%10 != 0) || (v.group == "group:g1" && n != 3 && n != 7) {
					t.Errorf("%s got a chunk of document %d", v.group, n)
				}
			}
			if len(got) != 20 || len(want) != 20 {
				t.Errorf("%s query %d: %d results, exact %d; want 20 (a full top-k)", v.group, qi, len(got), len(want))
			}
			sum += recallAt(got, want)
		}
		if mean := sum / 10; mean < 0.9 {
			t.Errorf("%s: mean recall@20 %.2f against the exact ranking of its documents, want ≥ 0.9", v.group, mean)
		}
		// The walk is the dedicated index, under the principal's policy.
		var plan []string
		err := store.InTenant(rctx, app, tt.ID, func(tx pgx.Tx) error {
			if _, err := tx.Exec(rctx, store.VectorSettingsSQL, strconv.Itoa(hnswEfSearch(20))); err != nil {
				return err
			}
			hnsw, err := store.VectorLegSQL(store.VectorHNSW, 512, 1)
			if err != nil {
				return err
			}
			rows, err := tx.Query(rctx, "EXPLAIN (ANALYZE, COSTS OFF) "+hnsw, pgvector.NewVector(randomQuery(1)), tt.ID, 20, 40)
			if err != nil {
				return err
			}
			plan, err = pgx.CollectRows(rows, pgx.RowTo[string])
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if p := strings.Join(plan, "\n"); !walks(p, name) {
			t.Errorf("%s: the vector query does not walk %s:\n%s", v.group, name, p)
		}
	}
}
