package reliability

import (
	"net/http"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestRewriteSameContentNewMetadata: writing a document again with the same
// content but a new title or metadata must store them. Today the write is
// skipped as "unchanged" (internal/ingest Pipeline.Upsert compares only the
// content hash and the pipeline fingerprint), so the client's new metadata is
// silently dropped — and metadata is what search filters on.
func TestRewriteSameContentNewMetadata(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the database")
	}
	t.Parallel()
	s := newServer(t, options{})
	tn := testdb.NewTenant(t, "rewrite", "")
	ed := token(t, tn.ID, auth.RoleEditor)
	write := func(title string, meta map[string]any) api.DocumentWrite {
		r := s.do(call{Method: "PUT", Path: "/v1/documents", Token: ed, Body: map[string]any{"source_uri": "policy.md",
			"content": "# Policy\n\nAccess reviews happen every quarter.\n", "title": title, "metadata": meta}})
		if r.Status != http.StatusOK {
			t.Fatalf("write: %s", r)
		}
		var w api.DocumentWrite
		r.json(t, &w)
		return w
	}
	first := write("Policy v1", map[string]any{"visibility": "internal"})
	second := write("Policy v2", map[string]any{"visibility": "public"})
	var d api.Document
	s.do(call{Method: "GET", Path: "/v1/documents/" + first.ID.String(), Token: ed}).json(t, &d)
	if d.Title != "Policy v2" || d.Metadata["visibility"] != "public" {
		t.Errorf("after rewriting with a new title and metadata (status %q): title %q, metadata %v; want the new ones",
			second.Status, d.Title, d.Metadata)
	}
	r := s.do(call{Method: "POST", Path: "/v1/search", Token: ed, Body: map[string]any{"query": "access reviews", "metadata": map[string]any{"visibility": "public"}}})
	var sr api.SearchResponse
	r.json(t, &sr)
	if len(sr.Results) == 0 {
		t.Errorf("a search filtered on the new metadata finds nothing")
	}
	// The same bytes declared as another type are extracted differently:
	// they must be re-extracted, not skipped.
	r = s.do(call{Method: "PUT", Path: "/v1/documents", Token: ed, Body: map[string]any{"source_uri": "policy.md",
		"content": "# Policy\n\nAccess reviews happen every quarter.\n", "content_type": "text"}})
	var w api.DocumentWrite
	r.json(t, &w)
	s.do(call{Method: "GET", Path: "/v1/documents/" + first.ID.String(), Token: ed}).json(t, &d)
	if d.ContentType != "text/plain" {
		t.Errorf("after rewriting as text (status %q): content_type %q, want text/plain", w.Status, d.ContentType)
	}
	consistency(t, tn.ID)
}
