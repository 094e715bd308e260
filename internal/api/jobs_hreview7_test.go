package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/auth"
)

// TestIngestJobRefusesTooDeepMetadata_hreview7: metadata nests at most
// store.MaxJSONDepth (32) levels. A document upload with deeper metadata is
// refused at once, but an ingestion job's metadata is only checked by each
// file's Upsert in the worker: the job is accepted (202) and every one of
// its files fails later with "invalid metadata", though the request was
// wrong as a whole and could be refused up front like metadata that is not
// an object ("bad metadata" in TestIngestJobRefusals).
//
// Expected: 422 naming the depth limit, no job recorded.
func TestIngestJobRefusesTooDeepMetadata_hreview7(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	deep := `{"a":` + strings.Repeat("[", 40) + "1" + strings.Repeat("]", 40) + "}"
	body, ct := jobForm(t, []part{{"files", "a.md", "# A\n\nWidgets."}}, map[string]string{"metadata": deep})
	w := b.do(req{method: "POST", path: "/v1/ingest/jobs", token: editor, body: body.Bytes(), header: map[string]string{"Content-Type": ct}})
	if w.Code != http.StatusUnprocessableEntity && w.Code != http.StatusBadRequest {
		t.Fatalf("job with 41-level metadata: %d %s, want it refused (422) like a document upload's", w.Code, w.Body.String())
	}
}
