package search_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// r58Tenant builds a 'simple' tenant whose chunk i holds contents[i] in
// document docOf[i] (source_uri r58/<n>); access[n], when set, is document
// n's access list (set after the chunks exist, so the access change's copy
// onto the postings is what is read).
func r58Tenant(t *testing.T, prefix string, contents []string, docOf []int, access map[int][]string) testdb.Tenant {
	t.Helper()
	return r58TenantIDs(t, prefix, contents, docOf, nil, access)
}

// r58TenantIDs is r58Tenant with chunk ids given (ids[i] for chunk i; nil:
// random).
func r58TenantIDs(t *testing.T, prefix string, contents []string, docOf []int, ids []uuid.UUID, access map[int][]string) testdb.Tenant {
	t.Helper()
	if ids == nil {
		for range contents {
			ids = append(ids, uuid.New())
		}
	}
	ctx := context.Background()
	pool := testdb.App(t)
	tn := testdb.NewTenant(t, prefix, "simple")
	ndocs := 0
	for _, d := range docOf {
		ndocs = max(ndocs, d+1)
	}
	idx := make([]int, len(contents))
	for i := range idx {
		idx[i] = i
	}
	err := store.InTenant(ctx, pool, tn.ID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO documents (tenant_id, source_uri, content_type, content_sha, pipeline, body, chunk_count)
			SELECT $1, format('r58/%s', g), 'text/plain', '\x00'::bytea, 'fill', 'x', 0 FROM generate_series(0, $2::int - 1) g`, tn.ID, ndocs); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO chunks (tenant_id, id, document_id, chunk_index, content, token_count, start_offset, end_offset, ts_config)
			SELECT $1, x.id, d.id, x.i, x.content, 1, 0, 1, 'simple'
			FROM unnest($2::text[], $3::int[], $4::int[], $5::uuid[]) AS x (content, doc, i, id)
			JOIN documents d ON d.tenant_id = $1 AND d.source_uri = format('r58/%s', x.doc)`, tn.ID, contents, docOf, idx, ids)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(access) > 0 {
		all := store.WithVisibility(ctx, store.AllDocuments())
		err := store.InTenant(all, pool, tn.ID, func(tx pgx.Tx) error {
			for n, list := range access {
				if _, err := tx.Exec(all, `UPDATE documents SET access_id = access_list_id($1, $2::text[]) WHERE tenant_id = $1 AND source_uri = format('r58/%s', $3::int)`,
					tn.ID, list, n); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return tn
}

// r58Exhaustive is exhaustive Okapi BM25 over the visible postings of the
// 64 rarest of the lexemes $2, each score rounded to 1e-9 as keyword_search
// returns it, ordered as keyword_search orders: rounded score, then chunk id
// ($1 tenant, $3 k1, $4 b, $5 n).
const r58Exhaustive = `WITH st AS (
	SELECT chunk_count::float8 AS n, token_count::float8 / greatest(chunk_count, 1) AS avgdl
	FROM tenant_stats WHERE tenant_id = $1
), terms AS (
	SELECT t.lexeme, ln(1 + (st.n - t.df + 0.5) / (t.df + 0.5)) AS idf
	FROM term_stats t, st
	WHERE t.tenant_id = $1 AND t.lexeme = ANY ($2::text[])
	ORDER BY t.df, t.lexeme LIMIT 64
)
SELECT p.chunk_id, round(sum(terms.idf * p.tf * ($3::float8 + 1) / (p.tf + $3::float8 * (1 - $4::float8 + $4::float8 * p.dl / st.avgdl)))::numeric, 9)::float8
FROM terms JOIN postings p ON p.tenant_id = $1 AND p.lexeme = terms.lexeme CROSS JOIN st
GROUP BY p.chunk_id
ORDER BY 2 DESC, 1
LIMIT $5::int`

// r58Unrounded is r58Exhaustive's scores unrounded (for diagnostics).
const r58Unrounded = `WITH st AS (
	SELECT chunk_count::float8 AS n, token_count::float8 / greatest(chunk_count, 1) AS avgdl
	FROM tenant_stats WHERE tenant_id = $1
), terms AS (
	SELECT t.lexeme, ln(1 + (st.n - t.df + 0.5) / (t.df + 0.5)) AS idf
	FROM term_stats t, st
	WHERE t.tenant_id = $1 AND t.lexeme = ANY ($2::text[])
	ORDER BY t.df, t.lexeme LIMIT 64
)
SELECT p.chunk_id, sum(terms.idf * p.tf * ($3::float8 + 1) / (p.tf + $3::float8 * (1 - $4::float8 + $4::float8 * p.dl / st.avgdl)))::float8
FROM terms JOIN postings p ON p.tenant_id = $1 AND p.lexeme = terms.lexeme CROSS JOIN st
GROUP BY p.chunk_id
ORDER BY 2 DESC, 1
LIMIT $5::int`

// r58Function calls keyword_search unfiltered with the lexemes $2 as given.
const r58Function = `SELECT chunk_id, score FROM keyword_search($1::uuid, $2::text[], $3::float8, $4::float8, $5::int, $6::int, false, '', '{}'::jsonb)`

func r58Rank(ctx context.Context, t *testing.T, tenant uuid.UUID, sql string, args ...any) []scored {
	t.Helper()
	return ranked(ctx, t, testdb.App(t), tenant, sql, args...)
}

func r58Fmt(rs []scored) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s…=%.12f", r.id.String()[:8], r.score)
	}
	return "[" + b.String() + "]"
}

// r58Instrumented is migration 00037's keyword_search (its Up section) as
// the temporary function pg_temp.r58_new_keyword_search, counting in
// transaction-local settings how often step 3a raised θ (r58.rise3a) and
// how many terms step 3b added (r58.loop3b): the coverage of the change's
// new steps by the calls that the real function also answers.
func r58Instrumented(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("../../db/migrations/00037_keyword_theta_from_partials.sql")
	if err != nil {
		t.Fatal(err)
	}
	up := string(src[:strings.Index(string(src), "-- +goose Down")])
	body := up[strings.Index(up, "CREATE OR REPLACE FUNCTION keyword_search("):strings.Index(up, "-- +goose StatementEnd")]
	body = strings.Replace(body, "CREATE OR REPLACE FUNCTION keyword_search(", "CREATE FUNCTION pg_temp.r58_new_keyword_search(", 1)
	const rise = "SELECT greatest(v_theta, (SELECT s FROM unnest(v_part) s ORDER BY s DESC OFFSET p_top_n - 1 LIMIT 1)) INTO v_theta;"
	inc := func(name string) string {
		return fmt.Sprintf("PERFORM set_config('%s', (coalesce(nullif(current_setting('%s', true), ''), '0')::int + 1)::text, true);", name, name)
	}
	i := strings.Index(body, rise)
	if i < 0 || strings.Count(body, "v_ess := v_ess + 1;") != 1 {
		t.Fatal("migration 00037's text is not as expected")
	}
	body = body[:i] + "PERFORM set_config('r58.t', v_theta::text, true); " + rise +
		" IF v_theta > current_setting('r58.t')::float8 THEN " + inc("r58.rise3a") + " END IF;" + body[i+len(rise):]
	body = strings.Replace(body, "v_ess := v_ess + 1;", "v_ess := v_ess + 1; "+inc("r58.loop3b"), 1)
	return body
}

// r58Scan reads a ranking's rows.
func r58Scan(rows pgx.Rows) ([]scored, error) {
	var out []scored
	for rows.Next() {
		var s scored
		if err := rows.Scan(&s.id, &s.score); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// TestReview58RandomDifferential: keyword_search
// against the exhaustive ranking (scores rounded to 1e-9, ties by chunk
// id) over small adversarial tenants: a handful of words, in one seed of
// three a word in every chunk (idf near 0), a quarter of the chunks
// duplicates of earlier ones (exact ties), lengths 1 to 60 words, documents
// tenant-wide or restricted to group:seen or group:hidden (read as the
// tenant-wide caller, as group:seen and as every document), questions with
// repeated and missing lexemes, top n 1 to past the matching chunks (1, 2, 5, 20, 500),
// per-term depths 1, 10, 1000, k1 0 to 3, b 0 to 1. It also runs an
// instrumented copy of the function (same text, counters added) to show the
// change's steps 3a and 3b ran, and that the copy agrees with the function.
func TestReview58RandomDifferential(t *testing.T) {
	t.Parallel()
	vocab := []string{"aa", "bb", "cc", "dd", "ee", "ff", "gg", "hh", "ii", "jj", "kk", "ll"}
	instrumented := r58Instrumented(t)
	fails, calls, rises, loops := 0, 0, 0, 0
	for seed := uint64(1); seed <= 6; seed++ {
		rng := rand.New(rand.NewPCG(seed, 58))
		nchunks := 60 + rng.IntN(200)
		ndocs := 5 + rng.IntN(15)
		var contents []string
		var docOf []int
		// word weights: the first words common, the rest rare
		weights := make([]float64, len(vocab))
		for i := range weights {
			weights[i] = 1 / math.Pow(float64(i+1), 1+rng.Float64())
		}
		pick := func() string {
			var sum float64
			for _, w := range weights {
				sum += w
			}
			x := rng.Float64() * sum
			for i, w := range weights {
				if x < w {
					return vocab[i]
				}
				x -= w
			}
			return vocab[len(vocab)-1]
		}
		for i := 0; i < nchunks; i++ {
			if i > 0 && rng.IntN(4) == 0 {
				contents = append(contents, contents[rng.IntN(len(contents))])
			} else {
				n := 1 + rng.IntN(60)
				if rng.IntN(5) == 0 {
					n = 1 + rng.IntN(4)
				}
				words := make([]string, n)
				for j := range words {
					if rng.IntN(3) == 0 {
						words[j] = fmt.Sprintf("filler%c", 'a'+rng.IntN(26))
					} else {
						words[j] = pick()
					}
				}
				if seed%3 == 0 {
					words = append(words, "zz") // a word in every chunk
				}
				contents = append(contents, strings.Join(words, " "))
			}
			docOf = append(docOf, rng.IntN(ndocs))
		}
		access := map[int][]string{}
		for d := 0; d < ndocs; d++ {
			switch rng.IntN(3) {
			case 1:
				access[d] = []string{"group:seen"}
			case 2:
				access[d] = []string{"group:hidden"}
			}
		}
		tn := r58Tenant(t, "r58rand", contents, docOf, access)
		var queries [][]string
		for q := 0; q < 8; q++ {
			n := 2 + rng.IntN(10)
			var lx []string
			for j := 0; j < n; j++ {
				lx = append(lx, pick())
			}
			if rng.IntN(3) == 0 {
				lx = append(lx, lx[0], "missingword")
			}
			if seed%3 == 0 && rng.IntN(2) == 0 {
				lx = append(lx, "zz")
			}
			queries = append(queries, lx)
		}
		for _, vis := range []struct {
			name string
			ctx  context.Context
		}{
			{"tenant-wide", context.Background()},
			{"group:seen", store.WithVisibility(context.Background(), store.AsPrincipals([]string{"group:seen"}))},
			{"all", store.WithVisibility(context.Background(), store.AllDocuments())},
		} {
			ctx := vis.ctx
			err := store.InTenant(ctx, testdb.App(t), tn.ID, func(tx pgx.Tx) error {
				if _, err := tx.Exec(ctx, instrumented); err != nil {
					return err
				}
				for _, lx := range queries {
					for _, p := range []struct{ k1, b float64 }{{1.2, 0.75}, {0, 0.75}, {0.5, 0}, {3, 1}, {0.9, 0.4}} {
						for _, n := range []int{1, 2, 5, 20, 500} {
							rows, _ := tx.Query(ctx, r58Exhaustive, tn.ID, lx, p.k1, p.b, n)
							want, err := r58Scan(rows)
							if err != nil {
								return err
							}
							for _, perTerm := range []int{1, 10, 1000} {
								rows, _ := tx.Query(ctx, r58Function, tn.ID, lx, p.k1, p.b, perTerm, n)
								got, err := r58Scan(rows)
								if err != nil {
									return err
								}
								rows, _ = tx.Query(ctx, strings.Replace(r58Function, "keyword_search(", "pg_temp.r58_new_keyword_search(", 1), tn.ID, lx, p.k1, p.b, perTerm, n)
								copied, err := r58Scan(rows)
								if err != nil {
									return err
								}
								calls++
								if msg := sameRanking(copied, got); msg != "" {
									t.Errorf("instrumented copy differs from the function: %s", msg)
								}
								if msg := sameRanking(got, want); msg != "" {
									fails++
									if fails <= 20 {
										t.Errorf("seed %d %s %v k1 %.1f b %.2f n %d per-term %d: %s\n got  %s\n want %s", seed, vis.name, lx, p.k1, p.b, n, perTerm, msg, r58Fmt(got), r58Fmt(want))
									}
								}
							}
						}
					}
				}
				var r, l int
				if err := tx.QueryRow(ctx, `SELECT coalesce(nullif(current_setting('r58.rise3a', true), ''), '0')::int,
					coalesce(nullif(current_setting('r58.loop3b', true), ''), '0')::int`).Scan(&r, &l); err != nil {
					return err
				}
				rises, loops = rises+r, loops+l
				_, err := tx.Exec(ctx, `DROP FUNCTION pg_temp.r58_new_keyword_search(uuid, text[], float8, float8, int, int, bool, text, jsonb)`)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d calls; step 3a raised θ %d times; step 3b added %d terms", calls, rises, loops)
	if rises == 0 || loops == 0 {
		t.Errorf("the change's steps were not exercised (3a rises %d, 3b terms %d)", rises, loops)
	}
	if fails > 0 {
		t.Errorf("%d mismatches", fails)
	}
}

// r58Filler returns n filler words (no query term; no word more than 200
// times, so that a chunk's length, the sum of its lexemes' positions, is n:
// a tsvector keeps at most 256 positions of a lexeme).
func r58Filler(n int) []string {
	out := make([]string, n)
	for i := range out {
		k := i % 200
		out[i] = "fill" + string(rune('a'+k/26)) + string(rune('a'+k%26))
	}
	return out
}

// r58Chunk is the words given, padded with filler to dl words.
func r58Chunk(dl int, words ...string) string {
	return strings.Join(append(words, r58Filler(dl-len(words))...), " ")
}

// r58OldSearch runs migration 00036's keyword_search (00037's Down
// section, created as a temporary function of the transaction's session)
// with r58Function's arguments.
func r58OldSearch(ctx context.Context, t *testing.T, tenant uuid.UUID, args ...any) []scored {
	t.Helper()
	src, err := os.ReadFile("../../db/migrations/00037_keyword_theta_from_partials.sql")
	if err != nil {
		t.Fatal(err)
	}
	down := string(src[strings.Index(string(src), "-- +goose Down"):])
	body := down[strings.Index(down, "CREATE OR REPLACE FUNCTION keyword_search("):strings.Index(down, "-- +goose StatementEnd")]
	body = strings.Replace(body, "CREATE OR REPLACE FUNCTION keyword_search(", "CREATE FUNCTION pg_temp.r58_old_keyword_search(", 1)
	var out []scored
	err = store.InTenant(ctx, testdb.App(t), tenant, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, body); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, strings.Replace(r58Function, "keyword_search(", "pg_temp.r58_old_keyword_search(", 1), args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var s scored
			if err := rows.Scan(&s.id, &s.score); err != nil {
				return err
			}
			out = append(out, s)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DROP FUNCTION pg_temp.r58_old_keyword_search(uuid, text[], float8, float8, int, int, bool, text, jsonb)`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReview58RoundedTiePrunedByPartialTheta: two chunks whose scores
// differ by 5.3e-10 have the same score rounded to 1e-9 (0.356912884), so
// keyword_search ranks them by chunk id: B (id 00000000-…) before A
// (ffffffff-…), and its top 2 is [B, A]; its top 1 must be [B]. θ rises
// to A's partial score over alfa and bravo (A holds no other term, so that
// is its whole score, 0.356912884163632: in step 3a at per-term 10, in
// step 3b after bravo at per-term 150 and 1000), and B's bound, its
// partial plus xray's bound (B holds xray at its largest tf and smallest
// length, so the bound is B's exact score, 0.356912883635239), is below
// θ·(1 − 1e-9) = 0.356912883806719: with only that relative slack
// (narrower than the rounding's absolute 1e-9 whenever θ < 1), B was
// pruned and the top 1 was [A]. Migration 00036's function (00037's Down
// section, run as a temporary function) is checked the same way.
// BM25 parameters are the tenant defaults (k1 0.9, b 0.4).
//
// Corpus (one statement, so every impact is tf / (tf + 1.2)): A = alfa×2
// bravo×2 (394 words); B = alfa bravo xray (520 words); 10 chunks alfa×3 and
// 10 bravo×3 (441 words: the seeds of alfa and bravo at depth 10, so step
// 1's θ, 0.195, stays below both scores); 594 chunks alfa bravo xray (560
// words), 7 alfa bravo (101 words), 45 xray (624 words): the terms are
// common, scores below 1; 30 chunks of filler only, 44,473 words in all.
// xray's bound (0.0896) is the lowest and below step 1's θ: non-essential.
func TestReview58RoundedTiePrunedByPartialTheta(t *testing.T) {
	t.Parallel()
	idA := uuid.MustParse("ffffffff-ffff-4fff-bfff-ffffffffffff")
	idB := uuid.MustParse("00000000-0000-4000-8000-000000000000")
	var contents []string
	var ids []uuid.UUID
	add := func(id uuid.UUID, text string) {
		if id == uuid.Nil {
			id = uuid.New()
			for id == idA || id == idB {
				id = uuid.New()
			}
		}
		contents = append(contents, text)
		ids = append(ids, id)
	}
	add(idA, r58Chunk(394, "alfa", "alfa", "bravo", "bravo"))
	add(idB, r58Chunk(520, "alfa", "bravo", "xray"))
	for i := 0; i < 10; i++ {
		add(uuid.Nil, r58Chunk(441, "alfa", "alfa", "alfa"))
		add(uuid.Nil, r58Chunk(441, "bravo", "bravo", "bravo"))
	}
	for i := 0; i < 594; i++ {
		add(uuid.Nil, r58Chunk(560, "alfa", "bravo", "xray"))
	}
	for i := 0; i < 7; i++ {
		add(uuid.Nil, r58Chunk(101, "alfa", "bravo"))
	}
	for i := 0; i < 45; i++ {
		add(uuid.Nil, r58Chunk(624, "xray"))
	}
	for i := 0; i < 30; i++ {
		n := 44473 / 30
		if i < 44473%30 {
			n++
		}
		add(uuid.Nil, r58Chunk(n))
	}
	tn := r58TenantIDs(t, "r58tie", contents, make([]int, len(contents)), ids, nil)
	ctx := context.Background()
	lx := []string{"alfa", "bravo", "xray"}
	const k1, b = 0.9, 0.4

	unrounded := r58Rank(ctx, t, tn.ID, r58Unrounded, tn.ID, lx, k1, b, 3)
	t.Logf("exhaustive, unrounded: %s", r58Fmt(unrounded))
	want := r58Rank(ctx, t, tn.ID, r58Exhaustive, tn.ID, lx, k1, b, 2)
	if len(want) != 2 || want[0].id != idB || want[1].id != idA || want[0].score != want[1].score {
		t.Fatalf("corpus is not as designed: exhaustive rounded top 2 %s, want B then A at one score", r58Fmt(want))
	}
	for _, perTerm := range []int{10, 150, 1000} {
		top2 := r58Rank(ctx, t, tn.ID, r58Function, tn.ID, lx, k1, b, perTerm, 2)
		top1 := r58Rank(ctx, t, tn.ID, r58Function, tn.ID, lx, k1, b, perTerm, 1)
		old1 := r58OldSearch(ctx, t, tn.ID, tn.ID, lx, k1, b, perTerm, 1)
		t.Logf("per-term %d: top 2 %s, top 1 %s; migration 00036's top 1 %s", perTerm, r58Fmt(top2), r58Fmt(top1), r58Fmt(old1))
		if msg := sameRanking(top2, want); msg != "" {
			t.Errorf("per-term %d, top 2: %s", perTerm, msg)
		}
		if msg := sameRanking(top1, want[:1]); msg != "" {
			t.Errorf("per-term %d, top 1 is not the first of the top 2: %s (got %s, want %s)", perTerm, msg, r58Fmt(top1), r58Fmt(want[:1]))
		}
	}
}

// TestReview58HiddenAndDeletedChunks: chunks the
// caller cannot read hold the highest-impact postings and the best partial
// scores of every query term (80 chunks of group:hidden documents, each
// term up to 6 times in 8-word chunks), so step 1's seeds, step 3a's θ and
// step 3b's θ would all be far above the visible chunks' scores if any of
// them read a hidden posting; and chunks deleted in the transaction before
// the search (the 10 best visible ones) must not count either. The
// ranking as group:seen (and as the tenant-wide caller) must be the
// exhaustive one over the visible, undeleted chunks, at top n 1 to past
// the visible matches, per-term 10 and 1000, with steps 3a and 3b run
// (counted by the instrumented copy).
func TestReview58HiddenAndDeletedChunks(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(58, 5))
	terms := []string{"tone", "ttwo", "tthree", "tfour", "tfive", "tsix"}
	var contents []string
	var docOf []int
	// documents 0-3 hidden, 4-7 group:seen, 8-9 tenant-wide
	for i := 0; i < 80; i++ {
		var w []string
		for _, tm := range terms {
			for k := 0; k < 1+rng.IntN(6); k++ {
				w = append(w, tm)
			}
		}
		contents = append(contents, strings.Join(w, " "))
		docOf = append(docOf, rng.IntN(4))
	}
	for i := 0; i < 300; i++ {
		var w []string
		for j, tm := range terms {
			if rng.IntN(j+2) == 0 {
				w = append(w, tm)
			}
		}
		w = append(w, r58Filler(10+rng.IntN(80))...)
		contents = append(contents, strings.Join(w, " "))
		docOf = append(docOf, 4+rng.IntN(6))
	}
	access := map[int][]string{}
	for d := 0; d < 8; d++ {
		if d < 4 {
			access[d] = []string{"group:hidden"}
		} else {
			access[d] = []string{"group:seen"}
		}
	}
	tn := r58Tenant(t, "r58hide", contents, docOf, access)
	instrumented := r58Instrumented(t)
	// As designed: read as every document, the 80 best chunks are the hidden ones.
	allTop := r58Rank(store.WithVisibility(context.Background(), store.AllDocuments()), t, tn.ID, r58Exhaustive, tn.ID, terms, 1.2, 0.75, 80)
	seenTop := r58Rank(store.WithVisibility(context.Background(), store.AsPrincipals([]string{"group:seen"})), t, tn.ID, r58Exhaustive, tn.ID, terms, 1.2, 0.75, 400)
	for _, a := range allTop {
		for _, v := range seenTop {
			if a.id == v.id {
				t.Fatalf("corpus is not as designed: chunk %s of the top 80 is visible to group:seen", a.id)
			}
		}
	}
	rises, loops := 0, 0
	for _, vis := range []struct {
		name string
		ctx  context.Context
	}{
		{"group:seen", store.WithVisibility(context.Background(), store.AsPrincipals([]string{"group:seen"}))},
		{"tenant-wide", context.Background()},
	} {
		ctx := vis.ctx
		for _, del := range []bool{false, true} {
			err := store.InTenant(ctx, testdb.App(t), tn.ID, func(tx pgx.Tx) error {
				if del {
					// the 10 best visible chunks for all six terms
					if _, err := tx.Exec(ctx, `DELETE FROM chunks WHERE tenant_id = $1 AND id IN (
						SELECT chunk_id FROM postings WHERE tenant_id = $1 AND lexeme = ANY ($2::text[])
						GROUP BY chunk_id ORDER BY sum(tf) DESC, chunk_id LIMIT 10)`, tn.ID, terms); err != nil {
						return err
					}
				}
				if _, err := tx.Exec(ctx, instrumented); err != nil {
					return err
				}
				for _, lx := range [][]string{terms, terms[:4], {"tsix", "tfive", "tfour", "tone", "tone"}, append(append([]string{}, terms...), "nowhere")} {
					for _, p := range []struct{ k1, b float64 }{{1.2, 0.75}, {0.9, 0.4}, {2, 1}, {0.5, 0}} {
						for _, n := range []int{1, 3, 10, 50, 400} {
							rows, _ := tx.Query(ctx, r58Exhaustive, tn.ID, lx, p.k1, p.b, n)
							want, err := r58Scan(rows)
							if err != nil {
								return err
							}
							for _, perTerm := range []int{10, 1000} {
								rows, _ := tx.Query(ctx, r58Function, tn.ID, lx, p.k1, p.b, perTerm, n)
								got, err := r58Scan(rows)
								if err != nil {
									return err
								}
								if msg := sameRanking(got, want); msg != "" {
									t.Errorf("%s deleted %v %v k1 %.1f b %.2f n %d per-term %d: %s", vis.name, del, lx, p.k1, p.b, n, perTerm, msg)
								}
								rows, _ = tx.Query(ctx, strings.Replace(r58Function, "keyword_search(", "pg_temp.r58_new_keyword_search(", 1), tn.ID, lx, p.k1, p.b, perTerm, n)
								if _, err := r58Scan(rows); err != nil {
									return err
								}
							}
						}
					}
				}
				var r, l int
				if err := tx.QueryRow(ctx, `SELECT coalesce(nullif(current_setting('r58.rise3a', true), ''), '0')::int,
					coalesce(nullif(current_setting('r58.loop3b', true), ''), '0')::int`).Scan(&r, &l); err != nil {
					return err
				}
				rises, loops = rises+r, loops+l
				_, err := tx.Exec(ctx, `DROP FUNCTION pg_temp.r58_new_keyword_search(uuid, text[], float8, float8, int, int, bool, text, jsonb)`)
				if err != nil {
					return err
				}
				if del {
					return errRollback
				}
				return nil
			})
			if err != nil && err != errRollback {
				t.Fatal(err)
			}
		}
	}
	t.Logf("step 3a raised θ %d times; step 3b added %d terms", rises, loops)
	if rises == 0 || loops == 0 {
		t.Errorf("the change's steps were not exercised (3a rises %d, 3b terms %d)", rises, loops)
	}
}

// errRollback ends a transaction without committing it (the deletions).
var errRollback = errors.New("rollback")
