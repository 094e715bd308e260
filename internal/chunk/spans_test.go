package chunk

import (
	"strings"
	"testing"
)

// TestSpansMarksChunksOfSeveralSections: a chunk packing short sibling
// sections carries their parent's path and says it spans sections; a
// section's own chunk and a chunk of one section's definitions do not.
// Neighbour expansion tells a parent's intro from such a chunk by it.
func TestSpansMarksChunksOfSeveralSections(t *testing.T) {
	md := "# Frequent problems\n\n" +
		"## Stale attribute\n\nExpire the object to reload it.\n\n" +
		"## Slow flush\n\nUse bulk inserts for many rows.\n\n" +
		"## Instance is not bound to a session\n\n" + strings.Repeat("The instance was detached when its session closed. ", 12) + "\n"
	cfg := Config{TargetTokens: 60, MaxTokens: 90, MinTokens: 5, OverlapTokens: 0, MaxChars: 4096}
	chunks := split(t, extractT(t, "text/markdown", md), cfg)
	var packed, own *Chunk
	for i := range chunks {
		c := &chunks[i]
		if strings.Contains(c.Content, "Expire the object") && strings.Contains(c.Content, "bulk inserts") {
			packed = c
		}
		if strings.Contains(c.Content, "was detached") {
			own = c
		}
	}
	if packed == nil || own == nil || packed == own {
		t.Fatalf("want the two short entries packed and the long one its own chunk: %+v", chunks)
	}
	if packed.HeadingPath != "Frequent problems" || !packed.Spans {
		t.Errorf("packed entries: path %q spans %v; want their parent's path and spans", packed.HeadingPath, packed.Spans)
	}
	if own.Spans || !strings.HasSuffix(own.HeadingPath, " > Instance is not bound to a session") {
		t.Errorf("the entry's own chunk: path %q spans %v", own.HeadingPath, own.Spans)
	}

	ref := "# BEGIN\n\nBEGIN — start a transaction block\n\n## Synopsis\n\nBEGIN [ WORK | TRANSACTION ]\n\n" +
		"## Description\n\nBEGIN initiates a transaction block.\n\n## Notes\n\nUse COMMIT or ROLLBACK to end it.\n"
	for _, c := range split(t, extractT(t, "text/markdown", ref), cfg) {
		if c.Spans {
			t.Errorf("a reference page's intro and aspect sections (Synopsis, Description, Notes) span sections: %+v", c)
		}
	}
	intro := "# Install guide\n\nRead this first.\n\n## Installing from packages\n\nRun the package manager.\n"
	if c := split(t, extractT(t, "text/markdown", intro), cfg); len(c) != 1 || !c[0].Spans {
		t.Errorf("an intro packed with its first subsection: %+v; want one chunk that spans sections (it ends in the subsection)", c)
	}

	dl := "<html><body><h1>Settings</h1><dl><dt>work_mem</dt><dd><p>Memory per sort.</p></dd><dt>temp_buffers</dt><dd><p>Memory for temporary tables.</p></dd></dl></body></html>"
	for _, c := range split(t, extractT(t, "text/html", dl), cfg) {
		if c.Spans {
			t.Errorf("a chunk of one section's definitions spans sections: %+v", c)
		}
	}
}

// TestHeadingPathKeepsItsSeparator: " > " joins a path's headings, so a
// heading's own " > " (a menu path) is written " › " and the path splits
// back into its headings.
func TestHeadingPathKeepsItsSeparator(t *testing.T) {
	md := "# Editor guide\n\n## Edit > Find\n\nThe find bar searches the open document for a word.\n"
	chunks := split(t, extractT(t, "text/markdown", md), Config{TargetTokens: 60, MaxTokens: 90, MinTokens: 1, MaxChars: 4096})
	if len(chunks) != 1 || chunks[0].HeadingPath != "Editor guide > Edit › Find" {
		t.Fatalf("chunks %+v; want one with path %q", chunks, "Editor guide > Edit › Find")
	}
}
