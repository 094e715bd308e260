package chunk

import (
	"slices"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/extract"
)

// TestBlockAnchors: a block links to the innermost heading or definition
// term above it that has an anchor; a subsection without one links to its
// section's; a new heading ends the terms before it.
func TestBlockAnchors(t *testing.T) {
	t.Parallel()
	h := func(level int, anchor string) extract.Block {
		return extract.Block{Kind: extract.KindHeading, Level: level, Anchor: anchor}
	}
	p := func(depth int) extract.Block { return extract.Block{Kind: extract.KindParagraph, Definition: depth} }
	term := func(depth int, anchor string) extract.Block {
		return extract.Block{Kind: extract.KindTerm, Definition: depth, Anchor: anchor}
	}
	blocks := []extract.Block{
		p(0),              // before any heading
		h(1, "top"), p(0), // top
		h(2, ""), p(0), // a subsection without anchor: its section's
		term(1, "opt-a"), p(1), // a term's definition: the term
		term(2, "opt-a-x"), p(2), p(1), // nested term, then back to the outer definition
		term(1, ""), p(1), // a term without anchor: the section's
		h(2, "second"), p(0), p(1), // a new heading ends the terms
		h(1, ""), p(0), // a top section without anchor
	}
	want := []string{
		"",
		"top", "top",
		"top", "top",
		"opt-a", "opt-a",
		"opt-a-x", "opt-a-x", "opt-a",
		"top", "top",
		"second", "second", "second",
		"", "",
	}
	wantSections := []string{
		"",
		"top", "top",
		"top", "top",
		"top", "top",
		"top", "top", "top",
		"top", "top",
		"second", "second", "second",
		"", "",
	}
	got, sections := blockAnchors(blocks)
	if !slices.Equal(got, want) {
		t.Errorf("anchors\n got %q\nwant %q", got, want)
	}
	if !slices.Equal(sections, wantSections) {
		t.Errorf("section anchors\n got %q\nwant %q", sections, wantSections)
	}
}

// TestChunkAnchor: a chunk gets the anchor of the section it starts in,
// and one that starts with a heading without an anchor gets that of its
// first text (a term with an id).
func TestChunkAnchor(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>T</title></head><body>
<h1 id="top">Manual</h1><p>Intro words here for the manual as a whole.</p>
<h2 id="install">Install</h2><p>Install the package with the installer and check the version it prints.</p>
<h2>Options</h2><dl><dt id="opt-drain">drain</dt><dd><p>Drain stops new sessions to a backend and lets open ones finish.</p></dd></dl>
</body></html>`
	doc, err := extract.Extract(extract.TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.TargetTokens, cfg.MaxTokens, cfg.MinTokens, cfg.OverlapTokens = 8, 16, 1, 0
	chunks, err := Split(doc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range chunks {
		got[c.Content[:min(len(c.Content), 12)]] = c.Anchor
	}
	for prefix, want := range map[string]string{"Install\n\nIns": "install", "Options\n\ndra": "opt-drain"} {
		found := false
		for k, v := range got {
			if k == prefix[:min(len(prefix), len(k))] {
				found = true
				if v != want {
					t.Errorf("chunk %q: anchor %q, want %q", k, v, want)
				}
			}
		}
		if !found {
			t.Errorf("no chunk starts %q: %q", prefix, got)
		}
	}
}

// TestChunkAnchorMarks: a chunk that holds several entries of a reference
// page records where each later entry's anchor takes effect (its term's
// start in the document's text), in order; a block without an anchor of
// its own under an entry changes nothing.
func TestChunkAnchorMarks(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>T</title></head><body><h1 id="ref">Reference</h1><dl>
<dt id="opt-a">alpha</dt><dd><p>Alpha sets the first thing.</p><p>More about alpha.</p></dd>
<dt id="opt-b">beta</dt><dd><p>Beta sets the second thing.</p></dd>
<dt id="opt-c">gamma</dt><dd><p>Gamma sets the third thing.</p></dd></dl>
</body></html>`
	doc, err := extract.Extract(extract.TypeHTML, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	chunks, err := Split(doc, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 1 {
		t.Fatalf("%d chunks, want the page in one", len(chunks))
	}
	c := chunks[0]
	var got []string
	for _, m := range c.AnchorMarks {
		if m.At <= c.Start || m.At >= c.End {
			t.Errorf("mark %+v outside the chunk [%d, %d)", m, c.Start, c.End)
		}
		got = append(got, m.Anchor+"@"+doc.Text[m.At:m.At+4])
	}
	want := []string{"opt-a@alph", "opt-b@beta", "opt-c@gamm"}
	if c.Anchor != "ref" || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("anchor %q, marks %q; want ref and %q", c.Anchor, got, want)
	}
}
