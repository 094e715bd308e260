package api_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/ragd-dev/ragd/internal/api"
	"github.com/ragd-dev/ragd/internal/auth"
)

// TestOddClaimsGrantNothing: tokens whose sub or groups claim is odd — a
// string instead of an array, nested arrays, a non-string entry, '*',
// principal prefixes smuggled into group names, empty strings, case,
// whitespace and Unicode lookalikes of a group, a number as sub, 10,000
// groups — read only the tenant-wide document, through the listing, GET by
// id, search and the tenant's counts; and the exact claims still work.
func TestOddClaimsGrantNothing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	admin := token(t, b.a.ID, auth.RoleAdmin)
	b.upsert(admin, "public.md", docBilling)
	hidden := map[string]string{} // source_uri → its document id
	for uri, access := range map[string][]string{"hr.md": {"group:hr"}, "alice.md": {"user:alice"}, "star.md": {"group:*"}} {
		w := decode[api.DocumentWrite](t, b.do(req{method: "PUT", path: "/v1/documents", token: admin, body: map[string]any{"source_uri": uri,
			"content": "# Secret\n\nThe quokkaberry ledger of " + uri + " is sealed.\n", "content_type": "markdown", "access": access}}), http.StatusOK)
		hidden[uri] = w.ID.String()
	}
	claims := func(sub any, groups any) auth.IssueOption {
		return func(c jwt.MapClaims) {
			if sub == nil {
				delete(c, "sub")
			} else {
				c["sub"] = sub
			}
			if groups != nil {
				c["groups"] = groups
			}
		}
	}
	many := make([]any, 10000)
	for i := range many {
		many[i] = fmt.Sprintf("g%d", i)
	}
	cases := []struct {
		name string
		opt  auth.IssueOption
		sees []string
	}{
		{"groups as a string", claims("mallory", "hr"), nil},
		{"nested array", claims("mallory", []any{[]any{"hr"}}), nil},
		{"a number among groups", claims("mallory", []any{"hr", 5}), nil},
		{"star group", claims("mallory", []any{"*"}), []string{"star.md"}},
		{"star sub", claims("*", []any{}), nil},
		{"user prefix as a group", claims("mallory", []any{"user:alice", "group:hr"}), nil},
		{"empty strings", claims("", []any{"", " "}), nil},
		{"lookalikes", claims("alice ", []any{"HR", "hr ", "һr", "ｈｒ", "hr\u200b", "Alice"}), nil},
		{"number as sub", claims(42, nil), nil},
		{"10,000 groups", claims("mallory", many), nil},
		{"hr", claims("mallory", []any{"hr"}), []string{"hr.md"}},
		{"alice", claims("alice", nil), []string{"alice.md"}},
	}
	for _, c := range cases {
		tok, err := auth.Issue(secret, b.a.ID, auth.RoleReader, time.Hour, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{"public.md": true}
		for _, u := range c.sees {
			want[u] = true
		}
		l := decode[api.DocumentList](t, b.do(req{method: "GET", path: "/v1/documents", token: tok}), http.StatusOK)
		ti := decode[api.TenantInfo](t, b.do(req{method: "GET", path: "/v1/tenant", token: tok}), http.StatusOK)
		sr := decode[api.SearchResponse](t, b.do(req{method: "POST", path: "/v1/search", token: tok,
			body: map[string]any{"query": "quokkaberry ledger sealed", "top_k": 10}}), http.StatusOK)
		got := map[string]bool{}
		for _, d := range l.Documents {
			got[d.SourceURI] = true
		}
		if len(got) != len(want) || ti.Documents != int64(len(want)) {
			t.Errorf("%s: lists %v, tenant counts %d documents; want %v", c.name, got, ti.Documents, want)
		}
		for _, r := range sr.Results {
			if !want[r.SourceURI] {
				t.Errorf("%s: search returned %s", c.name, r.SourceURI)
			}
		}
		for uri, id := range hidden {
			w := b.do(req{method: "GET", path: "/v1/documents/" + id, token: tok})
			if want[uri] != (w.Code == http.StatusOK) {
				t.Errorf("%s: GET %s: %d", c.name, uri, w.Code)
			}
		}
		for uri := range want {
			if !got[uri] {
				t.Errorf("%s: does not list %s", c.name, uri)
			}
		}
	}
}
