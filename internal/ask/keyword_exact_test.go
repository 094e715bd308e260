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
// $2 tenant, $3 text, $4 k1, $5 b, $6 n).
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
LIMIT $6`

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
