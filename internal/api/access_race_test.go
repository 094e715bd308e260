package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestAccessChangeHoldsAtTheNextRequest: an editor flips a document's
// access list between group:hr and everyone; after each PATCH has
// answered, the next requests of a reader outside hr (search on the
// document's own words, answer sources, the listing, GET by id, the
// tenant's counts) name it exactly when it is tenant-wide, and a reader
// in hr always reads it. No cache or earlier snapshot outlives a change.
func TestAccessChangeHoldsAtTheNextRequest(t *testing.T) {
	t.Parallel()
	b := setup(t)
	issue := func(role auth.Role, sub string, groups ...string) string {
		tok, err := auth.Issue(secret, b.a.ID, role, time.Hour, auth.WithSubject(sub), auth.WithGroups("", groups...))
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	editor, outsider, member := issue(auth.RoleEditor, "ed", "hr"), issue(auth.RoleReader, "olga", "eng"), issue(auth.RoleReader, "hank", "hr")
	b.upsert(editor, "public.md", docBilling)
	d := b.upsert(editor, "hr/salaries.md", "# Salaries\n\nThe zanzibarite bonus pool is paid in March.\n")
	for i := range 12 {
		hidden := i%2 == 0
		access := []string{}
		if hidden {
			access = []string{"group:hr"}
		}
		decode[api.Document](t, b.do(req{method: "PATCH", path: "/v1/documents/" + d.ID.String() + "/access", token: editor,
			body: map[string]any{"access": access}}), http.StatusOK)
		for _, c := range []struct {
			tok  string
			sees bool
		}{{outsider, !hidden}, {member, true}} {
			sr := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: c.tok,
				body: map[string]any{"query": "zanzibarite bonus pool", "top_k": 5}}), http.StatusOK)
			found := false
			for _, r := range sr.Results {
				found = found || r.DocumentID == d.ID
			}
			ar := decode[api.AnswerResponse](t, b.do(req{method: "POST", path: "/v1/answer", token: c.tok,
				body: map[string]any{"question": "when is the zanzibarite bonus pool paid?"}}), http.StatusOK)
			cited := strings.Contains(ar.Answer, "zanzibarite")
			for _, s := range ar.Sources {
				cited = cited || s.SourceURI == "hr/salaries.md"
			}
			for _, c := range ar.Citations {
				cited = cited || c.SourceURI == "hr/salaries.md"
			}
			l := decode[api.DocumentList](t, b.do(req{method: "GET", path: "/v1/documents", token: c.tok}), http.StatusOK)
			get := b.do(req{method: "GET", path: "/v1/documents/" + d.ID.String(), token: c.tok})
			ti := decode[api.TenantInfo](t, b.do(req{method: "GET", path: "/v1/tenant", token: c.tok}), http.StatusOK)
			want, wantDocs, wantGet := c.sees, int64(1), http.StatusNotFound
			if c.sees {
				wantDocs, wantGet = 2, http.StatusOK
			}
			if found != want || (cited && !want) || len(l.Documents) != int(wantDocs) || get.Code != wantGet || ti.Documents != wantDocs {
				t.Fatalf("round %d (hidden from eng: %v), sees=%v: search %v, answer cites %v, list %d, get %d, tenant counts %d documents",
					i, hidden, c.sees, found, cited, len(l.Documents), get.Code, ti.Documents)
			}
		}
	}
}
