package chunk

import (
	"slices"
	"strings"
	"testing"
)

// TestSectionsListTheSectionsAChunkHolds: a chunk packing short sibling
// sections carries their parent's path and lists each section's path; a
// chunk of one section's definitions lists that section once.
// Neighbour expansion judges a join at the boundary two chunks share by
// them.
func TestSectionsListTheSectionsAChunkHolds(t *testing.T) {
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
	if want := []string{"Frequent problems > Stale attribute", "Frequent problems > Slow flush"}; packed.HeadingPath != "Frequent problems" || !slices.Equal(packed.Sections, want) {
		t.Errorf("packed entries: path %q sections %q; want their parent's path and sections %q", packed.HeadingPath, packed.Sections, want)
	}
	if want := []string{"Frequent problems > Instance is not bound to a session"}; !slices.Equal(own.Sections, want) {
		t.Errorf("the entry's own chunk: sections %q, want %q", own.Sections, want)
	}

	dl := "<html><body><h1>Settings</h1><dl><dt>work_mem</dt><dd><p>Memory per sort.</p></dd><dt>temp_buffers</dt><dd><p>Memory for temporary tables.</p></dd></dl></body></html>"
	for _, c := range split(t, extractT(t, "text/html", dl), cfg) {
		if len(c.Sections) != 1 || c.Sections[0] != "Settings" {
			t.Errorf("a chunk of one section's definitions: sections %q, want [Settings]", c.Sections)
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
