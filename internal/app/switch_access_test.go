package app

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/model"
	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
)

// TestModelSwitchCoversRestrictedDocuments: a switch started through the
// admin route runs in the server's background (no caller), and re-embeds,
// counts and flips over every chunk of the tenant, the documents an access
// list restricts included: after the flip a member of the group finds a
// restricted document through the new model's vector leg, and no chunk
// lacks the new model's vector. Coverage is a property of the tenant: a
// search's degraded reason never carries chunk counts (which another
// principal's view would have decided through the shared cache).
func TestModelSwitchCoversRestrictedDocuments(t *testing.T) {
	ctx := context.Background()
	all := store.WithVisibility(ctx, store.AllDocuments())
	a, b := newFakeModel(t, "fake-a", 16), newFakeModel(t, "fake-b", 32)
	a.register(t)
	mb := b.register(t)
	cfg := defaults(t)
	cfg.ReembedRate = 0
	h := newSwitchHarness(t, cfg, a, 4)
	for i := 10; i < 13; i++ {
		if _, err := h.app.Pipeline.Upsert(all, h.tn, ingest.Document{SourceURI: fmt.Sprintf("hr/%d.md", i), ContentType: "markdown",
			Content: []byte(docText(i, "Payroll")), Access: []string{"group:hr"}, SetAccess: true}); err != nil {
			t.Fatal(err)
		}
	}
	st, err := h.call(auth.RoleAdmin, http.MethodPost, "/v1/tenant/model", map[string]any{"model": b.name}, nil)
	if err != nil || st != http.StatusOK && st != http.StatusAccepted {
		t.Fatalf("switch: %d %v", st, err)
	}
	// The server's background run (Kick) carries the switch; it flips
	// within a few seconds or never (it used to loop without end).
	deadline := time.Now().Add(4 * time.Second)
	var tn tenant.Tenant
	for {
		if tn, err = tenant.Load(ctx, h.app.Pool, h.tn.ID); err != nil {
			t.Fatal(err)
		}
		if tn.TargetModelID == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
		h.app.Switcher.Kick(tn)
	}
	if tn.ModelID != mb.ID {
		t.Fatalf("the switch did not flip: %+v", tn)
	}
	chunks, embedded, err := model.Coverage(all, h.app.Pool, h.tn.ID, mb.ID)
	if err != nil || chunks != 7 || embedded != chunks {
		t.Fatalf("after the flip, model B has %d vectors for %d chunks (7 expected), %v", embedded, chunks, err)
	}
	hr := store.WithVisibility(ctx, store.AsPrincipals([]string{"group:hr", "user:pat"}))
	res, err := h.app.Searcher.Search(hr, tn, search.Request{Query: "zephyr11 component of Payroll", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || res.Results[0].SourceURI != "hr/11.md" || res.Results[0].VectorRank == nil {
		t.Errorf("a member of hr does not find hr/11.md through the vector leg: %+v", res.Results)
	}
	// A reader who sees only the tenant-wide documents: the model covers
	// the tenant (not degraded), and GET /v1/tenant counts only the chunks
	// it reads (4 of 7).
	var sa searchAnswer
	if st, err := h.call(auth.RoleReader, http.MethodPost, "/v1/search", map[string]any{"query": "zephyr1 component"}, &sa); err != nil ||
		st != http.StatusOK || sa.Degraded || sa.VectorModel != b.name || len(sa.Results) == 0 {
		t.Errorf("a reader's search after the flip: %d %v %+v", st, err, sa)
	}
	var tm tenantModel
	if st, err := h.call(auth.RoleReader, http.MethodGet, "/v1/tenant", nil, &tm); err != nil || st != http.StatusOK ||
		tm.Model.Chunks != 4 || tm.Model.ActiveCoverage != 1 || tm.Model.Active != b.name {
		t.Errorf("a reader's GET /v1/tenant: %d %v %+v", st, err, tm.Model)
	}
	for _, r := range res.DegradedReasons {
		if strings.Contains(r.Reason, " of the tenant's ") {
			t.Errorf("degraded reason names chunk counts: %q", r.Reason)
		}
	}
}
