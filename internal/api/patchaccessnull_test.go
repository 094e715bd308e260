package api_test

import (
	"slices"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// PATCH /v1/documents/{id}/access requires access, "the new access list"
// (an array in the OpenAPI schema, not nullable; [] = everyone in the
// tenant). {"access": null} passed validation as the required property
// present and was stored as [], so a document restricted to group:hr
// became readable by the whole tenant on a body naming no list at all;
// {} and {"access": {}} are 422. A null list must be refused the same way.
func TestPatchAccessNullIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	hr, err := auth.Issue(secret, b.a.ID, auth.RoleEditor, time.Hour, auth.WithSubject("alice"), auth.WithGroups("", "hr"))
	if err != nil {
		t.Fatal(err)
	}
	out := decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: hr,
		body: `{"source_uri":"pay.md","content":"# Pay\n\nSalaries are paid on the 25th.","access":["group:hr"]}`}), 200)
	path := "/v1/documents/" + out.ID.String() + "/access"
	problem(t, b.do(req{method: "PATCH", path: path, token: hr, body: `{}`}), 422)

	w := b.do(req{method: "PATCH", path: path, token: hr, body: `{"access":null}`})
	if w.Code != 422 {
		t.Errorf(`PATCH {"access":null}: status %d, want 422 as for {}`, w.Code)
	}
	doc := decode[api.Document](t, b.do(req{method: "GET", path: "/v1/documents/" + out.ID.String(), token: hr}), 200)
	if !slices.Equal(doc.Access, []string{"group:hr"}) {
		t.Errorf(`after PATCH {"access":null} the list is %v, want [group:hr]`, doc.Access)
	}
}
