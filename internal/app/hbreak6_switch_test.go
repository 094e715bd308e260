package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/model"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// graceDrop runs the server's background work (Kick) past the grace
// period, as any request of the tenant does.
func graceDrop(t *testing.T, h *switchHarness, cfg model.Options) {
	t.Helper()
	cfg.Grace = time.Nanosecond
	late := model.NewSwitcher(h.app.Models, h.app.Pool, cfg)
	now, err := tenant.Load(context.Background(), h.app.Pool, h.tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	late.Kick(now)
	late.Wait()
}

// TestSecondSwitchWithinGraceDropsTheFirstModelsVectors (breaker h-break6):
// "The replaced model stays as previous_model_id for RAGD_MODEL_GRACE, then
// its vectors are deleted in batches" (docs/ARCHITECTURE.md). A tenant
// switched A → B and then, within the grace period, B → C (B was not
// good enough) has previous_model_id = B: the flip overwrites it, and A —
// no longer active, target or previous — is forgotten. Past the grace
// period B's vectors are dropped and A's stay for good: a whole copy of the
// tenant's vectors (and its HNSW index of A, if it had one) that nothing
// deletes, and `ragd tenant show` names only B.
func TestSecondSwitchWithinGraceDropsTheFirstModelsVectors(t *testing.T) {
	ctx := context.Background()
	a, b, c := newFakeModel(t, "fake-a", 16), newFakeModel(t, "fake-b", 24), newFakeModel(t, "fake-c", 32)
	ma := a.register(t)
	b.register(t)
	c.register(t)
	cfg := defaults(t)
	cfg.ReembedBatch, cfg.ReembedRate, cfg.ModelGrace = 8, 0, time.Hour
	h := newSwitchHarness(t, cfg, a, 12)
	opts := model.OptionsFromConfig(cfg)
	sw := model.NewSwitcher(h.app.Models, h.app.Pool, opts)
	for _, to := range []*fakeModel{b, c} {
		if _, switching, err := h.app.Models.SetTarget(ctx, h.app.Pool, h.tn.ID, to.name); err != nil || !switching {
			t.Fatalf("set target %s: %v %v", to.name, switching, err)
		}
		if got, err := sw.Run(ctx, h.tn.ID, nil); err != nil || got.Name != to.name {
			t.Fatalf("switch to %s: %+v %v", to.name, got, err)
		}
	}
	graceDrop(t, h, opts)
	if _, emb, err := model.Coverage(ctx, h.app.Pool, h.tn.ID, ma.ID); err != nil || emb != 0 {
		t.Errorf("past the grace period of both switches, %d vectors of the first replaced model %s remain (%v); want 0", emb, a.name, err)
	}
}

// TestRedirectedSwitchDropsThePartialVectors (breaker h-break6): SetTarget
// says "A switch already going to another model is redirected: the vectors
// written so far stay and are dropped with the others." A switch A → B
// stopped after one batch (8 vectors of B) and redirected to C flips to C
// with previous_model_id = A; past the grace period A's vectors are
// dropped, B's 8 partial vectors are never dropped.
func TestRedirectedSwitchDropsThePartialVectors(t *testing.T) {
	ctx := context.Background()
	a, b, c := newFakeModel(t, "fake-a", 16), newFakeModel(t, "fake-b", 24), newFakeModel(t, "fake-c", 32)
	a.register(t)
	mb := b.register(t)
	c.register(t)
	cfg := defaults(t)
	cfg.ReembedBatch, cfg.ReembedRate, cfg.ModelGrace = 8, 0, time.Hour
	h := newSwitchHarness(t, cfg, a, 24)
	opts := model.OptionsFromConfig(cfg)
	if _, _, err := h.app.Models.SetTarget(ctx, h.app.Pool, h.tn.ID, b.name); err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	if _, err := model.NewSwitcher(h.app.Models, h.app.Pool, opts).Run(runCtx, h.tn.ID, func(model.Progress) { cancel() }); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: %v", err)
	}
	if _, emb, err := model.Coverage(ctx, h.app.Pool, h.tn.ID, mb.ID); err != nil || emb == 0 {
		t.Fatalf("after one batch: %d vectors of B, %v", emb, err)
	}
	if _, _, err := h.app.Models.SetTarget(ctx, h.app.Pool, h.tn.ID, c.name); err != nil {
		t.Fatal(err)
	}
	if got, err := model.NewSwitcher(h.app.Models, h.app.Pool, opts).Run(ctx, h.tn.ID, nil); err != nil || got.Name != c.name {
		t.Fatalf("redirected switch: %+v %v", got, err)
	}
	graceDrop(t, h, opts)
	if _, emb, err := model.Coverage(ctx, h.app.Pool, h.tn.ID, mb.ID); err != nil || emb != 0 {
		t.Errorf("past the grace period, %d vectors of the abandoned target %s remain (%v); want 0", emb, b.name, err)
	}
}
