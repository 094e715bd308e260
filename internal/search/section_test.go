package search

import "testing"

func TestMatchSection(t *testing.T) {
	t.Parallel()
	c := chunkContent{
		HeadingPath:    "Models",
		Content:        "Models\n\nTimeFramedModel\n\nAdds start and end fields.\n\nTimeStampedModel\n\nAdds created and modified fields.\n\nA very long title cut short here\n\nCounts soft deletions.",
		Sections:       []string{"Models > TimeFramedModel", "Models > TimeStampedModel", "Models > A very long title cut…"},
		SectionAnchors: []string{"tf", "ts", ""},
	}
	for _, tc := range []struct{ query, path, anchor string }{
		{"created and modified fields", "Models > TimeStampedModel", "ts"},
		{"start and end fields", "Models > TimeFramedModel", "tf"},
		{"soft deletions", "Models > A very long title cut…", ""}, // a cut title matches the line it starts; no anchor given
		{"nothing here matches", "", ""},
	} {
		if p, a := matchSection(tc.query, c); p != tc.path || a != tc.anchor {
			t.Errorf("%q: got %q #%q, want %q #%q", tc.query, p, a, tc.path, tc.anchor)
		}
	}
	// A section whose title is not a line of the text cannot be placed:
	// the words are not attributed to it.
	c.Content = "Models\n\nTimeFramedModel\n\nAdds start and end fields. TimeStampedModel adds created and modified fields."
	if p, _ := matchSection("created and modified fields", c); p != "Models > TimeFramedModel" {
		t.Errorf("unplaced section: got %q, want the section whose title stands in the text", p)
	}
	// One section, or the chunk's own: nothing to add.
	c.Sections, c.SectionAnchors = []string{"Models > TimeFramedModel"}, nil
	if p, a := matchSection("start and end fields", c); p != "" || a != "" {
		t.Errorf("one section: got %q #%q, want nothing", p, a)
	}
}
