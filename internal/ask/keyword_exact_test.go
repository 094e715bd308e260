package ask_test

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/analyze"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// exhaustiveBM25 is the reference the keyword leg must equal: Okapi BM25
// (Lucene's non-negative idf) summed over every posting of the query's 64
// rarest terms, no pruning, best first, ties by chunk id ($1 configuration,
// $2 tenant, $3 text, $4 k1, $5 b, $6 n). k1 and b are cast: an untyped
// $4 + 1 is an integer parameter, and pgx truncates 1.2 to 1 and 0.75 to 0
// without an error.
const exhaustiveBM25 = `WITH st AS (
	SELECT chunk_count::float8 AS n, token_count::float8 / greatest(chunk_count, 1) AS avgdl
	FROM tenant_stats WHERE tenant_id = $2
), terms AS (
	SELECT t.lexeme, ln(1 + (st.n - t.df + 0.5) / (t.df + 0.5)) AS idf
	FROM term_stats t, st
	WHERE t.tenant_id = $2 AND t.lexeme = ANY (tsvector_to_array(to_tsvector(CAST($1::text AS regconfig), $3::text)))
	ORDER BY t.df, t.lexeme LIMIT 64
)
SELECT p.chunk_id, sum(terms.idf * p.tf * ($4::float8 + 1) / (p.tf + $4::float8 * (1 - $5::float8 + $5::float8 * p.dl / st.avgdl)))::float8 AS score
FROM terms JOIN postings p ON p.tenant_id = $2 AND p.lexeme = terms.lexeme CROSS JOIN st
GROUP BY p.chunk_id
ORDER BY 2 DESC, 1
LIMIT $6::int`

// scoredChunk is one row of a keyword ranking.
type scoredChunk struct {
	id    uuid.UUID
	score float64
}

// sameRanking: equal length, equal scores rank by rank (to rounding: the
// sums add in different orders), and the same chunk at each rank unless the
// two chunks tie (then either order is the exhaustive ranking's, and a chunk
// tied with the last one may stand in for it).
func sameRanking(got, want []scoredChunk) bool {
	if len(got) != len(want) {
		return false
	}
	tie := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	wantScore := map[uuid.UUID]float64{}
	for _, w := range want {
		wantScore[w.id] = w.score
	}
	for i, g := range got {
		if !tie(g.score, want[i].score) {
			return false
		}
		if s, ok := wantScore[g.id]; g.id != want[i].id && ok && !tie(s, g.score) {
			return false
		}
	}
	return true
}

// TestAcceptanceKeywordLegIsExhaustiveBM25: on the manual, for every
// question of its evaluation sets (eval.jsonl and unseen.jsonl) as the
// search sends it, the keyword leg's top 50 is the exhaustive BM25 top 50:
// the same chunks in the same order, scores equal to rounding.
func TestAcceptanceKeywordLegIsExhaustiveBM25(t *testing.T) {
	tn, _ := manualTenant(t)
	ctx := context.Background()
	var questions []string
	for _, name := range []string{"eval.jsonl", "unseen.jsonl"} {
		f, err := os.Open(filepath.Join(repoRoot(t), "tenants", "pgdocs", name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var q struct{ Question string }
			if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
				t.Fatal(err)
			}
			questions = append(questions, q.Question)
		}
		f.Close()
	}
	const n, k1, b = 50, 1.2, 0.75
	differ := 0
	err := store.InTenant(ctx, testdb.App(t), tn.ID, func(tx pgx.Tx) error {
		for _, q := range questions {
			text := analyze.Query(q)
			var got, want []scoredChunk
			rows, err := tx.Query(ctx, store.KeywordLegSQL, tn.TSConfig, tn.ID, text, k1, b, 150, n, false, "", []byte("{}"))
			if err != nil {
				return err
			}
			for rows.Next() {
				vals, err := rows.Values()
				if err != nil {
					return err
				}
				got = append(got, scoredChunk{uuid.UUID(vals[0].([16]byte)), vals[1].(float64)})
			}
			if err := rows.Err(); err != nil {
				return err
			}
			rows, err = tx.Query(ctx, exhaustiveBM25, tn.TSConfig, tn.ID, text, k1, b, n)
			if err != nil {
				return err
			}
			for rows.Next() {
				var r scoredChunk
				if err := rows.Scan(&r.id, &r.score); err != nil {
					return err
				}
				want = append(want, r)
			}
			if err := rows.Err(); err != nil {
				return err
			}
			if !sameRanking(got, want) {
				differ++
				t.Errorf("%q: the keyword leg's top %d differs from exhaustive BM25 (%d vs %d rows)", q, n, len(got), len(want))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d questions, %d differ from exhaustive BM25", len(questions), differ)
}

// TestExhaustiveBM25IsOkapiBM25: the acceptance test's reference computes
// Okapi BM25 at the k1 and b it is given, not at rounded ones: on three
// chunks of known term frequencies and lengths ('simple' configuration),
// its scores at k1 1.2, b 0.75 equal a hand computation. (A fast check of
// the reference itself, the manual's acceptance test being minutes long.)
func TestExhaustiveBM25IsOkapiBM25(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.App(t)
	tn := testdb.NewTenant(t, "bm25ref", "simple")
	texts := []string{"apple banana apple", "banana cherry", "cherry cherry cherry date"}
	err := store.InTenant(ctx, pool, tn.ID, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO documents (tenant_id, source_uri, content_type, content_sha, pipeline, body, chunk_count)
			VALUES ($1, 'ref', 'text/plain', '\x00'::bytea, 'fill', 'x', 3)`, tn.ID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO chunks (tenant_id, document_id, chunk_index, content, token_count, start_offset, end_offset, ts_config)
			SELECT $1, d.id, x.i - 1, x.t, 1, 0, 1, 'simple' FROM unnest($2::text[]) WITH ORDINALITY x (t, i)
			JOIN documents d ON d.tenant_id = $1 AND d.source_uri = 'ref'`, tn.ID, texts)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	const k1, b = 1.2, 0.75
	// Query "apple cherry": N 3, lengths 3, 2, 4 (average 3), df 1 and 2.
	idf := func(df float64) float64 { return math.Log(1 + (3-df+0.5)/(df+0.5)) }
	part := func(tf, dl, df float64) float64 { return idf(df) * tf * (k1 + 1) / (tf + k1*(1-b+b*dl/3)) }
	want := map[string]float64{
		texts[0]: part(2, 3, 1),
		texts[1]: part(1, 2, 2),
		texts[2]: part(3, 4, 2),
	}
	got := map[string]float64{}
	err = store.InTenant(ctx, pool, tn.ID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT c.content, r.score FROM (`+exhaustiveBM25+`) r JOIN chunks c ON c.tenant_id = $2 AND c.id = r.chunk_id`,
			"simple", tn.ID, "apple cherry", k1, b, 10)
		if err != nil {
			return err
		}
		for rows.Next() {
			var text string
			var score float64
			if err := rows.Scan(&text, &score); err != nil {
				return err
			}
			got[text] = score
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("scores %v, want %v", got, want)
	}
	for text, w := range want {
		if math.Abs(got[text]-w) > 1e-12 {
			t.Errorf("%q: score %.12f, want %.12f", text, got[text], w)
		}
	}
}
