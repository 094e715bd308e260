package store_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestHostilePrincipalsReadOnlyTheirOwn: principals carrying the text[]
// literal's syntax (commas, quotes, braces, backslashes, NULL), the '*'
// marker, lookalikes of a group name (case, whitespace, Cyrillic and
// full-width letters, another prefix) and huge arrays travel through
// app.principals as exactly themselves: each reads, in all four access
// tables, the tenant-wide document and the documents whose list names it
// byte for byte, never the others.
func TestHostilePrincipalsReadOnlyTheirOwn(t *testing.T) {
	t.Parallel()
	pool := testdb.App(t)
	tn := testdb.NewTenant(t, "acl-hostile", "")
	lists := map[string]string{ // source_uri → its one principal ("" tenant-wide)
		"public": "", "hr": "group:hr", "comma": "group:a,group:hr", "quote": `group:"hr"`,
		"brace": "group:{hr}", "backslash": `group:hr\`, "null": "group:NULL",
	}
	docs := map[string]uuid.UUID{}
	chunkDoc := map[uuid.UUID]uuid.UUID{}
	for uri, p := range lists {
		d, chunks := seed(t, pool, tn.ID, "acl://"+uri, "quarterly "+uri+" salaries and bonuses")
		docs[uri] = d
		for _, c := range chunks {
			chunkDoc[c] = d
		}
		if p != "" {
			setAccess(t, pool, tn.ID, d, p)
		}
	}
	junk := make([]string, 5000)
	for i := range junk {
		junk[i] = fmt.Sprintf("group:junk-%d", i)
	}
	cases := []struct {
		principals []string
		want       []string // besides public
	}{
		{[]string{"*"}, nil},
		{[]string{"group:*"}, nil},
		{[]string{"user:*", "*", ""}, nil},
		{[]string{"group:a,group:hr"}, []string{"comma"}},
		{[]string{"group:a", "group:hr\"}"}, nil},
		{[]string{`group:"hr"`}, []string{"quote"}},
		{[]string{"group:{hr}"}, []string{"brace"}},
		{[]string{`group:hr\`}, []string{"backslash"}},
		{[]string{"group:NULL"}, []string{"null"}},
		{[]string{"NULL", "group:null", "{group:hr}", `"group:hr"`, "group:hr ", " group:hr", "group:HR", "user:hr",
			"group:һr", "group:ｈｒ", "group:hr\u200b", "hr", "group:"}, nil},
		{junk, nil},
		{append(slices.Clone(junk), "group:hr"), []string{"hr"}},
		{[]string{"group:hr"}, []string{"hr"}},
	}
	for _, c := range cases {
		want := map[uuid.UUID]bool{docs["public"]: true}
		for _, u := range c.want {
			want[docs[u]] = true
		}
		ctx := asPrincipals(c.principals...)
		name := strings.Join(c.principals[:min(len(c.principals), 4)], " ")
		err := store.InTenant(ctx, pool, tn.ID, func(tx pgx.Tx) error {
			got, err := visibleDocs(ctx, tx, chunkDoc)
			if err != nil {
				return err
			}
			for tbl, seen := range got {
				for d := range want {
					if !seen[d] {
						t.Errorf("%q: %s misses document %s", name, tbl, d)
					}
				}
				for d := range seen {
					if !want[d] {
						t.Errorf("%q: %s reads document %s it may not", name, tbl, d)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
}
