package api_test

import (
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// PATCH /v1/documents/{id}/metadata replaces the metadata and nothing else:
// the content, chunks, title and access stay, nothing is re-embedded, and
// search's metadata filter sees the new value at once; {} clears it; null,
// an array, a reader's token, another tenant's document and a document
// hidden from the caller are refused without a change. A fresh user could
// change metadata only by sending the whole content again.
func TestPatchMetadata(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ed := token(t, b.a.ID, auth.RoleEditor)
	rd := token(t, b.a.ID, auth.RoleReader)
	w := b.upsert(ed, "docs/install.md", docInstall)
	path := "/v1/documents/" + w.ID.String() + "/metadata"
	before := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + w.ID.String(), token: ed}), 200)

	doc := decode[api.Document](t, b.do(req{method: "PATCH", path: path, token: ed, body: `{"metadata":{"product":"widgetctl","tier":2}}`}), 200)
	if doc.Metadata["product"] != "widgetctl" || doc.Title != before.Title || doc.Chunks != before.Chunks || doc.ContentSHA256 != before.ContentSHA256 {
		t.Fatalf("after PATCH: %+v (before %+v)", doc, before)
	}
	search := func(filter string) int {
		res := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: rd,
			body: `{"query":"install widgetctl","metadata":` + filter + `}`}), 200)
		return len(res.Results)
	}
	if search(`{"product":"widgetctl"}`) == 0 || search(`{"product":"other"}`) != 0 {
		t.Fatalf("the metadata filter does not see the new metadata")
	}
	// Unchanged content: a PUT naming no metadata keeps it.
	if w2 := b.upsert(ed, "docs/install.md", docInstall); w2.Status != "unchanged" {
		t.Errorf("re-PUT of the same content: %s", w2.Status)
	}
	for _, bad := range []string{`{"metadata":null}`, `{"metadata":[1]}`, `{}`, `{"metadata":"x"}`} {
		problem(t, b.do(req{method: "PATCH", path: path, token: ed, body: bad}), 422)
	}
	problem(t, b.do(req{method: "PATCH", path: path, token: rd, body: `{"metadata":{}}`}), 403)
	other := token(t, b.b.ID, auth.RoleEditor)
	problem(t, b.do(req{method: "PATCH", path: path, token: other, body: `{"metadata":{}}`}), 404)
	doc = decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + w.ID.String(), token: ed}), 200)
	if doc.Metadata["product"] != "widgetctl" {
		t.Fatalf("a refused PATCH changed the metadata: %+v", doc.Metadata)
	}
	doc = decode[api.Document](t, b.do(req{method: "PATCH", path: path, token: ed, body: `{"metadata":{}}`}), 200)
	if len(doc.Metadata) != 0 || search(`{"product":"widgetctl"}`) != 0 {
		t.Fatalf("{} did not clear the metadata: %+v", doc.Metadata)
	}
}
