package migrate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/db"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// sections returns the Up and Down SQL of migration file name.
func sections(t *testing.T, name string) (up, down string) {
	t.Helper()
	raw, err := db.Migrations.ReadFile("migrations/" + name)
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	u, d := strings.Index(s, "-- +goose Up"), strings.Index(s, "-- +goose Down")
	if u < 0 || d < u {
		t.Fatalf("%s: want Up and Down sections", name)
	}
	return s[u:d], s[d:]
}

// TestFusionMigrationsKeepEachTenantsMeaning runs migrations 00012 and
// 00014 down, seeds tenants with the settings of before 00012, runs them
// up, down and up again, all in one transaction rolled back at the end (so
// the shared test database is left as it was): a tenant kept on RRF keeps
// the effective weights it had (the RRF era's default vector weight 1, not
// the model's prior), stale refusal thresholds go, and a tenant that chose
// convex fusion with its own weights is still convex after a down/up round
// trip.
func TestFusionMigrationsKeepEachTenantsMeaning(t *testing.T) {
	ctx := context.Background()
	up12, down12 := sections(t, "00012_fusion_priors.sql")
	up14, down14 := sections(t, "00014_rrf_weight_query_terms.sql")
	tx, err := testdb.Owner(t).Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	exec := func(sql string) {
		t.Helper()
		if _, err := tx.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	exec(down14)
	exec(down12)
	old := map[string]string{
		"weights":  `{"vector_weight": 0.5, "keyword_weight": 1, "refuse_below": 0.02}`,
		"rrfk":     `{"rrf_k": 30}`,
		"keyword":  `{"keyword_weight": 0.5}`,
		"nullw":    `{"vector_weight": null, "rrf_k": 20}`,
		"bm25":     `{"bm25_k1": 1.2, "candidates": 30, "refuse_below": 0.1}`,
		"empty":    `{}`,
		"convexed": `{}`,
	}
	slug := func(k string) string { return "mig14-" + k }
	for k, s := range old {
		exec(`INSERT INTO tenants (slug, name, ts_config, settings) VALUES ('` + slug(k) + `', 'm', 'english', '` + s + `')`)
	}
	settings := func() map[string]tenant.Settings {
		t.Helper()
		rows, err := tx.Query(ctx, `SELECT slug, settings FROM tenants WHERE slug LIKE 'mig14-%'`)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]tenant.Settings{}
		for rows.Next() {
			var s string
			var raw []byte
			if err := rows.Scan(&s, &raw); err != nil {
				t.Fatal(err)
			}
			if out[strings.TrimPrefix(s, "mig14-")], err = tenant.ParseSettings(raw); err != nil {
				t.Fatal(err)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	const prior = 0.25 // use-lite's prior (00012)
	type want struct {
		fusion       string
		vector, rrfK float64
	}
	check := func(stage string, wants map[string]want) {
		t.Helper()
		got := settings()
		for k, w := range wants {
			e := got[k].EffectiveFor(prior)
			if e.Fusion != w.fusion || *e.VectorWeight != w.vector || e.RRFK != w.rrfK || got[k].RefuseBelow != nil {
				t.Errorf("%s, tenant %s (was %s): fusion %s, vector weight %v, rrf_k %v, refuse_below %v; want %s, %v, %v, none",
					stage, k, old[k], e.Fusion, *e.VectorWeight, e.RRFK, got[k].RefuseBelow, w.fusion, w.vector, w.rrfK)
			}
		}
	}
	wants := map[string]want{
		"weights": {"rrf", 0.5, 60}, "rrfk": {"rrf", 1, 30}, "keyword": {"rrf", 1, 60}, "nullw": {"rrf", 1, 20},
		"bm25": {"convex", prior, 60}, "empty": {"convex", prior, 60}, "convexed": {"convex", prior, 60},
	}
	exec(up12)
	exec(up14)
	check("up", wants)

	// A tenant chooses convex fusion with its own weights; then down and up.
	exec(`UPDATE tenants SET settings = '{"fusion": "convex", "vector_weight": 0.3, "keyword_weight": 1}' WHERE slug = '` + slug("convexed") + `'`)
	wants["convexed"] = want{"convex", 0.3, 60}
	for i := 0; i < 2; i++ {
		exec(down14)
		exec(down12)
		exec(up12)
		exec(up14)
		check("down and up again", wants)
	}
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM embedding_models WHERE name = 'use-lite' AND vector_weight = 0.25`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("use-lite prior after the round trips: %d rows, %v", n, err)
	}
}
