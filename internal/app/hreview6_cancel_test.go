package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/model"
)

// TestCancelledSwitchDropsThePartialVectors (review h-review6): 85cde86
// adds Switcher.dropAbandoned so that "vectors of a model the tenant no
// longer uses at all (replaced two switches ago, or the partial vectors of
// a switch redirected to another model) are deleted by the same background
// work" (docs/ARCHITECTURE.md). Cancelling a switch is SetTarget with the
// active model's name ("with the active model as name, cancels"): target
// 0. Kick starts the background work only when a target is set or a
// previous model's grace is over, so on a tenant that was never switched
// before, the cancelled switch's partial vectors are never dropped: the
// background work that would drop them never runs again.
func TestCancelledSwitchDropsThePartialVectors(t *testing.T) {
	ctx := context.Background()
	a, b := newFakeModel(t, "fake-a", 16), newFakeModel(t, "fake-b", 24)
	a.register(t)
	mb := b.register(t)
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
	// Cancel: back to the active model.
	if _, switching, err := h.app.Models.SetTarget(ctx, h.app.Pool, h.tn.ID, a.name); err != nil || switching {
		t.Fatalf("cancel: switching %v, %v", switching, err)
	}
	graceDrop(t, h, opts) // the server's background work, past any grace
	if _, emb, err := model.Coverage(ctx, h.app.Pool, h.tn.ID, mb.ID); err != nil || emb != 0 {
		t.Errorf("after the switch to %s was cancelled, %d of its partial vectors remain for good (%v); want 0", b.name, emb, err)
	}
}
