package search

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ragd-dev/ragd/internal/answer"
	"github.com/ragd-dev/ragd/internal/chunk"
	"github.com/ragd-dev/ragd/internal/extract"
)

// review63b: matchSection on chunks built by the real extractor and chunker.
// Each test is a defect a review of 1331de8 found when sections were placed
// by their titles' lines, fixed by placing them by the chunk's anchor marks;
// the comments say what went wrong then.

func r63Chunks(t *testing.T, ctype, src string) []chunk.Chunk {
	t.Helper()
	doc, err := extract.Extract(ctype, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cfg := chunk.DefaultConfig()
	cfg.TargetTokens, cfg.MaxTokens, cfg.MinTokens, cfg.OverlapTokens = 400, 500, 5, 0
	cs, err := chunk.Split(doc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func r63Content(c chunk.Chunk) chunkContent {
	marks := make([]string, len(c.AnchorMarks))
	for i, m := range c.AnchorMarks {
		marks[i] = fmt.Sprintf("%d\t%s", m.At, m.Anchor)
	}
	return chunkContent{HeadingPath: c.HeadingPath, Content: c.Content, StartOffset: int32(c.Start), EndOffset: int32(c.End), Anchor: c.Anchor,
		Sections: c.Sections, SectionAnchors: c.SectionAnchors, AnchorMarks: marks}
}

func r63Dump(t *testing.T, cs []chunk.Chunk) {
	for _, c := range cs {
		t.Logf("chunk %d path=%q anchor=%q\n sections=%q\n anchors=%q\n content=%q", c.Index, c.HeadingPath, c.Anchor, c.Sections, c.SectionAnchors, c.Content)
	}
}

// A heading holding " > " (a menu path) is stored in the path as " › ",
// so its title is never found as a line: the words under it are credited
// to the section before it, which match_heading_path then names.
func TestReview63bMenuPathHeading(t *testing.T) {
	html := `<html><head><title>Menus</title></head><body><main><h1 id="menus">Menus</h1>
<p>The menu bar holds every command of the editor.</p>
<h2 id="tabs">Tabs</h2><p>Each open document has a tab of its own.</p>
<h2 id="edit-find">Edit &gt; Find</h2><p>Searches the current document for a regular expression and highlights each hit.</p>
</main></body></html>`
	cs := r63Chunks(t, "text/html", html)
	r63Dump(t, cs)
	if len(cs) != 1 {
		t.Fatalf("want one chunk")
	}
	p, a, _ := matchSection(answer.Coverage("search the document for a regular expression"), r63Content(cs[0]))
	if p != "Menus > Edit › Find" || a != "edit-find" {
		t.Errorf("got %q #%q, want %q #%q", p, a, "Menus > Edit › Find", "edit-find")
	}
}

// The intro lists the sections' names as definition terms, each on a line
// of its own: those lines are taken for the sections' titles.
func TestReview63bOverviewTerms(t *testing.T) {
	html := `<html><head><title>Pool</title></head><body><main><h1 id="pool">Pool</h1>
<p>The module offers two classes:</p>
<dl><dt>GreenPool</dt><dd>bounds how many green threads run at once.</dd><dt>GreenPile</dt><dd>collects results.</dd></dl>
<h2 id="greenpool">GreenPool</h2><p>Spawning into a full pool blocks the caller until a green thread finishes.</p>
<h2 id="greenpile">GreenPile</h2><p>An iterator over the results of the spawned functions, in order.</p>
</main></body></html>`
	cs := r63Chunks(t, "text/html", html)
	r63Dump(t, cs)
	if len(cs) != 1 {
		t.Fatalf("want one chunk")
	}
	p, a, _ := matchSection(answer.Coverage("does spawning into a full pool block the caller"), r63Content(cs[0]))
	if p != "Pool > GreenPool" || a != "greenpool" {
		t.Errorf("got %q #%q, want %q #%q", p, a, "Pool > GreenPool", "greenpool")
	}
}

// Two sibling sections with the same title have one path, which the
// chunker lists once with the first one's anchor: match_anchor links to
// the first "Example" when the words are in the second.
func TestReview63bSameNamedSiblings(t *testing.T) {
	html := `<html><head><title>Ref</title></head><body><main><h1 id="ref">Ref</h1><p>Intro.</p>
<h2 id="spawn">spawn</h2><p>Starts a green thread.</p>
<h3 id="ex1">Example</h3><p>spawn(fetch, url) starts fetching in the background.</p>
<h3 id="ex2">Example</h3><p>spawn_n(log, line) runs without a result.</p>
</main></body></html>`
	cs := r63Chunks(t, "text/html", html)
	r63Dump(t, cs)
	if len(cs) != 1 {
		t.Fatalf("want one chunk")
	}
	p, a, _ := matchSection(answer.Coverage("spawn_n runs without a result"), r63Content(cs[0]))
	if a != "ex2" {
		t.Errorf("got %q #%q, want the second Example's anchor #ex2", p, a)
	}
}

// A later section's title standing as an ordinary line earlier in the
// chunk (an admonition's "Note" caption, a bold pseudo-heading) is taken
// for that section's start: the words after it, in the earlier section,
// are credited to the later one.
func TestReview63bTitleAsOrdinaryLine(t *testing.T) {
	html := `<html><head><title>Pool</title></head><body><main><h1 id="pool">Pool</h1>
<p>A pool bounds how many green threads run at once.</p>
<h2 id="resize">Resize</h2><p>Resizing changes the size of the pool.</p>
<div class="admonition note"><p class="admonition-title">Note</p><p>Shrinking the pool never kills a running thread; waiting callers block until one finishes.</p></div>
<h2 id="note">Note</h2><p>Pools are not thread safe across operating system threads.</p>
</main></body></html>`
	cs := r63Chunks(t, "text/html", html)
	r63Dump(t, cs)
	if len(cs) != 1 {
		t.Fatalf("want one chunk")
	}
	p, a, _ := matchSection(answer.Coverage("does shrinking the pool kill a running thread"), r63Content(cs[0]))
	if p != "Pool > Resize" || a != "resize" {
		t.Errorf("got %q #%q, want %q #%q", p, a, "Pool > Resize", "resize")
	}
}

// Repeated titles ("Example" under two entries): matchSection places each
// in turn, but ragd search's snippet looks the title up from the start of
// the chunk (internal/cli/search.go) and shows the first one.
func TestReview63bRepeatedTitleSnippet(t *testing.T) {
	html := `<html><head><title>Ref</title></head><body><main><h1 id="ref">Ref</h1>
<h2 id="spawn">spawn</h2><p>Starts a green thread.</p>
<h3 id="spawn-example">Example</h3><p>spawn(fetch, url) starts fetching in the background.</p>
<h2 id="sleep">sleep</h2><p>Yields to the hub.</p>
<h3 id="sleep-example">Example</h3><p>sleep(0) gives every other coroutine a turn before continuing.</p>
</main></body></html>`
	cs := r63Chunks(t, "text/html", html)
	r63Dump(t, cs)
	if len(cs) != 1 {
		t.Fatalf("want one chunk")
	}
	q := "give other coroutines a turn with sleep(0)"
	p, a, off := matchSection(answer.Coverage(q), r63Content(cs[0]))
	if p != "Ref > sleep > Example" || a != "sleep-example" {
		t.Fatalf("matchSection: got %q #%q", p, a)
	}
	// What ragd search shows (internal/cli/search.go): the text from the
	// matched place on.
	text := cs[0].Content[off:]
	if !strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(text, "Example")), "sleep(0)") {
		t.Errorf("CLI snippet starts %q: want the matched section (sleep > Example)", text[:min(60, len(text))])
	}
}

// A cut title (over 200 bytes, "…") is placed by matchSection, but the CLI
// looks it up with the "…" and whole-line, finds nothing, and shows the
// chunk from its start under the matched section's name.
func TestReview63bCutTitleSnippet(t *testing.T) {
	long := "Why does my long running worker process stop answering requests after it has been idle for a while behind the load balancer even though the health check keeps reporting that every single instance is healthy and ready"
	html := `<html><head><title>FAQ</title></head><body><main><h1 id="faq">FAQ</h1>
<h2 id="q1">How do I install it?</h2><p>Run pip install with the package name.</p>
<h2 id="q2">` + long + `</h2><p>The balancer drops idle connections after sixty seconds; set keepalive below that.</p>
</main></body></html>`
	cs := r63Chunks(t, "text/html", html)
	r63Dump(t, cs)
	if len(cs) != 1 {
		t.Fatalf("want one chunk")
	}
	p, _, off := matchSection(answer.Coverage("balancer drops idle connections keepalive"), r63Content(cs[0]))
	if !strings.HasSuffix(p, "…") {
		t.Fatalf("matchSection: got %q, want the cut title", p)
	}
	text := cs[0].Content[off:]
	if strings.HasPrefix(text, "FAQ") {
		t.Errorf("CLI snippet starts %q: want the matched section's text", text[:min(60, len(text))])
	}
}
