package store_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestGenericPlansLastTheBatch: with GenericPlans the batch's statements run
// under force_generic_plan, and only they: the vector leg switches back to
// custom plans before its statement (the exact scan with one statement, the
// HNSW walk with its settings), and the connection goes back to the pool
// with the role's force_custom_plan.
func TestGenericPlansLastTheBatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, ts, _ := oneConnTwoTenants(t, "plans")
	tn := ts[0].ID
	mode := func(b *pgx.Batch, dst *string) {
		b.Queue("SELECT current_setting('plan_cache_mode')").QueryRow(func(r pgx.Row) error { return r.Scan(dst) })
	}
	vec := make([]float32, 512)
	vec[0] = 1
	for _, tc := range []struct {
		name              string
		opts              []store.BatchOption
		plan              store.VectorPlan
		before, afterLeg  string
		queuedBeforeWalk  string
		afterGenericPlans bool
	}{
		{name: "default", plan: store.VectorExact, before: "force_custom_plan", afterLeg: "force_custom_plan"},
		{name: "generic, exact leg", opts: []store.BatchOption{store.GenericPlans()}, plan: store.VectorExact, afterGenericPlans: true,
			before: "force_generic_plan", afterLeg: "force_custom_plan", queuedBeforeWalk: store.CustomPlansSQL},
		{name: "generic, HNSW leg", opts: []store.BatchOption{store.GenericPlans()}, plan: store.VectorHNSW, afterGenericPlans: true,
			before: "force_generic_plan", afterLeg: "force_custom_plan", queuedBeforeWalk: store.VectorSettingsSQL},
	} {
		var before, after string
		var rows []store.LegRow
		b := &pgx.Batch{}
		mode(b, &before)
		err := store.QueueVectorLeg(b, store.VectorLegParams{Plan: tc.plan, ModelID: 1, TenantID: tn, Vector: vec, N: 2, EfSearch: 100,
			AfterGenericPlans: tc.afterGenericPlans}, func(r []store.LegRow) error { rows = r; return nil })
		if err != nil {
			t.Fatal(err)
		}
		if tc.queuedBeforeWalk != "" {
			if got := b.QueuedQueries[len(b.QueuedQueries)-2].SQL; got != tc.queuedBeforeWalk {
				t.Errorf("%s: queued before the vector statement\n%s\nwant\n%s", tc.name, got, tc.queuedBeforeWalk)
			}
		}
		mode(b, &after) // after the leg only in this test: its settings last to the end
		if err := store.SendTenantBatch(ctx, pool, tn, b, tc.opts...); err != nil {
			t.Fatal(err)
		}
		if before != tc.before || after != tc.afterLeg || len(rows) != 2 {
			t.Errorf("%s: plan_cache_mode %q before the vector leg, %q after it, %d rows; want %q, %q, 2 rows",
				tc.name, before, after, len(rows), tc.before, tc.afterLeg)
		}
		var pooled string
		if err := pool.QueryRow(ctx, "SHOW plan_cache_mode").Scan(&pooled); err != nil || pooled != "force_custom_plan" {
			t.Errorf("%s: after the batch the pooled connection runs with %q (%v), want force_custom_plan", tc.name, pooled, err)
		}
	}
}

// TestQueueGetTenantMatchesGetTenant: the one-round-trip tenant read scans
// the row GetTenant returns, column for column, and finds no row for an
// unknown id.
func TestQueueGetTenantMatchesGetTenant(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	app := testdb.App(t)
	tn := testdb.NewTenant(t, "gettenant", "")
	seed(t, app, tn.ID, "x://counted", "two chunks of text")
	var want store.GetTenantRow
	err := store.InTenant(ctx, app, tn.ID, func(tx pgx.Tx) (err error) {
		want, err = store.New().GetTenant(ctx, tx, tn.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []uuid.UUID{tn.ID, uuid.New()} {
		var got store.GetTenantRow
		var found bool
		b := &pgx.Batch{}
		store.QueueGetTenant(b, id, func(r store.GetTenantRow, ok bool) error {
			got, found = r, ok
			return nil
		})
		if err := store.SendTenantBatch(ctx, app, id, b, store.GenericPlans()); err != nil {
			t.Fatal(err)
		}
		switch {
		case id != tn.ID && found:
			t.Errorf("unknown tenant id %s: found %+v", id, got)
		case id == tn.ID && (!found || got.ChunkCount != 2 || got.ID != want.ID || got.Slug != want.Slug || got.Name != want.Name ||
			got.TsConfig != want.TsConfig || got.Status != want.Status || string(got.Settings) != string(want.Settings) ||
			!got.CreatedAt.Time.Equal(want.CreatedAt.Time) || got.ChunkCount != want.ChunkCount || got.EmbeddingModelID != want.EmbeddingModelID ||
			got.TargetModelID != want.TargetModelID || got.PreviousModelID != want.PreviousModelID ||
			got.ModelSwitchedAt != want.ModelSwitchedAt || got.ModelSwitchError != want.ModelSwitchError):
			t.Errorf("QueueGetTenant: %+v (found %v)\nGetTenant: %+v", got, found, want)
		}
	}
}
