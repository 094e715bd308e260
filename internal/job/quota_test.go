package job_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/extract"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/job"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestJobItemsPastTheQuotaAreRefused: a job writes with the same rules as a
// PUT, storage quotas included. Its tenant already holds more documents
// than its quota (lowered by the operator after they were stored): a new
// file's item is refused with the reason and stores nothing, and the
// replacement of a stored document (no new document) is stored.
func TestJobItemsPastTheQuotaAreRefused(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := operator(context.Background())
	for _, name := range []string{"one", "two", "three"} {
		if _, err := f.pipe.Upsert(ctx, f.tn, ingest.Document{SourceURI: "https://x.test/" + name + ".md", ContentType: extract.TypeMarkdown, Content: md(name, 30)}); err != nil {
			t.Fatal(err)
		}
	}
	two := int64(2)
	raw, err := json.Marshal(tenant.Settings{Limits: &tenant.Limits{MaxDocuments: &two}})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.New().UpdateTenantSettings(ctx, testdb.Owner(t), store.UpdateTenantSettingsParams{ID: f.tn.ID, Settings: raw}); err != nil {
		t.Fatal(err)
	}

	s := f.service(time.Minute)
	j, err := s.Create(ctx, f.tn, job.OriginAPI, "past the quota", []job.File{
		{SourceURI: "https://x.test/four.md", ContentType: extract.TypeMarkdown, Content: md("Four", 30)},
		{SourceURI: "https://x.test/one.md", ContentType: extract.TypeMarkdown, Content: md("One again", 30)},
	})
	if err != nil {
		t.Fatal(err)
	}
	drain(t, s)
	its := items(t, s, f.tn, j.ID)
	if it := its[0]; it.Stage != job.StageRefused || !strings.Contains(it.Error, "quota exceeded: max_documents 2") || it.DocumentID != nil {
		t.Errorf("the new document's item = %+v, want refused with \"quota exceeded: max_documents 2\"", it)
	}
	if docs, _, _ := docState(t, f.tn, "https://x.test/four.md"); docs != 0 {
		t.Errorf("the refused document was stored")
	}
	if it := its[1]; it.Stage != job.StageStored || it.Outcome != string(ingest.StatusUpdated) {
		t.Errorf("the replacement's item = %+v, want stored (updated)", it)
	}
}
