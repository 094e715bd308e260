package extract

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// hbreak8WideTable is a Markdown table of cols header cells and rows
// three-cell rows: GFM pads every row to the header's width.
func hbreak8WideTable(cols, rows int) []byte {
	var b strings.Builder
	b.WriteString("# Wide\n\n|")
	for i := range cols {
		fmt.Fprintf(&b, "h%d|", i)
	}
	b.WriteString("\n|")
	b.WriteString(strings.Repeat("-|", cols))
	b.WriteString("\n")
	for i := range rows {
		fmt.Fprintf(&b, "|a%d|b|c|\n", i)
	}
	return []byte(b.String())
}

// TestHBreak8MarkdownWideTableBoundedMemory: a 131 KB Markdown file, one
// table whose header has 12,000 columns over 3,000 rows of three cells,
// took ragd serve (POST /v1/documents/upload) from 123 MB to 6.5 GB
// (VmHWM) and 27.7 s, and it still held 6.6 GB of heap afterwards
// (go_memstats_heap_inuse_bytes): every short row is padded to the
// header's width, 36 million empty cells. A few such uploads at once take
// any server down. Here a quarter of it (6,000 × 1,500, 62 KB) must stay
// within a few hundred MB.
func TestHBreak8MarkdownWideTableBoundedMemory(t *testing.T) {
	data := hbreak8WideTable(6000, 1500)
	var err error
	peak := hbreak8Peak(t, func() { _, err = Extract(TypeMarkdown, data) })
	t.Logf("%d bytes: peak heap %d MiB, err %v", len(data), peak>>20, err)
	if peak > hbreak8Limit {
		t.Errorf("a %d KB Markdown table took %d MiB of heap to extract (limit %d MiB)", len(data)>>10, peak>>20, hbreak8Limit>>20)
	}
}

// TestHBreak8MarkdownMismatchedEmphasisIsLinear: "*a_ " repeated (the
// CommonMark suite's "mismatched openers and closers" pathological case)
// takes time quadratic in its length: 200 KB took 20 s to extract. Through
// POST /v1/documents/upload an 800 KB file (under the 10 MB limit) got no
// response at all within 300 s — not even the 504 RAGD_REQUEST_TIMEOUT
// (60 s) promises — while a core stayed busy on it. 100 KB must extract in
// well under a second, as every other pathological Markdown input does
// (nested brackets, unclosed links, emphasis openers: under 150 ms for
// 100-700 KB); here 100 KB, which takes 6 s on an idle 2-core machine.
func TestHBreak8MarkdownMismatchedEmphasisIsLinear(t *testing.T) {
	// The cost is goldmark's time, not its allocations: the guard that
	// reads such a document as plain text (linear) is what is checked.
	for _, n := range []int{25000, 100000} {
		data := []byte(strings.Repeat("*a_ ", n))
		if !markdownRisky(data) {
			t.Errorf("%d KB of mismatched emphasis is not read as plain text (markdownRisky false)", len(data)>>10)
		}
		if doc, err := Extract(TypeMarkdown, data); err != nil || !strings.Contains(doc.Text, "*a_") {
			t.Errorf("%d KB of mismatched emphasis: %v, want its text as written", len(data)>>10, err)
		}
	}
}

// TestHBreak8MarkdownExtractionEndsWithItsContext: ExtractContext is how a
// request's deadline reaches extraction, and it was honoured for PDF only:
// a Markdown (or HTML, DOCX, text) extraction that ran long kept the
// request past its end, and the client never got its 504. A context that
// has ended ends every format's extraction with its error; one that ends
// during a long extraction ends it at once (here, a document whose reading
// is held until the context has ended).
func TestHBreak8MarkdownExtractionEndsWithItsContext(t *testing.T) {
	data := []byte(strings.Repeat("*a_ ", 25000))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, typ := range []string{TypeMarkdown, TypeHTML, TypePlain, TypeDOCX} {
		if _, err := ExtractContext(ctx, typ, data); !errors.Is(err, context.Canceled) {
			t.Errorf("%s under an ended context: err %v, want context.Canceled", typ, err)
		}
	}
	// Extraction that outlasts its context: a large ordinary document read
	// under a deadline shorter than its reading returns the deadline's
	// error, not the document.
	big := []byte(strings.Repeat("# Title\n\nSome *words* and `code` in a [link](x) paragraph.\n\n", 200_000))
	dctx, dcancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer dcancel()
	start := time.Now()
	doc, err := ExtractContext(dctx, TypeMarkdown, big)
	if err == nil {
		t.Skipf("%d MB read in %v, before a 1 ms deadline: nothing to interrupt", len(big)>>20, time.Since(start))
	}
	if !errors.Is(err, context.DeadlineExceeded) || doc != nil {
		t.Errorf("extraction past its deadline: doc %v, err %v, want context.DeadlineExceeded", doc != nil, err)
	}
}
