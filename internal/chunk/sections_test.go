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

// TestHeadingPathNamesAPageOnce: a page titled "<h1> — <site>" (Sphinx,
// MkDocs, most site generators) gets paths that name it once, with the
// site's name kept; a heading that only begins like the title, or a title
// that does not end in a site's name, stays in the path.
func TestHeadingPathNamesAPageOnce(t *testing.T) {
	cfg := Config{TargetTokens: 60, MaxTokens: 90, MinTokens: 1, MaxChars: 4096}
	cases := []struct{ title, h1, want string }{
		{"Spider Middleware — Scrapy 2.8.0 documentation", "Spider Middleware", "Spider Middleware — Scrapy 2.8.0 documentation"},
		{"Install - MkDocs", "install", "Install - MkDocs"},
		{"PostgreSQL: Documentation: 15: CREATE TABLE", "CREATE TABLE", "PostgreSQL: Documentation: 15: CREATE TABLE"},
		{"Spider Middleware — Scrapy", "Spider", "Spider Middleware — Scrapy > Spider"},
		{"Spider Middleware and more", "Spider Middleware", "Spider Middleware and more > Spider Middleware"},
		{"Spider Middleware", "Spider Middleware", "Spider Middleware"},
	}
	for _, c := range cases {
		page := "<html><head><title>" + c.title + "</title></head><body><h1>" + c.h1 + "</h1><p>Middlewares process what spiders return.</p>" +
			"<h2>Activating a middleware</h2><p>Add it to the SPIDER_MIDDLEWARES setting with its order.</p></body></html>"
		chunks := split(t, extractT(t, "text/html", page), cfg)
		if len(chunks) != 1 {
			t.Fatalf("title %q: %d chunks, want 1", c.title, len(chunks))
		}
		if want := []string{c.want, c.want + " > Activating a middleware"}; chunks[0].HeadingPath != c.want || !slices.Equal(chunks[0].Sections, want) {
			t.Errorf("title %q, h1 %q: path %q, sections %q; want %q, %q", c.title, c.h1, chunks[0].HeadingPath, chunks[0].Sections, c.want, want)
		}
	}
	// A heading below the first level that repeats the title's page name
	// is a section of its own, not the page's name again.
	page := "<html><head><title>Spiders — Scrapy</title></head><body><h1>Overview</h1><p>Spiders crawl.</p><h2>Spiders</h2><p>A spider defines how a site is scraped.</p></body></html>"
	chunks := split(t, extractT(t, "text/html", page), cfg)
	if want := []string{"Spiders — Scrapy > Overview", "Spiders — Scrapy > Overview > Spiders"}; len(chunks) != 1 || !slices.Equal(chunks[0].Sections, want) {
		t.Errorf("nested heading: %+v; want one chunk with sections %q", chunks, want)
	}
}
