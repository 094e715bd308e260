package ask_test

import (
	"strings"
	"testing"
)

// These tests were written (h-review18) against the spans_sections rule
// (migration 00028): one flag per chunk, "its text lies in more than one
// section". Their comments describe that rule's defects; the rule that
// replaced it (migration 00029) judges a join at the boundary two chunks
// share, from the sections each lists.

// TestNeighbourhoodKeepsTheStartOfAWindowedSection (h-review18): a short
// intro (under MinTokens) is packed with its first subsection whatever the
// subsection's size, and when the result is over MaxTokens it is cut into
// windows that ignore section boundaries. The first window then holds the
// intro, the subsection's heading and its first paragraph: it spans
// sections (spans_sections) and carries the parent's path; the next
// windows carry the subsection's path and do not span. ChunkNeighbourhoods
// now refuses a spanning chunk as the chunk before a non-spanning one
// ((NOT c.spans_sections OR k.spans_sections)), so the second window of
// the subsection, the continuation of one answer, loses the subsection's
// heading and first paragraph, its own text; before this change it was
// joined (its path is the prefix). With the default sizes this is any
// section with an intro under 50 words whose first subsection runs past
// about 250 words (chunk.DefaultConfig: first window "Quokka sync >
// Conflicts" spans=true, the rest "... > Why does sync stop with a
// conflict?").
//
// Expected: the chunk before that holds the beginning of the retrieved
// chunk's own section (its heading and first paragraph) joins its
// neighbourhood: a window cut inside a section is that section's
// continuation, whatever else the window holds.
func TestNeighbourhoodKeepsTheStartOfAWindowedSection(t *testing.T) {
	t.Parallel()
	doc := "# Quokka sync\n\n## Conflicts\n\nSee below.\n\n### Why does sync stop?\n\n" +
		"Both quokka copies changed since the last sync.\n\n" +
		"To resolve the conflict, open the file, keep the lines you want, then run quokka sync --resolve on it.\n\n" +
		"If you want the server's copy instead, run quokka sync --theirs, which drops your local edits for good.\n"
	body, listing := neighbourhoodOfChunk(t, "nb-windowed-start", doc, "To resolve the conflict")
	if !strings.Contains(body, "To resolve the conflict") {
		t.Fatalf("neighbourhood lacks its own chunk:\n%s\nchunks:\n%s", body, listing)
	}
	if !strings.Contains(body, "Why does sync stop?") || !strings.Contains(body, "Both quokka copies changed since the last sync.") {
		t.Errorf("the neighbourhood of the section's second window lacks the section's heading and first paragraph (the window before it):\n%s\nchunks:\n%s", body, listing)
	}
}

// TestNeighbourhoodOfAnFAQEntryStartTakesItsAnswer (h-review18): the same
// windowing seen from the other side, on an FAQ. A short entry (under
// MinTokens: "Undo?") is packed into the next, long entry, and the first
// window holds the short entry, the long entry's question and the first
// paragraph of its answer: it spans sections. The window that holds the
// question is the one retrieval ranks first for that question, but
// ChunkNeighbourhoods no longer joins the next window to it ((NOT
// k.spans_sections OR c.spans_sections) fails), though that window is the
// rest of the same entry's answer and carries the entry's path, one under
// the spanning chunk's; before this change it was joined. An extractive
// answer to "Why does sync stop, and how do I resolve it?" then has the
// cause and not the remedy.
//
// Expected: the next chunk, which continues the last section the
// retrieved chunk holds, joins its neighbourhood.
func TestNeighbourhoodOfAnFAQEntryStartTakesItsAnswer(t *testing.T) {
	t.Parallel()
	doc := "# FAQ\n\n## Undo?\n\nUse undo.\n\n## Why does quokka sync stop?\n\n" +
		"Both quokka copies changed since the last sync.\n\n" +
		"To resolve the conflict, open the file, keep the lines you want, then run quokka sync --resolve on it.\n\n" +
		"If you want the server's copy instead, run quokka sync --theirs, which drops your local edits for good.\n"
	body, listing := neighbourhoodOfChunk(t, "nb-faq-window", doc, "Both quokka copies changed")
	if !strings.Contains(body, "Both quokka copies changed") {
		t.Fatalf("neighbourhood lacks its own chunk:\n%s\nchunks:\n%s", body, listing)
	}
	if !strings.Contains(listing, " packed:") {
		t.Fatalf("want the first window to span the two entries:\n%s", listing)
	}
	if !strings.Contains(body, "To resolve the conflict") {
		t.Errorf("the neighbourhood of the window holding the entry's question lacks the rest of its answer (the next window):\n%s\nchunks:\n%s", body, listing)
	}
}

// TestNeighbourhoodKeepsThePageIntroAfterAPreamble (h-review18): text
// before a page's first heading (a version banner, a badge line, an
// admonition such as "This page documents quokka 2.1.") is under
// MinTokens and is packed into the next unit, the first heading's intro.
// That chunk then "spans sections" (the root and the first heading's), so
// ChunkNeighbourhoods no longer takes it as the intro of the subsections
// after it: the first subsection's source loses the page's intro, which
// before this change joined it (its path is the prefix). The chunk packs
// no subsection at all: it is the intro, with a banner in front. With the
// default sizes an HTML page with a one-line note before its <h1> and a
// 100-word intro gives chunk 0 "<title>" spans=true, chunk 1 "<title> >
// <h1> > <first h2>" spans=false.
//
// Expected: a chunk whose last section is the retrieved chunk's parent
// (its intro) joins the neighbourhood, whatever text before that section
// was packed with it.
func TestNeighbourhoodKeepsThePageIntroAfterAPreamble(t *testing.T) {
	t.Parallel()
	doc := "Quokka 2.1 docs.\n\n# Quokka fixtures\n\nEvery fixture is requested by the test that uses it.\n\n" +
		"## Requesting fixtures\n\nDeclare the quokka fixture as an argument of the test function and the runner passes its value in.\n\n" +
		"## Fixture scopes\n\nA quokka fixture with a wider scope is created once per module and shared by its tests.\n"
	body, listing := neighbourhoodOfChunk(t, "nb-preamble-intro", doc, "Declare the quokka fixture as an argument")
	if !strings.Contains(body, "Declare the quokka fixture as an argument") {
		t.Fatalf("neighbourhood lacks its own chunk:\n%s\nchunks:\n%s", body, listing)
	}
	if !strings.Contains(body, "Every fixture is requested by the test that uses it.") {
		t.Errorf("the first subsection's neighbourhood lacks the page's intro (the chunk before it):\n%s\nchunks:\n%s", body, listing)
	}
}

// TestNeighbourhoodSkipsPackedOneWordSiblingTopics (h-review18): Spans
// counts a section headed by one capitalised word as its parent
// (chunk.topics, aspectHeading), so a chunk packing the "Windows" and
// "Linux" subsections of an install page is not marked as spanning
// sections and passes for the intro of "Installing quokka". The "macOS"
// subsection's source is then widened into the Windows and Linux
// instructions, the packed-sibling join this change set out to stop. A
// platform, a product or a component named by one word (Windows, Linux,
// Docker, Kubernetes, Nginx) is a topic of its own, not an aspect of the
// page like "Notes" or "Description".
//
// Expected: a chunk packing sibling subsections that are not the parent's
// intro does not join as the intro of the next sibling; the macOS
// section's neighbourhood holds no other platform's instructions.
func TestNeighbourhoodSkipsPackedOneWordSiblingTopics(t *testing.T) {
	t.Parallel()
	doc := "# Installing quokka\n\n" +
		"### Windows\n\nRun the quokka installer from the Microsoft Store.\n\n" +
		"### Linux\n\nRun apt install quokka as root.\n\n" +
		"### macOS\n\nInstall quokka with Homebrew, then allow the quokka helper under System Settings, Privacy and Security.\n"
	body, listing := neighbourhoodOfChunk(t, "nb-platforms", doc, "Install quokka with Homebrew")
	if !strings.Contains(body, "Install quokka with Homebrew") {
		t.Fatalf("neighbourhood lacks its own chunk:\n%s\nchunks:\n%s", body, listing)
	}
	if strings.Contains(body, "Microsoft Store") || strings.Contains(body, "apt install quokka") {
		t.Errorf("the macOS section's neighbourhood holds the Windows and Linux sections:\n%s\nchunks:\n%s", body, listing)
	}
}

// TestNeighbourhoodSkipsPackedEntriesOfAnAllShortFAQ (h-review18): two
// chunks that both pack sections and share a path are joined "by path
// alone" (c.heading_path = k.heading_path AND c.spans_sections =
// k.spans_sections), so on an FAQ whose entries are all short, the usual
// case, every packed chunk is widened into the entries packed before and
// after it: the query's comment says "the short entries before an FAQ
// answer are not its context", and that holds only when the answer's
// entry is long enough to be a chunk of its own. Here the "not bound to a
// session" entry's source holds "Stale attribute" and "Slow flush".
//
// Expected: a packed chunk of sibling entries is not widened into another
// packed chunk of sibling entries (EVAL.md's "Using pdb" case, the
// subsections of one subject after its intro, can be told apart: the
// chunk before holds the parent's own intro text).
func TestNeighbourhoodSkipsPackedEntriesOfAnAllShortFAQ(t *testing.T) {
	t.Parallel()
	doc := "# Frequent problems\n\n" +
		"## Stale attribute\n\nExpire the quokka object to reload it.\n\n" +
		"## Slow flush\n\nUse bulk inserts for many quokka rows.\n\n" +
		"## Instance not bound\n\nKeep the quokka session open.\n\n" +
		"## Greenlet missing\n\nAwait the quokka call.\n"
	body, listing := neighbourhoodOfChunk(t, "nb-short-faq", doc, "Keep the quokka session open")
	if strings.Count(listing, " packed:") < 2 {
		t.Fatalf("want the entries packed into two chunks:\n%s", listing)
	}
	if strings.Contains(body, "Use bulk inserts") || strings.Contains(body, "Expire the quokka object") {
		t.Errorf("the entry's neighbourhood holds the answers of the entries packed before it:\n%s\nchunks:\n%s", body, listing)
	}
}
