package extract

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// hbreak8PDF writes a PDF of one Helvetica font (object 3) and the given
// pages, each a content stream (raw bytes, with its stream dictionary's
// extra entries), with a correct cross-reference table.
func hbreak8PDF(pages [][2][]byte) []byte {
	objs := map[int][]byte{
		1: []byte(`<< /Type /Catalog /Pages 2 0 R >>`),
		3: []byte(`<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>`),
	}
	var kids []string
	for i, p := range pages {
		page, content := 10+2*i, 11+2*i
		kids = append(kids, fmt.Sprintf("%d 0 R", page))
		objs[page] = fmt.Appendf(nil, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>`, content)
		objs[content] = append(fmt.Appendf(nil, "<< /Length %d %s>>\nstream\n", len(p[0]), p[1]), append(p[0], []byte("\nendstream")...)...)
	}
	objs[2] = fmt.Appendf(nil, `<< /Type /Pages /Kids [%s] /Count %d >>`, strings.Join(kids, " "), len(pages))
	last := 9 + 2*len(pages)
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, last+1)
	for n := 1; n <= last; n++ {
		if o, ok := objs[n]; ok {
			offs[n] = b.Len()
			fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, o)
		}
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", last+1)
	for n := 1; n <= last; n++ {
		if offs[n] == 0 {
			b.WriteString("0000000000 65535 f \n")
		} else {
			fmt.Fprintf(&b, "%010d 00000 n \n", offs[n])
		}
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", last+1, xref)
	return b.Bytes()
}

const hbreak8Text = "BT /F1 12 Tf 72 720 Td (Hello hostile world, this page has text.) Tj ET"

// hbreak8FlateBomb is a one-page PDF whose content stream is the text, n
// MiB of spaces and the text again, Flate-compressed (about 1 KB per MiB).
func hbreak8FlateBomb(t *testing.T, n int) []byte {
	t.Helper()
	var z bytes.Buffer
	zw, err := zlib.NewWriterLevel(&z, zlib.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write([]byte(hbreak8Text + "\n"))
	spaces := bytes.Repeat([]byte{' '}, 1<<20)
	for range n {
		zw.Write(spaces)
	}
	zw.Write([]byte("\n" + hbreak8Text))
	zw.Close()
	return hbreak8PDF([][2][]byte{{z.Bytes(), []byte("/Filter /FlateDecode ")}})
}

// TestHBreak8PDFFlateBombBoundedMemory: a 300 KB PDF whose one content
// stream inflates to 300 MiB took ragd serve from 117 MB to 1.14 GB
// (VmHWM); three 2 MB ones at once, to 3.1 GB. SECURITY.md promises "at
// most 512 MiB of memory per instance". After the 422, ragd serve kept
// 888 MB of heap in use (go_memstats_heap_inuse_bytes) and 1.9 GB
// resident a minute later. One document's reading should stay within the
// documented bound.
func TestHBreak8PDFFlateBombBoundedMemory(t *testing.T) {
	if err := PreparePDF(); err != nil {
		t.Fatal(err)
	}
	data := hbreak8FlateBomb(t, 300)
	var err error
	// PDFium's linear memory is one slice of its limit (pdfMemory): the
	// heap holds it and nothing more, and the memory PDFium grew to stops
	// at the limit.
	var mapped uint64
	peak := hbreak8Peak(t, func() { mapped = mappedDuring(t, func() { _, err = Extract(TypePDF, data) }) })
	t.Logf("%d-byte PDF: peak heap %d MiB, linear memory written %d MiB, err %v", len(data), peak>>20, mapped>>20, err)
	// The instance's 128 MiB and the reading's own; instances of earlier
	// tests killed mid-read may still hold theirs until their code stops.
	if peak > 600<<20 {
		t.Errorf("a %d KB PDF took %d MiB of heap to read", len(data)>>10, peak>>20)
	}
	if mapped > uint64(pdfMemoryPages)*65536 {
		t.Errorf("a %d KB PDF wrote %d MiB of PDFium's linear memory, past its %d MiB", len(data)>>10, mapped>>20, pdfMemoryPages>>4)
	}
}

// mappedDuring runs f and returns the most linear memory PDFium's
// instances held together while it ran (pdfMemory), sampled every
// millisecond.
func mappedDuring(t *testing.T, f func()) uint64 {
	t.Helper()
	var mu sync.Mutex
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			if v := uint64(max(0, pdfLinearBytes.Load())); v > 0 {
				mu.Lock()
				peak = max(peak, v)
				mu.Unlock()
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	return peak
}

// TestHBreak8PDFEngineCrashIsAClearError: the same PDF's refusal reached
// the client as a 422 whose detail was PDFium's WebAssembly stack trace
// ("page 1: wasm error: unreachable\nwasm stack trace:\n\t.$87(i32,i32)
// i32\n\t.$1686(...)..."): internals, and no reason a customer can act on.
func TestHBreak8PDFEngineCrashIsAClearError(t *testing.T) {
	if err := PreparePDF(); err != nil {
		t.Fatal(err)
	}
	_, err := Extract(TypePDF, hbreak8FlateBomb(t, 300))
	if !errors.Is(err, ErrUnreadable) {
		t.Fatalf("flate bomb: %v, want ErrUnreadable", err)
	}
	if msg := err.Error(); strings.Contains(msg, "wasm") || strings.Contains(msg, "\n") {
		t.Errorf("the refusal shows the engine's internals: %q", msg)
	}
}

// TestHBreak8PDFSameLineOnEveryPageIsText: a two-page PDF whose pages
// each hold the same one line (a form, a notice, a slide deck's repeated
// title) was refused through the upload route with 422 "the PDF has no
// text layer (a scanned or image-only file; OCR is not supported)": the
// running-header filter removed every line, and the empty result was
// reported as a scan. The PDF has a text layer; its text should be kept
// (a header is only a header when there is something else on the page),
// or at least not be called a scan.
func TestHBreak8PDFSameLineOnEveryPageIsText(t *testing.T) {
	if err := PreparePDF(); err != nil {
		t.Fatal(err)
	}
	page := [2][]byte{[]byte("BT /F1 12 Tf 72 720 Td (The same notice on every page of the form.) Tj ET"), nil}
	for _, n := range []int{2, 5} {
		pages := make([][2][]byte, n)
		for i := range pages {
			pages[i] = page
		}
		doc, err := Extract(TypePDF, hbreak8PDF(pages))
		if err != nil {
			t.Errorf("%d pages of the same line: %v", n, err)
			continue
		}
		if !strings.Contains(doc.Text, "The same notice on every page") {
			t.Errorf("%d pages of the same line: text %q", n, doc.Text)
		}
	}
}
