package ingest_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// withLimits sets tn's own limits with the owner role (as `ragd tenant
// limits` does) and returns tn reloaded.
func withLimits(t *testing.T, tn tenant.Tenant, l tenant.Limits) tenant.Tenant {
	t.Helper()
	ctx := context.Background()
	raw, err := json.Marshal(tenant.Settings{Limits: &l})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.New().UpdateTenantSettings(ctx, testdb.Owner(t), store.UpdateTenantSettingsParams{ID: tn.ID, Settings: raw}); err != nil {
		t.Fatal(err)
	}
	tn, err = tenant.Load(ctx, testdb.App(t), tn.ID)
	if err != nil {
		t.Fatal(err)
	}
	return tn
}

func page(title string) ingest.Document {
	return ingest.Document{SourceURI: "q://" + title + ".md", ContentType: "markdown", FromText: true,
		Content: []byte("# " + title + "\n\nA page about " + title + " and widgets.\n")}
}

// TestQuotaDecidedUnderTheWriteLock: every write of the pipeline enforces
// the tenant's storage quotas, whoever writes (the API, a job's worker, the
// operator CLI), and decides in its own transaction under the tenant's
// write lock: a write that passed the early check while the tenant had room
// is refused when a concurrent write took the last place before it
// committed. The quota counts documents the writer cannot read; a
// replacement of a stored document is not a new one; a write refused
// before extraction is not embedded.
func TestQuotaDecidedUnderTheWriteLock(t *testing.T) {
	t.Parallel()
	p, ce, tn := setup(t)
	ctx := context.Background()
	two := int64(2)
	tn = withLimits(t, tn, tenant.Limits{MaxDocuments: &two})
	upsert(t, p, tn, page("alpha"))

	// beta passes the early check (1 of 2 documents) and is held after
	// embedding; gamma takes the last place meanwhile.
	held, release := make(chan struct{}), make(chan struct{})
	bctx := ingest.WithStageObserver(ctx, func(s ingest.Stage) error {
		if s == ingest.StageEmbedded {
			close(held)
			<-release
		}
		return nil
	})
	done := make(chan error, 1)
	go func() {
		_, err := p.Upsert(bctx, tn, page("beta"))
		done <- err
	}()
	<-held
	upsert(t, p, tn, page("gamma"))
	close(release)
	err := <-done
	if !errors.Is(err, ingest.ErrQuotaExceeded) || !strings.Contains(err.Error(), "quota exceeded: max_documents 2") {
		t.Fatalf("the held write once the tenant is full: %v, want ErrQuotaExceeded naming max_documents 2", err)
	}
	if _, found := readDoc(t, tn, "q://beta.md"); found {
		t.Fatal("the refused write was stored")
	}
	if docs, _ := consistency(t, tn); docs != 2 {
		t.Fatalf("%d documents, want 2", docs)
	}

	// At the quota: a new document is refused before it is embedded; a
	// replacement is allowed.
	before := ce.texts
	if _, err := p.Upsert(ctx, tn, page("delta")); !errors.Is(err, ingest.ErrQuotaExceeded) {
		t.Fatalf("a new document at the quota: %v", err)
	}
	if ce.texts != before {
		t.Errorf("the refused document was embedded (%d texts)", ce.texts-before)
	}
	alpha := page("alpha")
	alpha.Content = append(alpha.Content, "More about alpha.\n"...)
	if out := upsert(t, p, tn, alpha); out.Status != ingest.StatusUpdated {
		t.Fatalf("replacing a document at the quota: %+v", out)
	}

	// Chunks and bytes of text.
	_, chunks := consistency(t, tn)
	maxChunks := int64(chunks)
	tn = withLimits(t, tn, tenant.Limits{MaxChunks: &maxChunks})
	if _, err := p.Upsert(ctx, tn, page("epsilon")); !errors.Is(err, ingest.ErrQuotaExceeded) || !strings.Contains(err.Error(), "max_chunks") {
		t.Fatalf("a write at the chunk quota: %v", err)
	}
	small := int64(10)
	tn = withLimits(t, tn, tenant.Limits{MaxBytes: &small})
	if _, err := p.Upsert(ctx, tn, page("zeta")); !errors.Is(err, ingest.ErrQuotaExceeded) || !strings.Contains(err.Error(), "max_bytes 10") {
		t.Fatalf("a write past the byte quota: %v", err)
	}
	if docs, _ := consistency(t, tn); docs != 2 {
		t.Fatalf("%d documents, want 2", docs)
	}

	// Documents the writer cannot read count: with room for one more, a
	// document only group hr reads takes it, and a writer outside hr is
	// refused.
	three := int64(3)
	tn = withLimits(t, tn, tenant.Limits{MaxDocuments: &three})
	hr := page("pay")
	hr.Access, hr.SetAccess = []string{"group:hr"}, true
	if _, err := p.Upsert(store.WithVisibility(ctx, store.AllDocuments()), tn, hr); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Upsert(store.WithVisibility(ctx, store.AsPrincipals([]string{"group:eng"})), tn, page("notes")); !errors.Is(err, ingest.ErrQuotaExceeded) {
		t.Fatalf("a writer who cannot read the last document, at the quota: %v", err)
	}
	if _, found := readDoc(t, tn, "q://notes.md"); found {
		t.Fatal("the refused write was stored")
	}
}
