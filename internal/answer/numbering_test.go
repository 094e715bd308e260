package answer

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// An extractive answer numbers its sources in the order it quotes them: its
// markers read [1], [2], … in order of first use, each citation names the
// source it quotes, and the sources it does not quote follow in their
// given order.
func TestExtractiveNumbersSourcesInReadingOrder(t *testing.T) {
	t.Parallel()
	src := []Source{
		{ChunkID: "a", Content: "Autovacuum runs VACUUM in the background when enough dead tuples accumulate."},
		{ChunkID: "b", Content: "Unrelated text about bread, flour and ovens."},
		{ChunkID: "c", Content: "VACUUM reclaims storage occupied by dead tuples. A plain VACUUM can run in parallel with reads and writes."},
	}
	r := Extractive("How does VACUUM reclaim storage of dead tuples?", src, 2)
	if r.Refused || len(r.Citations) < 2 {
		t.Fatalf("answer %q with citations %+v: want the quoted source and a supporting one", r.Answer, r.Citations)
	}
	marker := regexp.MustCompile(`\[(\d+)\]`)
	var firstUse []int
	for _, m := range marker.FindAllStringSubmatch(r.Answer, -1) {
		n, _ := strconv.Atoi(m[1])
		if !slices.Contains(firstUse, n) {
			firstUse = append(firstUse, n)
		}
	}
	for i, n := range firstUse {
		if n != i+1 {
			t.Fatalf("markers first used in the order %v in %q, want 1, 2, …", firstUse, r.Answer)
		}
	}
	// The quoted source is the given third ("c"), the support the first
	// ("a"); the unquoted "b" comes last.
	if !slices.Equal(r.Order, []int{2, 0, 1}) {
		t.Errorf("Order = %v, want [2 0 1]", r.Order)
	}
	presented := reorder(src, r.Order)
	for _, c := range r.Citations {
		if c.ChunkID != presented[c.N-1].ChunkID || presented[c.N-1].N != c.N {
			t.Errorf("citation %d names chunk %q, the presented source %d is %q (N %d)", c.N, c.ChunkID, c.N, presented[c.N-1].ChunkID, presented[c.N-1].N)
		}
	}
	if clean, cited, invalid := Verify(r.Answer, presented); clean != r.Answer || !slices.Equal(cited, []int{1, 2}) || len(invalid) != 0 {
		t.Errorf("the answer does not verify against the sources as presented: %v %v", cited, invalid)
	}
}

func TestNumberInOrder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cited         []int
		n             int
		order, number []int
	}{
		{[]int{1, 2}, 3, nil, []int{1, 2, 3}},
		{[]int{2}, 3, []int{1, 0, 2}, []int{2, 1, 3}},
		{[]int{3, 1}, 4, []int{2, 0, 1, 3}, []int{2, 3, 1, 4}},
		{[]int{2, 2, 4}, 4, []int{1, 3, 0, 2}, []int{3, 1, 4, 2}},
	} {
		order, number := numberInOrder(tc.cited, tc.n)
		if !slices.Equal(order, tc.order) || !slices.Equal(number, tc.number) {
			t.Errorf("numberInOrder(%v, %d) = %v, %v; want %v, %v", tc.cited, tc.n, order, number, tc.order, tc.number)
		}
	}
}

// A source marked Aside (a change log's entry, for a question that does
// not ask about changes) is never a supporting sentence beside the best
// passage, though it shares the question's words; unmarked, the same
// entry is one. It is still quoted when it holds the best passage.
func TestExtractiveQuotesNoAsideAsSupport(t *testing.T) {
	t.Parallel()
	src := []Source{
		{ChunkID: "guide", Content: "Running setup.py install directly is deprecated. Use pip install . to install a project from its directory."},
		{ChunkID: "log", Content: "Issue #87: setup.py install no longer converts the distribute script when a project is installed from its directory."},
	}
	q := "Why shouldn't I run setup.py install to install a project from its directory?"
	r := Extractive(q, src, 2)
	if len(r.Citations) != 2 {
		t.Fatalf("unmarked: citations %+v of %q, want the change log's entry as support (the test's premise)", r.Citations, r.Answer)
	}
	src[1].Aside = true
	r = Extractive(q, src, 2)
	if len(r.Citations) != 1 || r.Citations[0].ChunkID != "guide" {
		t.Errorf("aside: citations %+v of %q, want the guide alone", r.Citations, r.Answer)
	}
	r = Extractive(q, src[1:], 2)
	if len(r.Citations) != 1 || r.Citations[0].ChunkID != "log" || r.Refused {
		t.Errorf("aside alone: %+v, want its entry quoted", r)
	}
}

// For a question about how things differ, the sentence that says how they
// differ is quoted, not the section's first sentence, which says what one
// of them is with the same words; for another question the first sentence
// still leads.
func TestExtractiveQuotesTheContrastForADifference(t *testing.T) {
	t.Parallel()
	src := []Source{{HeadingPath: "Entry Points > GUI Scripts", Content: "GUI Scripts\n\n" +
		"In addition to console_scripts, the tool supports gui_scripts, which launch a GUI application without a terminal window.\n\n" +
		"For example, a project with a hello function can add a GUI script entry point.\n\n" +
		"The difference between console_scripts and gui_scripts only affects Windows systems, where console_scripts get a console and gui_scripts do not."},
		// Other pages use the word "difference" (so it is not the rarest
		// of the question's words), as a manual does.
		{HeadingPath: "Versions", Content: "The difference between two versions is listed in the change log. A difference in metadata makes a new release. " +
			"Every difference of a wheel from its sdist is a bug. The difference is shown by the diff command."}}
	r := Extractive("difference between console_scripts and gui_scripts", src, 1)
	if !strings.HasPrefix(r.Answer, "The difference between console_scripts and gui_scripts only affects Windows systems") {
		t.Errorf("difference: %q, want the contrasting sentence", r.Answer)
	}
	r = Extractive("what are gui_scripts for, beside console_scripts", src, 1)
	if !strings.HasPrefix(r.Answer, "In addition to console_scripts") {
		t.Errorf("not a difference question: %q, want the section's first sentence", r.Answer)
	}
	// A contrast in parentheses points elsewhere ("(the difference between
	// local and self is one of inheritance – see Built-in Namespaces)"):
	// it does not lead.
	src[0].Content = strings.Replace(src[0].Content, "The difference between console_scripts and gui_scripts only affects Windows systems, where",
		"Both are entry points (the difference between console_scripts and gui_scripts is explained elsewhere), and", 1)
	r = Extractive("difference between console_scripts and gui_scripts", src, 1)
	if !strings.HasPrefix(r.Answer, "In addition to console_scripts") {
		t.Errorf("a parenthesised contrast: %q, want the section's first sentence", r.Answer)
	}
}
