package ask

import (
	"slices"
	"testing"

	"github.com/ragd-dev/ragd/internal/answer"
)

func TestQuotedSentences(t *testing.T) {
	t.Parallel()
	text := "The server listens on port 8080 [2]. Set it with -p [1].\n\n```\nserver -p 9090\n```\n\nIt restarts on a signal [2]."
	if got, want := quotedSentences(text, 2), []string{"The server listens on port 8080", "It restarts on a signal"}; !slices.Equal(got, want) {
		t.Errorf("quotedSentences(2) = %q, want %q", got, want)
	}
	if got, want := quotedSentences(text, 1), []string{"Set it with -p"}; !slices.Equal(got, want) {
		t.Errorf("quotedSentences(1) = %q, want %q", got, want)
	}
}

func TestLocate(t *testing.T) {
	t.Parallel()
	content := "Intro.\n\nThe server listens on\nport 8080 by default.\n\nwork_mem (integer)\nSets the base maximum amount of memory used by a query operation."
	from, to, ok := locate(content, "The server listens on port 8080 by default")
	if !ok || content[from:to] != "The server listens on\nport 8080 by default" {
		t.Errorf("locate across a line break: %q, %v", content[from:to], ok)
	}
	// A definition's term joined to its sentence by ": " is found by the
	// sentence's last bytes.
	if from, _, ok := locate(content, "work_mem (integer): Sets the base maximum amount of memory used by a query operation"); !ok ||
		from < len("Intro.\n\nThe server listens on\nport 8080 by default.\n\nwork_mem (integer)\nSets") {
		t.Errorf("locate of a definition: from %d, %v", from, ok)
	}
	if _, _, ok := locate(content, "Nothing of the sort is written here at all"); ok {
		t.Error("located a sentence the content does not hold")
	}
}

// TestCiteQuotedNamesTheChunkQuoted: a citation names the pages and the
// heading of the chunk its sentence comes from, within a source widened to
// its neighbours; a sentence found nowhere names the retrieved chunk.
func TestCiteQuotedNamesTheChunkQuoted(t *testing.T) {
	t.Parallel()
	before, chunk, after := "4.6 Standards for PATH. Programs look up PATH first.", "4.7 Graphical interfaces. Use GTK+ for graphical programs.",
		"4.8 Command line. Options start with two dashes."
	content := before + "\n\n" + chunk + "\n\n" + after
	p := func(i int) *int { return &i }
	src := answer.Source{N: 1, HeadingPath: "4 Programs > 4.7 Graphical interfaces", Content: content, StartOffset: 1000,
		PageStart: p(15), PageEnd: p(17)}
	s0 := 1000
	s1 := s0 + len(before) + 2
	s2 := s1 + len(chunk) + 2
	nb := &neighbourhood{start: 1000, chunk: 1, parts: []part{
		{start: s0, end: s0 + len(before), pageStart: 15, pageEnd: 15, heading: "4 Programs > 4.6 Standards for PATH"},
		{start: s1, end: s1 + len(chunk), pageStart: 16, pageEnd: 16, heading: "4 Programs > 4.7 Graphical interfaces"},
		{start: s2, end: s2 + len(after), pageStart: 17, pageEnd: 17, heading: "4 Programs > 4.8 Command line"}}}
	for _, tc := range []struct {
		answer, heading, page string
	}{
		{"Programs look up PATH first [1].", "4 Programs > 4.6 Standards for PATH", "page 15"},
		{"Use GTK+ for graphical programs [1].", "4 Programs > 4.7 Graphical interfaces", "page 16"},
		{"Programs look up PATH first [1]. Options start with two dashes [1].", "4 Programs > 4.6 Standards for PATH", "pages 15-17"},
		{"Something the answerer rephrased entirely [1].", "4 Programs > 4.7 Graphical interfaces", "page 16"},
	} {
		cs := []answer.Citation{{N: 1, HeadingPath: src.HeadingPath, Page: src.Pages(), PageStart: src.PageStart, PageEnd: src.PageEnd}}
		citeQuoted(tc.answer, cs, []answer.Source{src}, []*neighbourhood{nb})
		if cs[0].HeadingPath != tc.heading || cs[0].Page != tc.page || *cs[0].PageStart > *cs[0].PageEnd {
			t.Errorf("%q: cited %q, %q; want %q, %q", tc.answer, cs[0].HeadingPath, cs[0].Page, tc.heading, tc.page)
		}
	}
}
