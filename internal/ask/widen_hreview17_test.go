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
		rows, err := tx.Query(ctx, `SELECT id, chunk_index, heading_path, coalesce(sections, '{}'), content FROM chunks WHERE tenant_id = $1 AND document_id = $2 ORDER BY chunk_index`, tt.ID, out.DocumentID)
		if err != nil {
			return err
		}
		var target uuid.UUID
		for rows.Next() {
			var id uuid.UUID
			var idx int
			var path, content string
			var sections []string
			if err := rows.Scan(&id, &idx, &path, &sections, &content); err != nil {
				return err
			}
			packed := ""
			if len(sections) > 1 {
				packed = " packed"
			}
			fmt.Fprintf(&listing, "  chunk %d [%s] sections=%q%s: %q\n", idx, path, sections, packed, content)
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

// TestNeighbourhoodSkipsMergedSiblingEntries (h-review17, commit 9fa82ab):
// the chunker packs short sibling sections into one chunk whose heading
// path is their parent's (the common prefix, chunk/doc.go), so the chunk
// holding an FAQ's short entries is headed "Frequent problems" alone.
// ChunkNeighbourhoods takes that path for "the intro of the section the
// chunk is a subsection of" (starts_with(k.heading_path, c.heading_path ||
// ' > ')) and widens the next entry's chunk into it: the source for
// "Quokka instance is not bound to a session" holds the answers of the
// entries before it ("Use bulk inserts ..."), exactly what the commit meant
// to stop, in the common case of an FAQ whose entries are short.
//
// Expected: a neighbour whose text lies in sibling sections of another
// topic does not join, even when its heading path is their common parent.
func TestNeighbourhoodSkipsMergedSiblingEntries(t *testing.T) {
	t.Parallel()
	doc := "# Frequent problems\n\n" +
		"## Stale attribute\n\nExpire the quokka object to reload it.\n\n" +
		"## Slow flush\n\nUse bulk inserts for many quokka rows.\n\n" +
		"## Quokka instance is not bound to a session\n\nThe quokka instance was detached when its session closed. Keep the session open while the object is used.\n"
	body, listing := neighbourhoodOfChunk(t, "nb-merged-faq", doc, "was detached when its session closed")
	if !strings.Contains(body, "was detached when its session closed") {
		t.Fatalf("neighbourhood lacks its own chunk:\n%s\nchunks:\n%s", body, listing)
	}
	if strings.Contains(body, "Use bulk inserts") || strings.Contains(body, "Expire the quokka object") {
		t.Errorf("the entry's neighbourhood holds the previous entries' answers:\n%s\nchunks:\n%s", body, listing)
	}
}

// TestNeighbourhoodReadsHeadingsNotTheirText (h-review17, commit 9fa82ab):
// the rule reads a heading path as a string split on ' > ', but a
// heading's own text may hold ' > ' (a user guide's menu paths: "Edit >
// Preferences", "Edit > Find"). Two sibling sections headed by such menu
// paths, each a topic of several words, are taken for one-word siblings
// (regexp ' > [^ ]+$' strips "Preferences" and "Find" and leaves "...
// Edit" on both sides), so the Find section's source holds the
// Preferences section.
//
// Expected: the rule compares heading elements, not the joined string;
// two sibling sections headed "Edit > Preferences" and "Edit > Find" are
// not joined.
func TestNeighbourhoodReadsHeadingsNotTheirText(t *testing.T) {
	t.Parallel()
	doc := "# Quokka editor guide\n\n" +
		"## Edit > Preferences\n\nThe preferences window sets the quokka editor's font, colours and autosave interval. Changes apply when the window closes.\n\n" +
		"## Edit > Find\n\nThe find bar searches the open quokka document for a word. Press Enter for the next match and Escape to close the bar.\n\n" +
		"## View > Zoom\n\nZoom enlarges the quokka page on screen without changing the printed size. Reset it from the status bar at any time.\n"
	body, listing := neighbourhoodOfChunk(t, "nb-menupath", doc, "The find bar searches")
	if !strings.Contains(body, "The find bar searches") {
		t.Fatalf("neighbourhood lacks its own chunk:\n%s\nchunks:\n%s", body, listing)
	}
	if strings.Contains(body, "autosave interval") {
		t.Errorf("the Edit > Find section's neighbourhood holds the Edit > Preferences section:\n%s\nchunks:\n%s", body, listing)
	}
}
