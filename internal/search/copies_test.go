package search

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
)

// TestArrangeDiscountsCopies: a section that several pages include (Git's
// "Combined diff format", in six manual pages) fills the results with one
// text no more: its first copy keeps its place, the later copies fall
// below what else matches about as well, and each copy stays among the
// results. A text repeated within one document, or too short to say
// much, is not discounted.
func TestArrangeDiscountsCopies(t *testing.T) {
	t.Parallel()
	d := make([]uuid.UUID, 8)
	for i := range d {
		d[i] = uuid.New()
	}
	shared := strings.Repeat("For a merge commit, the combined diff format lists each parent's changes in a column of its own. ", 4)
	results := []Result{
		{ChunkID: d[0], DocumentID: d[1], Content: shared, Score: 1.00},
		{ChunkID: d[2], DocumentID: d[3], Content: "  " + strings.ReplaceAll(shared, " ", "\n"), Score: 0.99},
		{ChunkID: d[4], DocumentID: d[5], Content: shared, Score: 0.98},
		{ChunkID: d[6], DocumentID: d[7], Content: "Interactive mode lets you squash commits into one: pick the first and mark the others squash.", Score: 0.90},
	}
	got := Arrange("How do I combine my last commits into one?", results, 3)
	var order []int
	for _, r := range got {
		for i, id := range d {
			if r.ChunkID == id {
				order = append(order, i)
			}
		}
	}
	if want := []int{0, 6, 2, 4}; len(order) != len(want) || order[0] != 0 || order[1] != 6 || order[2] != 2 || order[3] != 4 {
		t.Errorf("order %v, want %v (first copy, the other page, then the copies)", order, want)
	}

	// The same text twice in one document, or a short line many pages
	// share, keeps its order.
	same := []Result{
		{ChunkID: d[0], DocumentID: d[1], Content: shared, Score: 1.0},
		{ChunkID: d[2], DocumentID: d[1], Content: shared, Score: 0.99},
		{ChunkID: d[4], DocumentID: d[5], Content: "Part of the git(1) suite", Score: 0.98},
		{ChunkID: d[6], DocumentID: d[7], Content: "Part of the git(1) suite", Score: 0.97},
		{ChunkID: d[3], DocumentID: d[7], Content: "Something else entirely, about rebasing.", Score: 0.5},
	}
	got = Arrange("What is the combined diff format?", same, 3)
	for i, want := range []int{0, 2, 4, 6, 3} {
		if got[i].ChunkID != d[want] {
			t.Fatalf("result %d is %v, want chunk %d unmoved", i, got[i].ChunkID, want)
		}
	}
}

// TestArrangeDiscountsAnotherFormatsCopy: a manual shipped as HTML and as
// PDF holds one section in two documents whose chunks start and end at
// other places and whose PDF text carries page furniture and labels; the
// PDF's chunk is a copy all the same, and falls below the other page that
// matches about as well. A chunk sharing a sentence or two with a page
// above it is no copy.
func TestArrangeDiscountsAnotherFormatsCopy(t *testing.T) {
	t.Parallel()
	html, pdf, other, near := uuid.New(), uuid.New(), uuid.New(), uuid.New()
	section := "AC_INIT (package, version, [bug-report], [tarname], [url]) Process any command-line arguments and perform initialization and verification. " +
		"Set the name of the package and its version. These are typically used in --version support, including that of configure. " +
		"The optional argument bug-report should be the email to which users should send bug reports. " +
		"The package tarname differs from package: the latter designates the full package name, the former is meant for distribution tar ball names. "
	results := []Result{
		{ChunkID: uuid.New(), DocumentID: html, Content: "4.1 Initializing configure\n\nEvery configure script must call AC_INIT before doing anything else. " + section, Score: 1.0},
		{ChunkID: uuid.New(), DocumentID: pdf, Content: "[Macro]\n" + section + "\nChapter 4: Initialization and Output Files 21\nIt should not contain wildcard characters, white space, or anything else that can be troublesome.", Score: 0.95},
		{ChunkID: uuid.New(), DocumentID: other, Content: "AC_PREREQ (version) Ensure that a recent enough version of Autoconf is being used. If the version of Autoconf used to create configure is earlier than version, print an error message and exit.", Score: 0.9},
		{ChunkID: uuid.New(), DocumentID: near, Content: "Set the name of the package and its version. This chapter explains how configure finds the compiler, which checks it runs and what it writes into config.status, config.log and the Makefiles it creates from their templates.", Score: 0.85},
	}
	got := Arrange("What arguments does AC_INIT accept?", slices.Clone(results), 3)
	var order []uuid.UUID
	for _, r := range got {
		order = append(order, r.DocumentID)
	}
	if want := []uuid.UUID{html, other, near, pdf}; !slices.Equal(order, want) {
		t.Errorf("documents in order %v, want the HTML section, the other pages, then the PDF copy %v", order, want)
	}
	if got[2].Score != 0.85 {
		t.Errorf("the page sharing one sentence scores %v, want 0.85: no copy", got[2].Score)
	}
}

// BenchmarkArrange: the last step of fusion over 50 candidates of about
// 1 kB each from 20 documents, a few of them copies: the production
// shape (docs/BENCHMARKS.md, "Go benchmarks").
func BenchmarkArrange(b *testing.B) {
	words := strings.Fields("the server reads its configuration at start and again on reload a setting named in the file overrides the default value given here each worker keeps its own cache of compiled templates")
	docs := make([]uuid.UUID, 20)
	for i := range docs {
		docs[i] = uuid.New()
	}
	results := make([]Result, 50)
	for i := range results {
		var sb strings.Builder
		for j := 0; sb.Len() < 1000; j++ {
			sb.WriteString(words[(i*7+j*(i%5+1))%len(words)] + " ")
		}
		results[i] = Result{ChunkID: uuid.New(), DocumentID: docs[i%20], Content: sb.String(), Score: 1 / float64(i+1)}
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(Arrange("How do I reload the configuration?", slices.Clone(results), 3)) != 50 {
			b.Fatal("results lost")
		}
	}
}
