package search

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// hashEmbedder gives each text a reproducible 512-dimension vector drawn
// from its hash, as model use-lite: latency only, no meaning.
type hashEmbedder struct{}

func (hashEmbedder) Model() string { return "use-lite" }
func (hashEmbedder) Dims() int     { return 512 }
func (hashEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		h := fnv.New64a()
		h.Write([]byte(t))
		r := rand.New(rand.NewPCG(h.Sum64(), 1))
		v := make([]float32, 512)
		for j := range v {
			v[j] = float32(r.Float64() - 0.5)
		}
		out[i] = v
	}
	return out, nil
}

// BenchmarkSearchUnderAccess measures the search path (both legs, fusion;
// no reranker, no embedding call: the embedder is in process) for readers
// of one tenant of 5,000 chunks (500 documents of 10 chunks of 40-120
// Zipf-distributed words over 3,000 words; random vectors; exact vector
// scan, the tenant being at the exact threshold; RAGD_ACL_BENCH_DOCS sets
// another number of documents, e.g. 5000 for 50,000 chunks served by the
// HNSW graph) who see all of it or part:
//
//	all       store.AllDocuments (the policies' first test passes);
//	100%      principals whose groups name every document's list;
//	10%, 1%   principals whose group names a tenth / a hundredth.
//
// The readers alternate query by query, so the machine's load falls on all
// alike; each reports its p50 and p95 in milliseconds. docs/BENCHMARKS.md
// ("Document permissions") has a run.
func BenchmarkSearchUnderAccess(b *testing.B) {
	ctx := context.Background()
	app := testdb.App(b)
	tt := testdb.NewTenant(b, "acl-bench", "simple")
	all := store.WithVisibility(ctx, store.AllDocuments())
	rng := rand.New(rand.NewPCG(3, 5))
	zipf := rand.NewZipf(rand.New(rand.NewPCG(7, 9)), 1.1, 2, 2999)
	text := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = fmt.Sprintf("w%d", zipf.Uint64())
		}
		return strings.Join(w, " ")
	}
	docs := 500
	if v, err := strconv.Atoi(os.Getenv("RAGD_ACL_BENCH_DOCS")); err == nil && v >= 100 {
		docs = v
	}
	var contents []string
	for range 10 * docs {
		contents = append(contents, text(40+rng.IntN(80)))
	}
	err := store.InTenant(all, app, tt.ID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(all, "SELECT set_config('plan_cache_mode', 'auto', true)"); err != nil {
			return err
		}
		for _, sql := range []string{
			`INSERT INTO documents (tenant_id, source_uri, content_type, content_sha, pipeline, body, chunk_count, access_id)
			 SELECT $1, 'acl://' || g, 'text/plain', '\x00'::bytea, 'bench', 'x', 10,
			        access_list_id($1, CASE WHEN g % 100 = 0 THEN '{group:g1,group:g10}' WHEN g % 10 = 0 THEN '{group:g10}' ELSE '{group:rest}' END::text[])
			 FROM generate_series(0, cardinality($2::text[]) / 10 - 1) g`,
			`INSERT INTO chunks (tenant_id, document_id, chunk_index, content, token_count, start_offset, end_offset, ts_config)
			 SELECT $1, d.id, (x.i - 1) % 10, x.content, 1, 0, 1, 'simple'
			 FROM unnest($2::text[]) WITH ORDINALITY AS x (content, i)
			 JOIN documents d ON d.tenant_id = $1 AND d.source_uri = 'acl://' || ((x.i - 1) / 10)`,
			`INSERT INTO chunk_embeddings (tenant_id, chunk_id, model_id, text_sha, embedding)
			 SELECT c.tenant_id, c.id, 1, decode(md5(c.id::text), 'hex'),
			        ARRAY(SELECT random() - 0.5 FROM generate_series(1, 512) WHERE c.chunk_index >= 0)::vector
			 FROM chunks c WHERE c.tenant_id = $1 AND $2::text[] IS NOT NULL`,
		} {
			if _, err := tx.Exec(all, sql, tt.ID, contents); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := testdb.Owner(b).Exec(ctx, "ANALYZE documents, chunks, chunk_embeddings, postings"); err != nil {
		b.Fatal(err)
	}
	tn, err := tenant.Load(ctx, app, tt.ID)
	if err != nil {
		b.Fatal(err)
	}
	s := &Searcher{Pool: app, Embedder: hashEmbedder{}, ModelID: 1}
	readers := []struct {
		name string
		ctx  context.Context
	}{
		{"all", all},
		{"100%", store.WithVisibility(ctx, store.AsPrincipals([]string{"group:g10", "group:rest", "user:r"}))},
		{"10%", store.WithVisibility(ctx, store.AsPrincipals([]string{"group:g10", "user:r"}))},
		{"1%", store.WithVisibility(ctx, store.AsPrincipals([]string{"group:g1", "user:r"}))},
	}
	var queries []string
	for range 64 {
		queries = append(queries, text(8+rng.IntN(12)))
	}
	lat := make([][]time.Duration, len(readers))
	// One warm-up round: connections, prepared statements.
	for _, r := range readers {
		if _, err := s.Search(r.ctx, tn, Request{Query: queries[0], TopK: 10}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := queries[i%len(queries)]
		for j, r := range readers {
			start := time.Now()
			resp, err := s.Search(r.ctx, tn, Request{Query: q, TopK: 10})
			lat[j] = append(lat[j], time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
			if len(resp.Results) == 0 {
				b.Fatalf("%s: no results for %q", r.name, q)
			}
		}
	}
	b.StopTimer()
	for j, r := range readers {
		slices.Sort(lat[j])
		n := len(lat[j])
		b.ReportMetric(float64(lat[j][n/2].Microseconds())/1000, r.name+"-p50-ms")
		b.ReportMetric(float64(lat[j][min(n-1, n*95/100)].Microseconds())/1000, r.name+"-p95-ms")
	}
}
