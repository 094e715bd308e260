package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestMetadataKeepsLargeIntegers (h-break7): document metadata and metadata
// filters are decoded into map[string]any, so every JSON number becomes a
// float64 before it reaches jsonb: an integer past 2^53 — a 64-bit ticket,
// account or snowflake id, which a client has no reason to quote — is
// silently stored as another number (9007199254740993 → 9007199254740992),
// GET returns the changed value, and two documents tagged with neighbouring
// ids become indistinguishable to the filter: a search for one id finds
// the other's document.
//
// Expected: the number is stored as sent (jsonb numerics are exact) and the
// filter matches only the document with that id (decode with UseNumber, or
// keep the metadata as json.RawMessage).
func TestMetadataKeepsLargeIntegers(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	put := func(uri, id string) api.DocumentWrite {
		t.Helper()
		return decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: editor,
			body: `{"source_uri":"` + uri + `","content_type":"markdown","content":"# Ticket\n\nThe widget installer crashed on start.",` +
				`"metadata":{"ticket":` + id + `}}`}), http.StatusOK)
	}
	a := put("tickets/a.md", "9007199254740993")
	put("tickets/b.md", "9007199254740992")

	w := b.do(req{method: "GET", path: "/v1/documents/" + a.ID.String(), token: editor})
	if w.Code != http.StatusOK {
		t.Fatalf("GET: %d %s", w.Code, w.Body.String())
	}
	if !strings.Contains(w.Body.String(), `"ticket":9007199254740993`) {
		t.Errorf("metadata read back is not what was written ({\"ticket\":9007199254740993}): %s", w.Body.String())
	}

	sr := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: editor,
		body: `{"query":"widget installer crashed","top_k":10,"metadata":{"ticket":9007199254740993}}`}), http.StatusOK)
	for _, r := range sr.Results {
		if r.SourceURI != "tickets/a.md" {
			t.Errorf("the filter {\"ticket\":9007199254740993} returned %s, whose ticket is 9007199254740992", r.SourceURI)
		}
	}
}

// TestDeepMetadataFilterIsNotAServerError (h-break7): metadata is stored up
// to encoding/json's depth limit (the catalogue tests 2,000 levels; 9,900
// are stored too), and a metadata filter of any depth the decoder takes is
// passed to jsonb @>. Containment recurses along both values, so a filter
// that matches a deeply nested stored value far enough runs PostgreSQL out
// of stack (SQLSTATE 54001 "stack depth limit exceeded"): search and answer
// answer 500 "internal error" to a request that is only deep. (About
// 8,000 levels pass here, 9,000 fail.)
//
// Expected: a 4xx problem (a depth limit on metadata and filters checked
// before the database, or 54001 classified as the client's input), never
// a 500; the server keeps serving.
func TestDeepMetadataFilterIsNotAServerError(t *testing.T) {
	t.Parallel()
	b := setup(t)
	editor := token(t, b.a.ID, auth.RoleEditor)
	deep := `{"a":` + strings.Repeat("[", 9900) + strings.Repeat("]", 9900) + `}`
	// Stored, or refused as too deep: either is fine; what follows must not be a 500.
	put := b.do(req{method: "PUT", path: "/v1/documents", token: editor,
		body: `{"source_uri":"deep.md","content_type":"markdown","content":"# Deep\n\nHow to install widgets.","metadata":` + deep + `}`})
	if put.Code >= 500 {
		t.Fatalf("PUT with deep metadata: %d %s", put.Code, put.Body.String())
	}
	for _, r := range []req{
		{method: "POST", path: "/v1/search", token: editor, body: `{"query":"install widgets","metadata":` + deep + `}`},
		{method: "POST", path: "/v1/answer", token: editor, body: `{"question":"how do I install widgets","metadata":` + deep + `}`},
	} {
		w := b.do(r)
		if w.Code >= 500 {
			t.Errorf("%s with a %d-level metadata filter (deep.md stored: %d): %d %s", r.path, 9900, put.Code, w.Code, w.Body.String())
		}
	}
	decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: editor, body: `{"query":"install widgets"}`}), http.StatusOK)
}
