package ask_test

import (
	"strings"
	"testing"
)

// neighbourhoodOfChunk ingests the Markdown doc into a small-chunk tenant
// and returns the ChunkNeighbourhoods body of the chunk holding marker,
// with a listing of the document's chunks (" packed" marks a chunk of
// several sections) for failure messages.
func neighbourhoodOfChunk(t *testing.T, name, doc, marker string) (string, string) {
	t.Helper()
	bodies, listing := neighbourhoodsOf(t, name, "text/markdown", doc, false, marker)
	return bodies[marker], listing
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
