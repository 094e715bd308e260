package search_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// exactCorpus is a tenant of synthetic chunks whose BM25 statistics the
// test knows: words w0…w1499 drawn from a Zipf distribution (a few words in
// most chunks, most words in a few, as in real text), 'simple'
// configuration (each word is its own lexeme), 1,000 documents of 3 chunks.
// Document i has source_uri doc/<i as 3 digits> and metadata {"half": i is
// even}, so prefixes select 0.1 %, 1 % and 10 % of the chunks and the
// metadata 50 %.
type exactCorpus struct {
	tenant  testdb.Tenant
	ids     []uuid.UUID
	docs    []int // document number of each chunk
	tf      []map[string]int
	dl      []int
	df      map[string]int
	tokens  int
	queries []string
}

func newExactCorpus(t *testing.T) *exactCorpus {
	t.Helper()
	ctx := context.Background()
	pool := testdb.App(t)
	c := &exactCorpus{tenant: testdb.NewTenant(t, "exact", "simple"), df: map[string]int{}}
	rng := rand.New(rand.NewPCG(7, 11))
	zipf := rand.NewZipf(rand.New(rand.NewPCG(13, 17)), 1.1, 2, 1499)
	const docs, perDoc = 1000, 3
	var contents []string
	var docIdx, chunkIdx []int
	for d := 0; d < docs; d++ {
		for k := 0; k < perDoc; k++ {
			n := 20 + rng.IntN(180)
			words := make([]string, n)
			tf := map[string]int{}
			for i := range words {
				words[i] = fmt.Sprintf("w%d", zipf.Uint64())
				tf[words[i]]++
			}
			for w := range tf {
				c.df[w]++
			}
			c.tf = append(c.tf, tf)
			c.dl = append(c.dl, n)
			c.tokens += n
			c.docs = append(c.docs, d)
			contents = append(contents, strings.Join(words, " "))
			docIdx, chunkIdx = append(docIdx, d), append(chunkIdx, k)
		}
	}
	err := store.InTenant(ctx, pool, c.tenant.ID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO documents (tenant_id, source_uri, content_type, content_sha, pipeline, body, chunk_count, metadata)
			SELECT $1, format('doc/%s', lpad(g::text, 3, '0')), 'text/plain', '\x00'::bytea, 'fill', 'x', $3,
			       jsonb_build_object('half', g % 2 = 0)
			FROM generate_series(0, $2::int - 1) g`, c.tenant.ID, docs, perDoc); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `INSERT INTO chunks (tenant_id, document_id, chunk_index, content, token_count, start_offset, end_offset, ts_config)
			SELECT $1, d.id, x.k, x.content, 1, 0, 1, 'simple'
			FROM unnest($2::int[], $3::int[], $4::text[]) WITH ORDINALITY AS x (doc, k, content, ord)
			JOIN documents d ON d.tenant_id = $1 AND d.source_uri = format('doc/%s', lpad(x.doc::text, 3, '0'))
			ORDER BY x.ord
			RETURNING id`, c.tenant.ID, docIdx, chunkIdx, contents)
		if err != nil {
			return err
		}
		c.ids, err = pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.ids) != len(contents) {
		t.Fatalf("%d chunks inserted, want %d", len(c.ids), len(contents))
	}
	// INSERT … RETURNING gives no order guarantee: map ids back by content.
	byContent := map[string]uuid.UUID{}
	err = store.InTenant(ctx, pool, c.tenant.ID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT id, content FROM chunks WHERE tenant_id = $1`, c.tenant.ID)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id uuid.UUID
			var s string
			if err := rows.Scan(&id, &s); err != nil {
				return err
			}
			byContent[s] = id
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range contents {
		c.ids[i] = byContent[s]
	}
	// Questions of 8-30 words: mostly common words, as people write them,
	// plus a few rarer ones.
	qrng := rand.New(rand.NewPCG(23, 29))
	qzipf := rand.NewZipf(rand.New(rand.NewPCG(31, 37)), 1.05, 4, 1499)
	for q := 0; q < 40; q++ {
		n := 8 + qrng.IntN(23)
		words := make([]string, n)
		for i := range words {
			words[i] = fmt.Sprintf("w%d", qzipf.Uint64())
		}
		c.queries = append(c.queries, strings.Join(words, " "))
	}
	return c
}

type scored struct {
	id    uuid.UUID
	score float64
}

// reference is exhaustive Okapi BM25 (Lucene's non-negative idf) over every
// chunk that passes keep, best first, ties by id.
func (c *exactCorpus) reference(query string, k1, b float64, keep func(i int) bool) []scored {
	terms := map[string]bool{}
	for _, w := range strings.Fields(query) {
		if c.df[w] > 0 {
			terms[w] = true
		}
	}
	n := float64(len(c.ids))
	avgdl := float64(c.tokens) / n
	var out []scored
	for i := range c.ids {
		if !keep(i) {
			continue
		}
		s, hit := 0.0, false
		for w := range terms {
			tf := float64(c.tf[i][w])
			if tf == 0 {
				continue
			}
			hit = true
			df := float64(c.df[w])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			s += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(c.dl[i])/avgdl))
		}
		if hit {
			out = append(out, scored{c.ids[i], s})
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].score != out[b].score {
			return out[a].score > out[b].score
		}
		return out[a].id.String() < out[b].id.String()
	})
	return out
}

// leg runs the keyword leg's statement as the application role.
func (c *exactCorpus) leg(t *testing.T, query string, k1, b float64, perTerm, n int, filtered bool, prefix, metadata string) []scored {
	t.Helper()
	return c.legAs(context.Background(), t, query, k1, b, perTerm, n, filtered, prefix, metadata)
}

// legAs is leg in a transaction with ctx's visibility (store.WithVisibility).
func (c *exactCorpus) legAs(ctx context.Context, t *testing.T, query string, k1, b float64, perTerm, n int, filtered bool, prefix, metadata string) []scored {
	t.Helper()
	return ranked(ctx, t, testdb.App(t), c.tenant.ID, store.KeywordLegSQL, "simple", c.tenant.ID, query, k1, b, perTerm, n, filtered, prefix, []byte(metadata))
}

// ranked runs sql in tenant's transaction (with ctx's visibility) and
// returns its rows' first two columns, a chunk id and a score, in order.
func ranked(ctx context.Context, t *testing.T, pool *pgxpool.Pool, tenant uuid.UUID, sql string, args ...any) []scored {
	t.Helper()
	var out []scored
	err := store.InTenant(ctx, pool, tenant, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, sql, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				return err
			}
			out = append(out, scored{uuid.UUID(vals[0].([16]byte)), vals[1].(float64)})
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTopK reports how got differs from the reference's first n: equal
// scores (within rounding of a different summation order) rank by rank, and
// the same chunks above the n-th score.
func sameTopK(got, ref []scored, n int) string {
	want := ref[:min(n, len(ref))]
	if len(got) != len(want) {
		return fmt.Sprintf("%d results, want %d", len(got), len(want))
	}
	const tol = 1e-9
	for i := range want {
		if math.Abs(got[i].score-want[i].score) > tol*math.Max(1, want[i].score) {
			return fmt.Sprintf("rank %d: score %.12f, want %.12f", i+1, got[i].score, want[i].score)
		}
	}
	if len(want) == 0 {
		return ""
	}
	last := want[len(want)-1].score
	// Above the last score (by more than rounding) the chunks are the same;
	// at the last score, any of the reference's tied chunks may fill the
	// remaining places.
	tied := map[uuid.UUID]bool{}
	for _, r := range ref {
		if math.Abs(r.score-last) <= tol*math.Max(1, last) {
			tied[r.id] = true
		}
	}
	wantSet := map[uuid.UUID]bool{}
	for _, w := range want {
		wantSet[w.id] = true
	}
	for i, g := range got {
		if !wantSet[g.id] && !tied[g.id] {
			return fmt.Sprintf("rank %d: chunk %s (score %.6f) is not in the reference's top %d", i+1, g.id, g.score, n)
		}
	}
	return ""
}

// TestKeywordLegExact: the keyword leg's ranking is exhaustive Okapi BM25's
// top n, whatever the query's length, the candidate depth (per-term limit
// 10, where the depth alone would miss most chunks, and 150) and BM25's
// parameters; and with a filter it is the exhaustive ranking of the chunks
// that pass the filter, at 0.1 %, 1 %, 10 % and 50 % selectivity.
func TestKeywordLegExact(t *testing.T) {
	t.Parallel()
	c := newExactCorpus(t)
	all := func(int) bool { return true }
	for _, p := range []struct {
		k1, b   float64
		perTerm int
		n       int
	}{{1.2, 0.75, 10, 50}, {1.2, 0.75, 150, 50}, {0.9, 0.4, 10, 10}, {2.0, 1.0, 10, 200}} {
		for qi, q := range c.queries {
			ref := c.reference(q, p.k1, p.b, all)
			got := c.leg(t, q, p.k1, p.b, p.perTerm, p.n, false, "", "{}")
			if msg := sameTopK(got, ref, p.n); msg != "" {
				t.Errorf("k1 %.1f b %.2f per-term %d n %d, query %d (%d words): %s", p.k1, p.b, p.perTerm, p.n, qi, len(strings.Fields(q)), msg)
			}
		}
	}
	for _, f := range []struct {
		name, prefix, metadata string
		keep                   func(i int) bool
	}{
		{"0.1%", "doc/007", "{}", func(i int) bool { return c.docs[i] == 7 }},
		{"1%", "doc/04", "{}", func(i int) bool { return c.docs[i]/10 == 4 }},
		{"10%", "doc/3", "{}", func(i int) bool { return c.docs[i]/100 == 3 }},
		{"50%", "", `{"half": true}`, func(i int) bool { return c.docs[i]%2 == 0 }},
		{"5% (both)", "doc/1", `{"half": false}`, func(i int) bool { return c.docs[i]/100 == 1 && c.docs[i]%2 == 1 }},
	} {
		for qi, q := range c.queries {
			ref := c.reference(q, 1.2, 0.75, f.keep)
			got := c.leg(t, q, 1.2, 0.75, 10, 20, true, f.prefix, f.metadata)
			if msg := sameTopK(got, ref, 20); msg != "" {
				t.Errorf("filter %s, query %d: %s", f.name, qi, msg)
			}
		}
	}
}

// exhaustiveSQL is exhaustive Okapi BM25 over every posting of the query's
// 64 rarest terms, in SQL, filters applied, best first, ties by chunk id
// ($1 tenant, $2 text ('simple' configuration), $3 k1, $4 b, $5 n, $6
// filtered, $7 prefix, $8 metadata; every parameter cast, since an
// untyped $3 + 1 makes k1 an integer and pgx truncates 1.2 to 1 without an
// error). Its sums add the same float8 terms
// as the leg's for identical chunks, so a tie between duplicate chunks is
// exact in both and the chunk ids must agree rank by rank.
const exhaustiveSQL = `WITH st AS (
	SELECT chunk_count::float8 AS n, token_count::float8 / greatest(chunk_count, 1) AS avgdl
	FROM tenant_stats WHERE tenant_id = $1
), terms AS (
	SELECT t.lexeme, ln(1 + (st.n - t.df + 0.5) / (t.df + 0.5)) AS idf
	FROM term_stats t, st
	WHERE t.tenant_id = $1 AND t.lexeme = ANY (tsvector_to_array(to_tsvector('simple', $2::text)))
	ORDER BY t.df, t.lexeme LIMIT 64
)
SELECT p.chunk_id, sum(terms.idf * p.tf * ($3::float8 + 1) / (p.tf + $3::float8 * (1 - $4::float8 + $4::float8 * p.dl / st.avgdl)))::float8
FROM terms JOIN postings p ON p.tenant_id = $1 AND p.lexeme = terms.lexeme CROSS JOIN st
WHERE NOT $6::bool OR EXISTS (
	SELECT 1 FROM chunks c JOIN documents d ON d.tenant_id = c.tenant_id AND d.id = c.document_id
	WHERE c.tenant_id = $1 AND c.id = p.chunk_id AND starts_with(d.source_uri, $7::text) AND d.metadata @> $8::jsonb)
GROUP BY p.chunk_id
ORDER BY 2 DESC, 1
LIMIT $5::int`

// TestKeywordLegBreaksTiesByChunkID: chunks with equal scores rank by chunk
// id, as in the exhaustive ranking, also where the n-th place falls inside
// a group of tied chunks, whatever the pruning path (threshold from deep or
// shallow per-term lists, selective and unselective filters). A tenant of
// duplicate chunks (three groups of 24 identical chunks holding the query's
// terms, fillers holding none): TestKeywordLegExact accepts any chunk tied
// with the n-th score there, so it cannot see a wrong tie order.
func TestKeywordLegBreaksTiesByChunkID(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.App(t)
	tn := testdb.NewTenant(t, "ties", "simple")
	var contents []string
	for _, text := range []string{"alpha beta", "alpha", "beta gamma gamma"} {
		for i := 0; i < 24; i++ {
			contents = append(contents, text)
		}
	}
	for i := 0; i < 100; i++ {
		contents = append(contents, "zeta eta theta")
	}
	err := store.InTenant(ctx, pool, tn.ID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO documents (tenant_id, source_uri, content_type, content_sha, pipeline, body, chunk_count)
			SELECT $1, format('tie/%s', g), 'text/plain', '\x00'::bytea, 'fill', 'x', 0 FROM generate_series(0, 9) g`, tn.ID); err != nil {
			return err
		}
		// Chunk i goes to document i mod 10, so every group spans the
		// documents and a prefix keeps part of each.
		_, err := tx.Exec(ctx, `INSERT INTO chunks (tenant_id, document_id, chunk_index, content, token_count, start_offset, end_offset, ts_config)
			SELECT $1, d.id, x.i, x.content, 1, 0, 1, 'simple'
			FROM unnest($2::text[]) WITH ORDINALITY AS x (content, i)
			JOIN documents d ON d.tenant_id = $1 AND d.source_uri = format('tie/%s', x.i % 10)`, tn.ID, contents)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	rank := func(sql string, args ...any) []scored {
		t.Helper()
		return ranked(ctx, t, pool, tn.ID, sql, args...)
	}
	for _, q := range []string{"alpha beta gamma", "alpha", "beta", "gamma alpha"} {
		for _, p := range []struct{ k1, b float64 }{{1.2, 0.75}, {0.9, 0.4}, {1.2, 0}, {2, 1}} {
			for _, f := range []struct {
				filtered bool
				prefix   string
			}{{false, ""}, {true, "tie/3"}, {true, "tie/"}} {
				for _, perTerm := range []int{10, 1000} {
					for _, n := range []int{1, 10, 24, 30, 60, 100} {
						want := rank(exhaustiveSQL, tn.ID, q, p.k1, p.b, n, f.filtered, f.prefix, "{}")
						got := rank(store.KeywordLegSQL, "simple", tn.ID, q, p.k1, p.b, perTerm, n, f.filtered, f.prefix, []byte("{}"))
						if msg := sameRanking(got, want); msg != "" {
							t.Errorf("%q k1 %.1f b %.2f filtered %v %q per-term %d n %d: %s", q, p.k1, p.b, f.filtered, f.prefix, perTerm, n, msg)
						}
					}
				}
			}
		}
	}
}

// sameRanking reports how got differs from want: the same chunk at every
// rank, with the same score to rounding.
func sameRanking(got, want []scored) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d results, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].id != want[i].id || math.Abs(got[i].score-want[i].score) > 1e-9*math.Max(1, want[i].score) {
			return fmt.Sprintf("rank %d: chunk %s score %.12f, want %s score %.12f", i+1, got[i].id, got[i].score, want[i].id, want[i].score)
		}
	}
	return ""
}

// TestKeywordSearchPlansEachCall: keyword_search, and the filtered
// searches' filtered_chunks and vector_search_filtered, pin plan_cache_mode
// = force_custom_plan for their own statements, whatever the session's
// setting. Their statements take arrays built at run time (the filtered
// chunks, the candidates); only a custom plan sees them as constants and
// tests membership by hashing. The pool sets the mode on every connection,
// but a session left at PostgreSQL's default (auto) switches PL/pgSQL to
// generic plans from the sixth call: measured on the manual's tenant, a
// filtered search matching every document went from 40-60 ms to 250-510 ms
// a call.
func TestKeywordSearchPlansEachCall(t *testing.T) {
	t.Parallel()
	for _, fn := range []string{"keyword_search", "filtered_chunks", "vector_search_filtered"} {
		var config []string
		err := testdb.App(t).QueryRow(context.Background(),
			`SELECT coalesce(proconfig, '{}') FROM pg_proc WHERE proname = $1 AND pronamespace = 'public'::regnamespace`, fn).Scan(&config)
		if err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
		if !slices.Contains(config, "plan_cache_mode=force_custom_plan") {
			t.Errorf("%s's settings %q lack plan_cache_mode=force_custom_plan", fn, config)
		}
	}
}

// TestKeywordLegExactUnderAccess: with document access lists, the keyword
// leg of a principal is the exhaustive ranking of the chunks it may read
// (df and the tenant's statistics still over every chunk), at 0.1 %, 1 %,
// 10 % and 50 % visibility, unfiltered at several depths and BM25
// parameters, and with a filter on top. Every document has a list (no
// tenant-wide ones): document i names group:g001 if i = 7, group:g1 if
// i/10 = 4, group:g10 if i/100 = 3, group:g50 if i is even, and
// group:nobody otherwise; the lists are set after the chunks exist, so the
// access change's copy onto the postings is what is tested.
func TestKeywordLegExactUnderAccess(t *testing.T) {
	t.Parallel()
	c := newExactCorpus(t)
	all := store.WithVisibility(context.Background(), store.AllDocuments())
	err := store.InTenant(all, testdb.App(t), c.tenant.ID, func(tx pgx.Tx) error {
		_, err := tx.Exec(all, `UPDATE documents d SET access_id = access_list_id($1, g.list)
			FROM (SELECT id, ARRAY(SELECT x FROM unnest(ARRAY[
			        CASE WHEN n = 7 THEN 'group:g001' END,
			        CASE WHEN n / 10 = 4 THEN 'group:g1' END,
			        CASE WHEN n / 100 = 3 THEN 'group:g10' END,
			        CASE WHEN n % 2 = 0 THEN 'group:g50' END]) AS x WHERE x IS NOT NULL) AS list
			      FROM (SELECT id, substr(source_uri, 5)::int AS n FROM documents WHERE tenant_id = $1) s) g
			WHERE d.tenant_id = $1 AND d.id = g.id`, c.tenant.ID)
		if err != nil {
			return err
		}
		_, err = tx.Exec(all, `UPDATE documents SET access_id = access_list_id($1, '{group:nobody}') WHERE tenant_id = $1 AND access_id = 0`, c.tenant.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []struct {
		name, group string
		keep        func(i int) bool
	}{
		{"0.1%", "group:g001", func(i int) bool { return c.docs[i] == 7 }},
		{"1%", "group:g1", func(i int) bool { return c.docs[i]/10 == 4 }},
		{"10%", "group:g10", func(i int) bool { return c.docs[i]/100 == 3 }},
		{"50%", "group:g50", func(i int) bool { return c.docs[i]%2 == 0 }},
	} {
		ctx := store.WithVisibility(context.Background(), store.AsPrincipals([]string{"user:x", v.group}))
		for _, p := range []struct {
			k1, b      float64
			perTerm, n int
		}{{1.2, 0.75, 10, 50}, {2.0, 1.0, 10, 200}} {
			for qi, q := range c.queries[:20] {
				ref := c.reference(q, p.k1, p.b, v.keep)
				got := c.legAs(ctx, t, q, p.k1, p.b, p.perTerm, p.n, false, "", "{}")
				if msg := sameTopK(got, ref, p.n); msg != "" {
					t.Errorf("visibility %s, k1 %.1f b %.2f per-term %d n %d, query %d: %s", v.name, p.k1, p.b, p.perTerm, p.n, qi, msg)
				}
			}
		}
		// A filter on top of the access list: the documents under doc/3.
		for qi, q := range c.queries[:20] {
			keep := func(i int) bool { return v.keep(i) && c.docs[i]/100 == 3 }
			ref := c.reference(q, 1.2, 0.75, keep)
			got := c.legAs(ctx, t, q, 1.2, 0.75, 10, 20, true, "doc/3", "{}")
			if msg := sameTopK(got, ref, 20); msg != "" {
				t.Errorf("visibility %s with prefix doc/3, query %d: %s", v.name, qi, msg)
			}
		}
	}
	// No principals: no document is tenant-wide, so nothing.
	for qi, q := range c.queries[:5] {
		if got := c.legAs(context.Background(), t, q, 1.2, 0.75, 10, 20, false, "", "{}"); len(got) != 0 {
			t.Errorf("no principals, query %d: %d results, want 0", qi, len(got))
		}
	}
}

// TestKeywordBoundsStayBounds: the per-term bounds the pruning reads
// (term_stats.max_tf, min_dl; migration 00025) are exact after inserts,
// stay bounds after deletes (looser: a delete leaves them), stay unknown
// (NULL, the idf·(k1 + 1) bound) once unknown; and the leg's ranking is
// the exhaustive one in each state, ties included.
func TestKeywordBoundsStayBounds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newExactCorpus(t)
	app, owner := testdb.App(t), testdb.Owner(t)
	// bounds returns, over the tenant's terms, how many have bounds equal to
	// their postings' extremes, how many looser, how many violated, how
	// many unknown.
	bounds := func() (equal, looser, violated, unknown int) {
		t.Helper()
		err := store.InTenant(ctx, app, c.tenant.ID, func(tx pgx.Tx) error {
			return tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE s.max_tf = x.max_tf AND s.min_dl = x.min_dl),
			       count(*) FILTER (WHERE (s.max_tf > x.max_tf AND s.min_dl <= x.min_dl) OR (s.max_tf >= x.max_tf AND s.min_dl < x.min_dl)),
			       count(*) FILTER (WHERE s.max_tf < x.max_tf OR s.min_dl > x.min_dl),
			       count(*) FILTER (WHERE s.max_tf IS NULL OR s.min_dl IS NULL)
			FROM term_stats s
			JOIN (SELECT lexeme, max(tf) AS max_tf, min(dl) AS min_dl FROM postings WHERE tenant_id = $1 GROUP BY lexeme) x
			  ON x.lexeme = s.lexeme
			WHERE s.tenant_id = $1`, c.tenant.ID).Scan(&equal, &looser, &violated, &unknown)
		})
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	rank := func(sql string, args ...any) []scored {
		t.Helper()
		return ranked(ctx, t, app, c.tenant.ID, sql, args...)
	}
	exact := func(state string) {
		t.Helper()
		for _, p := range []struct {
			k1, b      float64
			perTerm, n int
		}{{1.2, 0.75, 10, 50}, {0.9, 0.4, 10, 10}, {2, 1, 150, 100}} {
			for qi, q := range c.queries {
				want := rank(exhaustiveSQL, c.tenant.ID, q, p.k1, p.b, p.n, false, "", "{}")
				got := rank(store.KeywordLegSQL, "simple", c.tenant.ID, q, p.k1, p.b, p.perTerm, p.n, false, "", []byte("{}"))
				if msg := sameRanking(got, want); msg != "" {
					t.Errorf("%s: k1 %.1f b %.2f per-term %d n %d, query %d: %s", state, p.k1, p.b, p.perTerm, p.n, qi, msg)
				}
			}
		}
	}

	equal, looser, violated, unknown := bounds()
	if equal == 0 || looser+violated+unknown != 0 {
		t.Fatalf("after inserts: %d terms with exact bounds, %d looser, %d violated, %d unknown; want all exact", equal, looser, violated, unknown)
	}

	// Delete the documents holding each common term's largest tf and the
	// shortest chunks: the bounds those postings set must now be looser.
	err := store.InTenant(ctx, app, c.tenant.ID, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM documents WHERE tenant_id = $1 AND id IN (
			SELECT c.document_id FROM chunks c WHERE c.tenant_id = $1 AND c.id IN (
				(SELECT p.chunk_id FROM postings p JOIN term_stats s ON s.tenant_id = p.tenant_id AND s.lexeme = p.lexeme
				 WHERE p.tenant_id = $1 AND s.df > 100 AND p.tf = s.max_tf)
				UNION
				(SELECT c2.id FROM chunks c2 WHERE c2.tenant_id = $1 ORDER BY length(c2.content), c2.id LIMIT 100)))`, c.tenant.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	equal, looser, violated, unknown = bounds()
	if violated != 0 || unknown != 0 || looser == 0 {
		t.Fatalf("after deletes: %d exact, %d looser, %d violated, %d unknown; want none violated and some looser", equal, looser, violated, unknown)
	}
	exact("after deletes")

	// Unknown bounds (a row written without them) stay unknown when new
	// chunks add postings to the term, and the leg stays exact.
	err = store.InTenant(ctx, owner, c.tenant.ID, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE term_stats SET max_tf = NULL, min_dl = NULL
			WHERE tenant_id = $1 AND lexeme IN (SELECT lexeme FROM term_stats WHERE tenant_id = $1 ORDER BY df DESC, lexeme LIMIT 20)`, c.tenant.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = store.InTenant(ctx, app, c.tenant.ID, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO chunks (tenant_id, document_id, chunk_index, content, token_count, start_offset, end_offset, ts_config)
			SELECT $1, d.id, 100 + 2 * s.i + g, repeat(s.lexeme || ' ', 40), 1, 0, 1, 'simple'
			FROM (SELECT id FROM documents WHERE tenant_id = $1 ORDER BY id LIMIT 1) d,
			     (SELECT lexeme, row_number() OVER (ORDER BY df DESC, lexeme) AS i FROM term_stats WHERE tenant_id = $1 ORDER BY df DESC, lexeme LIMIT 20) s,
			     generate_series(0, 1) g`, c.tenant.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	_, _, violated, unknown = bounds()
	if violated != 0 || unknown != 20 {
		t.Fatalf("after inserts into unknown bounds: %d violated, %d unknown; want 0 and 20", violated, unknown)
	}
	exact("with unknown bounds")
}
