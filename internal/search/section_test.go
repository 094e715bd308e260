package search

import (
	"strconv"
	"testing"

	"github.com/ragd-dev/ragd/internal/answer"
)

func TestMatchSection(t *testing.T) {
	t.Parallel()
	content := "Models\n\nTimeFramedModel\n\nAdds start and end fields.\n\nTimeStampedModel\n\nAdds created and modified fields.\n\ncount_removed()\n\nCounts soft deletions."
	at := func(s string) int {
		for i := range content {
			if len(content)-i >= len(s) && content[i:i+len(s)] == s {
				return i
			}
		}
		t.Fatalf("%q not in the content", s)
		return 0
	}
	const start = 1000 // the chunk's offset in its document
	mark := func(s, anchor string) string { return itoa(start+at(s)) + "\t" + anchor }
	c := chunkContent{
		HeadingPath: "Models", Anchor: "models", Content: content, StartOffset: start, EndOffset: start + int32(len(content)),
		Sections:       []string{"Models > TimeFramedModel", "Models > TimeStampedModel"},
		SectionAnchors: []string{"tf", "ts"},
		// A definition entry's anchor inside TimeStampedModel: no section's.
		AnchorMarks: []string{mark("TimeFramedModel", "tf"), mark("TimeStampedModel", "ts"), mark("count_removed()", "ts.count_removed")},
	}
	for _, tc := range []struct {
		query, path, anchor, from string
	}{
		{"created and modified fields", "Models > TimeStampedModel", "ts", "TimeStampedModel"},
		{"start and end fields", "Models > TimeFramedModel", "tf", "TimeFramedModel"},
		{"count soft deletions", "Models > TimeStampedModel", "ts.count_removed", "count_removed()"}, // the entry's anchor, its section's path
		{"nothing here matches", "", "", ""},
	} {
		p, a, off := matchSection(answer.Coverage(tc.query), c)
		if p != tc.path || a != tc.anchor || tc.from != "" && off != at(tc.from) || tc.from == "" && off != 0 {
			t.Errorf("%q: got %q #%q at %d, want %q #%q at %q", tc.query, p, a, off, tc.path, tc.anchor, tc.from)
		}
	}
	// A chunk opening with a repeated table header (chunk.Chunk.PrefixLen)
	// places its marks after it.
	const header = "Name | Kind\n"
	d := c
	d.Content = header + content
	if p, a, off := matchSection(answer.Coverage("created and modified fields"), d); p != "Models > TimeStampedModel" || a != "ts" || off != len(header)+at("TimeStampedModel") {
		t.Errorf("header prefix: got %q #%q at %d", p, a, off)
	}
	// Marks outside the text (a neighbour's, a stale offset) and malformed
	// ones are ignored; without a mark inside the text there is nothing to
	// name.
	c.AnchorMarks = []string{"5\tbefore", itoa(start+len(content)+3) + "\tafter", "x\ty", "12"}
	if p, a, off := matchSection(answer.Coverage("created and modified fields"), c); p != "" || a != "" || off != 0 {
		t.Errorf("no usable marks: got %q #%q at %d, want nothing", p, a, off)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
