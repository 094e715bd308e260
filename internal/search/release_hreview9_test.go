package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/search"
	"github.com/ragd-dev/ragd/internal/store"
	"github.com/ragd-dev/ragd/internal/testdb"
)

// TestVersionedNameBeyondTheFirstThousandChunks_hreview9: versionedNames
// reads the first 1,000 postings of the name's lexeme in index order
// (chunk_id, a random UUID) and decides from them alone. In a tenant where
// the name is common (the PostgreSQL manual and "PostgreSQL"), whether a
// question about a missing release is refused then depends on which UUIDs
// the chunks that write "Frobnicator 2" drew: here the one such chunk sorts
// last, and "Frobnicator 3" is answered as if the Frobnicator had no
// releases. Expected: the documents write "Frobnicator 2", so "Frobnicator
// 3" is reported missing and the confidence capped, whatever the chunks'
// ids.
func TestVersionedNameBeyondTheFirstThousandChunks_hreview9(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tt, s := corpusTenant(t, "relmany", "english", map[string]string{
		"frob.md": "# Frobnicator\n\nThe Frobnicator adds turbo mode to the pipeline.",
	})
	all := store.WithVisibility(ctx, store.AllDocuments())
	err := store.InTenant(all, testdb.App(t), tt.ID, func(tx pgx.Tx) error {
		for _, sql := range []string{
			`INSERT INTO documents (tenant_id, source_uri, content_type, content_sha, pipeline, body, chunk_count)
			 VALUES ($1, 'bulk://frob', 'text/plain', '\x01'::bytea, 'fill', 'a', 1201)`,
			`INSERT INTO chunks (tenant_id, document_id, chunk_index, content, token_count, start_offset, end_offset, ts_config)
			 SELECT $1, d.id, k, 'Note ' || k || ': the Frobnicator pipeline log rotates daily.', 8, 0, 1, 'english'
			 FROM documents d, generate_series(0, 1199) k WHERE d.tenant_id = $1 AND d.source_uri = 'bulk://frob'`,
			`INSERT INTO chunks (id, tenant_id, document_id, chunk_index, content, token_count, start_offset, end_offset, ts_config)
			 SELECT 'ffffffff-ffff-ffff-ffff-ffffffffffff', $1, d.id, 1200, 'Frobnicator 2 added turbo mode.', 5, 0, 1, 'english'
			 FROM documents d WHERE d.tenant_id = $1 AND d.source_uri = 'bulk://frob'`,
		} {
			if _, err := tx.Exec(all, sql, tt.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := s.Search(ctx, tt, search.Request{Query: "What does Frobnicator 3 add to the pipeline?", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(resp.MissingTerms, "Frobnicator 3") || resp.Confidence > 0.1 {
		t.Errorf("missing %q, confidence %.3f (%q); a chunk writes “Frobnicator 2”, want “Frobnicator 3” missing and the confidence capped",
			resp.MissingTerms, resp.Confidence, resp.ConfidenceReason)
	}
}
