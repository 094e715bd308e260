package ask_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ragd-dev/ragd/internal/ingest"
	"github.com/ragd-dev/ragd/internal/store"
)

// neighbourhoodOfChunk ingests doc into a small-chunk tenant and returns the
// ChunkNeighbourhoods body of the chunk whose content holds marker, with a
// listing of the document's chunks for failure messages.
func neighbourhoodOfChunk(t *testing.T, name, doc, marker string) (string, string) {
	t.Helper()
	ctx := context.Background()
	pool, tt, tn, _, p := smallChunkTenant(t, name)
	out, err := p.Upsert(ctx, tn, ingest.Document{SourceURI: "https://docs.test/" + name, ContentType: "text/markdown", Content: []byte(doc)})
	if err != nil {
		t.Fatal(err)
	}
	var listing strings.Builder
	var body string
	err = store.InTenant(ctx, pool, tt.ID, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT id, chunk_index, heading_path, content FROM chunks WHERE tenant_id = $1 AND document_id = $2 ORDER BY chunk_index`, tt.ID, out.DocumentID)
		if err != nil {
			return err
		}
		var target uuid.UUID
		for rows.Next() {
			var id uuid.UUID
			var idx int
			var path, content string
			if err := rows.Scan(&id, &idx, &path, &content); err != nil {
				return err
			}
			fmt.Fprintf(&listing, "  chunk %d [%s]: %q\n", idx, path, content)
			if strings.Contains(content, marker) {
				target = id
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if target == uuid.Nil {
			return fmt.Errorf("no chunk holds %q:\n%s", marker, listing.String())
		}
		nb, err := store.New().ChunkNeighbourhoods(ctx, tx, store.ChunkNeighbourhoodsParams{TenantID: tt.ID, ChunkIds: []uuid.UUID{target}})
		if err != nil {
			return err
		}
		if len(nb) != 1 {
			return fmt.Errorf("%d neighbourhoods", len(nb))
		}
		body = nb[0].Body
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return body, listing.String()
}

// TestNeighbourhoodSkipsOneWordSiblingTopics (h-review17, commit 9fa82ab):
// the one-word-sibling rule (' > [^ ]+$' on both paths) assumes a
// one-word heading is an aspect of the page's subject ("Notes",
// "Examples"), but an error reference, an API reference or a glossary
// heads each entry, another topic, by one word (MissingGreenlet,
// DetachedInstanceError; Session.merge(), Session.flush()), and a heading
// in Chinese or Japanese has no blank at all, so every CJK sibling is
// "one word". The DetachedInstanceError entry's source is widened into the
// MissingGreenlet entry before it, the case the commit describes (an error
// entry answered from the entry before it).
//
// Expected: sibling entries each headed by its own name (an identifier, a
// CJK sentence) are not joined; only aspect headings are.
func TestNeighbourhoodSkipsOneWordSiblingTopics(t *testing.T) {
	t.Parallel()
	doc := "# Error messages\n\n" +
		"## MissingGreenlet\n\nThe quokka driver was called outside of an awaitable context. Run the call inside the async session so the greenlet is spawned first.\n\n" +
		"## DetachedInstanceError\n\nThe quokka instance was detached when its session closed. Keep the session open while the object is used, then close it.\n\n" +
		"## ResourceClosedError\n\nThe quokka result was read after its cursor closed. Fetch all the rows you need before the connection is returned.\n"
	body, listing := neighbourhoodOfChunk(t, "nb-oneword", doc, "was detached when its session closed")
	if !strings.Contains(body, "was detached when its session closed") {
		t.Fatalf("neighbourhood lacks its own chunk:\n%s\nchunks:\n%s", body, listing)
	}
	if strings.Contains(body, "greenlet is spawned") || strings.Contains(body, "Fetch all the rows") {
		t.Errorf("the DetachedInstanceError entry's neighbourhood holds its sibling error entries:\n%s\nchunks:\n%s", body, listing)
	}
}
