package search

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/ragd-dev/ragd/internal/embed"
	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/tenant"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestRetrievalStatementsStayInTheTenant: the keyword leg (unfiltered and
// filtered by source_uri prefix) with its matched lexemes, the filtered
// vector leg, the query terms' document frequencies, the missing-names check
// and the identifier-family check, run in tenant B's transaction with tenant
// A's id as the explicit filter, see none of tenant A's rows (row-level
// security): no chunk, a document frequency of 0, A's own words reported
// missing and no family member; the same statements in A's transaction see
// them.
func TestRetrievalStatementsStayInTheTenant(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.App(t)
	emb, err := embed.NewLocal(embed.DefaultModelDir(os.Getenv))
	if err != nil {
		t.Fatalf("local model: %v (run `make setup`)", err)
	}
	p, err := ingest.New(pool, emb, 1)
	if err != nil {
		t.Fatal(err)
	}
	a, b := testdb.NewTenant(t, "rls-a", ""), testdb.NewTenant(t, "rls-b", "")
	ta, err := tenant.Load(ctx, pool, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Upsert(ctx, ta, ingest.Document{SourceURI: "a/secret.md", ContentType: "text/markdown",
		Content: []byte("# Vault\n\nThe Quorvex vault (クオーベックス) opens with the frobnix_lever.")}); err != nil {
		t.Fatal(err)
	}
	const text = "Quorvex frobnix_lever"
	kwText := "Quorvex frobnix_lever\nfrobnixlever"
	probes := []string{"Quorvex", "frobnix_lever", "クオーベックス"}
	probeTexts := []string{"Quorvex", "frobnixlever", "クオ オー ーベ ベッ ック クス"}
	probeLiteral := []bool{false, true, true}
	probeKana := []string{"", "", store.KanaPattern("クオーベックス")}
	type seen struct{ chunks, matched, vectors, df, missing, families int }
	look := func(as testdb.Tenant) seen {
		var s seen
		err := store.InTenant(ctx, pool, as.ID, func(tx pgx.Tx) error {
			// Unfiltered, and filtered (keyword_search's other branch: it
			// reads the documents and chunks to find the matching chunks).
			for _, filtered := range []bool{false, true} {
				rows, err := tx.Query(ctx, store.KeywordLegSQL, "english", a.ID, kwText, 0.9, 0.4, 150, 10, filtered, "a/", []byte(`{}`))
				if err != nil {
					return err
				}
				for rows.Next() {
					vals, err := rows.Values()
					if err != nil {
						return err
					}
					s.chunks++
					s.matched += len(vals[len(vals)-1].([]any))
				}
				if err := rows.Err(); err != nil {
					return err
				}
			}
			// The vector leg's filtered scan (a function like keyword_search).
			vectorSQL, err := store.VectorLegSQL(store.VectorFiltered, 512, 1)
			if err != nil {
				return err
			}
			rows, err := tx.Query(ctx, vectorSQL, pgvector.NewVector(make([]float32, 512)), a.ID, 10, "a/", []byte(`{}`))
			if err != nil {
				return err
			}
			for rows.Next() {
				s.vectors++
			}
			if err := rows.Err(); err != nil {
				return err
			}
			rows, err = tx.Query(ctx, store.KeywordTermsSQL, a.ID, "english", kwText, kwText)
			if err != nil {
				return err
			}
			for rows.Next() {
				var l string
				var df, n int64
				var readable, optional bool
				if err := rows.Scan(&l, &df, &n, &readable, &optional); err != nil {
					return err
				}
				s.df += int(df + n)
				if readable {
					s.df++
				}
			}
			if err := rows.Err(); err != nil {
				return err
			}
			rows, err = tx.Query(ctx, store.MissingTermsSQL, "english", a.ID, probes, probeTexts, probeLiteral, probeKana)
			if err != nil {
				return err
			}
			missing, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				return err
			}
			s.missing = len(missing)
			// A family member (frobnix_lever) of an identifier the
			// question names.
			rows, err = tx.Query(ctx, store.IdentifierFamiliesSQL, "english", a.ID, []string{"frobnix_wheel_spoke"},
				[]string{"(^|[^[:alnum:]_])frobnix_[[:alnum:]]"}, []string{"frobnix"})
			if err != nil {
				return err
			}
			found, err := pgx.CollectRows(rows, pgx.RowTo[string])
			s.families = len(found)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := look(a); s.chunks != 2 || s.matched == 0 || s.vectors != 1 || s.df == 0 || s.missing != 0 || s.families != 1 {
		t.Fatalf("tenant A's own statements: %+v, want its chunk (keyword leg unfiltered and filtered, filtered vector leg), its lexemes, nothing missing, the family member", s)
	}
	if s := look(b); s != (seen{missing: len(probes)}) {
		t.Errorf("tenant B with tenant A's id: %+v, want no chunk, df 0, every probe missing, no family member (%s)", s, text)
	}
}
